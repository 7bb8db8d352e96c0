// @ts-check
// The client's whole state and what follows from it. The server owns every rule: the page
// draws the seat's view it receives (`S.msg`, the last `state` message) and nothing more.
/** @typedef {import("./types.js").StateMessage} StateMessage */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").View} View */

import { t } from "./i18n.js";

export const S = {
  /** @type {string|null} */ roomId: null,
  /** @type {string|null} */ token: null,
  /** @type {number|null} */ seat: null,
  /** @type {Room|null} */ room: null,
  /** @type {StateMessage|null} */ msg: null,
  /** @type {number|null} */ lastEvent: null,
  /** @type {number|null} */ resyncAsked: null,
  /** @type {WebSocket|null} */ ws: null,
  wsWanted: false,
  retry: 0,
  /** @type {string|null} */ lifted: null,
  /** @type {string|null} */ leaving: null,
  /** @type {false|true|"again"} */ skipRetry: false,
  /** @type {Record<string, {card: string, expected: number, stderr: number}>|null} */ hints: null,
  /** @type {number|null} */ hintEvent: null,
  pendingExposure: false,
  reason: "",
  connected: false,
  /** The dealing animation runs (a click on the table ends it). */
  dealing: false,
  /** A new room: its first deal is dealt with the animation. */
  justCreated: false,
  /** The seat a computer is deciding for (the server's `thinking`), or null. */
  /** @type {number|null} */ thinking: null,
  /** The join prompt was answered (sit or watch) for this room. */
  /** @type {string|null} */ joined: null,
  /** The game-over panel was closed by the player (for this game number). */
  /** @type {number|null} */ overClosed: null,
  /** The ranking was asked for ("Final ranking"): shown even after a shared deal. */
  overAsked: false,
  /** The room's rule set, sent once per connection (the welcome's room); a state's
   * room and view leave it out. */
  /** @type {import("./types.js").Rules|null} */ rules: null,
  /** The tutorial asked the hint for this event already. */
  /** @type {number|null} */ tutorialHint: null,
  /** Deal scores the rules prose quotes (the welcome's room: `rule_numbers`). */
  /** @type {Record<string, number>|null} */ ruleNumbers: null,
  /** When the room's seats were last received (for the away countdown). */
  seatsAt: 0,
};
// For people debugging their own server (read it, don't write it).
/** @type {any} */ (window).gongzhuClient = S;

/** @returns {View|null} */
export const view = () => S.msg?.view || null;
export const nSeats = () => S.room?.seats?.length || view()?.hand_sizes?.length || 4;

/** @param {string} code */
export function isLegal(code) {
  return Boolean(view()?.legal_plays?.includes(code));
}

export function myTurn() {
  const v = view();
  return Boolean(v && S.seat !== null && v.phase === "play" && v.to_act === S.seat);
}

/** Where a seat sits on the screen: 0 bottom (this seat), 1 left, 2 top, 3 right.
 * @param {number} seat */
export function posOf(seat) {
  const n = nSeats();
  const me = S.seat ?? 0;
  const rel = (seat - me + n) % n;
  const clockwise = rules()?.direction !== "counterclockwise";
  if (n !== 4) return rel;
  return clockwise ? rel : (4 - rel) % 4;
}

/** A seat as a player names it: "You", a friend's name, a computer by where it sits.
 * @param {number} seat */
export function seatName(seat) {
  const info = S.room?.seats?.[seat];
  if (seat === S.seat) return t("seat.you");
  // A computer is named by where it sits, in the page's language (West, Запад, 西家 …).
  if (!info || info.kind === "computer" || !info.name) return t(`dir.${posOf(seat)}`);
  return info.name;
}

/** This page holds a seat and every other seat is a computer's. */
export function alone() {
  const seats = S.room?.seats || [];
  return S.seat !== null && seats.every((s, i) => i === S.seat || s.kind === "computer");
}

/** The rules in force: the connection's (its welcome's room), null before one. */
export function rules() {
  return S.rules;
}

/** The deal is being played (not scored, not over). */
/** The player may take back their last card (docs/web_protocol.rst, `undo`): alone at the
 * table, cards being played, the computer not playing their hand, a card of theirs on the
 * table this deal. */
export function mayUndo() {
  const v = view();
  const me = S.seat;
  if (me === null || !v || v.phase !== "play" || !alone() || S.msg?.last_score) return false;
  if (S.room?.lobby || S.room?.seats?.[me]?.autoplay || S.skipRetry) return false;
  return (v.tricks || []).length > 0 || (v.current_trick?.seats || []).includes(me);
}

export function dealInPlay() {
  const v = view();
  return Boolean(v && (v.phase === "play" || v.phase === "exposure") && !S.msg?.game_over);
}

/** The seat that opened the room (it may hand an away seat to the computer). */
export function hostSeat() {
  return S.room?.host ?? 0;
}
