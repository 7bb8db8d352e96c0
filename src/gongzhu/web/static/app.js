// The gongzhu web table: the start screen, the table, and the WebSocket client of
// docs/web.rst's protocol. Plain ES module, no build step. The server owns every rule:
// the page draws the seat's view it receives and sends the player's choices back.

import {
  LANGUAGES, applyStatic, cardName, cardText, initialLanguage, language, setLanguage, signed, t,
} from "./i18n.js";

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
};

const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // colours alternate in the hand
const RANK_ORDER = "23456789TJQKA";
const STORE = {
  token: (room) => `gongzhu:token:${room}`,
  rooms: "gongzhu:rooms",
  name: "gongzhu:name",
};

// The client's whole state; `msg` is the last `state` message from the server.
const S = {
  roomId: null,
  token: null,
  seat: null,
  room: null,
  msg: null,
  lastEvent: null,
  resyncAsked: null,
  ws: null,
  wsWanted: false,
  retry: 0,
  lifted: null,
  leaving: null,
  autoSat: null,
  skipRetry: false,
  hints: null,
  hintEvent: null,
  pendingExposure: false,
  reason: "",
  connected: false,
};
window.gongzhuClient = S; // for people debugging their own server (read it, don't write it)

// -- storage -------------------------------------------------------------------------

function load(key, fallback = null) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

function save(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // private mode: the seat is then kept only while the page is open
  }
}

// The seat's token lives in this origin's storage only (issue 27 item 15): a cookie is
// sent to, and readable by, every app on the same host name whatever its port. A token
// an older version left in a cookie is moved to storage once and the cookie deleted.
function oldTokenCookie(room) {
  const name = `gz_${room}`;
  const hit = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  if (!hit) return null;
  document.cookie = `${name}=; path=/; max-age=0; SameSite=Strict`;
  return decodeURIComponent(hit.slice(name.length + 1)) || null;
}

function loadToken(room) {
  const stored = load(STORE.token(room));
  if (stored) return stored;
  const moved = oldTokenCookie(room);
  if (moved) save(STORE.token(room), moved);
  return moved;
}

function saveToken(room, token) {
  save(STORE.token(room), token);
}

