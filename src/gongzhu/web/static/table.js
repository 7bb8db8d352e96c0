// @ts-check
// Drawing the table: plates, the trick (cards travel in, the trick sweeps to its winner), the
// hand, the exposure panel, the deal's score sheet, the dealing animation.
/** @typedef {import("./types.js").Trick} Trick */

import { $, el, reducedMotion } from "./dom.js";
import { cardName, cardText, language, signed, t } from "./i18n.js";
import { renderFeel } from "./feel.js";
import { renderFriends } from "./lobby.js";
import { renderTutorial } from "./tutorial.js";
import { renderGameOver, renderHistory, ruleChips } from "./panels.js";
import {
  S, alone, dealInPlay, hostSeat, isLegal, mayUndo, myTurn, nSeats, posOf, rules, seatName, view,
} from "./state.js";

const SUIT_ORDER = /** @type {Record<string, number>} */ ({ S: 0, H: 1, C: 2, D: 3 });
const RANK_ORDER = "23456789TJQKA";

/** @type {{play: (code: string) => void, click: (code: string) => void,
 *          sit: (seat: number) => void, release: (seat: number) => void}} */
export const actions = { play: () => {}, click: () => {}, sit: () => {}, release: () => {} };

export function renderAll() {
  if ($("table-screen").hidden) return;
  renderRulesBar();
  renderPlates();
  renderTrick();
  renderHand();
  renderExposure();
  renderSheet();
  renderStatus();
  renderRoomBar();
  renderHistory();
  renderGameOver();
  renderFriends();
  renderFeel();
  renderTutorial();
}

export function renderConn() {
  const box = $("conn");
  if (!box) return;
  box.textContent = S.connected ? t("conn.online") : t("conn.reconnecting");
  box.classList.toggle("off", !S.connected);
  // The same news on every screen size, above everything (the footer may be off screen).
  const badge = $("connection");
  badge.hidden = S.connected || !S.roomId;
  badge.textContent = t("conn.reconnecting");
}

function renderRulesBar() {
  const bar = $("rules-bar");
  const room = S.room;
  if (!room) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const deal = t("rules.deal", { n: (S.msg?.deal_no ?? room.deals_played + 1), max: room.max_deals ?? "—" });
  bar.replaceChildren(...[...ruleChips(), deal].map((p) => el("span", { class: "chip", text: p })));
  const number = room.seed;
  $("deal-number").textContent = number === null || number === undefined
    ? t("table.number_hidden") : t("table.number", { n: number });
  $("deal-number").dataset.number = number === null || number === undefined ? "" : String(number);
}

/** @param {string} code @param {string} [cls] */
export function cardImg(code, cls = "mini") {
  const src = code === "back" ? "/cards/back.svg" : `/cards/${code}.svg?lang=${language()}`;
  return el("img", { class: cls, src, alt: code === "back" ? "" : cardName(code), draggable: "false" });
}

/** Seconds left before a computer takes an away seat (counted down since the last state).
 * @param {number} seat */
export function countdown(seat) {
  const left = S.room?.seats?.[seat]?.takeover_in;
  if (left === null || left === undefined) return null;
  return Math.max(0, Math.ceil(left - (Date.now() - S.seatsAt) / 1000));
}

