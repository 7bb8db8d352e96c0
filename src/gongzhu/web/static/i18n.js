// @ts-check
// The page's words: one language's catalogue, loaded from the server, which makes it from
// the same gettext catalogues as its own messages (gongzhu.web.strings). Only the page's
// language is fetched; a choice is kept in localStorage, else the browser's language.

export const LANGUAGES = ["en", "zh", "ru", "uk", "cs"];
const STORE_KEY = "gongzhu:lang";

/** @type {Record<string, string>} */
let strings = {};
let current = "en";

/** The first shipped language among the browser's preferences ("zh-CN" → "zh"), else English.
 * @param {string[]} [prefs] */
export function browserLanguage(
  prefs = [navigator.language, ...(navigator.languages || [])].filter(Boolean),
) {
  for (const tag of prefs) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export function initialLanguage() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORE_KEY);
  } catch {
    // storage may be disabled: the browser's language then
  }
  return saved && LANGUAGES.includes(saved) ? saved : browserLanguage();
}

/** Load a language's catalogue (next to this module, under the same version) and switch to it.
 * @param {string} lang */
export async function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  const url = new URL(`./i18n/${lang}.json`, import.meta.url);
  const response = await fetch(url);
  if (response.ok) {
    strings = await response.json();
    current = lang;
  }
  document.documentElement.lang = current;
  try {
    localStorage.setItem(STORE_KEY, current);
  } catch {
    // not kept: fine
  }
  applyStatic(document);
  return current;
}

export function language() {
  return current;
}

/** The string `key` with {name} placeholders filled from `params`.
 * @param {string} key @param {Record<string, string|number>} [params] */
export function t(key, params = {}) {
  let text = strings[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

/** Fill the elements marked data-i18n (text), data-i18n-aria (aria-label), data-i18n-title.
 * @param {Document|HTMLElement} root */
export function applyStatic(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    const e = /** @type {HTMLElement} */ (node);
    e.textContent = t(e.dataset.i18n || "");
  }
  for (const node of root.querySelectorAll("[data-i18n-aria]")) {
    const e = /** @type {HTMLElement} */ (node);
    e.setAttribute("aria-label", t(e.dataset.i18nAria || ""));
  }
  for (const node of root.querySelectorAll("[data-i18n-title]")) {
    const e = /** @type {HTMLElement} */ (node);
    e.setAttribute("title", t(e.dataset.i18nTitle || ""));
  }
}

/** @type {Record<string, string>} */
const RANKS = { T: "10" };
/** @type {Record<string, string>} */
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** A card code ("QS", "TC") as the language writes it: "Q♠", "黑桃Q", "♠Q".
 * @param {string} code */
export function cardText(code) {
  const rank = RANKS[code[0]] ?? code[0];
  return t("card.form", { rank, suit: SUITS[code[1]], suit_name: t(`suit.${code[1]}`) });
}

/** The card with its nickname when it has one: "Q♠ (pig)", "黑桃Q（猪）".
 * @param {string} code */
export function cardName(code) {
  /** @type {Record<string, string>} */
  const nicks = { QS: "name.pig", JD: "name.sheep", TC: "name.transformer" };
  const nick = nicks[code];
  return nick ? t("card.named", { card: cardText(code), name: t(nick) }) : cardText(code);
}

/** A score as every cell and plate prints it: "+100", "−40" (U+2212), "0".
 * @param {number} n */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "0";
}
