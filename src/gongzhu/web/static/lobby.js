// @ts-check
// Friends at one table: the lobby of a table that waits for friends (seats fill, the host
// deals), the watchers' count, the rematch with the same players, and what a friend who
// joins a running game takes over. The server owns the seats (sit, start, new_game): the page
// shows them and sends the host's and the friends' choices.

import { $, el } from "./dom.js";
import { signed, t } from "./i18n.js";
import { sendAt } from "./net.js";
import { renderChat } from "./chat.js";
import { S, hostSeat, posOf, seatName } from "./state.js";

/** The table waits for the host to deal. */
export function inLobby() {
  return Boolean(S.room?.lobby);
}

/** @param {(seat: number) => void} sit */
export function initLobby(sit) {
  $("start-deal").addEventListener("click", () => sendAt("start"));
  $("lobby-seats").addEventListener("click", (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest("[data-sit]");
    if (button) sit(Number(/** @type {HTMLElement} */ (button).dataset.sit));
  });
  $("rematch").addEventListener("click", () => sendAt("new_game"));
  const watchers = $("watchers");
  // Names on hover (title) or on a tap (they show in the reason line's place for a moment).
  watchers.addEventListener("click", () => {
    watchers.classList.toggle("open");
  });
}

/** Everything friends see: after the table's own drawing (renderAll calls it last). */
export function renderFriends() {
  renderLobby();
  renderWatchers();
  renderRematch();
  renderChat();
  if (!$("join-panel").hidden) joinNote((S.room?.seats || []).findIndex((s) => s.kind === "computer"));
}

function renderLobby() {
  const panel = $("lobby");
  const room = S.room;
  if (!room || !room.lobby) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const host = hostSeat();
  const isHost = S.seat === host;
  $("lobby-help").textContent = isHost
    ? t("lobby.help_host")
    : t("lobby.help_guest", { who: room.seats[host]?.name ?? "" });
  $("lobby-open").hidden = !room.open; // strangers may come: the list of open tables shows it
  $("lobby-seats").replaceChildren(...room.seats.map((seat, i) => {
    const human = seat.kind === "human";
    const dir = t(`dir.${posOf(i)}`);
    const who = human ? seat.name : t("lobby.computer", { dir });
    const mark = i === S.seat ? t("seat.you") : (i === host ? t("lobby.host") : "");
    return el("li", {
      class: `lobby-seat ${human ? "human" : "computer"}`,
      "data-testid": "lobby-seat", "data-seat": i, "data-kind": seat.kind,
      "data-connected": String(Boolean(seat.connected)),
    },
    el("span", { class: "lobby-dir", text: dir }),
    el("span", { class: "lobby-name", text: who }),
    mark ? el("span", { class: "lobby-mark", text: mark }) : null,
    !human && S.seat === null
      ? el("button", { type: "button", class: "small-btn", "data-sit": i, text: t("seat.sit") })
      : null);
  }));
  const start = /** @type {HTMLButtonElement} */ ($("start-deal"));
  start.hidden = !isHost;
  $("status").textContent = t("lobby.title");
  $("autoplay").hidden = true;
  $("dealing").hidden = true;
}

function renderWatchers() {
  const box = $("watchers");
  const n = S.room?.watchers ?? 0;
  const names = (S.room?.watcher_names || []).map((name) => name || t("watchers.anonymous"));
  box.dataset.count = String(n);
  box.hidden = !S.room;
  box.textContent = t("watchers.count", { n });
  const list = names.join(", ");
  box.title = n ? t("watchers.names", { names: list }) : t("watchers.none");
  box.setAttribute("aria-label", box.title);
  if (box.classList.contains("open") && n) {
    box.append(el("span", { class: "watcher-names", text: list }));
  }
}

function renderRematch() {
  // With friends seated, the game-over panel offers the rematch: the same people in the
  // same seats (a player alone has "new game, same settings", which is the same message).
  const humans = (S.room?.seats || []).filter((s) => s.kind === "human").length;
  const friends = humans > 1;
  $("rematch").hidden = !friends;
  $("rematch").toggleAttribute("disabled", S.seat === null);
  $("play-again").hidden = friends;
}

/** What the join panel says of a seat taken mid-game: whose cards and total come with it.
 * @param {number} seat */
export function joinNote(seat) {
  const note = $("join-note");
  const room = S.room;
  const started = room && !room.lobby && (room.deals_played > 0 || (S.msg?.view?.tricks || []).length > 0
    || (S.msg?.view?.current_trick?.cards || []).length > 0);
  if (!room || seat < 0 || !started) {
    note.hidden = true;
    return;
  }
  note.hidden = false;
  note.textContent = t("join.running", {
    who: seatName(seat), total: signed(room.totals?.[seat] ?? 0), deal: S.msg?.deal_no ?? 1,
  });
}
