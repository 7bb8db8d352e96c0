// @ts-check
// The start page's open tables: tables that wait for friends and whose host listed them
// (GET /api/tables, docs/web_protocol.rst). Asked again every few seconds while the start page
// shows in a visible tab, and on Refresh. Each table's rules are worded with the table's rule
// chips; its Join opens the table's link: the same join flow as a link a friend sent (a name,
// then sit or watch). A table is listed only when its host ticked "List it" (off by default).

import { $, el } from "./dom.js";
import { language, t } from "./i18n.js";
import { chipsFor } from "./panels.js";

/** How often the list is asked again while it shows (ms). */
const EVERY = 5000;
const LINK = /^\/t\/[A-Za-z0-9_-]{4,32}$/;

/** @typedef {{room: string, url: string, host: string, rules: any, level: string,
 *             taken: number, free: number, waiting: number}} OpenTable */

let timer = 0;
let asking = false;
/** @type {OpenTable[]|null} */
let last = null;
/** @type {(url: string) => void} */
let join = () => {};

/** @param {(url: string) => void} open opens a table's link (the page's router) */
export function initOpenTables(open) {
  join = open;
  $("open-tables-refresh").addEventListener("click", () => refreshTables());
  $("open-tables-list").addEventListener("click", (e) => {
    const button = /** @type {HTMLElement} */ (e.target).closest("[data-join]");
    const url = button ? /** @type {HTMLElement} */ (button).dataset.join || "" : "";
    if (LINK.test(url)) join(url);
  });
  document.addEventListener("visibilitychange", () => {
    if (showing()) refreshTables();
  });
  const wait = /** @type {HTMLInputElement} */ ($("wait-for-friends"));
  wait.addEventListener("change", syncListIt);
  syncListIt();
}

/** "List it" goes with "Wait for friends": only a table that waits is listed. */
function syncListIt() {
  const wait = /** @type {HTMLInputElement} */ ($("wait-for-friends"));
  const listIt = /** @type {HTMLInputElement} */ ($("list-it"));
  listIt.disabled = !wait.checked;
  if (!wait.checked) listIt.checked = false;
}

function showing() {
  return !$("start").hidden && !document.hidden;
}

/** The start page shows: list the open tables now and every few seconds while it does. */
export function watchTables() {
  stopTables();
  if (last) render(last); // the language may have changed: the last list in its words
  refreshTables();
  timer = window.setInterval(() => {
    if (showing()) refreshTables();
  }, EVERY);
}

/** The start page is gone (a table opened): stop asking. */
export function stopTables() {
  if (timer) window.clearInterval(timer);
  timer = 0;
}

export async function refreshTables() {
  if (asking) return;
  asking = true;
  const box = $("open-tables");
  try {
    const response = await fetch("/api/tables", { cache: "no-store" });
    if (!response.ok) throw new Error(String(response.status));
    const found = (await response.json()).tables;
    last = Array.isArray(found) ? found : [];
    $("open-tables-failed").hidden = true;
    render(last);
  } catch {
    // Offline, or asked too often: the last list stays, and the next turn asks again.
    $("open-tables-failed").hidden = false;
  } finally {
    asking = false;
    box.dataset.ready = "true";
  }
}

/** What the rows show but the time waited (the rows are rebuilt only when it changes, so a
 * focused Join button keeps its focus while the list refreshes). */
let drawn = "";

/** @param {OpenTable[]} found */
function render(found) {
  const tables = found.filter((x) => LINK.test(x.url));
  const box = $("open-tables");
  box.dataset.count = String(tables.length);
  $("open-tables-empty").hidden = tables.length > 0;
  const list = $("open-tables-list");
  const key = JSON.stringify([language(), ...tables.map((x) => [x.room, x.host, x.taken, x.rules, x.level])]);
  if (key !== drawn) {
    drawn = key;
    list.replaceChildren(...tables.map(row));
    return;
  }
  tables.forEach((table, i) => {
    const seats = list.children[i]?.querySelector(".open-table-seats");
    if (seats) seats.textContent = seatsText(table);
  });
}

/** @param {OpenTable} table */
function seatsText(table) {
  return `${t("tables.seats", { taken: table.taken, free: table.free })} · ${waited(table.waiting)}`;
}

/** @param {OpenTable} table */
function row(table) {
  const rules = table.rules ? chipsFor(table.rules, table.level).join(" · ") : "";
  return el("li", {
    class: "open-table", "data-testid": "open-table", "data-room": table.room,
    "data-free": table.free, "data-taken": table.taken,
  },
  el("div", { class: "open-table-text" },
    el("span", { class: "open-table-host", text: t("tables.host", { host: table.host }) }),
    el("span", { class: "open-table-rules", text: rules }),
    el("span", { class: "open-table-seats", text: seatsText(table) })),
  el("button", {
    type: "button", class: "primary open-table-join", "data-testid": "open-table-join",
    "data-join": table.url, text: t("tables.join"),
    "aria-label": t("tables.join_label", { host: table.host }),
  }));
}

/** @param {number} seconds */
function waited(seconds) {
  const s = Math.max(0, Math.floor(Number(seconds) || 0));
  return s < 60 ? t("tables.waited_s", { n: s }) : t("tables.waited_min", { n: Math.floor(s / 60) });
}
