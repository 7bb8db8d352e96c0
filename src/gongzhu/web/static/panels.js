// @ts-check
// The page's dialogs: confirmations, the rules, the score history, game over, joining.

import { $, el } from "./dom.js";
import { cardName, cardText, signed, t } from "./i18n.js";
import { renderRulesProse } from "./rules.js";
import { S, rules, seatName } from "./state.js";

// -- confirmations ----------------------------------------------------------------------------

/** @type {(() => void)|null} */
let onConfirm = null;

/** Ask before an irreversible action; `action` runs only on "confirm".
 * @param {string} text @param {() => void} action @param {string} [okLabel] */
export function confirmThen(text, action, okLabel) {
  onConfirm = action;
  $("confirm-text").textContent = text;
  $("confirm").textContent = okLabel || t("confirm.ok");
  $("confirm-panel").hidden = false;
  $("cancel").focus();
}

export function initConfirm() {
  $("confirm").addEventListener("click", () => {
    const action = onConfirm;
    onConfirm = null;
    $("confirm-panel").hidden = true;
    if (action) action();
  });
  $("cancel").addEventListener("click", () => {
    onConfirm = null;
    $("confirm-panel").hidden = true;
  });
  for (const button of document.querySelectorAll("[data-close]")) {
    const b = /** @type {HTMLElement} */ (button);
    b.addEventListener("click", () => {
      $(b.dataset.close || "").hidden = true;
      placeHistory();
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    for (const id of ["confirm-panel", "rules-panel", "history-panel"]) {
      if (!$(id).hidden) {
        $(id).hidden = true;
        placeHistory();
        onConfirm = null;
        e.stopPropagation();
        return;
      }
    }
  });
}

// -- the rules ----------------------------------------------------------------------------------

/** The default rules of the start screen (the online preset), for the panel before a game. */
const DEFAULT_RULES = {
  heart_values: [0, 0, 0, -10, -10, -10, -10, -10, -10, -20, -30, -40, -50],
  pig_value: -100, sheep_value: 100, transformer_bonus: 50, all_hearts_value: 200,
};

export function renderRulesPanel() {
  const r = /** @type {any} */ (rules()) || DEFAULT_RULES;
  const hv = r.heart_values || DEFAULT_RULES.heart_values;
  const row = (/** @type {string} */ what, /** @type {string} */ value) =>
    el("tr", {}, el("th", { scope: "row", text: what }), el("td", { text: value }));
  $("rules-points").replaceChildren(el("tbody", {},
    row(t("rules.hearts_low"), signed(hv[0])),
    row(t("rules.hearts_mid"), signed(hv[3])),
    ...[["J", 9], ["Q", 10], ["K", 11], ["A", 12]].map(([rank, i]) =>
      row(cardText(`${rank}H`), signed(hv[/** @type {number} */ (i)]))),
    row(t("rules.all_hearts"), signed(r.all_hearts_value)),
    row(cardName("QS"), signed(r.pig_value)),
    row(cardName("JD"), signed(r.sheep_value)),
    row(t("rules.transformer_alone"), signed(r.transformer_bonus)),
    row(t("rules.transformer_with"), t("rules.doubles")),
  ));
  const chips = ruleChips();
  $("rules-in-force").hidden = chips.length === 0;
  $("rules-chips").replaceChildren(...chips.map((c) => el("li", { class: "chip-dark", text: c })));
  renderRulesProse();
}

/** The rules in force at this table as short phrases in the page's language. */
export function ruleChips() {
  const room = S.room;
  const r = rules();
  if (!room || !r) return [];
  return chipsFor(r, room.level);
}

/** A rule set (RuleSet.to_dict) as the chips' short phrases; the computers' level last, if
 * given (the start screen's summary of its choices says the same words, without it).
 * @param {any} r @param {string|null} [level] */
export function chipsFor(r, level = null) {
  const exposable = String(r.exposable || "").trim();
  const chips = [];
  if (r.win_threshold !== null && r.win_threshold !== undefined) {
    chips.push(t("rules.threshold", { n: r.win_threshold }));
    if (r.max_deals) chips.push(t("rules.max_deals", { n: r.max_deals }));
  } else if (r.max_deals) {
    chips.push(t("rules.fixed_deals", { n: r.max_deals }));
  }
  chips.push(t(r.sign_swap ? "rules.swap_on" : "rules.swap_off"));
  chips.push(t("rules.all_hearts_value", { n: signed(r.all_hearts_value) }));
  if (exposable) {
    const cards = exposable.split(/\s+/).map((c) => cardCode(c)).filter(Boolean);
    chips.push(t("rules.exposable", { cards: cards.map((c) => cardText(c)).join(" ") }));
  } else {
    chips.push(t("rules.exposure_off"));
  }
  if (level) chips.push(t("rules.level", { level: t(`level.${level}`) }));
  return chips;
}

/** "10♣" / "TC" / "Q♠" → "TC", "QS" (RuleSet writes exposable cards with suit symbols).
 * @param {string} text */
export function cardCode(text) {
  /** @type {Record<string, string>} */
  const suits = { "♣": "C", "♦": "D", "♥": "H", "♠": "S", C: "C", D: "D", H: "H", S: "S" };
  const suit = suits[text.slice(-1)];
  const rank = text.slice(0, -1).replace("10", "T");
  return suit && rank.length === 1 ? rank + suit : "";
}

// -- the score history ----------------------------------------------------------------------------

/** The one history table lives in the score sheet between deals and moves into the
 * History panel while that is open (one element, one data-testid). */
export function placeHistory() {
  const open = !$("history-panel").hidden;
  const slot = $(open ? "history-slot" : "sheet-history-slot");
  if ($("history-wrap").parentElement !== slot) slot.append($("history-wrap"));
}

export function renderHistory() {
  placeHistory();
  const rows = S.room?.history || [];
  const seats = (S.room?.seats || []).map((_, i) => i);
  const table = $("history");
  const head = el("tr", {}, el("th", { scope: "col", text: t("history.deal") }),
    ...seats.map((s) => el("th", { scope: "col", "data-col": s, text: seatName(s) })));
  const body = rows.map((row) => el("tr", { "data-deal": row.deal },
    el("th", { scope: "row", text: String(row.deal) }),
    ...seats.map((s) => {
      // The cell's text is the running total alone (a number, as on a paper sheet); the
      // deal's own score and the exposed cards are drawn from attributes (CSS ::before/::after).
      const exposed = row.exposed?.[s] || [];
      const cell = el("td", {
        "data-seat": s, "data-score": signed(row.scores[s]), text: signed(row.totals[s]),
        title: t("history.deal") + ` ${row.deal}: ${signed(row.scores[s])}`,
      });
      if (exposed.length) {
        cell.dataset.exposed = exposed.map(cardText).join(" ");
        cell.title += ` · ${t("history.exposed", { cards: cell.dataset.exposed })}`;
        cell.classList.add("has-exposed");
      }
      return cell;
    })));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
  if (!rows.length) {
    table.append(el("caption", { text: t("history.empty") }));
  }
}

// -- game over --------------------------------------------------------------------------------------

export function renderGameOver() {
  const over = S.msg?.game_over;
  const panel = $("game-over");
  $("game-over-show").hidden = !over;
  if (!over) {
    panel.hidden = true;
    return;
  }
  // A shared deal replayed (the deal of the day too) is a game of its own: it ends on its
  // score sheet, with the review and the day's board; its ranking shows when asked for.
  panel.hidden = S.overClosed === (S.room?.game_no ?? 0) || Boolean(S.msg?.shared && !S.overAsked);
  const totals = S.room?.totals || [];
  const order = totals.map((v, s) => [s, v]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const names = (/** @type {number[]} */ list) => (list || []).map(seatName).join(", ") || "—";
  $("over-first").textContent = t("over.first", { who: names(over.winners) });
  $("over-pig").textContent = t("over.pig", { who: names(over.losers) });
  $("ranking").replaceChildren(...order.map(([s, v], i) => {
    const pig = over.losers.includes(s);
    return el("li", { "data-seat": s, class: pig ? "pig" : (i === 0 ? "first" : "") },
      el("span", { class: "rank", text: `${i + 1}.` }),
      el("span", { class: "name", text: seatName(s) }),
      pig ? el("span", { class: "pig-mark", text: t("over.pig_mark") }) : null,
      el("span", { class: "pts", text: signed(v) }));
  }));
  $("play-again").toggleAttribute("disabled", S.seat === null);
}
