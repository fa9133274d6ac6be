// The account page's API tokens, for bots (`xiangqi bot --token`): the list,
// a new token shown once, and revoking one.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";

function when(ms) {
  return new Date(ms).toLocaleString();
}

/** The tokens section, for a signed-in account. */
export function tokenSettings() {
  const list = h("ul", { class: "rows", id: "tokens" });
  const message = h("p", { class: "notice", id: "token-message", hidden: true });
  const shown = h("div", { id: "token-new", hidden: true });
  const description = h("input", { id: "token-description", maxlength: 60, autocomplete: "off" });

  async function load() {
    try {
      const { tokens } = await api.tokens();
      const rows = tokens.map((token) => h("li", { dataset: { token: token.id } },
        h("span", { class: "who" }, token.description || token.id),
        h("span", { class: "tag" }, token.last_used_at ? t("tokens.last_used", { date: when(token.last_used_at) }) : t("tokens.never_used")),
        h("button", { class: "danger", onclick: () => revoke(token.id) }, t("tokens.revoke"))));
      list.replaceChildren(...(rows.length ? rows : [h("li", { class: "empty" }, t("tokens.none"))]));
    } catch (error) {
      message.textContent = errorText(error);
      message.hidden = false;
    }
  }

  async function revoke(id) {
    message.hidden = true;
    try {
      await api.revokeToken(id);
    } catch (error) {
      message.textContent = errorText(error);
      message.hidden = false;
    }
    load();
  }

  async function create(event) {
    event.preventDefault();
    message.hidden = true;
    try {
      const created = await api.createToken(description.value);
      description.value = "";
      shown.replaceChildren(h("p", { class: "small" }, t("tokens.created")), h("code", { id: "token-secret", class: "secret" }, created.token));
      shown.hidden = false;
      load();
    } catch (error) {
      message.textContent = errorText(error);
      message.hidden = false;
    }
  }

  load();
  return [
    h("h2", {}, t("tokens.title")),
    h("p", { class: "small" }, t("tokens.help")),
    list,
    h("form", { id: "token-form", class: "stack", onsubmit: create },
      h("label", { class: "field" }, h("span", {}, t("tokens.description")), description),
      message, shown,
      h("button", { type: "submit", class: "primary", id: "token-submit" }, t("tokens.create"))),
  ];
}