function savedRooms() {
  try {
    const list = JSON.parse(load(STORE.rooms, "[]"));
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function rememberRoom(id) {
  const list = savedRooms().filter((r) => r.id !== id);
  list.unshift({ id, at: Date.now() });
  save(STORE.rooms, JSON.stringify(list.slice(0, 10)));
}

// -- routing ---------------------------------------------------------------------------

function roomFromPath() {
  const m = location.pathname.match(/^\/t\/([A-Za-z0-9_-]{1,64})\/?$/);
  return m ? m[1] : null;
}

async function route() {
  const id = roomFromPath();
  if (id) enterRoom(id);
  else showStart();
}

function showStart() {
  closeSocket();
  S.roomId = null;
  $("table-screen").hidden = true;
  $("start").hidden = false;
  $("rules-bar").hidden = true;
  $("name").value = load(STORE.name, "") || "";
  const rooms = savedRooms();
  const list = $("saved-list");
  list.replaceChildren(
    ...rooms.map((r) =>
      el("li", {}, el("a", { href: `/t/${r.id}`, text: t("start.saved_game", {
        id: r.id, date: new Date(r.at).toLocaleString(language()),
      }) })),
    ),
  );
  $("saved").hidden = rooms.length === 0;
}

async function createRoom(event) {
  event.preventDefault();
  const button = $("new-game");
  button.disabled = true;
  $("start-error").textContent = "";
  const name = $("name").value.trim().slice(0, 32) || t("start.default_name");
  save(STORE.name, $("name").value.trim());
  const body = {
    threshold: Number($("threshold").value),
    sign_swap: $("sign-swap").checked,
    exposure: $("exposure").checked,
    level: $("level").value,
    name,
  };
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
    enterRoom(room.room);
  } catch (error) {
    $("start-error").textContent = t("error.create", { detail: String(error.message || error) });
  } finally {
    button.disabled = false;
  }
}

function enterRoom(id) {
  closeSocket();
  Object.assign(S, {
    roomId: id, token: loadToken(id), seat: null, room: null, msg: null,
    lastEvent: null, resyncAsked: null, lifted: null, hints: null, reason: "",
    pendingExposure: false,
  });
  rememberRoom(id);
  $("start").hidden = true;
  $("table-screen").hidden = false;
  const record = `/api/rooms/${id}/record`;
  $("record-link").href = record;
  $("record-top").href = record;
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

// -- the WebSocket -----------------------------------------------------------------------

function openSocket() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(S.roomId)}`);
  S.ws = ws;
  renderConn();
  ws.addEventListener("open", () => {
    if (S.ws !== ws) return;
    S.connected = true;
    S.retry = 0;
    renderConn();
    send({ type: "hello", token: S.token, name: load(STORE.name) || null, lang: language() });
  });
  ws.addEventListener("message", (e) => {
    if (S.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    receive(msg);
  });
  ws.addEventListener("close", () => {
    if (S.ws !== ws) return;
    S.connected = false;
    S.ws = null;
    renderConn();
    if (!S.wsWanted) return;
    // Reconnect with a growing pause (0.25 s … 5 s); the server resends the state on hello.
    const delay = Math.min(5000, 250 * 2 ** S.retry);
    S.retry += 1;
    setTimeout(() => {
      if (S.wsWanted && !S.ws) openSocket();
    }, delay);
  });
}

function closeSocket() {
  S.wsWanted = false;
  if (S.ws) {
    const ws = S.ws;
    S.ws = null;
    ws.close();
  }
  S.connected = false;
}

function send(message) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    showReason(t("error.offline"));
    return false;
  }
  S.ws.send(JSON.stringify(message));
  return true;
}

/** Send a game action carrying the number of the last event this page has seen. */
function sendAction(action) {
  return send({ type: "action", event: S.lastEvent ?? 0, action });
}

function receive(msg) {
  if (typeof msg.event === "number") {
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
        saveToken(S.roomId, msg.token);
      }
      if (msg.room) S.room = msg.room;
      renderAll();
      autoSit();
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
      renderHand();
      break;
    default:
      break;
  }
}

function onState(msg) {
  const before = S.msg;
  S.msg = msg;
  S.room = msg.room || S.room;
  if (msg.view && typeof msg.view.seat === "number" && S.seat !== null) S.seat = msg.view.seat;
  S.pendingExposure = false;
  S.leaving = null;
  if (S.skipRetry === "again") {
    const phase = msg.view?.phase;
    S.skipRetry = false;
    if (alone() && (phase === "play" || phase === "exposure") && !msg.last_score) skipDeal();
  } else if (S.skipRetry && msg.last_score) {
    S.skipRetry = false; // skipped
  }
  if (S.hintEvent !== msg.event) S.hints = null;
  const hand = new Set(msg.view?.hand || []);
  if (S.lifted && (!hand.has(S.lifted) || !isLegal(S.lifted))) S.lifted = null;
  // A trick just completed: show it whole for a moment over the table (the `trick` element
  // itself always shows the trick in progress).
  const done = msg.view?.tricks || [];
  if (msg.view?.current_trick?.cards?.length) {
    hideFlash(); // the next trick has begun: show only it
  } else if (before && before.deal_no === msg.deal_no
      && done.length > (before.view?.tricks?.length ?? 0)) {
    flashTrick(done[done.length - 1]);
  }
  // A new trick or a new deal clears an old explanation.
  if (before && (before.deal_no !== msg.deal_no || before.view?.trick_number !== msg.view?.trick_number)) {
    showReason("");
  }
  renderAll();
}

function onError(msg) {
  const code = msg.code;
  if (code === "illegal") {
    // The server words the refusal in this page's language (the hello's lang): the
    // library's one translation, the same sentence the terminal game prints.
    showReason(msg.message);
  } else if (code === "stale" && msg.reply_to === "next" && S.skipRetry) {
    S.skipRetry = "again"; // skip the deal once the fresh state is in
    send({ type: "resync" });
  } else if (code === "stale") {
    showReason(t("error.stale"));
    send({ type: "resync" });
  } else if (code === "bad-token") {
    S.token = null;
    saveToken(S.roomId, null);
    showReason(t("error.bad-token"));
  } else {
    const key = `error.${code}`;
    const text = t(key);
    showReason(text === key ? msg.message || code : text);
  }
  S.pendingExposure = false;
  renderExposure();
}

function showReason(text) {
  S.reason = text;
  const box = $("reason");
  box.textContent = text;
  box.classList.toggle("shown", Boolean(text));
}

// -- what the view says ---------------------------------------------------------------------

const view = () => S.msg?.view || null;
const nSeats = () => S.room?.seats?.length || view()?.hand_sizes?.length || 4;

function isLegal(code) {
  return Boolean(view()?.legal_plays?.includes(code));
}

function myTurn() {
  const v = view();
  return Boolean(v && S.seat !== null && v.phase === "play" && v.to_act === S.seat);
}

/** Where a seat sits on the screen: 0 bottom (this seat), 1 left, 2 top, 3 right. */
function posOf(seat) {
  const n = nSeats();
  const me = S.seat ?? 0;
  const rel = (seat - me + n) % n;
  const clockwise = (S.room?.rules?.direction || view()?.rules?.direction) !== "counterclockwise";
  if (n !== 4) return rel;
  return clockwise ? rel : (4 - rel) % 4;
}

function seatName(seat) {
  const info = S.room?.seats?.[seat];
  if (seat === S.seat) return t("seat.you");
  // A computer is named by where it sits, in the page's language (West, Запад, 西 …).
  if (!info || info.kind === "computer" || !info.name) return t(`dir.${posOf(seat)}`);
  return info.name;
}

function alone() {
  const seats = S.room?.seats || [];
  return S.seat !== null && seats.every((s, i) => i === S.seat || s.kind === "computer");
}

function rules() {
  return S.room?.rules || view()?.rules || null;
}

// -- drawing -------------------------------------------------------------------------------

function renderAll() {
  if ($("table-screen").hidden) return;
  renderRulesBar();
  renderPlates();
  renderTrick();
  renderHand();
  renderExposure();
  renderSheet();
  renderStatus();
  renderRoomBar();
}

function renderConn() {
  const box = $("conn");
  if (!box) return;
  box.textContent = S.connected ? t("conn.online") : t("conn.reconnecting");
  box.classList.toggle("off", !S.connected);
}

function renderRulesBar() {
  const bar = $("rules-bar");
  const room = S.room;
  if (!room) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const r = room.rules || {};
  const exposure = Boolean(r.exposable && String(r.exposable).trim());
  const parts = [
    t("rules.threshold", { n: room.threshold }),
    t(r.sign_swap ? "rules.swap_on" : "rules.swap_off"),
    t(exposure ? "rules.exposure_on" : "rules.exposure_off"),
    t("rules.level", { level: t(`level.${room.level}`) }),
    t("rules.deal", { n: (S.msg?.deal_no ?? room.deals_played + 1), max: room.max_deals }),
  ];
  bar.replaceChildren(
    ...parts.map((p) => el("span", { class: "chip", text: p })),
    el("details", { class: "rules-text" },
      el("summary", { text: t("rules.more") }),
      el("pre", { text: room.rules_text || "" })),
  );
}

function cardImg(code, cls = "mini") {
  return el("img", { class: cls, src: `/cards/${code}.svg`, alt: cardName(code), draggable: "false" });
}

function renderPlates() {
  const v = view();
  const n = nSeats();
  const plates = [...document.querySelectorAll(".felt > .plate")];
  for (const plate of plates) plate.replaceChildren();
  for (let seat = 0; seat < n; seat += 1) {
    const pos = posOf(seat);
    const plate = plates.find((p) => Number(p.dataset.pos) === pos);
    if (!plate) continue;
    plate.dataset.seat = String(seat);
    const info = S.room?.seats?.[seat] || {};
    const total = S.room?.totals?.[seat] ?? 0;
    const dealPts = v?.running_totals?.[seat];
    const toAct = v && v.phase === "play" && v.to_act === seat;
    plate.classList.toggle("to-act", Boolean(toAct));
    plate.classList.toggle("mine", seat === S.seat);
    plate.setAttribute("aria-label", `${t(`dir.${pos}`)}: ${seatName(seat)}`);
    const kind = info.kind === "computer" ? t("seat.computer") : t("seat.human");
    const head = el("div", { class: "plate-head" },
      el("span", {
        class: `avatar ${info.kind === "computer" ? "computer" : ""}`, "aria-hidden": "true",
        text: info.kind === "computer" ? t(`dir.${pos}`).slice(0, 1) : ((info.name || seatName(seat)).slice(0, 1).toUpperCase() || "?"),
      }),
      el("span", { class: "who" },
        el("span", { class: "name", text: seatName(seat) }),
        el("span", { class: "kind", text: info.kind === "human" && !info.connected
          ? `${kind} · ${t("seat.away")}` : kind })),
      el("span", { class: "total", "data-testid": "total", title: t("plate.total"), text: signed(total) }));
    const count = v?.hand_sizes?.[seat] ?? 0;
    const body = [head];
    if (seat !== S.seat && count > 0) {
      const backs = el("div", { class: "backs", "aria-label": t("plate.cards_left", { n: count }) });
      for (let i = 0; i < Math.min(count, 13); i += 1) backs.append(el("span", { class: "back" }));
      backs.append(el("span", { class: "count", text: String(count) }));
      body.push(backs);
    }
    const exposed = v?.exposures?.[seat] || [];
    const faceDown = v?.face_down_counts?.[seat] || 0;
    if (exposed.length || faceDown) {
      const box = el("div", { class: "exposed", "data-testid": "exposed", title: t("plate.exposed") },
        el("span", { class: "label", text: t("plate.exposed") }));
      for (const code of exposed) {
        const img = cardImg(code);
        img.dataset.card = code;
        box.append(img);
      }
      for (let i = 0; i < faceDown; i += 1) box.append(cardImg("back"));
      body.push(box);
    }
    const taken = v?.captured_points?.[seat] || [];
    const captured = el("div", { class: "captured", "data-testid": "captured" },
      el("span", { class: "label", text: t("plate.taken") }),
      el("span", { class: "pts", "data-points": dealPts ?? "", text: dealPts === null || dealPts === undefined ? "" : signed(dealPts) }));
    for (const code of taken) {
      const img = cardImg(code, "micro");
      img.dataset.captured = code;
      captured.append(img);
    }
    body.push(captured);
    if (S.seat === null && (info.kind === "computer" || (info.kind === "human" && !info.connected))) {
      body.push(el("button", {
        type: "button", class: "sit", "data-sit": seat, "data-testid": `sit-${seat}`,
        text: t("seat.sit"), onclick: () => sit(seat),
      }));
    }
    plate.append(...body);
  }
}

function sit(seat) {
  const name = (load(STORE.name) || "").trim().slice(0, 32) || t("start.default_name");
  send({ type: "sit", seat, name });
}

/** A friend who opens the room's link without a seat of their own takes the first seat a
 *  computer holds, once (a full table leaves them watching, with "Take this seat" buttons). */
function autoSit() {
  if (S.seat !== null || S.token || S.autoSat === S.roomId) return;
  const free = (S.room?.seats || []).findIndex((s) => s.kind === "computer");
  if (free < 0) return;
  S.autoSat = S.roomId;
  sit(free);
}

function trickCard(code, seat, cls = "") {
  const img = cardImg(code, `tcard ${cls}`);
  img.dataset.card = code;
  img.dataset.from = String(seat);
  img.dataset.pos = String(posOf(seat));
  return img;
}

function renderTrick() {
  const v = view();
  const box = $("trick");
  box.replaceChildren();
  const trick = v?.current_trick;
  if (trick) {
    trick.cards.forEach((code, i) => box.append(trickCard(code, trick.seats[i])));
  }
  const last = $("last-trick");
  const done = v?.tricks?.length ? v.tricks[v.tricks.length - 1] : null;
  if (done && v.phase !== "complete") {
    last.hidden = false;
    last.replaceChildren(
      el("span", { class: "label", text: t("trick.last", { who: seatName(done.winner) }) }),
      ...done.cards.map((code) => cardImg(code, "micro")),
    );
  } else {
    last.hidden = true;
    last.replaceChildren();
  }
}

let flashTimer = 0;
function flashTrick(trick) {
  const box = $("trick-flash");
  clearTimeout(flashTimer);
  box.replaceChildren(
    ...trick.cards.map((code, i) => {
      const img = cardImg(code, "tcard");
      img.dataset.pos = String(posOf(trick.seats[i]));
      return img;
    }),
    el("span", { class: "flash-label", text: t("trick.takes", { who: seatName(trick.winner) }) }),
  );
  box.dataset.winner = String(posOf(trick.winner));
  box.hidden = false;
  flashTimer = setTimeout(hideFlash, 1400);
}

function hideFlash() {
  clearTimeout(flashTimer);
  const box = $("trick-flash");
  box.hidden = true;
  box.replaceChildren();
}

function sortedHand() {
  const hand = [...(view()?.hand || [])];
  return hand.sort((a, b) => (SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]])
    || (RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0])));
}

function renderHand() {
  const box = $("hand");
  const v = view();
  const cards = sortedHand();
  const focused = document.activeElement?.dataset?.card;
  box.replaceChildren();
  box.style.setProperty("--n", String(Math.max(cards.length, 1)));
  const exposed = new Set([...(v?.exposures?.[S.seat] || []), ...(v?.own_face_down || [])]);
  cards.forEach((code, i) => {
    const legal = isLegal(code);
    const hint = S.hints?.[code];
    const button = el("button", {
      type: "button",
      class: "card",
      "data-card": code,
      "data-legal": legal ? "true" : "false",
      "data-lifted": S.lifted === code ? "true" : "false",
      "aria-pressed": S.lifted === code ? "true" : "false",
      // Not aria-disabled: an illegal card stays clickable, the click explains why.
      "aria-label": cardName(code) + (exposed.has(code) ? ` — ${t("plate.exposed")}` : "")
        + (legal || !myTurn() ? "" : ` — ${t("hand.not_playable")}`),
      style: `--i:${i}`,
      onclick: (e) => {
        e.stopPropagation();
        clickCard(code);
      },
    }, cardImg(code, "face"));
    if (exposed.has(code)) button.classList.add("is-exposed");
    if (S.leaving === code) button.classList.add("leaving");
    if (hint) {
      button.append(el("span", {
        class: "hint-badge", "data-hint": hint.expected,
        title: `± ${Number(hint.stderr ?? 0).toFixed(1)}`,
        text: signed(Math.round(hint.expected)),
      }));
    }
    box.append(button);
  });
  if (focused) box.querySelector(`[data-card="${focused}"]`)?.focus();
  $("play").disabled = !(S.lifted && myTurn());
  $("hint").disabled = !myTurn();
  const skippable = alone() && v && (v.phase === "play" || v.phase === "exposure") && !S.msg?.game_over;
  $("skip-deal").hidden = !skippable;
  $("felt").title = skippable ? t("hand.skip_tip") : "";
}

function clickCard(code) {
  if (!view()) return;
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

function playCard(code) {
  if (!code || !myTurn()) return;
  if (sendAction({ type: "play", seat: S.seat, card: code })) {
    S.lifted = null;
    S.leaving = code; // shown fading until the server's next state takes it from the hand
    renderHand();
  }
}

function renderExposure() {
  const panel = $("exposure-panel");
  const v = view();
  const options = S.msg?.exposure_options || [];
  const open = Boolean(v && v.phase === "exposure" && options.length && S.seat !== null && !S.pendingExposure);
  if (!open) {
    panel.hidden = true;
    return;
  }
  const box = $("exposure-options");
  const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => i.dataset.expose));
  const wasOpen = !panel.hidden;
  box.replaceChildren(...options.map((o) => {
    const input = el("input", {
      type: "checkbox", "data-expose": o.card, id: `expose-${o.card}`,
      onchange: updateExposeButton,
    });
    input.checked = wasOpen && checked.has(o.card);
    return el("label", { class: "expose-option", for: `expose-${o.card}` },
      input, cardImg(o.card, "expose-card"),
      el("span", { class: "expose-text", text: previewText(o) }));
  }));
  const r = rules();
  $("face-down-row").hidden = !(r && r.exposure_kind === "face-down-up");
  panel.hidden = false;
  updateExposeButton();
}

/** "Pig −100 → −200", "Transformer ×2 → ×4", "A♥: hearts ×1 → ×2" from one exposure option. */
function previewText(o) {
  const line = o.line || { QS: "pig", JD: "sheep", TC: "transformer", AH: "hearts" }[o.card] || "card";
  const factor = line === "transformer" || line === "hearts" || line === "multiplier";
  const fmt = (n) => (factor ? `×${n}` : signed(n));
  return t(`exposure.${line}`, { card: cardText(o.card), before: fmt(o.before), after: fmt(o.after) });
}

function updateExposeButton() {
  const n = $("exposure-options").querySelectorAll("input:checked").length;
  const button = $("expose-confirm");
  button.textContent = t("exposure.confirm", { n }); // "Expose 0 and play" = don't expose
}

function decideExposure(expose) {
  const cards = expose
    ? [...$("exposure-options").querySelectorAll("input:checked")].map((i) => i.dataset.expose)
    : [];
  const faceDown = expose && !$("face-down-row").hidden && $("face-down").checked;
  if (sendAction({ type: "expose", seat: S.seat, cards, face_down: faceDown, blind: false })) {
    S.pendingExposure = true;
    renderExposure();
    renderStatus();
  }
}

const LINES = [
  [1, "hearts"], [2, "pig"], [3, "sheep"], [4, "base"], [5, "transformer"], [6, "deal"], [7, "total"],
];

function lineValue(p, key, seat) {
  switch (key) {
    case "transformer": return p.total - p.base - (p.bonus || 0);
    case "deal": return p.total;
    case "total": return S.room?.totals?.[seat] ?? p.total;
    default: return p[key];
  }
}

function renderSheet() {
  const panel = $("sheet-panel");
  const score = S.msg?.last_score;
  const over = S.msg?.game_over;
  if (!score) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const players = score.players || [];
  const seats = players.map((p) => p.seat);
  $("sheet-title").textContent = t("sheet.title", { n: S.msg.deal_no });
  const table = $("score-sheet");
  const head = el("tr", {}, el("th", { scope: "col", text: "" }),
    ...seats.map((s) => el("th", { scope: "col", "data-col": s, text: seatName(s) })));
  // The point cards each seat took (the view's captured_points; the sheet's own list has them all).
  const pointCards = (p) => view()?.captured_points?.[p.seat] ?? p.cards;
  const cardsRow = el("tr", { class: "taken" }, el("th", { scope: "row", text: t("sheet.cards") }),
    ...players.map((p) => el("td", { "data-col": p.seat },
      ...(pointCards(p).length ? pointCards(p).map((c) => cardImg(c, "micro"))
        : [el("span", { text: "—" })]))));
  const rows = LINES.map(([n, key]) => el("tr", { "data-line": n },
    el("th", { scope: "row", text: t(`sheet.line${n}`) }),
    ...players.map((p) => {
      const cell = el("td", { "data-seat": p.seat, text: String(lineValue(p, key, p.seat)) });
      if (key === "hearts" && p.all_hearts) cellMark(cell, t("sheet.all_hearts"));
      if (key === "transformer" && p.transformer === "MULTIPLIER") cellMark(cell, `×${p.multiplier}`);
      if (key === "transformer" && p.transformer === "LONE_BONUS") cellMark(cell, t("sheet.alone"));
      if (key === "deal" && p.grand_slam) cellMark(cell, t("sheet.grand_slam"));
      return cell;
    })));
  table.replaceChildren(el("thead", {}, head), el("tbody", {}, cardsRow, ...rows));
  const notes = [];
  for (const p of players) {
    if (p.all_hearts) notes.push(t("sheet.note_all_hearts", { who: seatName(p.seat) }));
    if (p.transformer === "MULTIPLIER") {
      notes.push(t("sheet.note_doubled", { who: seatName(p.seat), m: p.multiplier }));
    }
    if (p.grand_slam) notes.push(t("sheet.note_slam", { who: seatName(p.seat) }));
  }
  const caption = el("caption", { text: notes.length ? notes.join(" · ") : t("sheet.no_marks") });
  table.prepend(caption);

  const totals = S.room?.totals || [];
  const order = totals.map((v, s) => [s, v]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  $("standings").replaceChildren(...order.map(([s, v], i) => el("li", { "data-standing": s },
    el("span", { class: "rank", text: `${i + 1}.` }),
    el("span", { class: "name", text: seatName(s) }),
    el("span", { class: "pts", text: signed(v) }))));

  const go = $("game-over");
  if (over) {
    const names = (list) => (list || []).map(seatName).join(", ") || "—";
    go.hidden = false;
    go.replaceChildren(
      el("strong", { text: t("over.title") }),
      el("p", { text: t("over.first", { who: names(over.winners) }) }),
      el("p", { text: t("over.pig", { who: names(over.losers) }) }),
    );
  } else {
    go.hidden = true;
    go.replaceChildren();
  }
  $("next-deal").hidden = Boolean(over);
  $("play-again").hidden = !over;
  $("next-deal").disabled = S.seat === null;
}

function cellMark(cell, text) {
  cell.classList.add("marked");
  cell.dataset.mark = text;
  cell.title = text;
}

function renderStatus() {
  const v = view();
  const box = $("status");
  if (!v) {
    box.textContent = S.connected ? t("status.loading") : t("conn.reconnecting");
    return;
  }
  let text;
  if (S.msg?.game_over) text = t("over.title");
  else if (v.phase === "complete") text = t("status.deal_over");
  else if (v.phase === "exposure") {
    text = S.pendingExposure || !(S.msg?.exposure_options || []).length
      ? t("status.exposure_wait") : t("status.exposure");
  } else if (myTurn()) {
    text = v.current_trick?.cards?.length ? t("status.your_turn") : t("status.your_lead");
  } else if (v.phase === "play") text = t("status.waiting", { who: seatName(v.to_act) });
  else text = t(`phase.${v.phase}`);
  box.textContent = `${t("status.trick", { n: Math.min(v.trick_number, 13) })} · ${text}`;
  if (S.seat === null) box.textContent += ` · ${t("status.spectator")}`;
}

function renderRoomBar() {
  const link = $("invite");
  const path = S.room?.invite || (S.roomId ? `/t/${S.roomId}` : "/");
  const url = new URL(path, location.origin).href;
  link.href = url;
  link.textContent = url;
  renderConn();
}

// -- keyboard, clicks on the table ------------------------------------------------------------

function onKey(e) {
  if ($("table-screen").hidden || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = e.target?.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const cards = sortedHand();
  if (!cards.length) return;
  const onCard = Boolean(e.target?.dataset?.card);
  let index = -1;
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const at = cards.indexOf(S.lifted ?? e.target?.dataset?.card ?? "");
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
  $("hand").querySelector(`[data-card="${code}"]`)?.focus();
}

function onFeltClick(e) {
  if (e.target.closest(".overlay, button, a, details, .plate")) return;
  if (S.lifted) {
    // A click beside the cards puts a lifted card back (and skips nothing).
    S.lifted = null;
    renderHand();
    return;
  }
  // Source 001: alone at the table, a click on the table skips the deal.
  const v = view();
  if (alone() && v && (v.phase === "play" || v.phase === "exposure") && !S.msg?.game_over) skipDeal();
}

function skipDeal() {
  if (!alone()) return;
  // The computers may still be moving when the table is clicked: a `stale` answer makes the
  // page resync and ask once more (S.skipRetry), so the click is not lost.
  if (send({ type: "next", event: S.lastEvent ?? 0 })) S.skipRetry = true;
}

// -- start -----------------------------------------------------------------------------------

function main() {
  const lang = setLanguage(initialLanguage());
  $("lang").value = lang;
  $("lang").addEventListener("change", (e) => {
    setLanguage(e.target.value);
    // Reconnect, so that the hello tells the server the new language for its refusals.
    if (S.ws) S.ws.close();
    if (S.roomId) renderAll();
    else showStart();
    updateExposeButton();
  });
  $("start-form").addEventListener("submit", createRoom);
  $("play").addEventListener("click", () => playCard(S.lifted));
  $("hint").addEventListener("click", () => {
    if (send({ type: "hint", event: S.lastEvent ?? 0 })) showReason(t("hand.hint_wait"));
  });
  $("skip-deal").addEventListener("click", skipDeal);
  $("expose-confirm").addEventListener("click", () => decideExposure(true));
  $("expose-decline").addEventListener("click", () => decideExposure(false));
  $("next-deal").addEventListener("click", () => send({ type: "next", event: S.lastEvent ?? 0 }));
  $("play-again").addEventListener("click", () => send({ type: "new_game", event: S.lastEvent ?? 0 }));
  $("copy-invite").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("invite").href);
      showReason(t("room.copied"));
    } catch {
      showReason($("invite").href);
    }
  });
  $("felt").addEventListener("click", onFeltClick);
  document.addEventListener("keydown", onKey);
  window.addEventListener("popstate", route);
  applyStatic(document);
  route();
}

export { LANGUAGES };
main();
