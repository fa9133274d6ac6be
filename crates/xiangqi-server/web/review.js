// A game's page: a game in progress is the live page (game.js); a finished
// one is the game viewer (the `xiangqi-viewer` crate's viewer.js, on the
// shared board) in the player's notation, with the PGN, the server's opening
// explorer beside the board when it has one, and a button that has the
// engine annotate the game (the page polls until the work is done). The
// viewer with the review is shared with an imported game's page
// (library_game.js).

import { api } from "./api.js";
import { h, link, playerLink } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { reasonLabel } from "./results.js";
import { mountGame } from "./game.js";
import { mountViewer } from "./viewer.js";
import { createChatPanel } from "./chat.js";
import { pieceSet } from "./settings.js";
import { viewerWords } from "./viewer_words.js";

const POLL_MS = 1000;

export function mountGamePage(main, params, session) {
  let unmount = null;
  let stopped = false;
  const loading = h("p", { class: "status" }, t("game.loading"));
  main.append(loading);
  (async () => {
    let summary;
    try {
      summary = await api.game(params[0]);
    } catch (error) {
      if (stopped) return;
      loading.remove();
      main.append(h("section", { class: "panel" }, h("h1", {}, t("review.not_found")), h("p", {}, errorText(error)), link("/", t("page.back_to_lobby"))));
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

/** The id of the last node of the game's main line. */
function finalNode(game) {
  const nodes = (game && game.nodes) || [];
  let id = 0;
  while (nodes[id] && nodes[id].children && nodes[id].children.length) id = nodes[id].children[0];
  return id;
}

function mountReview(main, summary, session) {
  const id = summary.id;
  const notice = h("p", { class: "notice", id: "review-message", hidden: true });
  const box = h("div", { id: "viewer" });
  // The game's chat as this viewer may read it (docs/web.md): kept with the game.
  const chatBox = h("div", { class: "chat panel", id: "chat" });
  const me = session.player && session.player.id;
  const plays = Boolean(me && (summary.red.id === me || summary.black.id === me));
  const chat = createChatPanel(chatBox, id, session, () => ({ player: plays, over: true }), { readOnly: true });
  const pgnLink = h("a", { href: `/games/${id}.pgn`, download: `${id}.pgn`, class: "button" }, t("game.download_pgn"));
  // The analysis board, on the position the viewer shows.
  const analyseButton = h("button", { type: "button", id: "analyse", onclick: () => {
    const shown = box.querySelector("[data-fen]");
    const fen = shown ? shown.dataset.fen : "";
    session.navigate(fen ? `/analysis?fen=${encodeURIComponent(fen)}` : "/analysis");
  } }, t("analysis.analyse"));
  const reason = summary.reason ? ` · ${reasonLabel(summary.reason)}` : "";
  main.append(h("section", { class: "review", id: "review", dataset: { game: id } },
    h("p", { class: "review-head" }, playerLink(summary.red), h("span", { class: "vs" }, ` ${t("game.vs")} `), playerLink(summary.black),
      h("span", { class: "tag" }, `${summary.result}${reason}`)),
    notice, box, chatBox));
  const review = mountReviewViewer(box, notice, session, { load: () => api.viewer(id), annotate: () => api.annotate(id), actions: [analyseButton, pgnLink] });
  return () => {
    review.destroy();
    chat.destroy();
  };
}

/**
 * The game viewer of a stored game with the engine's review, for a played
 * game and an imported one alike: `load()` answers `{game, annotation}`,
 * `annotate()` starts the review; the page polls while it runs and says in
 * `notice` what went wrong. `actions` go beside the review button.
 */
export function mountReviewViewer(box, notice, session, { load, annotate, actions = [], onData = () => {} }) {
  let timer = null;
  let viewer = null;
  let stopped = false;
  const annotateButton = h("button", { type: "button", id: "annotate", class: "primary", onclick: start }, t("review.annotate"));

  function say(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  function show(data) {
    onData(data);
    const annotation = data.annotation || { status: "none" };
    annotateButton.disabled = annotation.status === "running";
    annotateButton.textContent = annotation.status === "running" ? t("review.annotating")
      : annotation.status === "done" ? t("review.annotate_again") : t("review.annotate");
    box.dataset.annotation = annotation.status;
    if (annotation.status === "failed") say(t("review.annotation_failed", { error: annotation.error || t("error.unknown") }));
    const games = [data.game];
    // A reload (the annotation polled) stays where the reader is.
    if (viewer) viewer.show(games, 0, viewer.node);
    else {
      viewer = mountViewer(box, games, {
        notation: session.player ? session.player.notation : "coordinate", actions: () => [annotateButton, ...actions], explorer: api.explorer,
        pieces: pieceSet(session), boardLabel: t("game.board"), words: viewerWords,
      });
      // The review opens on the final position: where the game ended.
      viewer.goto(finalNode(data.game));
    }
    clearTimeout(timer);
    if (annotation.status === "running") timer = setTimeout(reload, POLL_MS);
  }

  async function reload() {
    try {
      const data = await load();
      if (!stopped) show(data);
    } catch (error) {
      if (!stopped) say(errorText(error));
    }
  }

  async function start() {
    say("");
    try {
      await annotate();
    } catch (error) {
      say(errorText(error));
    }
    await reload();
  }

  reload();
  return {
    destroy() {
      stopped = true;
      clearTimeout(timer);
      if (viewer) viewer.destroy();
    },
  };
}
