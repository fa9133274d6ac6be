// Sign in and registration. A guest who registers keeps their settings.

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";

function credentialsForm(id, title, submitText, action, session) {
  const name = h("input", { id: `${id}-name`, name: "name", autocomplete: "username", required: true, minlength: 3, maxlength: 20, pattern: "[A-Za-z0-9_\\-]+" });
  const password = h("input", { id: `${id}-password`, name: "password", type: "password", required: true, minlength: 8,
    autocomplete: id === "register" ? "new-password" : "current-password" });
  const error = h("p", { class: "notice", id: `${id}-error`, hidden: true });
  async function submit(event) {
    event.preventDefault();
    error.hidden = true;
    try {
      const player = await action(name.value.trim(), password.value);
      await session.signedIn(player);
      session.navigate("/");
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
    }
  }
  return h("section", { class: "panel" },
    h("h2", {}, title),
    h("form", { id: `${id}-form`, class: "stack", onsubmit: submit },
      h("label", { class: "field" }, h("span", {}, t("auth.name")), name),
      h("label", { class: "field" }, h("span", {}, t("auth.password")), password),
      error,
      h("button", { type: "submit", class: "primary", id: `${id}-submit` }, submitText)));
}

export function mountAuth(main, _params, session) {
  main.append(h("div", { class: "auth" },
    credentialsForm("login", t("auth.sign_in"), t("auth.sign_in"), api.login, session),
    credentialsForm("register", t("auth.create_account"), t("auth.register"), api.register, session)));
}
