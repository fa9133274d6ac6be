// The lobby: create a seek, join an open one, watch a game in progress, or
// play the built-in engine. Live through the socket's lobby subscription.

import { socket } from "./socket.js";
import { h, link, playerLink } from "./dom.js";
import { createSeekFilter } from "./lobby_filter.js";

const COLORS = [["random", "Random"], ["red", "Red"], ["black", "Black"]];
// The rule sets a game may use (the server's presets); "online" is the default.
const RULES = [["online", "Online"], ["asian", "Asian rule book"], ["pikafish", "Pikafish"], ["fairy", "Fairy-Stockfish"], ["plain", "Plain"]];

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

function select(id, options, value) {
  return h("select", { id }, options.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
}

function number(id, value, min, max, step = 1) {
  return h("input", { id, type: "number", value, min, max, step, inputmode: "decimal" });
}

function colorLabel(color) {
  return { red: "Red", black: "Black", random: "Random" }[color] || color;
}

export function mountLobby(main, _params, session) {
  const seeks = new Map();
  const games = new Map();
  const message = h("p", { class: "notice", id: "lobby-message", hidden: true });
  const seekList = h("ul", { class: "rows", id: "seeks" });
  const gameList = h("ul", { class: "rows", id: "games" });
  const seekFilter = createSeekFilter(() => renderSeeks());

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
        ? h("button", { class: "quiet", onclick: () => socket.send({ t: "cancel_seek", id: seek.id }) }, "Cancel")
        : h("button", { class: "primary join", dataset: { seek: seek.id }, onclick: () => socket.send({ t: "accept", id: seek.id }) }, "Join");
      return h("li", { dataset: { seek: seek.id }, class: own ? "own" : null },
        h("span", { class: "who" }, playerLink(seek.player)),
        h("span", { class: "tc" }, seek.tc),
        h("span", { class: "tag" }, seek.rated ? "Rated" : "Casual"),
        h("span", { class: "tag" }, colorLabel(seek.color)),
        seek.rules === "online" ? null : h("span", { class: "tag" }, seek.rules),
        action);
    });
    const empty = filteredOut ? seekFilter.noMatch : "No open seeks. Create one above.";
    seekList.replaceChildren(...(rows.length ? rows : [h("li", { class: "empty" }, empty)]));
  }

  function renderGames() {
    const me = session.player && session.player.id;
    // A player away from their game's page counts as gone from it (and loses
    // after 45 s), so their own games lead back to the board.
    const rows = [...games.values()].map((game) => {
      const mine = me && (game.red.id === me || game.black.id === me);
      return h("li", { dataset: { game: game.id }, class: mine ? "own" : null },
        h("span", { class: "who" }, playerLink(game.red), h("span", { class: "vs" }, " vs "), playerLink(game.black)),
        h("span", { class: "tc" }, game.tc),
        h("span", { class: "tag" }, game.rated ? "Rated" : "Casual"),
        link(`/games/${game.id}`, mine ? "Back to your game" : "Watch"));
    });
    gameList.replaceChildren(...(rows.length ? rows : [h("li", { class: "empty" }, "No games in progress.")]));
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
    socket.on("error", (frame) => say(frame.message)),
  ];

  main.append(
    h("div", { class: "lobby" },
      h("section", { class: "panel" },
        h("h2", {}, "Create a game"),
        h("form", { id: "seek-form", class: "form-grid", onsubmit: createSeek },
          field("Minutes", seekBase), field("Increment (s)", seekInc), field("Colour", seekColor), field("Rules", seekRules),
          h("label", { class: "check" }, seekRated, h("span", {}, "Rated")),
          h("button", { type: "submit", class: "primary", id: "seek-submit" }, "Create seek"))),
      h("section", { class: "panel" },
        h("h2", {}, "Play the computer"),
        h("form", { id: "engine-form", class: "form-grid", onsubmit: playEngine },
          field("Level", h("span", { class: "range" }, engineLevel, engineLevelText)),
          field("Minutes", engineBase), field("Increment (s)", engineInc), field("Colour", engineColor),
          h("button", { type: "submit", class: "primary", id: "engine-submit" }, "Play"))),
      message,
      h("section", { class: "panel wide" }, h("h2", {}, "Open seeks"), seekFilter.form, seekList, seekFilter.pager),
      h("section", { class: "panel wide" }, h("h2", {}, "Games in progress"), gameList)));
  renderSeeks();
  renderGames();

  return () => offs.forEach((off) => off());
}
