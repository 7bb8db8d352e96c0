// @ts-check
// The tutorial: a guided first deal against easy computers (one deal, no exposure), the hint
// asked on every turn, and a `tutorial-step` line that follows what the player is doing — a
// new step for each trick, the deal's score at the end.

import { $ } from "./dom.js";
import { cardName, t } from "./i18n.js";
import { sendAt } from "./net.js";
import { S, myTurn, seatName, view } from "./state.js";
import { load, save } from "./store.js";

const KEY = (/** @type {string} */ room) => `gongzhu:tutorial:${room}`;
/** The trick numbers with a step of their own; later tricks share the last one. */
const STEPS = 4;

/** @param {(made: {room: string, token: string, url?: string}) => void} enter */
export function initTutorial(enter) {
  $("tutorial").addEventListener("click", async () => {
    const button = /** @type {HTMLButtonElement} */ ($("tutorial"));
    button.disabled = true;
    try {
      const name = (load("gongzhu:name") || "").trim().slice(0, 32) || t("start.default_name");
      const response = await fetch("/api/rooms", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name, level: "easy", exposure: false, deals: 1 }),
      });
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      const made = await response.json();
      save(KEY(made.room), "1");
      enter(made);
    } catch (error) {
      $("start-error").textContent = t("error.create", { detail: String(error) });
    } finally {
      button.disabled = false;
    }
  });
}

export function inTutorial() {
  return Boolean(S.roomId && load(KEY(S.roomId)) === "1");
}

/** The step line, and the hint asked once each time it is the player's turn. */
export function renderTutorial() {
  const box = $("tutorial-step");
  const v = view();
  if (!inTutorial() || !v || S.seat === null) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const trick = Math.min(v.trick_number, 13);
  let step;
  if (S.msg?.last_score || v.phase === "complete") {
    step = "done";
    box.textContent = t("tutorial.done");
  } else {
    step = String(Math.min(trick, STEPS));
    const lead = v.current_trick?.cards?.[0];
    const parts = [t(`tutorial.trick${step}`, { n: trick })];
    if (myTurn()) {
      parts.push(lead ? t("tutorial.follow", { card: cardName(lead) }) : t("tutorial.lead"));
    } else if (v.to_act !== null && v.to_act !== undefined) {
      parts.push(t("tutorial.wait", { who: seatName(v.to_act) }));
    }
    box.textContent = parts.join(" ");
  }
  box.dataset.step = step;
  box.dataset.trick = String(trick);
  // The hint is on: asked once for each turn of the player's (its badges show on the cards).
  if (myTurn() && S.tutorialHint !== S.msg?.event && !S.dealing) {
    S.tutorialHint = S.msg?.event ?? null;
    sendAt("hint");
  }
}
