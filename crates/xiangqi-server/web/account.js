// The account part of the settings page: change the password (the old one
// is asked; other devices are signed out) and delete the account (the
// password is asked; games stay under a placeholder name).

import { api } from "./api.js";
import { h } from "./dom.js";

// Every string of this part, in one place.
const TEXT = {
  password: "Change password",
  old: "Current password",
  new: "New password",
  change: "Change password",
  changed: "Password changed. Your other devices are signed out.",
  deletion: "Delete account",
  deletionHelp: "Your games and rating history stay, under a placeholder name; your name becomes free for others and you can no longer sign in. This cannot be undone.",
  confirm: "Password",
  delete: "Delete my account",
  sure: "Delete your account for good?",
  deleted: (name) => `Your account is deleted; your games now show ${name}.`,
};

function passwordField(id, label, autocomplete) {
  const input = h("input", { id, type: "password", required: true, autocomplete });
  return [input, h("label", { class: "field" }, h("span", {}, label), input)];
}

/** The account forms, for a signed-in account (nothing for a guest). */
export function accountSettings(session, onDeleted) {
  if (!session.player || session.player.guest) return [];
  const passwordMessage = h("p", { class: "notice", id: "password-message", hidden: true });
  const [oldInput, oldField] = passwordField("password-old", TEXT.old, "current-password");
  const [newInput, newField] = passwordField("password-new", TEXT.new, "new-password");
  async function change(event) {
    event.preventDefault();
    passwordMessage.hidden = true;
    try {
      await api.changePassword(oldInput.value, newInput.value);
      passwordMessage.textContent = TEXT.changed;
      passwordMessage.className = "notice ok";
      oldInput.value = "";
      newInput.value = "";
    } catch (error) {
      passwordMessage.textContent = error.message;
      passwordMessage.className = "notice";
    }
    passwordMessage.hidden = false;
  }

  const deleteMessage = h("p", { class: "notice", id: "delete-message", hidden: true });
  const [confirmInput, confirmField] = passwordField("delete-password", TEXT.confirm, "current-password");
  async function remove(event) {
    event.preventDefault();
    deleteMessage.hidden = true;
    if (!window.confirm(TEXT.sure)) return;
    try {
      const answer = await api.deleteAccount(confirmInput.value);
      onDeleted(TEXT.deleted(answer.deleted));
    } catch (error) {
      deleteMessage.textContent = error.message;
      deleteMessage.className = "notice";
      deleteMessage.hidden = false;
    }
  }

  return [
    h("h2", {}, TEXT.password),
    h("form", { id: "password-form", class: "stack", onsubmit: change },
      oldField, newField, passwordMessage,
      h("button", { type: "submit", class: "primary", id: "password-submit" }, TEXT.change)),
    h("h2", {}, TEXT.deletion),
    h("p", { class: "small" }, TEXT.deletionHelp),
    h("form", { id: "delete-form", class: "stack", onsubmit: remove },
      confirmField, deleteMessage,
      h("button", { type: "submit", class: "danger", id: "delete-submit" }, TEXT.delete)),
  ];
}
