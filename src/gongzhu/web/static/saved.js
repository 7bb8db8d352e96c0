// @ts-check
// The start page's saved games: what each one is (its rules, the deal reached, your total, when,
// with friends or not), kept beside the room list in localStorage, and a delete button.

import { $, el } from "./dom.js";
import { language, signed, t } from "./i18n.js";
import { KEYS, save, savedRooms } from "./store.js";
import { S } from "./state.js";

/** Keep what the start page says of this room (called on every state).
 * @param {import("./types.js").StateMessage} msg */
export function noteGame(msg) {
  const room = msg.room;
  if (!room || !S.roomId) return;
  const list = savedRooms();
  const entry = list.find((r) => r.id === S.roomId);
  if (!entry) return;
  Object.assign(entry, {
    deal: msg.deal_no,
    total: S.seat === null ? null : room.totals?.[S.seat] ?? 0,
    threshold: room.threshold,
    deals: room.max_deals,
    fixed: Boolean(S.rules && S.rules.win_threshold === null),
    level: room.level,
    friends: room.seats.filter((s) => s.kind === "human").length > 1,
    over: Boolean(msg.game_over),
  });
  save(KEYS.rooms, JSON.stringify(list));
}

/** The saved games on the start page. */
export function renderSaved() {
  const rooms = savedRooms();
  $("saved-list").replaceChildren(...rooms.map((r) => {
    const date = new Date(r.at).toLocaleString(language());
    const parts = [date];
    if (r.level) {
      const end = r.fixed && r.deals ? t("rules.fixed_deals", { n: r.deals }) : t("rules.threshold", { n: r.threshold });
      parts.push(`${end}, ${t(`level.${r.level}`)}`);
    }
    if (r.deal) parts.push(t("saved.deal", { n: r.deal }));
    if (r.total !== null && r.total !== undefined) parts.push(t("saved.total", { total: signed(r.total) }));
    if (r.friends) parts.push(t("saved.friends"));
    if (r.over) parts.push(t("over.title"));
    return el("li", { class: "saved-game", "data-testid": "saved-game", "data-room": r.id },
      el("a", { href: `/t/${r.id}`, text: parts.join(" · ") }),
      el("button", {
        type: "button", class: "small-btn", "data-testid": "saved-delete", text: t("saved.delete"),
        "aria-label": t("saved.delete_label", { date }), onclick: () => forget(r.id),
      }));
  }));
  $("saved").hidden = rooms.length === 0;
}

/** @param {string} id */
function forget(id) {
  save(KEYS.rooms, JSON.stringify(savedRooms().filter((r) => r.id !== id)));
  save(KEYS.token(id), null);
  renderSaved();
}
