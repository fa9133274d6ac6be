// A game's page: a game in progress is the live page (game.js); a finished
// one is the game viewer (the `xiangqi-viewer` crate's viewer.js, on the
// shared board) in the player's notation, with the PGN, the server's opening
// explorer beside the board when it has one, and a button that has the
// engine annotate the game (the page polls until the work is done).

import { api } from "./api.js";
import { h, link, playerLink } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { reasonLabel } from "./results.js";
import { mountGame } from "./game.js";
import { mountViewer } from "./viewer.js";
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

function mountReview(main, summary, session) {
  const id = summary.id;
  let timer = null;
  let viewer = null;
  const notice = h("p", { class: "notice", id: "review-message", hidden: true });
  const box = h("div", { id: "viewer" });
  const annotateButton = h("button", { type: "button", id: "annotate", class: "primary", onclick: annotate }, t("review.annotate"));
  const pgnLink = h("a", { href: `/games/${id}.pgn`, download: `${id}.pgn`, class: "button" }, t("game.download_pgn"));
  const reason = summary.reason ? ` · ${reasonLabel(summary.reason)}` : "";
  main.append(h("section", { class: "review", id: "review", dataset: { game: id } },
    h("p", { class: "review-head" }, playerLink(summary.red), h("span", { class: "vs" }, ` ${t("game.vs")} `), playerLink(summary.black),
      h("span", { class: "tag" }, `${summary.result}${reason}`)),
    notice, box));

  function say(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  function show(data) {
    const annotation = data.annotation || { status: "none" };
    annotateButton.disabled = annotation.status === "running";
    annotateButton.textContent = annotation.status === "running" ? t("review.annotating")
      : annotation.status === "done" ? t("review.annotate_again") : t("review.annotate");
    box.dataset.annotation = annotation.status;
    if (annotation.status === "failed") say(t("review.annotation_failed", { error: annotation.error || t("error.unknown") }));
    const games = [data.game];
    if (viewer) viewer.show(games, 0);
    else viewer = mountViewer(box, games, {
      notation: session.player ? session.player.notation : "coordinate", actions: () => [annotateButton, pgnLink], explorer: api.explorer,
      pieces: pieceSet(session), boardLabel: t("game.board"), words: viewerWords,
    });
    clearTimeout(timer);
    if (annotation.status === "running") timer = setTimeout(load, POLL_MS);
  }

  async function load() {
    try {
      show(await api.viewer(id));
    } catch (error) {
      say(errorText(error));
    }
  }

  async function annotate() {
    say("");
    try {
      await api.annotate(id);
    } catch (error) {
      say(errorText(error));
    }
    await load();
  }

  load();
  return () => {
    clearTimeout(timer);
    if (viewer) viewer.destroy();
  };
}
