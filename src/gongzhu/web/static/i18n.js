// The page's languages: one flat JSON file of strings per language under /static/i18n/.
// The browser's language is the default (navigator.languages); a choice is kept in localStorage.
// The files are JSON modules of the page's module graph: they are loaded before the page's
// script runs, so the page is in its language from its first paint (and by its `load` event).

import cs from "./i18n/cs.json" with { type: "json" };
import en from "./i18n/en.json" with { type: "json" };
import ru from "./i18n/ru.json" with { type: "json" };
import uk from "./i18n/uk.json" with { type: "json" };
import zh from "./i18n/zh.json" with { type: "json" };

const TABLES = { en, zh, ru, uk, cs };
export const LANGUAGES = Object.keys(TABLES);
const STORE_KEY = "gongzhu:lang";

const fallback = en;
let strings = en;
let current = "en";

/** The first shipped language among the browser's preferences ("zh-CN" → "zh"), else English. */
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
  return LANGUAGES.includes(saved) ? saved : browserLanguage();
}

/** Switch to a language (English stays the fallback for any missing key). */
export function setLanguage(lang) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  strings = TABLES[lang];
  current = lang;
  document.documentElement.lang = lang;
  try {
    localStorage.setItem(STORE_KEY, lang);
  } catch {
    // not kept: fine
  }
  applyStatic(document);
  return lang;
}

export function language() {
  return current;
}

/** The string `key` with {name} placeholders filled from `params`. */
export function t(key, params = {}) {
  let text = strings[key] ?? fallback[key] ?? key;
  for (const [name, value] of Object.entries(params)) {
    text = text.split(`{${name}}`).join(String(value));
  }
  return text;
}

export function has(key) {
  return key in strings || key in fallback;
}

/** Fill the elements marked data-i18n (text), data-i18n-aria (aria-label), data-i18n-title. */
export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.setAttribute("title", t(el.dataset.i18nTitle));
  }
}

const RANKS = { T: "10" };
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

/** A card code ("QS", "TC") as the language writes it: "Q♠", "黑桃Q", "♠Q". */
export function cardText(code) {
  const rank = RANKS[code[0]] ?? code[0];
  return t("card.form", { rank, suit: SUITS[code[1]], suit_name: t(`suit.${code[1]}`) });
}

/** The card with its nickname when it has one: "Q♠ (pig)". */
export function cardName(code) {
  const nick = { QS: "name.pig", JD: "name.sheep", TC: "name.transformer" }[code];
  return nick ? t("card.named", { card: cardText(code), name: t(nick) }) : cardText(code);
}

/** A signed score as the sheet prints it ("+100", "−40", "0"). */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}
