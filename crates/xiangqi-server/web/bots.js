// The lobby's bots: the bots online (GET /api/bots/online, polled), a
// challenge form for one of them (time control, rated, colour), the pending
// challenge with its cancel button, and the bot's answer. An accepted
// challenge opens the game through the socket's `started`, like a seek;
// a declined, withdrawn or lapsed one comes as `challenge_closed`.

import { api } from "./api.js";
import { socket } from "./socket.js";
import { h, playerLink } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";

const POLL_MS = 10000;
const COLORS = [["random", "color.random"], ["red", "color.red"], ["black", "color.black"]];
const REASONS = ["generic", "later", "tc", "rated", "casual", "rules"];

/** The bots panel and its teardown. */
export function botsPanel(session) {
  const list = h("ul", { class: "rows", id: "bots" });
  const message = h("p", { class: "notice", id: "bot-message", hidden: true });
  let bots = [];
  let pending = null; // { id, name }
  let formFor = null; // the bot whose form is open

  function say(text, ok = false) {
    message.textContent = text || "";
    message.className = ok ? "notice ok" : "notice";
    message.hidden = !text;
  }

  function challengeForm(bot) {
    const base = h("input", { id: "bot-base", type: "number", value: 5, min: 0.5, max: 180, step: 0.5, inputmode: "decimal" });
    const inc = h("input", { id: "bot-inc", type: "number", value: 3, min: 0, max: 60, inputmode: "decimal" });
    const guest = !session.player || session.player.guest;
    const rated = h("input", { id: "bot-rated", type: "checkbox", checked: !guest, disabled: guest });
    const color = h("select", { id: "bot-color" }, COLORS.map(([v, key]) => h("option", { value: v }, t(key))));
    async function send(event) {
      event.preventDefault();
      say("");
      try {
        const answer = await api.challenge(bot.name, { tc: `${Number(base.value)}+${Number(inc.value)}`, rated: rated.checked, color: color.value });
        pending = { id: answer.challenge.id, name: bot.name };
        formFor = null;
        render();
      } catch (error) {
        say(errorText(error));
      }
    }
    return h("form", { class: "form-grid bot-form", id: "bot-form", onsubmit: send },
      h("label", { class: "field" }, h("span", {}, t("lobby.minutes")), base),
      h("label", { class: "field" }, h("span", {}, t("lobby.increment")), inc),
      h("label", { class: "field" }, h("span", {}, t("lobby.colour")), color),
      h("label", { class: "check" }, rated, h("span", {}, t("lobby.rated"))),
      h("button", { type: "submit", class: "primary", id: "bot-send" }, t("bots.send")));
  }

  async function cancel() {
    if (!pending) return;
    const { id } = pending;
    pending = null;
    render();
    try {
      await api.cancelChallenge(id);
    } catch {
      // Already answered or lapsed: its frame says which.
    }
  }

  function render() {
    const rows = [];
    if (pending) {
      rows.push(h("li", { class: "own", id: "bot-pending" },
        h("span", { class: "who" }, t("bots.pending", { name: pending.name })),
        h("button", { class: "quiet", id: "bot-cancel", onclick: cancel }, t("lobby.cancel"))));
    }
    for (const bot of bots) {
      const open = formFor === bot.name;
      rows.push(h("li", { dataset: { bot: bot.name } },
        h("span", { class: "who" }, playerLink({ name: bot.name, rating: bot.rating, bot: true })),
        h("span", { class: "tag" }, t("bots.playing", { count: bot.games })),
        pending ? null : h("button", { class: open ? "quiet" : "primary", dataset: { challenge: bot.name },
          onclick: () => { formFor = open ? null : bot.name; render(); } }, open ? t("lobby.cancel") : t("bots.challenge"))));
      if (open) rows.push(h("li", { class: "form-row" }, challengeForm(bot)));
    }
    if (!rows.length) rows.push(h("li", { class: "empty" }, t("bots.none")));
    list.replaceChildren(...rows);
  }

  async function refresh() {
    try {
      bots = (await api.botsOnline()).bots;
      render();
    } catch {
      // The next poll tries again.
    }
  }

  const off = socket.on("challenge_closed", (frame) => {
    const name = pending && pending.id === frame.id ? pending.name : "";
    if (pending && pending.id === frame.id) pending = null;
    render();
    if (frame.why === "declined") {
      const reason = REASONS.includes(frame.reason) ? frame.reason : "generic";
      say(t("bots.declined", { name, reason: t(`bots.reason.${reason}`) }));
    } else if (frame.why === "lapsed") {
      say(t("bots.lapsed", { name }));
    } else {
      say(t("bots.canceled"));
    }
  });
  const timer = setInterval(refresh, POLL_MS);
  refresh();
  render();
  const panel = h("section", { class: "panel wide", id: "bots-panel" }, h("h2", {}, t("bots.title")), message, list);
  return [panel, () => { clearInterval(timer); off(); }];
}
