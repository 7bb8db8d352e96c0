// @ts-check
// The WebSocket of docs/web_protocol.rst: hello, numbered events, reconnect with back-off.
/** @typedef {import("./types.js").ServerMessage} ServerMessage */

import { S } from "./state.js";

/** @type {{receive: (msg: ServerMessage) => void, status: () => void, offline: () => void,
 *          hello: () => Record<string, any>}} */
const hooks = { receive: () => {}, status: () => {}, offline: () => {}, hello: () => ({}) };

/** @param {Partial<typeof hooks>} given */
export function setHooks(given) {
  Object.assign(hooks, given);
}

export function openSocket() {
  if (!S.roomId) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(S.roomId)}`);
  S.ws = ws;
  hooks.status();
  ws.addEventListener("open", () => {
    if (S.ws !== ws) return;
    S.connected = true;
    S.retry = 0;
    hooks.status();
    send({ type: "hello", ...hooks.hello() });
  });
  ws.addEventListener("message", (e) => {
    if (S.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(e.data);
    } catch {
      return;
    }
    hooks.receive(msg);
  });
  ws.addEventListener("close", () => {
    if (S.ws !== ws) return;
    S.connected = false;
    S.ws = null;
    hooks.status();
    if (!S.wsWanted) return;
    // Reconnect with a growing pause (0.25 s … 3 s); the server resends the state on hello.
    const delay = Math.min(3000, 250 * 2 ** S.retry);
    S.retry += 1;
    setTimeout(() => {
      if (S.wsWanted && !S.ws) openSocket();
    }, delay);
  });
}

export function closeSocket() {
  S.wsWanted = false;
  if (S.ws) {
    const ws = S.ws;
    S.ws = null;
    ws.close();
  }
  S.connected = false;
}

/** @param {Record<string, any>} message */
export function send(message) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    hooks.offline();
    return false;
  }
  S.ws.send(JSON.stringify(message));
  return true;
}

/** Send a game action carrying the number of the last event this page has seen.
 * @param {Record<string, any>} action */
export function sendAction(action) {
  return send({ type: "action", event: S.lastEvent ?? 0, action });
}

/** A request that answers the current position (next, new_game, hint, release).
 * @param {string} type @param {Record<string, any>} [fields] */
export function sendAt(type, fields = {}) {
  return send({ type, event: S.lastEvent ?? 0, ...fields });
}
