// @ts-check
// Learning from a deal: the post-deal review (every trick, everyone's cards, where the player
// lost points, as the server's search judged from the player's own view), the deal's code with
// "play it again" and "copy its link", a game record opened in the page (/replay), and the
// deal of the day with its board. The server computes every judgement; this module draws it.

import { $, el } from "./dom.js";
import { cardText, signed, t } from "./i18n.js";
import { S, seatName } from "./state.js";
import { KEYS, load, saveToken } from "./store.js";

/** @typedef {{seat: number, card: string}} Played */
/** @typedef {{number: number, leader: number, winner: number, cards: Played[]}} ReviewTrick */
/** @typedef {{trick: number, card: string, better: string, points: number}} ReviewLoss */
/** @typedef {{chosen: string[], better: string[], points: number}} ReviewExposure */
/**
 * @typedef {object} Review
 * @property {number} seat
 * @property {number} score
 * @property {number[]} totals
 * @property {string[][]} hands
 * @property {ReviewTrick[]} tricks
 * @property {ReviewLoss[]} losses
 * @property {ReviewExposure|null} [exposure] the exposure decision, when it was a clear loss
 * @property {number} deal
 * @property {number} deals
 * @property {string[]} names
 * @property {string} [code]
 */

const R = {
  /** @type {Review|null} */ data: null,
  step: 0,
  /** Where the review came from: the room's deal, or a record's text. */
  /** @type {{room?: string, record?: any}|null} */ source: null,
};

const DIRS = ["dir.0", "dir.1", "dir.2", "dir.3"];

/** A seat as the review names it: the player's own is "You". @param {number} seat */
function who(seat) {
  if (R.source?.room && R.source.room === S.roomId) return seatName(seat);
  return R.data?.names?.[seat] || t(DIRS[seat]);
}

/** @param {string} code */
function card(code) {
  return el("span", { class: "rv-card", "data-card": code, "data-suit": code[1], text: cardText(code) });
}

// -- the panel --------------------------------------------------------------------------------

function render() {
  const data = R.data;
  if (!data) return;
  $("review-title").textContent = t("review.title", { n: data.deal });
  const exposure = data.exposure ?? null;
  const costly = data.losses.length + (exposure ? 1 : 0);
  const lost = data.losses.reduce((sum, l) => sum + l.points, exposure?.points ?? 0);
  $("review-summary").textContent = [
    t("review.score", { who: who(data.seat), points: signed(data.score) }),
    costly ? t("review.lost", { n: costly, points: lost }) : t("review.no_loss"),
  ].join(" ");
  const losses = new Map(data.losses.map((l) => [l.trick, l]));
  $("review-tricks").replaceChildren(...data.tricks.map((tr, i) => {
    const loss = losses.get(tr.number);
    const item = el("li", {
      class: "review-trick", "data-testid": "review-trick", "data-trick": tr.number,
      "data-winner": tr.winner, tabindex: -1, "aria-current": i === R.step ? "step" : null,
    },
    el("span", { class: "rv-no", text: t("review.trick", { n: tr.number }) }),
    el("span", { class: "rv-cards" }, ...tr.cards.map((p) => el("span", {
      class: p.seat === tr.winner ? "rv-play rv-won" : "rv-play", "data-seat": p.seat,
      "data-mine": p.seat === data.seat ? "true" : null,
    }, el("span", { class: "rv-who", text: who(p.seat) }), card(p.card)))),
    // Marks in words and symbols, not colour alone.
    el("span", { class: "rv-winner", text: `★ ${t("review.winner", { who: who(tr.winner) })}` }),
    loss ? el("span", { class: "rv-mark", text: `⚠ ${signed(-loss.points)}` }) : null);
    item.addEventListener("click", () => go(i));
    return item;
  }));
  $("review-losses").replaceChildren(...(exposure ? [exposureLoss(exposure)] : []), ...data.losses.map((l) => el("li", {
    class: "review-loss", "data-testid": "review-loss", "data-trick": l.trick,
    "data-points": l.points, "data-better": l.better,
  }, el("span", { class: "rv-mark", text: "⚠ " }), t("review.loss", {
    n: l.trick, card: cardText(l.card), better: cardText(l.better), points: l.points,
  }))));
  $("review-losses-wrap").hidden = costly === 0;
  $("review-hands").replaceChildren(...data.hands.map((hand, s) => el("div", { class: "rv-hand", "data-seat": s },
    el("span", { class: "rv-who", text: `${who(s)} (${signed(data.totals?.[s] ?? 0)})` }),
    el("span", { class: "rv-cards" }, ...hand.map(card)))));
  const deals = $("review-deal");
  deals.hidden = !R.source?.record || data.deals < 2;
  deals.replaceChildren(...Array.from({ length: data.deals }, (_, k) =>
    el("option", { value: k + 1, selected: k + 1 === data.deal, text: t("review.deal", { n: k + 1 }) })));
  stepTo(R.step);
}

