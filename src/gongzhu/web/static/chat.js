// @ts-check
// Quick messages between the players at a table: a few fixed phrases and emotes, worded in each
// reader's language (nothing free-typed). A phrase shows as a bubble on its sender's plate.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { send } from "./net.js";
import { S, seatName } from "./state.js";

/** The server's phrases (gongzhu.web.messages.PHRASES); emotes are the same in every language. */
const PHRASES = ["hello", "gg", "nice", "oops", "thanks", "hurry", "thumbs", "laugh", "pig"];
const SHOWN_MS = 4000;
/** Emotes need no words. */
const EMOTES = /** @type {Record<string, string>} */ ({ thumbs: "👍", laugh: "😂", pig: "🐷" });

/** @param {string} phrase */
const phraseText = (phrase) => EMOTES[phrase] ?? t(`say.${phrase}`);

export function initChat() {
  const box = $("quick-messages");
  box.replaceChildren(...PHRASES.map((phrase) => el("button", {
    type: "button", class: "small-btn say", "data-testid": "say", "data-phrase": phrase,
    "data-i18n": EMOTES[phrase] ? null : `say.${phrase}`, "aria-label": EMOTES[phrase] ? phrase : null,
    text: phraseText(phrase),
    onclick: () => send({ type: "say", phrase }),
  })));
  $("quick-open").addEventListener("click", () => {
    box.hidden = !box.hidden;
    $("quick-open").setAttribute("aria-expanded", String(!box.hidden));
  });
}

/** Quick messages are for the seated players (a watcher reads them). */
export function renderChat() {
  $("quick-open").hidden = S.seat === null;
  if (S.seat === null) $("quick-messages").hidden = true;
}

/** A `said` message: the phrase in a bubble on the sender's plate, for a few seconds.
 * @param {{seat: number, phrase: string}} msg */
export function onSaid(msg) {
  const plate = document.querySelector(`.plate[data-seat="${msg.seat}"]`);
  const text = phraseText(msg.phrase);
  const bubble = el("div", {
    class: "bubble", "data-testid": "said", "data-phrase": msg.phrase, role: "status",
    text: `${seatName(msg.seat)}: ${text}`,
  });
  const layer = $("bubbles");
  layer.append(bubble);
  if (plate) {
    const box = plate.getBoundingClientRect();
    const felt = $("felt").getBoundingClientRect();
    bubble.style.left = `${box.left - felt.left + box.width / 2}px`;
    bubble.style.top = `${box.top - felt.top}px`;
  }
  window.setTimeout(() => bubble.remove(), SHOWN_MS);
}