export function renderPlates() {
  const v = view();
  const n = nSeats();
  const plates = /** @type {HTMLElement[]} */ ([...document.querySelectorAll(".felt > .plate")]);
  for (const plate of plates) plate.replaceChildren();
  for (let seat = 0; seat < n; seat += 1) {
    const pos = posOf(seat);
    const plate = plates.find((p) => Number(p.dataset.pos) === pos);
    if (!plate) continue;
    plate.dataset.seat = String(seat);
    const info = S.room?.seats?.[seat] || { kind: "computer", name: "", connected: false, autoplay: true };
    const total = S.room?.totals?.[seat] ?? 0;
    const dealPts = v?.running_totals?.[seat];
    const toAct = v && v.phase === "play" && v.to_act === seat;
    const away = info.kind === "human" && !info.connected;
    const thinking = S.thinking === seat && seat !== S.seat;
    plate.classList.toggle("to-act", Boolean(toAct));
    plate.classList.toggle("mine", seat === S.seat);
    plate.dataset.thinking = thinking ? "true" : "false";
    if (away) {
      plate.dataset.away = "true";
      const left = countdown(seat);
      plate.dataset.countdown = left === null ? "" : String(left);
    } else {
      delete plate.dataset.away;
      delete plate.dataset.countdown;
    }
    plate.setAttribute("aria-label", `${t(`dir.${pos}`)}: ${seatName(seat)}`);
    let kind = info.kind === "computer" ? t("seat.computer") : t("seat.human");
    if (away) {
      const left = countdown(seat);
      kind = left === null || info.autoplay ? `${kind} · ${t("seat.away")}` : t("seat.away_for", { s: left });
    }
    if (thinking) kind = t("seat.thinking");
    const head = el("div", { class: "plate-head" },
      el("span", {
        class: `avatar ${info.kind === "computer" ? "computer" : ""}`, "aria-hidden": "true",
        text: info.kind === "computer" ? t(`dir.${pos}`).slice(0, 1) : ((info.name || seatName(seat)).slice(0, 1).toUpperCase() || "?"),
      }),
      el("span", { class: "who" },
        el("span", { class: "name", text: seatName(seat) }),
        el("span", { class: "kind", text: kind })),
      el("span", { class: "total", "data-testid": "total", title: t("plate.total"), text: signed(total) }));
    const count = v?.hand_sizes?.[seat] ?? 0;
    /** @type {HTMLElement[]} */
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
    const pts = dealPts === null || dealPts === undefined ? "" : signed(dealPts);
    // Named for screen readers and on hover or a tap: a phone hides the word "taken" itself.
    const named = pts ? t("plate.taken_points", { points: pts }) : t("plate.taken");
    const captured = el("div", {
      class: "captured", "data-testid": "captured", role: "group", "aria-label": named,
      title: named, "data-open": takenOpen === seat ? "true" : null,
      onclick: () => openTaken(seat), oncontextmenu: () => openTaken(seat),
    },
      el("span", { class: "label", "aria-hidden": "true", text: t("plate.taken") }),
      el("span", { class: "pts", "data-points": dealPts ?? "", title: named, text: pts }));
    for (const code of taken) {
      const img = cardImg(code, "micro");
      img.dataset.captured = code;
      captured.append(img);
    }
    body.push(captured);
    if (S.seat === null && (info.kind === "computer" || (away && info.autoplay))) {
      body.push(el("button", {
        type: "button", class: "sit", "data-sit": seat, "data-testid": `sit-${seat}`,
        text: t("seat.sit"), onclick: () => actions.sit(seat),
      }));
    }
    // The host may give an away seat back once its countdown has run out (the server
    // refuses it before: a Wi-Fi blip must not cost a friend the seat and the hand).
    if (away && countdown(seat) === 0 && S.seat !== null && S.seat === hostSeat()
        && seat !== S.seat) {
      body.push(el("button", {
        type: "button", class: "sit", "data-testid": "return-to-computer",
        text: t("seat.return"), onclick: () => actions.release(seat),
      }));
    }
    plate.append(...body);
  }
}

/** The plate whose "taken" word a tap or a long press shows for a moment (phones hide it). */
let takenOpen = -1;
let takenTimer = 0;

/** @param {number} seat */
function openTaken(seat) {
  takenOpen = seat;
  clearTimeout(takenTimer);
  takenTimer = window.setTimeout(() => {
    takenOpen = -1;
    renderPlates();
  }, 2500);
  renderPlates();
}

/** @param {string} code @param {number} seat @param {string} [cls] */
function trickCard(code, seat, cls = "") {
  const img = cardImg(code, `tcard ${cls}`);
  img.dataset.card = code;
  img.dataset.from = String(seat);
  img.dataset.pos = String(posOf(seat));
  return img;
}

/** The trick cards drawn last time: a card not among them travels in from its seat. */
let shownTrick = "";