/** The exposure decision's loss, first in the list. @param {ReviewExposure} x */
function exposureLoss(x) {
  /** @param {string[]} codes */
  const cards = (codes) => codes.map((c) => cardText(c)).join(" ");
  const words = { cards: cards(x.chosen), better: cards(x.better), points: x.points };
  const text = !x.better.length ? t("review.exposure_exposed", words)
    : !x.chosen.length ? t("review.exposure_declined", words) : t("review.exposure_other", words);
  return el("li", {
    class: "review-loss", "data-testid": "review-loss", "data-exposure": "1",
    "data-points": x.points, "data-chosen": x.chosen.join(" "), "data-better": x.better.join(" "),
  }, el("span", { class: "rv-mark", text: "⚠ " }), text);
}

/** @param {number} index */
function stepTo(index) {
  const items = [...$("review-tricks").children];
  if (!items.length) return;
  R.step = Math.max(0, Math.min(items.length - 1, index));
  items.forEach((item, i) => {
    if (i === R.step) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  });
  $("review-where").textContent = t("review.where", { n: R.step + 1 });
  /** @type {HTMLButtonElement} */ ($("review-prev")).disabled = R.step === 0;
  /** @type {HTMLButtonElement} */ ($("review-next")).disabled = R.step === items.length - 1;
  const current = /** @type {HTMLElement} */ (items[R.step]);
  current.scrollIntoView?.({ block: "nearest" });
}

/** @param {number} index */
function go(index) {
  stepTo(index);
}

/** @param {string} text */
function busy(text) {
  $("review-title").textContent = t("review.open");
  $("review-summary").textContent = text;
  $("review-tricks").replaceChildren();
  $("review-losses").replaceChildren();
  $("review-hands").replaceChildren();
  $("review-losses-wrap").hidden = true;
  $("review-panel").hidden = false;
}

/** @param {Response} response */
async function take(response) {
  if (!response.ok) {
    let message = `${response.status}`;
    try {
      message = (await response.json()).message || message;
    } catch { /* not JSON */ }
    throw new Error(message);
  }
  R.data = /** @type {Review} */ (await response.json());
  R.step = 0;
  render();
  $("review-panel").hidden = false;
  $("review-next").focus();
}

/** The address of the room's finished deal's review for this seat, or "". */
function reviewUrl() {
  if (!S.roomId || !S.msg?.last_score) return "";
  return `/api/rooms/${encodeURIComponent(S.roomId)}/review?deal=${S.msg.deal_no}&seat=${S.seat ?? 0}`;
}

/** Asked for as soon as the deal ends (the server keeps it), so it is ready when opened. */
/** @type {{url: string, response: Promise<Response>}|null} */
let early = null;

function prefetch() {
  const url = reviewUrl();
  if (!url || S.seat === null || early?.url === url) return;
  early = { url, response: fetch(url) };
  early.response.catch(() => { early = null; });
}

/** The room's finished deal, reviewed for this seat. */
export async function openRoomReview() {
  const url = reviewUrl();
  if (!url) return;
  R.source = { room: S.roomId || "" };
  busy(t("review.working"));
  try {
    let response = early?.url === url ? await early.response.then((r) => r.clone()) : null;
    if (!response || !response.ok) response = await fetch(url);
    await take(response);
  } catch (error) {
    $("review-summary").textContent = t("review.failed", { detail: String(/** @type {Error} */ (error).message || error) });
  }
}

/** A record's deal reviewed (the record as JSON data). @param {any} record @param {number} deal */
async function reviewRecord(record, deal) {
  R.source = { record };
  busy(t("review.working"));
  try {
    await take(await fetch("/api/review", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ record, deal, seat: 0 }),
    }));
  } catch (error) {
    $("review-summary").textContent = t("review.failed", { detail: String(/** @type {Error} */ (error).message || error) });
  }
}

/** @param {Event} e */
async function openRecordFile(e) {
  const input = /** @type {HTMLInputElement} */ (e.target);
  const file = input.files?.[0];
  if (!file) return;
  let record;
  try {
    record = JSON.parse(await file.text());
  } catch {
    busy(t("review.failed", { detail: t("review.not_record") }));
    return;
  }
  await reviewRecord(record, 1);
}

