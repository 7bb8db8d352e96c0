// @ts-check
// The player's statistics, kept in this browser (localStorage): games played and won, times
// the pig (last at the end), the pig card taken, the average score per deal, by level, and the
// cards taken back (each take-back of a deal, from the room's `undos`). Each finished deal,
// each finished game and each take-back is counted once, whatever reloads or replays its state.

import { $, el } from "./dom.js";
import { signed, t } from "./i18n.js";
import { load, save } from "./store.js";
import { S } from "./state.js";

const STATS = "gongzhu:stats";
const SEEN = "gongzhu:stats:seen";
const LEVELS = ["easy", "normal", "hard"];

/** @typedef {{games: number, won: number, pig: number, deals: number, points: number,
 *             pigTaken: number, undos: number, undoDeals: number,
 *             levels: Record<string, {games: number, won: number}>}} Stats */

/** @returns {Stats} */
export function readStats() {
  /** @type {Stats} */
  const empty = {
    games: 0, won: 0, pig: 0, deals: 0, points: 0, pigTaken: 0, undos: 0, undoDeals: 0, levels: {},
  };
  try {
    return { ...empty, ...JSON.parse(load(STATS, "{}") || "{}") };
  } catch {
    return empty;
  }
}

/** Count what this state finishes (a deal, a game) once; nothing for a watcher.
 * @param {import("./types.js").StateMessage} msg */
export function countState(msg) {
  const seat = S.seat;
  const room = msg.room;
  if (seat === null || !room || !S.roomId) return;
  const seen = new Set(JSON.parse(load(SEEN, "[]") || "[]"));
  const stats = readStats();
  const game = `${S.roomId}:${room.game_no}`;
  const score = msg.last_score;
  let changed = false;
  const deal = `${game}:${msg.deal_no}`;
  // Each take-back once (its number in the deal), and the deal as one "with take-backs".
  const undos = room.undos?.[msg.deal_no - 1] ?? 0;
  for (let k = 1; k <= undos; k += 1) {
    if (seen.has(`${deal}:undo${k}`)) continue;
    seen.add(`${deal}:undo${k}`);
    stats.undos += 1;
    if (k === 1) stats.undoDeals += 1;
    changed = true;
  }
  if (score) {
    if (!seen.has(deal)) {
      seen.add(deal);
      stats.deals += 1;
      stats.points += score.totals?.[seat] ?? 0;
      if (/** @type {any} */ (score).pig_taker === seat) stats.pigTaken += 1;
      changed = true;
    }
  }
  const over = msg.game_over;
  if (over && !seen.has(game)) {
    seen.add(game);
    const won = over.winners.includes(seat);
    stats.games += 1;
    stats.won += won ? 1 : 0;
    stats.pig += over.losers.includes(seat) ? 1 : 0;
    const level = room.level || "normal";
    const byLevel = stats.levels[level] || { games: 0, won: 0 };
    byLevel.games += 1;
    byLevel.won += won ? 1 : 0;
    stats.levels[level] = byLevel;
    changed = true;
  }
  if (changed) {
    save(STATS, JSON.stringify(stats));
    save(SEEN, JSON.stringify([...seen].slice(-400)));
  }
}

/** The start page's statistics panel. */
export function renderStats() {
  const s = readStats();
  const box = $("stats");
  box.dataset.games = String(s.games);
  box.dataset.won = String(s.won);
  box.dataset.deals = String(s.deals);
  box.dataset.undos = String(s.undos);
  box.dataset.undoDeals = String(s.undoDeals);
  const row = (/** @type {string} */ key, /** @type {string} */ value, /** @type {string} */ name) =>
    el("tr", { "data-stat": name }, el("th", { scope: "row", text: t(key) }), el("td", { text: value }));
  const average = s.deals ? signed(Math.round(s.points / s.deals)) : "—";
  const rows = [
    row("stats.games", String(s.games), "games"),
    row("stats.won", String(s.won), "won"),
    row("stats.pig", String(s.pig), "pig"),
    row("stats.pig_taken", String(s.pigTaken), "pig-taken"),
    row("stats.deals", String(s.deals), "deals"),
    row("stats.average", average, "average"),
    row("stats.undos", String(s.undos), "undos"),
    ...LEVELS.filter((l) => s.levels[l]).map((l) => row("stats.level",
      t("stats.level_value", { games: s.levels[l].games, won: s.levels[l].won }), `level-${l}`)),
  ];
  // the level's name goes into its row's heading
  for (const l of LEVELS.filter((x) => s.levels[x])) {
    const th = rows.find((r) => r.dataset.stat === `level-${l}`)?.querySelector("th");
    if (th) th.textContent = t("stats.level", { level: t(`level.${l}`) });
  }
  $("stats-table").replaceChildren(el("tbody", {}, ...rows));
  $("stats-empty").hidden = s.games + s.deals > 0;
}
