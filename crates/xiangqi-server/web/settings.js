// Settings: the notation moves are written in (the server writes every move
// text in the receiving player's notation). The same form is a page of its
// own (`/settings`) and a panel over a live game's page, so that changing it
// mid-game does not take the player off the board.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";

const NOTATIONS = [
  ["coordinate", "settings.notation_coordinate", "h2e2"],
  ["wxf", "settings.notation_wxf", "C2=5"],
  ["chinese", "中文（简体）", "炮二平五"],
  ["chinese-traditional", "中文（繁體）", "兵七進一"],
  ["vietnamese", "Tiếng Việt", "Pháo 2 bình 5"],
];

/** The notation form and its message; `onSaved(player)` runs after each saved choice. */
function notationSettings(session, onSaved) {
  const message = h("p", { class: "notice", id: "settings-message", hidden: true });
  const current = session.player ? session.player.notation : "coordinate";

  async function choose(notation) {
    message.hidden = true;
    try {
      const player = await api.setNotation(notation);
      session.setPlayer(player);
      message.textContent = t("settings.saved");
      message.className = "notice ok";
      if (onSaved) onSaved(player);
    } catch (error) {
      message.textContent = errorText(error);
      message.className = "notice";
    }
    message.hidden = false;
  }

  const options = NOTATIONS.map(([value, label, example]) =>
    h("label", { class: "choice" },
      h("input", { type: "radio", name: "notation", value, id: `notation-${value}`, checked: value === current, onchange: () => choose(value) }),
      h("span", { class: "choice-label" }, label.startsWith("settings.") ? t(label) : label),
      h("span", { class: "choice-example", lang: value.startsWith("chinese") ? "zh" : null }, example)));

  return [
    h("h2", {}, t("settings.move_notation")),
    h("form", { id: "notation-form", onsubmit: (e) => e.preventDefault() }, options),
    message,
  ];
}

export function mountSettings(main, _params, session) {
  main.append(h("section", { class: "panel narrow" }, h("h1", {}, t("settings.title")), notationSettings(session)));
}

/**
 * Opens the settings as a dialog over the current page (a live game's), which
 * stays mounted underneath: its socket keeps watching. `onSaved(player)` runs
 * after each saved change, `onClosed()` once it is closed (by its button, the
 * Escape key, a click beside it, or the function this returns).
 */
export function openSettingsPanel(session, onSaved, onClosed) {
  const close = () => dialog.close();
  // The box is inside the dialog element, so a click on the element itself is
  // a click on the backdrop around the box, which closes it too.
  const dialog = h("dialog", { class: "settings-panel", id: "settings-panel", "aria-labelledby": "settings-panel-title" },
    h("div", { class: "settings-panel-box" },
      h("div", { class: "settings-panel-head" },
        h("h1", { id: "settings-panel-title" }, t("settings.title")),
        h("button", { type: "button", id: "settings-close", onclick: close }, t("settings.done"))),
      notationSettings(session, onSaved),
      h("p", { class: "small" }, t("settings.stay_at_board"))));
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (onClosed) onClosed();
  });
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) close();
  });
  document.body.append(dialog);
  dialog.showModal();
  return close;
}
