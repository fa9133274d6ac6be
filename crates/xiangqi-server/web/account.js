// The account part of the settings page: change the password (the old one
// is asked; other devices are signed out) and delete the account (the
// password is asked; games stay under a placeholder name).

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { tokenSettings } from "./tokens.js";

function passwordField(id, label, autocomplete) {
  const input = h("input", { id, type: "password", required: true, autocomplete });
  return [input, h("label", { class: "field" }, h("span", {}, label), input)];
}

/** The account forms, for a signed-in account (nothing for a guest). */
export function accountSettings(session, onDeleted) {
  if (!session.player || session.player.guest) return [];
  const passwordMessage = h("p", { class: "notice", id: "password-message", hidden: true });
  const [oldInput, oldField] = passwordField("password-old", t("account.old_password"), "current-password");
  const [newInput, newField] = passwordField("password-new", t("account.new_password"), "new-password");
  async function change(event) {
    event.preventDefault();
    passwordMessage.hidden = true;
    try {
      await api.changePassword(oldInput.value, newInput.value);
      passwordMessage.textContent = t("account.password_changed");
      passwordMessage.className = "notice ok";
      oldInput.value = "";
      newInput.value = "";
    } catch (error) {
      passwordMessage.textContent = errorText(error);
      passwordMessage.className = "notice";
    }
    passwordMessage.hidden = false;
  }

  const deleteMessage = h("p", { class: "notice", id: "delete-message", hidden: true });
  const [confirmInput, confirmField] = passwordField("delete-password", t("account.password"), "current-password");
  async function remove(event) {
    event.preventDefault();
    deleteMessage.hidden = true;
    if (!window.confirm(t("account.delete_sure"))) return;
    try {
      const answer = await api.deleteAccount(confirmInput.value);
      onDeleted(t("account.deleted", { name: answer.deleted }));
    } catch (error) {
      deleteMessage.textContent = errorText(error);
      deleteMessage.className = "notice";
      deleteMessage.hidden = false;
    }
  }

  return [
    h("h2", {}, t("account.change_password")),
    h("form", { id: "password-form", class: "stack", onsubmit: change },
      oldField, newField, passwordMessage,
      h("button", { type: "submit", class: "primary", id: "password-submit" }, t("account.change_password"))),
    h("h2", {}, t("account.delete_account")),
    h("p", { class: "small" }, t("account.delete_help")),
    h("form", { id: "delete-form", class: "stack", onsubmit: remove },
      confirmField, deleteMessage,
      h("button", { type: "submit", class: "danger", id: "delete-submit" }, t("account.delete_submit"))),
    ...tokenSettings(),
  ];
}
