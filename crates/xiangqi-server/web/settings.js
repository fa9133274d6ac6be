// Settings: the language of the pages, the notation moves are written in (the
// server writes every move text in the receiving player's notation) and the
// piece set of the board; all three are kept with the player. The same form is a page of its
// own (`/settings`) and a panel over a live game's page, so that changing it
// mid-game does not take the player off the board.

import { api } from "./api.js";
import { h } from "./dom.js";
import { LANGUAGES, language, onLanguageChange, setLanguage, t } from "./i18n.js";
import { PIECE_SETS, pieceIcon } from "./board.js";
import { errorText } from "./errors.js";

const NOTATIONS = [
  ["coordinate", "settings.notation_coordinate", "h2e2"],
  ["wxf", "settings.notation_wxf", "C2=5"],
  ["chinese", "中文（简体）", "炮二平五"],
  ["chinese-traditional", "中文（繁體）", "兵七進一"],
  ["vietnamese", "Tiếng Việt", "Pháo 2 bình 5"],
];

const PIECE_SET_LABELS = { traditional: "settings.pieces_traditional", pictogram: "settings.pieces_pictogram" };

/** The player's piece set (the board's), traditional until chosen. */
export function pieceSet(session) {
  const chosen = session.player && session.player.pieces;
  return PIECE_SETS.includes(chosen) ? chosen : "traditional";
}

/** A small picture of a piece set: the general, the horse and the cannon of Red. */
function pieceSample(set) {
  return h("span", { class: "piece-sample", "aria-hidden": "true" }, ["K", "N", "C"].map((letter) => pieceIcon(letter, set)));
}

/**
 * The settings' forms and their one message: the language, the notation and
 * the piece set. Each choice is saved at once (`PUT /api/settings`);
 * `onSaved(player, changed)` runs after each saved choice.
 */
function settingsForms(session, onSaved) {
  const message = h("p", { class: "notice", id: "settings-message", hidden: true });
  const player = session.player || {};

  async function save(changes) {
    message.hidden = true;
    try {
      const saved = await api.setSettings(changes);
      session.setPlayer(saved);
      if (changes.language) await setLanguage(changes.language);
      message.textContent = t("settings.saved");
      message.className = "notice ok";
      if (onSaved) onSaved(saved, changes);
    } catch (error) {
      message.textContent = errorText(error);
      message.className = "notice";
    }
    message.hidden = false;
  }

  const languageSelect = h("select", { id: "language-select", onchange: () => save({ language: languageSelect.value }) },
    LANGUAGES.map(([code, name]) => h("option", { value: code, lang: code, selected: code === language() }, name)));

  const notations = NOTATIONS.map(([value, label, example]) =>
    h("label", { class: "choice" },
      h("input", { type: "radio", name: "notation", value, id: `notation-${value}`, checked: value === (player.notation || "coordinate"), onchange: () => save({ notation: value }) }),
      h("span", { class: "choice-label" }, label.startsWith("settings.") ? t(label) : label),
      h("span", { class: "choice-example", lang: value.startsWith("chinese") ? "zh" : null }, example)));

  const sets = PIECE_SETS.map((value) =>
    h("label", { class: "choice" },
      h("input", { type: "radio", name: "pieces", value, id: `pieces-${value}`, checked: value === pieceSet(session), onchange: () => save({ pieces: value }) }),
      h("span", { class: "choice-label" }, t(PIECE_SET_LABELS[value])),
      pieceSample(value)));

  return [
    h("h2", {}, h("label", { for: "language-select" }, t("settings.language"))),
    h("form", { id: "language-form", onsubmit: (e) => e.preventDefault() }, languageSelect),
    h("h2", {}, t("settings.move_notation")),
    h("form", { id: "notation-form", onsubmit: (e) => e.preventDefault() }, notations),
    h("h2", {}, t("settings.pieces")),
    h("form", { id: "pieces-form", onsubmit: (e) => e.preventDefault() }, sets),
    message,
  ];
}

export function mountSettings(main, _params, session) {
  main.append(h("section", { class: "panel narrow" }, h("h1", {}, t("settings.title")), settingsForms(session)));
}

/**
 * Opens the settings as a dialog over the current page (a live game's), which
 * stays mounted underneath: its socket keeps watching. `onSaved(player)` runs
 * after each saved change, `onClosed()` once it is closed (by its button, the
 * Escape key, a click beside it, or the function this returns).
 */
export function openSettingsPanel(session, onSaved, onClosed) {
  const close = () => dialog.close();
  const box = h("div", { class: "settings-panel-box" });
  // Drawn again in a newly chosen language, keeping the message shown.
  function fill() {
    const forms = settingsForms(session, onSaved);
    const old = box.querySelector("#settings-message");
    const message = forms[forms.length - 1];
    if (old && !old.hidden) {
      message.textContent = t("settings.saved");
      message.className = old.className;
      message.hidden = false;
    }
    box.replaceChildren(
      h("div", { class: "settings-panel-head" },
        h("h1", { id: "settings-panel-title" }, t("settings.title")),
        h("button", { type: "button", id: "settings-close", onclick: close }, t("settings.done"))),
      ...forms,
      h("p", { class: "small" }, t("settings.stay_at_board")));
  }
  fill();
  const stopFollowing = onLanguageChange(fill);
  // The box is inside the dialog element, so a click on the element itself is
  // a click on the backdrop around the box, which closes it too.
  const dialog = h("dialog", { class: "settings-panel", id: "settings-panel", "aria-labelledby": "settings-panel-title" }, box);
  dialog.addEventListener("close", () => {
    stopFollowing();
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
