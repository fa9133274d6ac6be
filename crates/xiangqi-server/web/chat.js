// A game's two chats beside the board: the players' (only the two players
// read and write it) and the spectators' (accounts that do not play write;
// the players read it once the game is over). Messages are text, shown with
// textContent, never as HTML. Muting is this browser's: the muted authors'
// messages are hidden here (a player mutes the opponent the same way).
// Reporting sends the message to the server's moderators.

import { api } from "./api.js";
import { socket } from "./socket.js";
import { h } from "./dom.js";
import { language, onLanguageChange, t } from "./i18n.js";
import { errorText } from "./errors.js";

const MAX_CHARS = 300;
const MUTED_KEY = "xiangqi.muted";
const REASONS = ["abuse", "spam", "cheating", "other"];

/** The authors muted in this browser (player ids). */
function mutedAuthors() {
  try {
    return new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function saveMuted(muted) {
  try {
    localStorage.setItem(MUTED_KEY, JSON.stringify([...muted].slice(-500)));
  } catch {
    // Storage refused (private mode): muting lasts for this page only.
  }
}

function clock(ms) {
  return new Date(ms).toLocaleTimeString(language(), { hour: "2-digit", minute: "2-digit" });
}

/**
 * Mounts the chats of `gameId` into `box`. `role()` says `{ player, over }`:
 * whether the viewer plays the game and whether it is over; call `refresh()`
 * when it changes. With `readOnly` (a finished game's review, which follows
 * no room) it shows the messages without the forms. Returns
 * `{ refresh, destroy }`.
 */
export function createChatPanel(box, gameId, session, role, { readOnly = false } = {}) {
  const messages = new Map();
  let muted = mutedAuthors();
  let readable = [];
  let gone = false;
  const notice = h("p", { class: "notice small", id: "chat-notice", hidden: true });

  function say(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  function me() {
    return session.player && session.player.id;
  }

  function mayWrite(channel) {
    if (readOnly) return false;
    const { player } = role();
    if (channel === "players") return player;
    return !player && session.player && !session.player.guest;
  }

  /** The channels shown: the server's answer, and what this viewer writes. */
  function channels() {
    const { player, over } = role();
    const shown = new Set(readable);
    if (player) shown.add("players");
    else shown.add("spectators");
    if (!over && player) shown.delete("spectators");
    return ["players", "spectators"].filter((c) => shown.has(c));
  }

  function toggleMute(author) {
    if (muted.has(author)) muted.delete(author);
    else muted.add(author);
    saveMuted(muted);
    render();
  }

  async function report(message) {
    const answer = window.prompt(t("chat.report_reason"), "abuse");
    if (answer === null) return;
    // One of the reasons, or words of one's own as the note of "other".
    const word = answer.trim().toLowerCase();
    const reason = REASONS.includes(word) ? word : "other";
    const note = REASONS.includes(word) ? "" : answer.trim();
    try {
      await api.report({ message: message.id, reason, note });
      say(t("chat.reported"));
    } catch (error) {
      say(errorText(error));
    }
  }

  function line(message) {
    const own = message.author === me();
    const actions = own ? [] : [
      h("button", { type: "button", class: "linkish chat-mute", title: t("chat.mute"), onclick: () => toggleMute(message.author) }, t("chat.mute")),
      h("button", { type: "button", class: "linkish chat-report", title: t("chat.report"), onclick: () => report(message) }, t("chat.report")),
    ];
    // The text goes in as a text node (h() appends strings as text): never markup.
    return h("li", { class: own ? "chat-line own" : "chat-line", dataset: { message: message.id, author: message.author } },
      h("span", { class: "chat-time" }, clock(message.at)),
      h("b", { class: "chat-name" }, message.name),
      h("span", { class: "chat-text" }, message.text),
      h("span", { class: "chat-actions" }, actions));
  }

  function channelBox(channel) {
    const list = [...messages.values()].filter((m) => m.channel === channel).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
    const hidden = list.filter((m) => muted.has(m.author));
    const shown = list.filter((m) => !muted.has(m.author));
    const mutedNames = [...new Map(hidden.map((m) => [m.author, m.name])).entries()];
    const log = h("ul", { class: "chat-log", id: `chat-log-${channel}` },
      shown.length ? shown.map(line) : list.length ? null : h("li", { class: "empty" }, t("chat.empty")));
    const mutedRows = mutedNames.map(([author, name]) =>
      h("p", { class: "small chat-muted", dataset: { author } }, t("chat.muted", { name }), " ",
        h("button", { type: "button", class: "linkish", onclick: () => toggleMute(author) }, t("chat.unmute"))));
    let form = null;
    if (mayWrite(channel)) {
      const input = h("input", { type: "text", id: `chat-input-${channel}`, maxlength: MAX_CHARS, placeholder: t("chat.placeholder"), autocomplete: "off" });
      form = h("form", { class: "chat-form", id: `chat-form-${channel}`, onsubmit: (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if (socket.send({ t: "chat", game: gameId, channel, text })) input.value = "";
      } }, input, h("button", { type: "submit" }, t("chat.send")));
    } else if (channel === "spectators" && !role().player && !readOnly) {
      form = h("p", { class: "small", id: "chat-guest-note" }, t("chat.guests_read"));
    }
    setTimeout(() => { log.scrollTop = log.scrollHeight; });
    return h("div", { class: "chat-channel", id: `chat-${channel}`, dataset: { channel } },
      h("h3", {}, channel === "players" ? t("chat.players") : t("chat.spectators")), log, mutedRows, form);
  }

  function render() {
    // Keep what is being typed across a re-render.
    const typing = [...box.querySelectorAll(".chat-form input")].map((input) => [input.id, input.value]);
    const focused = document.activeElement && document.activeElement.id;
    box.replaceChildren(...channels().map(channelBox), notice);
    for (const [id, value] of typing) {
      const input = document.getElementById(id);
      if (input) input.value = value;
    }
    if (focused && focused.startsWith("chat-input-")) {
      const input = document.getElementById(focused);
      if (input) input.focus();
    }
  }

  async function load() {
    try {
      const data = await api.chat(gameId);
      if (gone) return;
      readable = data.channels;
      for (const message of data.messages) messages.set(message.id, message);
    } catch (error) {
      say(errorText(error));
    }
    render();
  }

  const offs = [
    // The live game's page stays mounted through a change of language: redraw in place.
    onLanguageChange(() => render()),
    socket.on("chat", (frame) => {
      if (frame.game !== gameId) return;
      messages.set(frame.message.id, frame.message);
      render();
    }),
    socket.on("error", (frame) => {
      const ref = frame.ref || {};
      if (ref.game !== gameId) return;
      // The socket's limit says no seconds: words of the chat's own.
      if (frame.code === "rate_limited") say(t("chat.slow_down"));
      else if (["chat_too_long", "chat_empty", "not_your_chat", "guest_chat", "chat_full"].includes(frame.code)) say(errorText(frame));
    }),
  ];
  load();

  return {
    refresh() {
      // The game ended (the spectators' chat opens to the players): read again.
      load();
    },
    destroy() {
      gone = true;
      offs.forEach((off) => off());
    },
  };
}
