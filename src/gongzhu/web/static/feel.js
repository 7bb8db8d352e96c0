// @ts-check
// The table's feel beyond its rules: sounds (made with WebAudio, no audio files), the table's
// speed, a forced card played by itself (this browser's choice, off unless ticked), and the
// dealing animation's details (no backs on the plates, the status line and the autoplay button
// wait for the deal to land). renderAll calls renderFeel last.
/** @typedef {import("./types.js").StateMessage} StateMessage */

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { send } from "./net.js";
import { S, myTurn } from "./state.js";
import { load, save } from "./store.js";

const SOUND = "gongzhu:sound";
const AUTO_SINGLE = "gongzhu:auto-single";
/** How long a finished trick stays whole on the table, per pace (ms). */
const TRICK_PAUSE = /** @type {Record<string, number>} */ ({ slow: 2200, normal: 1400, fast: 600 });

export function soundOn() {
  return load(SOUND, "on") !== "off";
}

/** A card that is the only one the player may play goes by itself (the player ticked it). */
export function autoSingleOn() {
  return load(AUTO_SINGLE, "off") === "on";
}

/** Called at the end of every renderAll: the page plays a forced card if asked to. */
let onRendered = () => {};

/** @param {{forced?: () => void}} [hooks] */
export function initFeel(hooks = {}) {
  if (hooks.forced) onRendered = hooks.forced;
  $("auto-single").addEventListener("change", (e) => {
    save(AUTO_SINGLE, /** @type {HTMLInputElement} */ (e.target).checked ? "on" : "off");
    onRendered(); // ticked on your turn with one card to play: it goes now
  });
  const button = $("sound");
  button.addEventListener("click", () => {
    save(SOUND, soundOn() ? "off" : "on");
    renderSoundButton();
    if (soundOn()) play("turn");
  });
  $("speed").addEventListener("change", (e) => {
    const pace = /** @type {HTMLSelectElement} */ (e.target).value;
    if (S.room) S.room.pace = pace; // shown at once; the server tells everyone
    send({ type: "speed", pace });
  });
  // Browsers start audio only after a gesture: the first click or key wakes it.
  const wake = () => audio()?.resume?.();
  document.addEventListener("pointerdown", wake, { once: true });
  document.addEventListener("keydown", wake, { once: true });
  renderSoundButton();
}

function renderSoundButton() {
  const button = $("sound");
  const on = soundOn();
  button.setAttribute("aria-pressed", String(on));
  button.textContent = t(on ? "feel.sound_on" : "feel.sound_off");
}

/** How long a finished trick stays whole, at this table's speed. */
export function trickPause() {
  return TRICK_PAUSE[S.room?.pace || "normal"] ?? 1400;
}

export function renderFeel() {
  const dealing = Boolean(S.dealing);
  $("felt").dataset.dealing = String(dealing);
  if (dealing) {
    $("status").textContent = t("dealing.status");
    $("autoplay").hidden = true;
  }
  const speed = /** @type {HTMLSelectElement} */ ($("speed"));
  speed.value = S.room?.pace || "normal";
  speed.disabled = S.seat === null;
  const single = /** @type {HTMLInputElement} */ ($("auto-single"));
  single.checked = autoSingleOn();
  single.disabled = S.seat === null;
  renderSoundButton();
  onRendered();
}

// -- sounds ---------------------------------------------------------------------------------------

/** @type {AudioContext|null} */
let context = null;

function audio() {
  if (!context) {
    const Ctor = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctor) return null;
    context = new Ctor();
  }
  return context;
}

/** Each sound: [frequency Hz, seconds, wave] notes one after another. */
const SOUNDS = /** @type {Record<string, [number, number, OscillatorType][]>} */ ({
  card: [[660, 0.05, "triangle"]],
  trick: [[520, 0.07, "sine"], [390, 0.09, "sine"]],
  pig: [[220, 0.12, "sawtooth"], [165, 0.18, "sawtooth"]],
  turn: [[880, 0.08, "sine"], [1320, 0.12, "sine"]],
});

/** @param {string} name */
function play(name) {
  document.body.dataset.lastSound = name; // what was played last (for the curious)
  const ctx = audio();
  if (!ctx || ctx.state === "suspended") return;
  let at = ctx.currentTime;
  for (const [freq, length, wave] of SOUNDS[name] || []) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.15, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + length + 0.02);
    at += length;
  }
}

/** The sounds a new state makes: a card played, a trick taken (an oink when it held the
 * pig), and your turn coming.
 * @param {StateMessage|null} before @param {StateMessage} msg @param {boolean} wasMyTurn */
export function soundFor(before, msg, wasMyTurn) {
  if (!soundOn() || !before || before.deal_no !== msg.deal_no) return;
  const tricks = msg.view?.tricks || [];
  const done = tricks.length > (before.view?.tricks?.length ?? 0);
  const cards = msg.view?.current_trick?.cards?.length ?? 0;
  if (done) {
    play((tricks[tricks.length - 1]?.cards || []).includes("QS") ? "pig" : "trick");
  } else if (cards > (before.view?.current_trick?.cards?.length ?? 0)) {
    play("card");
  }
  if (!wasMyTurn && myTurn()) window.setTimeout(() => play("turn"), done ? 250 : 120);
}
