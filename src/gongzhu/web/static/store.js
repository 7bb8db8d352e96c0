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

// The seat's token is also kept in a cookie: cookies are per host, not per port, so a
// server restarted on another port (same store) still finds the seat. Never sent elsewhere.
/** @param {string} room @param {string|null} [token] @returns {string|null} */
function tokenCookie(room, token) {
  const name = `gz_${room}`;
  if (token === undefined) {
    const hit = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
    return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
  }
  const life = token === null ? "max-age=0" : "max-age=31536000";
  document.cookie = `${name}=${encodeURIComponent(token ?? "")}; path=/; ${life}; SameSite=Strict`;
  return token;
}

/** @param {string} room */
export function loadToken(room) {
  return load(KEYS.token(room)) || tokenCookie(room);
}

/** @param {string} room @param {string|null} token */
export function saveToken(room, token) {
  save(KEYS.token(room), token);
  tokenCookie(room, token);
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
  const list = savedRooms().filter((r) => r.id !== id);
  list.unshift({ id, at: Date.now() });
  save(KEYS.rooms, JSON.stringify(list.slice(0, 10)));
}
