// A game's page: a game in progress is the live page (game.js); a finished
// one is the game viewer (the `xiangqi-viewer` crate's viewer.js, on the
// shared board) in the player's notation, with the PGN, the server's opening
// explorer beside the board when it has one, and a button that has the
// engine annotate the game (the page polls until the work is done).

import { api } from "./api.js";
import { h, link, playerLink } from "./dom.js";
import { mountGame } from "./game.js";
import { mountViewer } from "./viewer.js";
import { createChatPanel } from "./chat.js";

const POLL_MS = 1000;

export function mountGamePage(main, params, session) {
  let unmount = null;
  let stopped = false;
  const loading = h("p", { class: "status" }, "Loading the game…");
  main.append(loading);
  (async () => {
    let summary;
    try {
      summary = await api.game(params[0]);
    } catch (error) {
      if (stopped) return;
      loading.remove();
      main.append(h("section", { class: "panel" }, h("h1", {}, "Game not found"), h("p", {}, error.message), link("/", "Back to the lobby")));
      return;
    }
    if (stopped) return;
    loading.remove();
    unmount = summary.status === "playing" ? mountGame(main, params, session) : mountReview(main, summary, session);
  })();
  return () => {
    stopped = true;
    if (unmount) unmount();
  };
}

function mountReview(main, summary, session) {
  const id = summary.id;
  let timer = null;
  let viewer = null;
  const notice = h("p", { class: "notice", id: "review-message", hidden: true });
  const box = h("div", { id: "viewer" });
  // The game's chat as this viewer may read it (docs/web.md): kept with the game.
  const chatBox = h("div", { class: "chat panel", id: "chat" });
  const me = session.player && session.player.id;
  const plays = Boolean(me && (summary.red.id === me || summary.black.id === me));
  const chat = createChatPanel(chatBox, id, session, () => ({ player: plays, over: true }), { readOnly: true });
  const annotateButton = h("button", { type: "button", id: "annotate", class: "primary", onclick: annotate }, "Annotate with the engine");
  const pgnLink = h("a", { href: `/games/${id}.pgn`, download: `${id}.pgn`, class: "button" }, "Download PGN");
  const reason = summary.reason ? ` · ${summary.reason.replaceAll("_", " ")}` : "";
  main.append(h("section", { class: "review", id: "review", dataset: { game: id } },
    h("p", { class: "review-head" }, playerLink(summary.red), h("span", { class: "vs" }, " vs "), playerLink(summary.black),
      h("span", { class: "tag" }, `${summary.result}${reason}`)),
    notice, box, chatBox));

  function say(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  function show(data) {
    const annotation = data.annotation || { status: "none" };
    annotateButton.disabled = annotation.status === "running";
    annotateButton.textContent = annotation.status === "running" ? "The engine is annotating…"
      : annotation.status === "done" ? "Annotate again" : "Annotate with the engine";
    box.dataset.annotation = annotation.status;
    if (annotation.status === "failed") say(`The annotation failed: ${annotation.error || "unknown error"}`);
    const games = [data.game];
    if (viewer) viewer.show(games, 0);
    else viewer = mountViewer(box, games, { notation: session.player ? session.player.notation : "coordinate", actions: () => [annotateButton, pgnLink], explorer: api.explorer });
    clearTimeout(timer);
    if (annotation.status === "running") timer = setTimeout(load, POLL_MS);
  }

  async function load() {
    try {
      show(await api.viewer(id));
    } catch (error) {
      say(error.message);
    }
  }

  async function annotate() {
    say("");
    try {
      await api.annotate(id);
    } catch (error) {
      say(error.message);
    }
    await load();
  }

  load();
  return () => {
    clearTimeout(timer);
    chat.destroy();
    if (viewer) viewer.destroy();
  };
}
