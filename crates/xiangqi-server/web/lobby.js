// The lobby: create a seek, join an open one, watch a game in progress, or
// play the built-in engine. Live through the socket's lobby subscription.

import { socket } from "./socket.js";
import { h, link, playerLink } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { createSeekFilter } from "./lobby_filter.js";
import { botsPanel } from "./bots.js";

const COLORS = [["random", "color.random"], ["red", "color.red"], ["black", "color.black"]];
// The rule sets a game may use (the server's presets, named by what they
// mean to a player; the values stay the protocol's); "online" is the default.
const RULES = [["online", "rules.online"], ["asian", "rules.asian"], ["pikafish", "rules.pikafish"], ["fairy", "rules.fairy"], ["plain", "rules.plain"]];

function field(label, input, extra = "") {
  return h("label", { class: `field ${extra}`.trim() }, h("span", {}, label), input);
}

function select(id, options, value) {
  return h("select", { id }, options.map(([v, text]) => h("option", { value: v, selected: v === value }, t(text))));
}

function number(id, value, min, max, step = 1) {
  return h("input", { id, type: "number", value, min, max, step, inputmode: "decimal" });
}

/** A rule set's name for players (an unknown preset keeps its protocol value). */
export function rulesLabel(rules) {
  const key = RULES.find(([value]) => value === rules);
  return key ? t(key[1]) : rules;
}

function colorLabel(color) {
  const key = COLORS.find(([value]) => value === color);
  return key ? t(key[1]) : color;
}

