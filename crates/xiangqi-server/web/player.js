// A player's page: rating, a small rating chart, the rating history and the
// player's games, newest first, each with its ECCO code, filtered on the
// server by an ECCO code or its start, the result, rated or casual and the
// opponent, a page at a time (all kept in the page's address:
// `?ecco=C2&result=win&rated=true&opponent=bob&page=2`).

import { api } from "./api.js";
import { botBadge, h, link, playerLink } from "./dom.js";
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

// The choices of the result and rated filters: the value the server reads, the words' key.
const RESULTS = [["win", "player.result_win"], ["loss", "player.result_loss"], ["draw", "player.result_draw"], ["playing", "player.result_playing"]];
const RATED = [["true", "lobby.rated"], ["false", "lobby.casual"]];

const FILTER_KEYS = ["ecco", "result", "rated", "opponent", "page"];

/** The page's filters, kept in its address (`?ecco=C2&result=win&page=2`). */
function filtersInAddress() {
  const query = new URLSearchParams(window.location.search);
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, query.get(key) || ""]));
}

function putInAddress(filters) {
  const address = new URL(window.location.href);
  for (const key of FILTER_KEYS) {
    if (filters[key] && !(key === "page" && String(filters[key]) === "1")) address.searchParams.set(key, filters[key]);
    else address.searchParams.delete(key);
  }
  window.history.replaceState(window.history.state, "", address);
}

function choice(id, label, options, value) {
  return [h("label", { for: id }, label),
    h("select", { id, name: id }, h("option", { value: "" }, t("player.any")),
      options.map(([v, key]) => h("option", { value: v, selected: v === value }, t(key))))];
}

