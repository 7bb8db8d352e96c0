// @ts-check
// The gongzhu web table: the start screen, the table, and the WebSocket client of
// docs/web_protocol.rst. Plain ES modules, no build step (// @ts-check with JSDoc types from
// the protocol's schemas, types.js). The server owns every rule: the page draws the seat's
// view it receives and sends the player's choices back.
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").StateMessage} StateMessage */
/** @typedef {import("./types.js").ErrorMessage} ErrorMessage */

import { $ } from "./dom.js";
import { applyStatic, cardName, initialLanguage, language, setLanguage, t } from "./i18n.js";
import { closeSocket, openSocket, send, sendAction, sendAt, setHooks } from "./net.js";
import { confirmThen, initConfirm, renderHistory, renderRulesPanel } from "./panels.js";
import { renderStartSummary } from "./rules.js";
import { S, alone, dealInPlay, isLegal, mayUndo, myTurn, seatName, view } from "./state.js";
import { initChat, onSaid } from "./chat.js";
import { autoSingleOn, initFeel, soundFor, trickPause } from "./feel.js";
import { initLobby, joinNote } from "./lobby.js";
import { initOpenTables, stopTables, watchTables } from "./tables.js";
import { inTutorial, initTutorial } from "./tutorial.js";
import { noteGame, renderSaved } from "./saved.js";
import { countState, renderStats } from "./stats.js";
import { KEYS, load, loadToken, rememberRoom, save, saveToken } from "./store.js";
import { initReview, openDealLink, reviewState } from "./review.js";
import {
  actions, endDealing, flashTrick, hideFlash, renderAll, renderConn, renderExposure, renderHand,
  renderPlates, renderStatus, showLastTrick, sortedHand, startDealing, updateExposeButton,
} from "./table.js";

// -- routing ---------------------------------------------------------------------------

function roomFromPath() {
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,64})\/?$/);
  return m ? m[1] : null;
}

function route() {
  const id = roomFromPath();
  const deal = location.pathname.match(/^\/d\/([0-9A-Za-z]{1,16})\/?$/);
  if (id) enterRoom(id);
  else if (deal) {
    showStart();
    openDealLink(deal[1]);
  } else showStart();
}

function showStart() {
  closeSocket();
  S.roomId = null;
  S.room = null;
  S.rules = null;
  S.ruleNumbers = null;
  S.msg = null;
  for (const id of ["table-screen", "game-over", "join-panel", "history-panel", "confirm-panel"]) $(id).hidden = true;
  $("start").hidden = false;
  $("rules-bar").hidden = true;
  /** @type {HTMLInputElement} */ ($("name")).value = load(KEYS.name, "") || "";
  renderSaved();
  renderStats();
  renderStartSummary(formRules());
  watchTables();
}

const value = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).value;
const checked = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ ($(id)).checked;

/** The start form's rule choices as the API's fields (POST /api/rooms, GET /api/rules).
 * @returns {Record<string, any>} */
function formRules() {
  const end = value("threshold");
  /** @type {Record<string, any>} */
  const fields = { sign_swap: checked("sign-swap"), exposure: checked("exposure"), level: value("level") };
  if (end.startsWith("deals")) fields.deals = Number(end.slice(5));
  else fields.threshold = Number(end);
  if (value("all-hearts") !== "200") fields.all_hearts = Number(value("all-hearts"));
  if (value("exposable") !== "all") fields.exposable = value("exposable");
  return fields;
}

