// @ts-check
// The rules panel's prose written from the table's rules: which sentences apply (exposure and
// which cards, the pig/sheep flip, a fixed number of deals) follows the rule set; every number
// it quotes is the server's `rule_numbers` (gongzhu.score of a small pile under these rules),
// never a value written here. Without a table (the start page) the panel keeps its default text.
// The start screen's one-line summary of its choices is the table's chips, worded from the rule
// set the server makes of those choices.

import { $ } from "./dom.js";
import { cardName, cardText, signed, t } from "./i18n.js";
import { cardCode as code, chipsFor } from "./panels.js";
import { S } from "./state.js";

/** Fill the exposure and scoring paragraphs for the rules in force (renderRulesPanel calls it). */
export function renderRulesProse() {
  const r = /** @type {any} */ (S.rules);
  const n = /** @type {Record<string, number>|null} */ (S.ruleNumbers);
  const p3 = $("rules-p3");
  const p4 = $("rules-p4");
  if (!r || !n) {
    p3.hidden = false;
    p3.textContent = t("rules.p3");
    p4.textContent = t("rules.p4");
    return;
  }
  p3.replaceChildren();
  const exposable = String(r.exposable || "").trim().split(/\s+/).map(code).filter(Boolean);
  p3.hidden = exposable.length === 0; // no exposure at this table: nothing to say of it
  if (exposable.length) p3.textContent = exposureText(exposable, r, n);
  p4.textContent = scoringText(r, n);
}

/** @param {string[]} cards @param {any} r @param {Record<string, number>} n */
function exposureText(cards, r, n) {
  const parts = [t("rules.exposure_intro", { cards: cards.map(cardName).join(", ") })];
  /** @type {Record<string, string>} */
  const effect = {
    QS: "rules.exposed_pig", JD: "rules.exposed_sheep", TC: "rules.exposed_transformer",
    AH: "rules.exposed_ace",
  };
  for (const card of cards) {
    if (effect[card]) parts.push(t(effect[card], { n: signed(n.all_hearts_ace_exposed ?? 0) }));
  }
  if (r.exposure_restriction === "first-trick-of-suit") parts.push(t("rules.exposure_restriction"));
  return parts.join(" ");
}

/** @param {any} r @param {Record<string, number>} n */
function scoringText(r, n) {
  const parts = [t("rules.all_hearts_text", { n: signed(n.all_hearts) })];
  parts.push(r.sign_swap
    ? t("rules.flip_on", { pig: signed(n.flip_pig), sheep: signed(n.flip_sheep) })
    : t("rules.flip_off", { n: signed(n.all_hearts_pig) }));
  parts.push(n.slam_sheep_exposed !== undefined
    ? t("rules.slam_exposed", { n: signed(n.slam), exposed: signed(n.slam_sheep_exposed) })
    : t("rules.slam", { n: signed(n.slam) }));
  parts.push(t("rules.doubled", { card: cardText("TC"), n: signed(n.doubled) }));
  if (r.win_threshold !== null && r.win_threshold !== undefined) {
    parts.push(t("rules.end_threshold", { n: r.win_threshold }));
  } else {
    parts.push(t("rules.end_deals", { n: r.max_deals }));
  }
  return parts.join(" ");
}

// -- the start screen's summary of its choices ----------------------------------------------------

/** The rule set of the start form's choices (the server's, GET /api/rules) and its query. */
/** @type {any} */
let startRules = null;
let startQuery = "";

/** One line under the rule-set choice: the chosen rules in the words of the table's chips,
 * from the rule set the server would make of them (Settings.rules: nothing worked out here).
 * @param {Record<string, string|number|boolean>} fields the form's choices, as POST /api/rooms takes them */
export async function renderStartSummary(fields) {
  const query = new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
  const box = $("rules-summary");
  if (query !== startQuery) {
    startQuery = query;
    box.dataset.ready = "false";
    /** @type {any} */
    let made = null;
    try {
      const response = await fetch(`/api/rules?${query}`);
      if (response.ok) made = (await response.json()).rules;
    } catch {
      // offline: asked again at the next choice
    }
    if (query !== startQuery) return; // a newer choice was made meanwhile
    if (!made) {
      startQuery = "";
      box.textContent = ""; // never the summary of other choices
      return;
    }
    startRules = made;
  }
  box.textContent = startRules ? chipsFor(startRules).join(" · ") : "";
  box.dataset.ready = String(Boolean(startRules));
}
