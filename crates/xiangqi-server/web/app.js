// The client's entry point: the header, the session's player, and the router
// that mounts one page for `location.pathname`.

import { api } from "./api.js";
import { socket } from "./socket.js";
import { h, link } from "./dom.js";
import { initI18n, matchLanguage, onLanguageChange, t, tParts } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountGamePage } from "./review.js";
import { mountSettings } from "./settings.js";
import { mountAuth } from "./auth.js";
import { mountPlayer } from "./player.js";
import { startConnectionBanner } from "./connection.js";
import { mountHowTo } from "./howto.js";
import { mountPuzzles } from "./puzzles.js";
import { mountImport } from "./import.js";
import { mountLibrary } from "./library.js";
import { mountLibraryGame } from "./library_game.js";
import { mountAnalysis } from "./analysis.js";

const routes = [
  [/^\/$/, mountLobby],
  [/^\/games\/([A-Za-z0-9_-]+)$/, mountGamePage],
  [/^\/players\/([^/]+)$/, mountPlayer],
  [/^\/settings$/, mountSettings],
  [/^\/login$/, mountAuth],
  [/^\/how-to-play$/, mountHowTo],
  [/^\/puzzles$/, mountPuzzles],
  [/^\/import$/, mountImport],
  [/^\/library$/, mountLibrary],
  [/^\/library\/([A-Za-z0-9_-]+)$/, mountLibraryGame],
  [/^\/analysis$/, mountAnalysis],
];

const main = document.getElementById("app");
const header = document.getElementById("header");
let unmount = null;

const session = {
  player: null,
  // Set by a live game's page while it is mounted: it opens the settings over
  // the board, and says whether this tab is at the board of a game in play.
  settingsInPage: null,
  boardInPlay: null,
  setPlayer(player) {
    session.player = player;
    renderHeader();
  },
  navigate(path) {
    if (path !== location.pathname) history.pushState(null, "", path);
    route();
  },
  async signedIn(player) {
    session.setPlayer(player);
    socket.reconnect();
  },
  // The session ended elsewhere (the account was deleted): a new guest.
  async signedOut() {
    session.setPlayer(await api.me());
    socket.reconnect();
  },
};

function renderHeader() {
  const player = session.player;
  const who = player
    ? player.guest
      ? h("span", { class: "me", id: "me" }, player.name)
      : link(`/players/${encodeURIComponent(player.name)}`, h("span", { class: "me", id: "me" }, `${player.name}`, player.rating ? h("span", { class: "rating" }, ` ${player.rating}`) : null))
    : null;
  const account = !player || player.guest
    ? link("/login", t("nav.sign_in"))
    : h("button", { class: "linkish", id: "logout", onclick: logout }, t("nav.sign_out"));
  header.replaceChildren(
    link("/", h("span", { class: "brand" }, h("span", { class: "brand-mark" }, "象"), h("span", { class: "brand-name" }, "Xiangqi"))),
    h("nav", {}, h("a", { href: "/", "data-link": true, class: "nav-play" }, t("nav.play")), link("/puzzles", t("nav.puzzles")), link("/analysis", t("nav.analysis")), link("/library", t("nav.library")), link("/how-to-play", t("nav.how_to_play")), link("/settings", t("nav.settings")), account, who),
    // Rebuilt on every header render, so it takes the socket's state now.
    h("span", { class: socket.ready ? "conn online" : "conn", id: "conn", title: t("nav.connection") }),
  );
}

async function logout() {
  await api.logout();
  session.setPlayer(await api.me());
  socket.reconnect();
  session.navigate("/");
}

function route() {
  if (unmount) unmount();
  unmount = null;
  session.settingsInPage = null;
  session.boardInPlay = null;
  main.replaceChildren();
  document.title = t("app.title");
  for (const [pattern, mount] of routes) {
    const match = location.pathname.match(pattern);
    if (match) {
      unmount = mount(main, match.slice(1).map(decodeURIComponent), session) || null;
      return;
    }
  }
  main.append(h("section", { class: "panel" }, h("h1", {}, t("page.not_found")), link("/", t("page.back_to_lobby"))));
}

document.addEventListener("click", (event) => {
  const anchor = event.target.closest && event.target.closest("a[data-link]");
  if (!anchor || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  const href = anchor.getAttribute("href");
  // Leaving a game's page is leaving its board (away, then the 45 s count):
  // there the settings open over the board instead.
  if (href === "/settings" && session.settingsInPage) session.settingsInPage();
  else session.navigate(href);
});
window.addEventListener("popstate", route);
socket.on("status", ({ connected }) => {
  const dot = document.getElementById("conn");
  if (dot) dot.classList.toggle("online", connected);
});
socket.on("welcome", (frame) => session.setPlayer(frame.player));
// A game that starts (a seek accepted, the engine) opens its page in every tab
// of the player's, except where they are at the board of another game in play:
// leaving that would be leaving the board, so that tab only says so.
socket.on("started", (frame) => {
  if (session.boardInPlay && session.boardInPlay()) announceGame(frame.game);
  else session.navigate(`/games/${frame.game}`);
});

function announceGame(id) {
  const old = document.getElementById("started-notice");
  if (old) old.remove();
  main.prepend(h("p", { class: "notice info", id: "started-notice", dataset: { game: id } },
    tParts("app.new_game_started", { link: link(`/games/${id}`, t("app.go_to_it")) })));
}

// A new language redraws the header and the page; a live game's page redraws
// itself instead (leaving it would be leaving the board).
onLanguageChange(() => {
  renderHeader();
  if (!session.settingsInPage) route();
});

async function start() {
  let player = null;
  try {
    player = await api.me();
  } catch {
    player = null;
  }
  await initI18n(matchLanguage([player && player.language, ...(navigator.languages || [])].filter(Boolean)));
  if (player) session.setPlayer(player);
  else renderHeader();
  socket.connect();
  startConnectionBanner();
  route();
}

start();