/** @param {SubmitEvent} event */
async function createRoom(event) {
  event.preventDefault();
  const button = /** @type {HTMLButtonElement} */ ($("new-game"));
  button.disabled = true;
  $("start-error").textContent = "";
  const name = value("name").trim().slice(0, 32) || t("start.default_name");
  save(KEYS.name, value("name").trim());
  /** @type {Record<string, any>} */
  const body = { ...formRules(), name };
  if (checked("wait-for-friends")) body.wait = true;
  if (checked("wait-for-friends") && checked("list-it")) body.open = true; // listed: asked for
  const seed = value("seed").trim();
  if (seed) {
    if (!/^[0-9]{1,15}$/.test(seed)) {
      // Refused, never cut: a longer number is another game.
      $("start-error").textContent = t("start.seed_bad");
      button.disabled = false;
      return;
    }
    body.seed = Number(seed);
  }
  try {
    const response = await fetch("/api/rooms", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    const room = await response.json();
    saveToken(room.room, room.token);
    history.pushState({}, "", room.url || `/t/${room.room}`);
    S.justCreated = true;
    enterRoom(room.room);
  } catch (error) {
    $("start-error").textContent = t("error.create", { detail: String(/** @type {Error} */ (error).message || error) });
  } finally {
    button.disabled = false;
  }
}

/** @param {string} id */
function enterRoom(id) {
  closeSocket();
  stopTables();
  Object.assign(S, {
    roomId: id, token: loadToken(id), seat: null, room: null, msg: null,
    lastEvent: null, resyncAsked: null, lifted: null, hints: null, reason: "",
    pendingExposure: false, thinking: null, overClosed: null, overAsked: false,
  });
  rememberRoom(id);
  /** @type {HTMLInputElement} */ ($("join-name")).value = load(KEYS.name, "") || "";
  $("start").hidden = true;
  $("table-screen").hidden = false;
  const record = `/api/rooms/${id}/record`;
  /** @type {HTMLAnchorElement} */ ($("record-link")).href = record;
  /** @type {HTMLAnchorElement} */ ($("record-top")).href = record;
  renderAll();
  S.wsWanted = true;
  openSocket();
  // An unknown room (a mistyped or expired link): say so instead of reconnecting forever.
  fetch(`/api/rooms/${encodeURIComponent(id)}`).then((response) => {
    if (response.status === 404 && S.roomId === id) {
      closeSocket();
      renderConn();
      showReason(t("error.no-room"));
      $("status").textContent = t("error.no-room");
    }
  }).catch(() => {});
}

// -- messages ------------------------------------------------------------------------------

/** @param {ServerMessage} msg */
function receive(msg) {
  // A `thinking` note repeats the current event: it is no change, and must not hide a gap.
  if (typeof msg.event === "number" && msg.type !== "thinking") {
    // A gap in the room's numbered events: something was missed, ask for the whole state.
    if (S.lastEvent !== null && msg.event > S.lastEvent + 1 && S.resyncAsked !== msg.event) {
      S.resyncAsked = msg.event;
      send({ type: "resync" });
    }
    if (S.lastEvent === null || msg.event > S.lastEvent) S.lastEvent = msg.event;
  }
  switch (msg.type) {
    case "welcome":
      S.seat = typeof msg.seat === "number" ? msg.seat : null;
      if (msg.token) {
        S.token = msg.token;
        saveToken(/** @type {string} */ (S.roomId), msg.token);
      }
      if (msg.room) {
        setRoom(msg.room);
        S.rules = msg.room.rules ?? S.rules;  // once per connection, not in every state
        S.ruleNumbers = msg.room.rule_numbers ?? S.ruleNumbers;
      }
      if (S.seat !== null) $("join-panel").hidden = true;
      renderAll();
      offerJoin();
      break;
    case "state":
      onState(msg);
      break;
    case "error":
      onError(msg);
      break;
    case "hint":
      S.hints = Object.fromEntries((msg.cards || []).map((c) => [c.card, c]));
      S.hintEvent = msg.event;
      if (S.reason === t("hand.hint_wait")) showReason("");
      renderHand();
      break;
    case "said":
      onSaid(/** @type {any} */ (msg));
      break;
    case "thinking":
      S.thinking = typeof msg.seat === "number" ? msg.seat : null;
      renderAll();
      break;
    default:
      break;
  }
}

/** @param {import("./types.js").Room} room */
function setRoom(room) {
  S.room = room;
  S.seatsAt = Date.now();
}

/** @param {StateMessage} msg */
function onState(msg) {
  const before = S.msg;
  const wasMyTurn = myTurn();
  S.msg = msg;
  if (msg.room) setRoom(msg.room);
  noteGame(msg);
  countState(msg);
  if (msg.view && typeof msg.view.seat === "number" && S.seat !== null) S.seat = msg.view.seat;
  S.pendingExposure = false;
  S.leaving = null;
  S.thinking = null; // a computer that was deciding has decided (the server says if another is)
  if (S.skipRetry === "again") {
    const phase = msg.view?.phase;
    S.skipRetry = false;
    if (alone() && (phase === "play" || phase === "exposure") && !msg.last_score) autoplayNow();
  } else if (S.skipRetry && msg.last_score) {
    S.skipRetry = false; // played out
  }
  if (S.hintEvent !== msg.event) S.hints = null;
  const hand = new Set(msg.view?.hand || []);
  if (S.lifted && (!hand.has(S.lifted) || !isLegal(S.lifted))) S.lifted = null;
  // A new deal is dealt out card by card: when the deal number moves on at this table, or
  // for the first deal of a room this page just opened.
  const fresh = msg.view && msg.view.phase !== "complete" && (msg.view.tricks || []).length === 0;
  const started = Boolean(before?.room?.lobby && !msg.room?.lobby); // the host dealt
  if (fresh && !msg.room?.lobby
      && (started || (before && before.deal_no !== msg.deal_no) || (!before && S.justCreated))) {
    S.justCreated = false;
    startDealing();
  } else if (msg.view?.phase === "complete" && S.dealing) {
    endDealing();
  }
  // A trick just completed: show it whole for a moment, then sweep it to its winner.
  const done = msg.view?.tricks || [];
  if (msg.view?.current_trick?.cards?.length) {
    hideFlash(); // the next trick has begun: show only it
  } else if (before && before.deal_no === msg.deal_no
      && done.length > (before.view?.tricks?.length ?? 0)) {
    flashTrick(done[done.length - 1], trickPause());
  }
  // A new trick or a new deal clears an old explanation.
  if (before && (before.deal_no !== msg.deal_no || before.view?.trick_number !== msg.view?.trick_number)) {
    showReason("");
  }
  // A new game: its game-over panel will show again.
  if (before && before.room?.game_no !== msg.room?.game_no) S.overClosed = null;
  soundFor(before, msg, wasMyTurn);
  renderAll();
  reviewState();
}

/** @param {ErrorMessage} msg */
function onError(msg) {
  const code = msg.code;
  if (code === "illegal") {
    // The server words the refusal as the player says it, in this page's language.
    showReason(msg.message);
  } else if (code === "stale" && msg.reply_to === "next" && S.skipRetry) {
    S.skipRetry = "again"; // play the hand out once the fresh state is in
    send({ type: "resync" });
  } else if (code === "stale") {
    showReason(t("error.stale"));
    send({ type: "resync" });
  } else if (code === "bad-token") {
    S.token = null;
    saveToken(/** @type {string} */ (S.roomId), null);
    showReason(t("error.bad-token"));
  } else {
    const key = `error.${code}`;
    const text = t(key);
    showReason(text === key ? msg.message || code : text);
  }
  if (msg.reply_to === "hint" && S.reason === t("hand.hint_wait")) showReason("");
  S.pendingExposure = false;
  renderExposure();
}

/** @param {string} text */
function showReason(text) {
  S.reason = text;
  const box = $("reason");
  box.textContent = text;
  box.classList.toggle("shown", Boolean(text));
}

// -- joining by the link -------------------------------------------------------------------------

/** A visitor without a seat of their own is asked for a name and whether to sit or watch. */
function offerJoin() {
  if (S.seat !== null || S.token || S.joined === S.roomId || !S.room) return;
  const free = (S.room.seats || []).findIndex((s) => s.kind === "computer");
  const input = /** @type {HTMLInputElement} */ ($("join-name"));
  if (!input.value) input.value = load(KEYS.name, "") || "";
  /** @type {HTMLButtonElement} */ ($("join-sit")).disabled = free < 0;
  $("join-full").hidden = free >= 0;
  joinNote(free);
  $("join-panel").hidden = false;
  input.focus();
}

/** @param {Event} e */
function joinSit(e) {
  e.preventDefault();
  const name = /** @type {HTMLInputElement} */ ($("join-name")).value.trim().slice(0, 32);
  if (name) save(KEYS.name, name);
  const free = (S.room?.seats || []).findIndex((s) => s.kind === "computer");
  S.joined = S.roomId;
  $("join-panel").hidden = true;
  if (free >= 0) sit(free);
}

function joinWatch() {
  S.joined = S.roomId;
  $("join-panel").hidden = true;
  showReason(t("reason.spectator"));
  // The table shows its watchers' names: a name typed now goes in a new hello.
  const name = /** @type {HTMLInputElement} */ ($("join-name")).value.trim().slice(0, 32);
  if (name && name !== load(KEYS.name)) {
    save(KEYS.name, name);
    if (S.ws) S.ws.close();
  }
}

/** @param {number} seat */
function sit(seat) {
  const name = (load(KEYS.name) || "").trim().slice(0, 32) || t("start.default_name");
  send({ type: "sit", seat, name });
}

/** @param {number} seat */
function release(seat) {
  confirmThen(t("confirm.return", { who: seatName(seat) }), () => sendAt("release", { seat }), t("seat.return"));
}

// -- the hand --------------------------------------------------------------------------------

/** @param {string} code */
function clickCard(code) {
  if (!view()) return;
  if (S.dealing) endDealing();
  if (S.seat === null) {
    showReason(t("reason.spectator"));
    return;
  }
  if (!isLegal(code)) {
    // The server knows why: the action is sent and refused with its reason (nothing changes).
    S.lifted = null;
    showReason(""); // the server's refusal fills it in a moment
    sendAction({ type: "play", seat: S.seat ?? 0, card: code });
    renderHand();
    return;
  }
  if (S.lifted === code) {
    playCard(code);
    return;
  }
  S.lifted = code;
  showReason("");
  renderHand();
}

/** @param {string|null} code */
function playCard(code) {
  if (!code || !myTurn()) return;
  if (sendAction({ type: "play", seat: S.seat, card: code })) {
    S.lifted = null;
    S.leaving = code; // shown fading until the server's next state takes it from the hand
    renderHand();
  }
}

/** How long a forced card shows lifted, with its line, before it plays itself (ms). */
const FORCED_PAUSE = 900;
/** The forced card on its way: the state (event) it was forced in, and the card. */
let forced = { event: -1, card: "" };

/** A player who ticked "Play a forced card by itself": when the only card they may play is
 * one, it is lifted and said for a moment, then played. Putting it back (Escape, a click on the
 * felt) in that moment keeps it in the hand; a click on it plays it at once. Not in the
 * tutorial (it teaches every card) nor while the cards are being dealt. */
function playForced() {
  if (!autoSingleOn() || inTutorial() || S.dealing || S.leaving || !myTurn()) return;
  const legal = view()?.legal_plays || [];
  const event = S.msg?.event ?? -1;
  if (legal.length !== 1 || (forced.event === event && forced.card === legal[0])) return;
  const card = legal[0];
  const line = t("hand.forced", { card: cardName(card) });
  forced = { event, card };
  S.lifted = card;
  showReason(line);
  renderHand();
  window.setTimeout(() => {
    const still = S.msg?.event === event && S.lifted === card && myTurn();
    if (S.reason === line) showReason("");
    if (still) playCard(card);
  }, FORCED_PAUSE);
}

/** @param {boolean} expose */
function decideExposure(expose) {
  const cards = expose
    ? [...$("exposure-options").querySelectorAll("input:checked")].map((i) => /** @type {HTMLElement} */ (i).dataset.expose)
    : [];
  const faceDown = expose && !$("face-down-row").hidden && /** @type {HTMLInputElement} */ ($("face-down")).checked;
  if (sendAction({ type: "expose", seat: S.seat, cards, face_down: faceDown, blind: false })) {
    S.pendingExposure = true;
    renderExposure();
    renderStatus();
  }
}

/** Take back my last card and the computers' cards after it (alone at the table). The
 * server takes the request as "my last card": the computers playing on after the click do
 * not make it stale, so nothing is asked again here. */
function takeBack() {
  if (!mayUndo()) return;
  S.lifted = null;
  sendAt("undo");
}

/** 托管: the computers play this seat's hand to the end of the deal (asked first). */
function autoplay() {
  if (!alone() || !dealInPlay()) return;
  confirmThen(t("confirm.autoplay"), autoplayNow, t("hand.autoplay"));
}

function autoplayNow() {
  // The computers may still be moving when asked: a `stale` answer makes the page resync
  // and ask once more (S.skipRetry), so the request is not lost.
  if (sendAt("next")) S.skipRetry = true;
}

// -- keyboard, clicks on the table ------------------------------------------------------------

/** @param {KeyboardEvent} e */
function onKey(e) {
  if ($("table-screen").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  if (!$("confirm-panel").hidden || !$("join-panel").hidden) return;
  const target = /** @type {HTMLElement|null} */ (e.target);
  const tag = target?.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if ((e.key === "u" || e.key === "U") && mayUndo()) {
    e.preventDefault();
    takeBack();
    return;
  }
  const cards = sortedHand();
  if (!cards.length) return;
  const onCard = Boolean(target?.dataset?.card);
  let index = -1;
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const at = cards.indexOf(S.lifted ?? target?.dataset?.card ?? "");
    const step = e.key === "ArrowLeft" ? -1 : 1;
    // Move to the next legal card (any card when none is legal: the focus still moves).
    const legal = cards.filter(isLegal);
    const pool = legal.length ? legal : cards;
    const from = at < 0 ? (step > 0 ? -1 : pool.length) : pool.indexOf(cards[at]);
    let next = from + step;
    if (from < 0 && at >= 0) next = step > 0 ? 0 : pool.length - 1;
    next = (next + pool.length) % pool.length;
    index = cards.indexOf(pool[next]);
  } else if (/^[0-9]$/.test(e.key)) {
    // 1…9, 0 = the 1st…10th legal card.
    const legal = cards.filter(isLegal);
    const k = e.key === "0" ? 9 : Number(e.key) - 1;
    if (k < legal.length) index = cards.indexOf(legal[k]);
  } else if (e.key === "Enter" && !onCard) {
    if (S.lifted) {
      e.preventDefault();
      playCard(S.lifted);
    }
    return;
  } else if (e.key === "Escape") {
    S.lifted = null;
    renderHand();
    return;
  } else {
    return;
  }
  if (index < 0) return;
  e.preventDefault();
  const code = cards[index];
  if (isLegal(code)) S.lifted = code;
  renderHand();
  /** @type {HTMLElement|null} */ ($("hand").querySelector(`[data-card="${code}"]`))?.focus();
}

/** Source 001's "click the table" skips the dealing animation, and nothing else.
 * @param {MouseEvent} e */
function onFeltClick(e) {
  if (S.dealing) {
    endDealing();
    return;
  }
  const target = /** @type {HTMLElement} */ (e.target);
  if (target.closest(".overlay, button, a, details, .plate")) return;
  if (S.lifted) {
    // A click beside the cards puts a lifted card back (it plays nothing).
    S.lifted = null;
    renderHand();
  }
}

/** Leaving a game in progress (the logo) asks first. @param {MouseEvent} e */
function onBrand(e) {
  if (!S.roomId || S.seat === null || !dealInPlay()) return;
  e.preventDefault();
  confirmThen(t("confirm.leave"), () => {
    history.pushState({}, "", "/");
    route();
  });
}

// -- start -----------------------------------------------------------------------------------

async function main() {
  const lang = await setLanguage(initialLanguage());
  /** @type {HTMLSelectElement} */ ($("lang")).value = lang;
  setHooks({
    receive,
    status: renderConn,
    offline: () => showReason(t("error.offline")),
    hello: () => ({ token: S.token, name: load(KEYS.name) || null, lang: language() }),
  });
  actions.play = playCard;
  actions.click = clickCard;
  actions.sit = sit;
  actions.release = release;
  initConfirm();
  initReview();
  initLobby(sit);
  initFeel({ forced: playForced });
  initChat();
  // An open table's Join: its link, as a friend's link opens it (a name, then sit or watch).
  initOpenTables((url) => {
    history.pushState({}, "", url);
    route();
  });
  initTutorial((made) => {
    saveToken(made.room, made.token);
    history.pushState({}, "", made.url || `/t/${made.room}`);
    S.justCreated = true;
    enterRoom(made.room);
  });
  $("lang").addEventListener("change", async (e) => {
    await setLanguage(/** @type {HTMLSelectElement} */ (e.target).value);
    // Reconnect, so that the hello tells the server the new language for its refusals.
    if (S.ws) S.ws.close();
    if (S.roomId) renderAll();
    else showStart();
    updateExposeButton();
    renderRulesPanel();
  });
  $("start-form").addEventListener("submit", (e) => createRoom(/** @type {SubmitEvent} */ (e)));
  $("start-form").addEventListener("change", () => renderStartSummary(formRules()));
  $("play").addEventListener("click", () => playCard(S.lifted));
  $("hint").addEventListener("click", () => {
    if (sendAt("hint")) showReason(t("hand.hint_wait"));
  });
  $("autoplay").addEventListener("click", autoplay);
  $("undo").addEventListener("click", takeBack);
  $("expose-confirm").addEventListener("click", () => decideExposure(true));
  $("expose-decline").addEventListener("click", () => decideExposure(false));
  $("next-deal").addEventListener("click", () => sendAt("next"));
  $("play-again").addEventListener("click", () => sendAt("new_game"));
  $("new-settings").addEventListener("click", () => {
    history.pushState({}, "", "/");
    route();
  });
  $("game-over-close").addEventListener("click", () => {
    S.overClosed = S.room?.game_no ?? 0;
    renderAll(); // the ranking and the last sheet close: the felt itself shows
  });
  $("game-over-show").addEventListener("click", () => {
    S.overClosed = null;
    S.overAsked = true;
    renderAll();
  });
  $("rules-open").addEventListener("click", () => {
    renderRulesPanel();
    $("rules-panel").hidden = false;
  });
  $("history-open").addEventListener("click", () => {
    $("history-panel").hidden = false;
    renderHistory(); // moves the table into the panel
  });
  $("last-trick-show").addEventListener("click", showLastTrick);
  $("join-form").addEventListener("submit", joinSit);
  $("join-watch").addEventListener("click", joinWatch);
  $("copy-invite").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(/** @type {HTMLAnchorElement} */ ($("invite")).href);
      showReason(t("room.copied"));
    } catch {
      showReason(/** @type {HTMLAnchorElement} */ ($("invite")).href);
    }
  });
  $("felt").addEventListener("click", onFeltClick);
  $("brand").addEventListener("click", onBrand);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", route);
  // The away seats' countdown ticks once a second.
  setInterval(() => {
    if ((S.room?.seats || []).some((s) => s.kind === "human" && !s.connected)) renderPlates();
  }, 1000);
  applyStatic(document);
  route();
}

main();