function renderTrick() {
  const v = view();
  const box = $("trick");
  const before = new Set(shownTrick.split(","));
  box.replaceChildren();
  const trick = v?.current_trick;
  /** @type {string[]} */
  const now = [];
  if (trick) {
    trick.cards.forEach((code, i) => {
      const fresh = !before.has(code) && !reducedMotion();
      box.append(trickCard(code, trick.seats[i], fresh ? "arrive" : ""));
      now.push(code);
    });
  }
  shownTrick = now.join(",");
  const last = $("last-trick");
  const done = v?.tricks?.length ? v.tricks[v.tricks.length - 1] : null;
  $("last-trick-show").hidden = !(done && v && v.phase !== "complete");
  if (done && v && v.phase !== "complete") {
    last.hidden = false;
    last.replaceChildren(
      el("span", { class: "label", text: t("trick.last", { who: seatName(done.winner ?? 0) }) }),
      ...done.cards.map((code) => cardImg(code, "micro")),
    );
  } else {
    last.hidden = true;
    last.replaceChildren();
  }
}

let flashTimer = 0;
/** The last trick again, whole, in the middle of the table (the "Last trick" button). */
export function showLastTrick() {
  const done = view()?.tricks || [];
  if (done.length) flashTrick(done[done.length - 1], 2600);
}

/** A trick just completed: shown whole, then swept to the seat that took it.
 * @param {Trick} trick @param {number} [ms] */
export function flashTrick(trick, ms = 1400) {
  const box = $("trick-flash");
  clearTimeout(flashTimer);
  box.replaceChildren(
    ...trick.cards.map((code, i) => {
      const img = cardImg(code, "tcard");
      img.dataset.pos = String(posOf(trick.seats[i]));
      return img;
    }),
    el("span", { class: "flash-label", text: t("trick.takes", { who: seatName(trick.winner ?? 0) }) }),
  );
  box.dataset.winner = String(posOf(trick.winner ?? 0));
  box.hidden = false;
  box.classList.toggle("replay", ms > 1400);
  flashTimer = window.setTimeout(hideFlash, ms);
}

export function hideFlash() {
  clearTimeout(flashTimer);
  const box = $("trick-flash");
  box.hidden = true;
  box.replaceChildren();
}

export function sortedHand() {
  const hand = [...(view()?.hand || [])];
  return hand.sort((a, b) => (SUIT_ORDER[a[1]] - SUIT_ORDER[b[1]])
    || (RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0])));
}

