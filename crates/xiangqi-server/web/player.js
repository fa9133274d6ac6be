// A player's page: rating, a small rating chart, the rating history and the
// player's games, newest first, each with its ECCO code, filtered by a code
// or its start (`?ecco=C2`, kept in the page's address).

import { api } from "./api.js";
import { h, link, playerLink } from "./dom.js";

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
  return new Date(ms).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
}

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
  const section = h("section", { class: "panel wide", id: "player" }, h("p", {}, "Loading…"));
  main.append(section);
  let gone = false;
  let shownName = name;
  const gameList = h("ul", { class: "rows", id: "player-games" });
  const filterInput = h("input", {
    type: "search", id: "ecco-filter", name: "ecco", value: eccoInAddress(), size: 6, maxlength: 3,
    placeholder: "C2", "aria-label": "ECCO code or its start", title: "An ECCO code (C23) or its start (C2, C)",
  });
  const filterNote = h("span", { class: "small", id: "ecco-filter-note" });
  const filterForm = h("form", { class: "ecco-filter", id: "ecco-filter-form" },
    h("label", { for: "ecco-filter" }, "Opening (ECCO) "), filterInput, " ",
    h("button", { type: "submit" }, "Filter"), " ", filterNote);
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
      h("span", { class: `outcome ${outcome}` }, outcome),
      h("span", { class: "who" }, playerLink(game.red), h("span", { class: "vs" }, " vs "), playerLink(game.black)),
      h("span", { class: "ecco", title: "ECCO opening" }, game.ecco || "—"),
      h("span", { class: "tc" }, game.tc),
      h("span", { class: "tag" }, `${game.result}${game.reason ? ` · ${game.reason}` : ""}`),
      link(`/games/${game.id}`, "Open"));
  }

  function showGames(games, ecco) {
    const empty = ecco ? `No games with an opening ${ecco}….` : "No games yet.";
    gameList.replaceChildren(...(games.length ? games.map(gameRow) : [h("li", { class: "empty" }, empty)]));
    filterNote.textContent = ecco ? `${games.length} game${games.length === 1 ? "" : "s"} with ${ecco}` : "";
  }

  /** Only the games list again, for a new filter. */
  function load(ecco) {
    api.player(name, ecco).then((data) => {
      if (!gone) showGames(data.games, data.ecco);
    }).catch((error) => {
      if (!gone) filterNote.textContent = error.message;
    });
  }

  api.player(name, eccoInAddress()).then((data) => {
    if (gone) return;
    const { player, history, games } = data;
    shownName = player.name;
    const historyRows = history.map((change) =>
      h("li", {}, h("span", {}, day(change.at)),
        h("span", { class: change.after >= change.before ? "up" : "down" }, `${change.before} → ${change.after}`),
        link(`/games/${change.game}`, "game")));
    showGames(games, data.ecco);
    section.replaceChildren(
      h("h1", {}, player.name, player.guest ? h("span", { class: "tag" }, "guest") : null),
      h("p", { class: "big-rating", id: "player-rating" }, player.rating ? `Rating ${player.rating}` : "Not rated"),
      ratingChart(history) || "",
      h("h2", {}, "Rating history"),
      h("ul", { class: "rows", id: "history" }, historyRows.length ? historyRows : h("li", { class: "empty" }, "No rated games yet.")),
      h("h2", {}, "Games"),
      filterForm,
      gameList);
  }).catch((error) => {
    if (!gone) section.replaceChildren(h("h1", {}, name), h("p", { class: "notice" }, error.message));
  });

  return () => { gone = true; };
}
