// @ts-check
// What the browser keeps: the seat's token per room, the rooms played, the player's name.

export const KEYS = {
  /** @param {string} room */
  token: (room) => `gongzhu:token:${room}`,
  rooms: "gongzhu:rooms",
  name: "gongzhu:name",
};

/** @param {string} key @param {string|null} [fallback] @returns {string|null} */
export function load(key, fallback = null) {
  try {
    const value = localStorage.getItem(key);
    return value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

/** @param {string} key @param {string|null} value */
export function save(key, value) {
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
/** @param {string} room @returns {string|null} */
function oldTokenCookie(room) {
  const name = `gz_${room}`;
  const hit = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  if (!hit) return null;
  document.cookie = `${name}=; path=/; max-age=0; SameSite=Strict`;
  return decodeURIComponent(hit.slice(name.length + 1)) || null;
}

/** @param {string} room */
export function loadToken(room) {
  const stored = load(KEYS.token(room));
  if (stored) return stored;
  const moved = oldTokenCookie(room);
  if (moved) save(KEYS.token(room), moved);
  return moved;
}

/** @param {string} room @param {string|null} token */
export function saveToken(room, token) {
  save(KEYS.token(room), token);
}

/** @returns {{id: string, at: number}[]} */
export function savedRooms() {
  try {
    const list = JSON.parse(load(KEYS.rooms, "[]") || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** @param {string} id */
export function rememberRoom(id) {
  const rooms = savedRooms();
  const old = rooms.find((r) => r.id === id);
  const list = rooms.filter((r) => r.id !== id);
  list.unshift({ ...old, id, at: Date.now() }); // what saved.js noted of it stays
  save(KEYS.rooms, JSON.stringify(list.slice(0, 10)));
}