export function mountLobby(main, _params, session) {
  const seeks = new Map();
  const games = new Map();
  const message = h("p", { class: "notice", id: "lobby-message", hidden: true });
  const seekList = h("ul", { class: "rows", id: "seeks" });
  const gameList = h("ul", { class: "rows", id: "games" });
  const seekFilter = createSeekFilter(() => renderSeeks());
  const [bots, closeBots] = botsPanel(session);

  const seekBase = number("seek-base", 5, 0.5, 180, 0.5);
  const seekInc = number("seek-inc", 3, 0, 60);
  const seekRated = h("input", { id: "seek-rated", type: "checkbox", checked: !(session.player && session.player.guest) });
  const seekColor = select("seek-color", COLORS, "random");
  const seekRules = select("seek-rules", RULES, "online");
  const engineLevel = h("input", { id: "engine-level", type: "range", min: 0, max: 20, value: 5 });
  const engineLevelText = h("output", { id: "engine-level-text" }, "5");
  engineLevel.addEventListener("input", () => (engineLevelText.textContent = engineLevel.value));
  const engineBase = number("engine-base", 5, 0.5, 180, 0.5);
  const engineInc = number("engine-inc", 0, 0, 60);
  const engineColor = select("engine-color", COLORS, "red");

  function tc(base, inc) {
    return `${Number(base.value)}+${Number(inc.value)}`;
  }

  function say(text) {
    message.textContent = text || "";
    message.hidden = !text;
  }

  function createSeek(event) {
    event.preventDefault();
    say("");
    socket.send({ t: "seek", tc: tc(seekBase, seekInc), rated: seekRated.checked, color: seekColor.value, rules: seekRules.value });
  }

  function playEngine(event) {
    event.preventDefault();
    say("");
    socket.send({ t: "play_engine", level: Number(engineLevel.value), tc: tc(engineBase, engineInc), color: engineColor.value });
  }

  function renderSeeks() {
    const me = session.player && session.player.id;
    const { shown, filteredOut } = seekFilter.apply([...seeks.values()]);
    const rows = shown.map((seek) => {
      const own = seek.player.id === me;
      const action = own
        ? h("button", { class: "quiet", onclick: () => socket.send({ t: "cancel_seek", id: seek.id }) }, t("lobby.cancel"))
        : h("button", { class: "primary join", dataset: { seek: seek.id }, onclick: () => socket.send({ t: "accept", id: seek.id }) }, t("lobby.join"));
      return h("li", { dataset: { seek: seek.id }, class: own ? "own" : null },
        h("span", { class: "who" }, playerLink(seek.player)),
        h("span", { class: "tc" }, seek.tc),
        h("span", { class: "tag" }, seek.rated ? t("lobby.rated") : t("lobby.casual")),
        h("span", { class: "tag" }, colorLabel(seek.color)),
        seek.rules === "online" ? null : h("span", { class: "tag", dataset: { rules: seek.rules } }, rulesLabel(seek.rules)),
        action);
    });
    const empty = filteredOut ? seekFilter.noMatch() : t("lobby.no_seeks");
    seekList.replaceChildren(...(rows.length ? rows : [h("li", { class: "empty" }, empty)]));
  }

  function renderGames() {
    const me = session.player && session.player.id;
    // A player away from their game's page counts as gone from it (and loses
    // after 45 s), so their own games lead back to the board.
    const rows = [...games.values()].map((game) => {
      const mine = me && (game.red.id === me || game.black.id === me);
      return h("li", { dataset: { game: game.id }, class: mine ? "own" : null },
        h("span", { class: "who" }, playerLink(game.red), h("span", { class: "vs" }, ` ${t("game.vs")} `), playerLink(game.black)),
        h("span", { class: "tc" }, game.tc),
        h("span", { class: "tag" }, game.rated ? t("lobby.rated") : t("lobby.casual")),
        link(`/games/${game.id}`, mine ? t("lobby.back_to_game") : t("lobby.watch")));
    });
    gameList.replaceChildren(...(rows.length ? rows : [h("li", { class: "empty" }, t("lobby.no_games"))]));
  }

  const offs = [
    socket.whenReady(() => socket.send({ t: "lobby" })),
    socket.on("lobby", (frame) => {
      seeks.clear();
      games.clear();
      for (const seek of frame.seeks) seeks.set(seek.id, seek);
      for (const game of frame.games) games.set(game.id, game);
      renderSeeks();
      renderGames();
    }),
    socket.on("seek_added", ({ seek }) => { seeks.set(seek.id, seek); renderSeeks(); }),
    socket.on("seek_created", ({ seek }) => { seeks.set(seek.id, seek); renderSeeks(); }),
    socket.on("seek_removed", ({ id }) => { seeks.delete(id); renderSeeks(); }),
    socket.on("game_added", ({ game }) => { games.set(game.id, game); renderGames(); }),
    socket.on("game_removed", ({ id }) => { games.delete(id); renderGames(); }),
    socket.on("error", (frame) => say(errorText(frame))),
  ];

  main.append(
    h("div", { class: "lobby" },
      h("section", { class: "panel" },
        h("h2", {}, t("lobby.create_game")),
        h("form", { id: "seek-form", class: "form-grid", onsubmit: createSeek },
          field(t("lobby.minutes"), seekBase), field(t("lobby.increment"), seekInc), field(t("lobby.colour"), seekColor), field(t("lobby.rules"), seekRules, "full-row"),
          h("label", { class: "check" }, seekRated, h("span", {}, t("lobby.rated"))),
          h("button", { type: "submit", class: "primary", id: "seek-submit" }, t("lobby.create_seek")))),
      h("section", { class: "panel" },
        h("h2", {}, t("lobby.play_computer")),
        h("form", { id: "engine-form", class: "form-grid", onsubmit: playEngine },
          field(t("lobby.level"), h("span", { class: "range" }, engineLevel, engineLevelText)),
          field(t("lobby.minutes"), engineBase), field(t("lobby.increment"), engineInc), field(t("lobby.colour"), engineColor),
          h("button", { type: "submit", class: "primary", id: "engine-submit" }, t("lobby.play")))),
      message,
      h("section", { class: "panel wide" }, h("h2", {}, t("lobby.open_seeks")), seekFilter.form, seekList, seekFilter.pager),
      bots,
      h("section", { class: "panel wide" }, h("h2", {}, t("lobby.games_in_progress")), gameList)));
  renderSeeks();
  renderGames();

  return () => { offs.forEach((off) => off()); closeBots(); };
}
