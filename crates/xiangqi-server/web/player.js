// A player's page: rating, a small rating chart, the rating history and the
// player's games, newest first, each with its ECCO code, filtered by a code
// or its start (`?ecco=C2`, kept in the page's address).

import { api } from "./api.js";
import { h, link, playerLink } from "./dom.js";
import { language, t } from "./i18n.js";
import { errorText } from "./errors.js";
import { reasonLabel } from "./results.js";

const SVG = "http://www.w3.org/2000/svg";

function svg(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

/** A line chart of the ratings after each rated game, oldest on the left. */
function ratingChart(history) {
  const points = [...history].reverse();
  if (points.length === 0) return null;
  const values = [points[0].before, ...points.map((p) => p.after)];
  const width = 320;
  const height = 110;
  const pad = 14;
  const low = Math.min(...values) - 10;
  const high = Math.max(...values) + 10;
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, values.length - 1);
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "rating-chart", id: "rating-chart" });
  svg("line", { x1: pad, y1: height - pad, x2: width - pad, y2: height - pad, class: "axis" }, chart);
  svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "line" }, chart);
  values.forEach((v, i) => svg("circle", { cx: x(i), cy: y(v), r: 2.6, class: "dot" }, chart));
  const top = svg("text", { x: pad, y: 10, class: "label" }, chart);
  top.textContent = String(Math.max(...values));
  const bottom = svg("text", { x: pad, y: height - 2, class: "label" }, chart);
  bottom.textContent = String(Math.min(...values));
  return chart;
}

function day(ms) {
  return new Date(ms).toLocaleDateString(language(), { year: "numeric", month: "short", day: "numeric" });
}

const OUTCOMES = { win: "player.win", loss: "player.loss", draw: "player.draw", playing: "player.playing", cancelled: "player.cancelled" };

function outcomeFor(name, game) {
  if (game.status !== "finished") return game.status === "playing" ? "playing" : "cancelled";
  if (game.result === "1/2-1/2") return "draw";
  const redWon = game.result === "1-0";
  const isRed = game.red && game.red.name === name;
  return redWon === isRed ? "win" : "loss";
}

/** The page's `?ecco=` filter. */
function eccoInAddress() {
  return new URLSearchParams(window.location.search).get("ecco") || "";
}

export function mountPlayer(main, [name]) {
  const section = h("section", { class: "panel wide", id: "player" }, h("p", {}, t("page.loading")));
  main.append(section);
  let gone = false;
  let shownName = name;
  const gameList = h("ul", { class: "rows", id: "player-games" });
  const filterInput = h("input", {
    type: "search", id: "ecco-filter", name: "ecco", value: eccoInAddress(), size: 6, maxlength: 3,
    placeholder: "C2", "aria-label": t("player.ecco_label"), title: t("player.ecco_title"),
  });
  const filterNote = h("span", { class: "small", id: "ecco-filter-note" });
  const filterForm = h("form", { class: "ecco-filter", id: "ecco-filter-form" },
    h("label", { for: "ecco-filter" }, `${t("player.opening_filter")} `), filterInput, " ",
    h("button", { type: "submit" }, t("player.filter")), " ", filterNote);
  filterForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const ecco = filterInput.value.trim().toUpperCase();
    const address = new URL(window.location.href);
    if (ecco) address.searchParams.set("ecco", ecco);
    else address.searchParams.delete("ecco");
    window.history.replaceState(window.history.state, "", address);
    load(ecco);
  });

  function gameRow(game) {
    const outcome = outcomeFor(shownName, game);
    return h("li", { dataset: { game: game.id } },
      h("span", { class: `outcome ${outcome}` }, t(OUTCOMES[outcome])),
      h("span", { class: "who" }, playerLink(game.red), h("span", { class: "vs" }, ` ${t("game.vs")} `), playerLink(game.black)),
      h("span", { class: "ecco", title: t("game.ecco_opening") }, game.ecco || "—"),
      h("span", { class: "tc" }, game.tc),
      h("span", { class: "tag" }, `${game.result}${game.reason ? ` · ${reasonLabel(game.reason)}` : ""}`),
      link(`/games/${game.id}`, t("player.open")));
  }

  function showGames(games, ecco) {
    const empty = ecco ? t("player.no_games_with", { ecco }) : t("player.no_games");
    gameList.replaceChildren(...(games.length ? games.map(gameRow) : [h("li", { class: "empty" }, empty)]));
    filterNote.textContent = ecco ? t("player.games_with", { count: games.length, ecco }) : "";
  }

  /** Only the games list again, for a new filter. */
  function load(ecco) {
    api.player(name, ecco).then((data) => {
      if (!gone) showGames(data.games, data.ecco);
    }).catch((error) => {
      if (!gone) filterNote.textContent = errorText(error);
    });
  }

  api.player(name, eccoInAddress()).then((data) => {
    if (gone) return;
    const { player, history, games } = data;
    shownName = player.name;
    const historyRows = history.map((change) =>
      h("li", {}, h("span", {}, day(change.at)),
        h("span", { class: change.after >= change.before ? "up" : "down" }, `${change.before} → ${change.after}`),
        link(`/games/${change.game}`, t("player.game"))));
    showGames(games, data.ecco);
    section.replaceChildren(
      h("h1", {}, player.name, player.guest ? h("span", { class: "tag" }, t("player.guest")) : null),
      h("p", { class: "big-rating", id: "player-rating" }, player.rating ? t("player.rating", { rating: player.rating }) : t("player.not_rated")),
      ratingChart(history) || "",
      h("h2", {}, t("player.rating_history")),
      h("ul", { class: "rows", id: "history" }, historyRows.length ? historyRows : h("li", { class: "empty" }, t("player.no_rated_games"))),
      h("h2", {}, t("player.games")),
      filterForm,
      gameList);
  }).catch((error) => {
    if (!gone) section.replaceChildren(h("h1", {}, name), h("p", { class: "notice" }, errorText(error)));
  });

  return () => { gone = true; };
}
