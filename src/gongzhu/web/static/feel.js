// @ts-check
// The table's feel beyond its rules: the dealing animation's details (no backs on the plates,
// the status line and the autoplay button wait for the deal to land). renderAll calls
// renderFeel last, after the table's own drawing.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { S } from "./state.js";

export function renderFeel() {
  const dealing = Boolean(S.dealing);
  $("felt").dataset.dealing = String(dealing);
  if (dealing) {
    $("status").textContent = t("dealing.status");
    $("autoplay").hidden = true;
  }
}