// -- deal codes, links, the deal of the day --------------------------------------------------

/** Create a table (POST `url`) and open it: the seat's token is kept like a new game's.
 * @param {string} url @param {Record<string, any>} body */
async function startTable(url, body) {
  const name = (load(KEYS.name) || "").trim().slice(0, 32) || t("start.default_name");
  const response = await fetch(url, {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ ...body, name }),
  });
  if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
  const room = await response.json();
  saveToken(room.room, room.token);
  location.assign(room.url || `/t/${room.room}`);
}

/** A deal's link (/d/CODE) opened: a table for that deal, at once. @param {string} code */
export function openDealLink(code) {
  $("start").hidden = false;
  $("start-error").textContent = t("deal.opening");
  startTable("/api/deals", { code }).catch((error) => {
    $("start-error").textContent = t("error.create", { detail: String(error.message || error) });
  });
}

function dealHref() {
  const code = S.msg?.deal_code;
  return code ? `${location.origin}/d/${code}` : "";
}

/** The score sheet's deal tools and the day's board follow each state. */
export function reviewState() {
  const msg = S.msg;
  const code = msg?.deal_code || "";
  const over = Boolean(msg?.last_score);
  $("deal-tools").hidden = !over;
  if (over) prefetch();
  $("deal-code").textContent = code;
  $("copy-deal-link").dataset.href = dealHref();
  $("replay-deal").toggleAttribute("disabled", !code);
  const daily = Boolean(msg?.daily);
  if (!daily || !over) {
    $("daily-wrap").hidden = true;
    return;
  }
  const key = `${S.roomId}:${msg?.event}`;
  if (R.boardKey === key) return;
  R.boardKey = key;
  fetch(`/api/daily?room=${encodeURIComponent(S.roomId || "")}`).then((r) => r.json()).then((board) => {
    $("daily-board").replaceChildren(...(board.rows || []).map((/** @type {any} */ row, /** @type {number} */ i) =>
      el("li", {
        class: "daily-row", "data-testid": "daily-row", "data-points": row.points,
        "data-me": row.me ? "true" : "false",
      }, el("span", { class: "rank", text: `${i + 1}.` }),
      el("span", { class: "name", text: row.me ? `${row.name} (${t("seat.you")})` : row.name }),
      el("span", { class: "pts", text: signed(row.points) }))));
    $("daily-takebacks").hidden = !board.takebacks;
    $("daily-wrap").hidden = false;
  }).catch(() => {});
}
R.boardKey = "";

/** @param {KeyboardEvent} e */
function onKey(e) {
  if ($("review-panel").hidden) return;
  if (e.key === "ArrowRight" || e.key === "ArrowDown" || e.key === "j") stepTo(R.step + 1);
  else if (e.key === "ArrowLeft" || e.key === "ArrowUp" || e.key === "k") stepTo(R.step - 1);
  else if (e.key === "Home") stepTo(0);
  else if (e.key === "End") stepTo(99);
  else if (e.key === "Escape") $("review-panel").hidden = true;
  else return;
  e.preventDefault();
  e.stopImmediatePropagation(); // the hand's keys wait while the review is open
}

export function initReview() {
  $("review-open").addEventListener("click", openRoomReview);
  $("review-next").addEventListener("click", () => stepTo(R.step + 1));
  $("review-prev").addEventListener("click", () => stepTo(R.step - 1));
  $("review-close").addEventListener("click", () => { $("review-panel").hidden = true; });
  $("review-deal").addEventListener("change", (e) => {
    if (R.source?.record) reviewRecord(R.source.record, Number(/** @type {HTMLSelectElement} */ (e.target).value));
  });
  $("open-record").addEventListener("change", openRecordFile);
  $("replay-deal").addEventListener("click", () => {
    const code = S.msg?.deal_code;
    if (code) startTable("/api/deals", { code }).catch(() => {});
  });
  $("copy-deal-link").addEventListener("click", async () => {
    const href = dealHref();
    try {
      await navigator.clipboard.writeText(href);
      $("copy-deal-link").dataset.copied = "true";
      $("deal-copied").textContent = t("room.copied");
    } catch {
      $("deal-copied").textContent = href;
    }
  });
  $("daily").addEventListener("click", () => {
    const name = /** @type {HTMLInputElement} */ ($("name")).value.trim();
    if (name) localStorage.setItem(KEYS.name, name);
    startTable("/api/daily", {}).catch((error) => {
      $("start-error").textContent = t("error.create", { detail: String(error.message || error) });
    });
  });
  document.addEventListener("keydown", onKey, true);
}
