// @ts-check
// The rules panel's prose written from the table's rules: which sentences apply (exposure and
// which cards, the pig/sheep flip, a fixed number of deals) follows the rule set; every number
// it quotes is the server's `rule_numbers` (gongzhu.score of a small pile under these rules),
// never a value written here. Without a table (the start page) the panel keeps its default text.

import { $ } from "./dom.js";
import { cardName, cardText, signed, t } from "./i18n.js";
import { cardCode as code } from "./panels.js";
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