export function mountPlayer(main, [name]) {
  const section = h("section", { class: "panel wide", id: "player" }, h("p", {}, t("page.loading")));
  main.append(section);
  let gone = false;
  let shownName = name;
  let filters = filtersInAddress();
  const gameList = h("ul", { class: "rows", id: "player-games" });
  const filterInput = h("input", {
    type: "search", id: "ecco-filter", name: "ecco", value: filters.ecco, size: 6, maxlength: 3,
    placeholder: "C2", "aria-label": t("player.ecco_label"), title: t("player.ecco_title"),
  });
  const opponentInput = h("input", { type: "search", id: "opponent-filter", name: "opponent", value: filters.opponent, size: 12, maxlength: 20 });
  const [resultLabel, resultSelect] = choice("result-filter", `${t("player.result")} `, RESULTS, filters.result);
  const [ratedLabel, ratedSelect] = choice("rated-filter", `${t("player.rated")} `, RATED, filters.rated);
  const filterNote = h("span", { class: "small", id: "ecco-filter-note" });
  const pageNote = h("span", { class: "small", id: "page-note" });
  const previous = h("button", { type: "button", id: "page-previous", onclick: () => turn(-1) }, t("player.newer"));
  const next = h("button", { type: "button", id: "page-next", onclick: () => turn(1) }, t("player.older"));
  const pager = h("p", { class: "pager", id: "pager" }, previous, " ", pageNote, " ", next);
  const filterForm = h("form", { class: "ecco-filter game-filters", id: "ecco-filter-form" },
    h("label", { for: "ecco-filter" }, `${t("player.opening_filter")} `), filterInput, " ",
    resultLabel, resultSelect, " ", ratedLabel, ratedSelect, " ",
    h("label", { for: "opponent-filter" }, `${t("player.opponent")} `), opponentInput, " ",
    h("button", { type: "submit", id: "filter-submit" }, t("player.filter")), " ",
    h("button", { type: "button", id: "filter-clear", onclick: clear }, t("player.clear")), " ", filterNote);
  filterForm.addEventListener("submit", (event) => {
    event.preventDefault();
    filters = {
      ecco: filterInput.value.trim().toUpperCase(), result: resultSelect.value, rated: ratedSelect.value,
      opponent: opponentInput.value.trim(), page: "",
    };
    load();
  });

  function clear() {
    filterInput.value = "";
    opponentInput.value = "";
    resultSelect.value = "";
    ratedSelect.value = "";
    filters = { ecco: "", result: "", rated: "", opponent: "", page: "" };
    load();
  }

  function turn(step) {
    filters = { ...filters, page: String(Math.max(1, Number(filters.page || 1) + step)) };
    load();
  }

  function gameRow(game) {
    const outcome = outcomeFor(shownName, game);
    return h("li", { dataset: { game: game.id } },
      h("span", { class: `outcome ${outcome}` }, t(OUTCOMES[outcome])),
      h("span", { class: "who" }, playerLink(game.red), h("span", { class: "vs" }, ` ${t("game.vs")} `), playerLink(game.black)),
      h("span", { class: "ecco", title: t("game.ecco_opening") }, game.ecco || "—"),
      h("span", { class: "tc" }, game.tc),
      h("span", { class: "tag" }, game.rated ? t("lobby.rated") : t("lobby.casual")),
      h("span", { class: "tag" }, `${game.result}${game.reason ? ` · ${reasonLabel(game.reason)}` : ""}`),
      link(`/games/${game.id}`, t("player.open")));
  }

  function showGames(data) {
    const { games } = data;
    const filtered = Boolean(data.ecco || data.result || data.rated !== null && data.rated !== undefined || data.opponent);
    const onlyOpening = data.ecco && !data.result && (data.rated === null || data.rated === undefined) && !data.opponent;
    const empty = onlyOpening ? t("player.no_games_with", { ecco: data.ecco }) : filtered ? t("player.no_match") : t("player.no_games");
    gameList.replaceChildren(...(games.length ? games.map(gameRow) : [h("li", { class: "empty" }, empty)]));
    const label = (pairs, value) => { const found = pairs.find(([v]) => v === String(value)); return found ? t(found[1]) : String(value); };
    const what = [data.ecco, data.result && label(RESULTS, data.result),
      data.rated !== null && data.rated !== undefined && label(RATED, data.rated),
      data.opponent && t("player.versus", { name: data.opponent })].filter(Boolean).join(", ");
    // "50 games with …" on a full page whose next page holds more.
    filterNote.textContent = filtered ? t("player.games_with", { count: games.length, ecco: what }) : "";
    const page = data.page || 1;
    pageNote.textContent = t("player.page", { page });
    previous.disabled = page <= 1;
    next.disabled = !data.more;
    pager.hidden = page <= 1 && !data.more;
  }

  /** Only the games list again, for new filters or another page. */
  function load() {
    putInAddress(filters);
    api.player(name, filters).then((data) => {
      if (!gone) showGames(data);
    }).catch((error) => {
      if (!gone) filterNote.textContent = errorText(error);
    });
  }

  api.player(name, filters).then((data) => {
    if (gone) return;
    const { player, history } = data;
    shownName = player.name;
    const historyRows = history.map((change) =>
      h("li", {}, h("span", {}, day(change.at)),
        h("span", { class: change.after >= change.before ? "up" : "down" }, `${change.before} → ${change.after}`),
        link(`/games/${change.game}`, t("player.game"))));
    showGames(data);
    section.replaceChildren(
      h("h1", {}, player.bot ? botBadge() : null, player.name, player.guest ? h("span", { class: "tag" }, t("player.guest")) : null),
      h("p", { class: "big-rating", id: "player-rating" }, player.rating ? t("player.rating", { rating: player.rating }) : t("player.not_rated")),
      // A person's rating from rated games against bots: a pool of its own.
      data.bot_rating ? h("p", { class: "status", id: "player-bot-rating" }, t("player.bot_rating", { rating: data.bot_rating })) : "",
      ratingChart(history) || "",
      h("h2", {}, t("player.rating_history")),
      h("ul", { class: "rows", id: "history" }, historyRows.length ? historyRows : h("li", { class: "empty" }, t("player.no_rated_games"))),
      h("h2", {}, t("player.games")),
      filterForm,
      gameList,
      pager);
  }).catch((error) => {
    if (!gone) section.replaceChildren(h("h1", {}, name), h("p", { class: "notice" }, errorText(error)));
  });

  return () => { gone = true; };
}