export function renderHand() {
  const box = $("hand");
  const v = view();
  const cards = sortedHand();
  const focused = /** @type {HTMLElement|null} */ (document.activeElement)?.dataset?.card;
  box.replaceChildren();
  box.style.setProperty("--n", String(Math.max(cards.length, 1)));
  box.classList.toggle("dealing-in", S.dealing);
  const exposed = new Set([...(v?.exposures?.[S.seat ?? -1] || []), ...(v?.own_face_down || [])]);
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
      onclick: (/** @type {Event} */ e) => {
        e.stopPropagation();
        actions.click(code);
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
  if (focused) /** @type {HTMLElement|null} */ (box.querySelector(`[data-card="${focused}"]`))?.focus();
  const playing = Boolean(v && v.phase === "play" && S.seat !== null && cards.length);
  $("actions").hidden = !playing; // Play and Hint only while the deal is played
  /** @type {HTMLButtonElement} */ ($("play")).disabled = !(S.lifted && myTurn());
  /** @type {HTMLButtonElement} */ ($("hint")).disabled = !myTurn();
  $("autoplay").hidden = !(alone() && dealInPlay());
  $("undo").hidden = !mayUndo();
}

export function renderExposure() {
  const panel = $("exposure-panel");
  const v = view();
  const options = S.msg?.exposure_options || [];
  const open = Boolean(v && v.phase === "exposure" && options.length && S.seat !== null
    && !S.pendingExposure && !S.dealing);
  if (!open) {
    panel.hidden = true;
    return;
  }
  const box = $("exposure-options");
  const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => /** @type {HTMLElement} */ (i).dataset.expose));
  const wasOpen = !panel.hidden;
  box.replaceChildren(...options.map((o) => {
    const input = /** @type {HTMLInputElement} */ (el("input", {
      type: "checkbox", "data-expose": o.card, id: `expose-${o.card}`,
      onchange: updateExposeButton,
    }));
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

/** "Pig −100 → −200", "Transformer ×2 → ×4", "A♥: hearts ×1 → ×2" from one exposure option.
 * @param {import("./types.js").ExposureOption} o */
function previewText(o) {
  /** @type {Record<string, string>} */
  const lines = { QS: "pig", JD: "sheep", TC: "transformer", AH: "hearts" };
  const line = o.line || lines[o.card] || "card";
  const factor = line === "transformer" || line === "hearts" || line === "multiplier";
  const fmt = (/** @type {number} */ n) => (factor ? `×${n}` : signed(n));
  return t(`exposure.${line}`, { card: cardText(o.card), before: fmt(o.before), after: fmt(o.after) });
}

export function updateExposeButton() {
  const n = $("exposure-options").querySelectorAll("input:checked").length;
  const button = $("expose-confirm");
  // Nothing ticked: only "Don't expose" is offered (never "Expose 0 and play").
  button.hidden = n === 0;
  button.textContent = t("exposure.confirm", { n });
  const help = $("exposure-panel").querySelector(".small");
  if (help) help.textContent = t(n === 0 ? "exposure.pick" : "exposure.help");
}

const LINES = /** @type {[number, string][]} */ ([
  [1, "hearts"], [2, "pig"], [3, "sheep"], [4, "base"], [5, "transformer"], [6, "deal"], [7, "total"],
]);

/** @param {import("./types.js").PlayerScore} p @param {string} key @param {number} seat */
function lineValue(p, key, seat) {
  switch (key) {
    case "transformer": return p.total - p.base - (p.bonus || 0);
    case "deal": return p.total;
    case "total": return S.room?.totals?.[seat] ?? p.total;
    default: return /** @type {any} */ (p)[key];
  }
}

function renderSheet() {
  const panel = $("sheet-panel");
  const score = S.msg?.last_score;
  // Game over and its ranking closed: the felt itself is shown (the sheet stays in History).
  const closed = S.msg?.game_over && S.overClosed === (S.room?.game_no ?? 0);
  if (!score || S.dealing || closed) {
    panel.hidden = true;
    return;
  }
  const over = S.msg?.game_over;
  panel.hidden = false;
  const players = score.players || [];
  const seats = players.map((p) => p.seat);
  $("sheet-title").textContent = t("sheet.title", { n: S.msg?.deal_no ?? 0 });
  const table = $("score-sheet");
  const head = el("tr", {}, el("th", { scope: "col", text: "" }),
    ...seats.map((s) => el("th", { scope: "col", "data-col": s, text: seatName(s) })));
  // The point cards each seat took (the view's captured_points; the sheet's own list has them all).
  const pointCards = (/** @type {import("./types.js").PlayerScore} */ p) => view()?.captured_points?.[p.seat] ?? p.cards;
  const exposedBy = (/** @type {number} */ s) => view()?.exposures?.[s] || [];
  const cardsRow = el("tr", { class: "taken" }, el("th", { scope: "row", text: t("sheet.cards") }),
    ...players.map((p) => el("td", { "data-col": p.seat },
      ...(pointCards(p).length ? pointCards(p).map((c) => {
        const img = cardImg(c, "micro");
        if (exposedBy(p.seat).includes(c)) img.classList.add("was-exposed");
        return img;
      }) : [el("span", { text: "—" })]))));
  const rows = LINES.map(([n, key]) => el("tr", { "data-line": n },
    el("th", { scope: "row", text: t(`sheet.line${n}`) }),
    ...players.map((p) => {
      const cell = el("td", { "data-seat": p.seat, text: signed(lineValue(p, key, p.seat)) });
      if (key === "hearts" && p.all_hearts) cellMark(cell, t("sheet.all_hearts"));
      if (key === "transformer" && p.transformer === "MULTIPLIER") cellMark(cell, `×${p.multiplier}`);
      if (key === "transformer" && p.transformer === "LONE_BONUS") cellMark(cell, t("sheet.alone"));
      if (key === "deal" && p.grand_slam) cellMark(cell, t("sheet.grand_slam"));
      markExposed(cell, p, key, score, exposedBy);
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
  table.prepend(el("caption", { text: notes.length ? notes.join(" · ") : t("sheet.no_marks") }));

  const totals = S.room?.totals || [];
  const order = totals.map((v, s) => [s, v]).sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  $("standings").replaceChildren(...order.map(([s, v], i) => el("li", { "data-standing": s },
    el("span", { class: "rank", text: `${i + 1}.` }),
    el("span", { class: "name", text: seatName(s) }),
    el("span", { class: "pts", text: signed(v) }))));
  const undos = S.room?.undos?.[(S.msg?.deal_no ?? 1) - 1] ?? 0;
  const undoNote = $("sheet-undos");
  undoNote.hidden = !undos;
  undoNote.dataset.undos = String(undos);
  undoNote.textContent = undos ? t("sheet.undos", { n: undos }) : "";
  $("next-deal").hidden = Boolean(over);
  /** @type {HTMLButtonElement} */ ($("next-deal")).disabled = S.seat === null;
}

/** An exposed card's doubling is marked on the cell it doubled: the taker's line of that card
 * (every hearts line for A♥), with the card in `data-exposed` and who exposed it.
 * @param {HTMLElement} cell @param {any} p @param {string} key @param {any} score
 * @param {(s: number) => string[]} exposedBy */
function markExposed(cell, p, key, score, exposedBy) {
  const card = /** @type {Record<string, string>} */ ({ hearts: "AH", pig: "QS", sheep: "JD", transformer: "TC" })[key];
  if (!card || !(card in (score.exposed || {}))) return;
  const doubled = card === "AH" ? lineValue(p, key, p.seat) !== 0 : (p.cards || []).includes(card);
  if (!doubled) return;
  const by = [0, 1, 2, 3].find((s) => exposedBy(s).includes(card));
  cell.dataset.exposed = card;
  cellMark(cell, t("sheet.exposed_by", { card: cardText(card), who: by === undefined ? "—" : seatName(by) }));
}

/** @param {HTMLElement} cell @param {string} text */
function cellMark(cell, text) {
  cell.classList.add("marked");
  cell.dataset.mark = cell.dataset.mark ? `${cell.dataset.mark} · ${text}` : text;
  cell.title = cell.dataset.mark;
}

export function renderStatus() {
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
  } else if (v.phase === "play" && v.to_act !== null) text = t("status.waiting", { who: seatName(v.to_act) });
  else text = t(`phase.${v.phase}`);
  box.textContent = `${t("status.trick", { n: Math.min(v.trick_number, 13) })} · ${text}`;
  if (S.seat === null) box.textContent += ` · ${t("status.spectator")}`;
}

function renderRoomBar() {
  const link = /** @type {HTMLAnchorElement} */ ($("invite"));
  const path = S.room?.invite || (S.roomId ? `/t/${S.roomId}` : "/");
  const url = new URL(path, location.origin).href;
  link.href = url;
  link.textContent = url;
  renderConn();
}

// -- the dealing animation -------------------------------------------------------------------

let dealTimer = 0;

/** Deal the 52 cards out one by one to the four seats (a click on the table ends it). */
export function startDealing() {
  if (reducedMotion()) return;
  const box = $("dealing");
  const leader = view()?.to_act ?? 0;
  const cards = [];
  for (let k = 0; k < 52; k += 1) {
    const seat = (leader + k) % 4;
    cards.push(el("span", { class: "deal-card", "data-to": posOf(seat), style: `--k:${k}` }));
  }
  box.replaceChildren(el("span", { class: "dealing-label", text: t("dealing.label") }), ...cards);
  box.hidden = false;
  S.dealing = true;
  clearTimeout(dealTimer);
  dealTimer = window.setTimeout(endDealing, 52 * 30 + 450);
}

/** End the dealing animation at once (its timer, or a click on the table). */
export function endDealing() {
  clearTimeout(dealTimer);
  if (!S.dealing) return;
  S.dealing = false;
  const box = $("dealing");
  box.hidden = true;
  box.replaceChildren();
  renderAll();
}
