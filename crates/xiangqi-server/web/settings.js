// Settings: the notation moves are written in (the server writes every move
// text in the receiving player's notation).

import { api } from "./api.js";
import { h } from "./dom.js";

const NOTATIONS = [
  ["coordinate", "Coordinates (ICCS)", "h2e2"],
  ["wxf", "WXF", "C2=5"],
  ["chinese", "中文（简体）", "炮二平五"],
  ["chinese-traditional", "中文（繁體）", "兵七進一"],
  ["vietnamese", "Tiếng Việt", "Pháo 2 bình 5"],
];

export function mountSettings(main, _params, session) {
  const message = h("p", { class: "notice", id: "settings-message", hidden: true });
  const current = session.player ? session.player.notation : "coordinate";

  async function choose(notation) {
    message.hidden = true;
    try {
      session.setPlayer(await api.setNotation(notation));
      message.textContent = "Saved.";
      message.className = "notice ok";
    } catch (error) {
      message.textContent = error.message;
      message.className = "notice";
    }
    message.hidden = false;
  }

  const options = NOTATIONS.map(([value, label, example]) =>
    h("label", { class: "choice" },
      h("input", { type: "radio", name: "notation", value, id: `notation-${value}`, checked: value === current, onchange: () => choose(value) }),
      h("span", { class: "choice-label" }, label),
      h("span", { class: "choice-example", lang: value.startsWith("chinese") ? "zh" : null }, example)));

  main.append(h("section", { class: "panel narrow" },
    h("h1", {}, "Settings"),
    h("h2", {}, "Move notation"),
    h("form", { id: "notation-form", onsubmit: (e) => e.preventDefault() }, options),
    message));
}
