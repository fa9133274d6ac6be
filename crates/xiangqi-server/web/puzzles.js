// The puzzle page (/puzzles): a puzzle near the player's puzzle rating, each
// move sent to the server, which judges it and answers with the opponent's
// reply; the solution arrives only when the puzzle is over (solved, failed,
// or given up on with "Show the solution", which counts as a failure).
// The board knows no rules: the server sends each position's legal moves.

import { api } from "./api.js";
import { createBoard, destsFromLegal } from "./board.js";
import { h, link } from "./dom.js";
import { errorText } from "./errors.js";
import { onLanguageChange, t } from "./i18n.js";

/** How long the opponent's reply and each move of a shown solution wait. */
const REPLY_DELAY_MS = 350;
const SOLUTION_STEP_MS = 600;

function sideToMove(fen) {
  return fen.split(" ")[1] === "b" ? "black" : "red";
}

export function mountPuzzles(main, _params, session) {
  const boardBox = h("div", { class: "board-box", id: "board" });
  const status = h("p", { class: "status", id: "puzzle-status" }, t("page.loading"));
  const notice = h("p", { class: "notice", id: "puzzle-message", hidden: true });
  const about = h("p", { class: "small", id: "puzzle-about" });
  const standing = h("div", { class: "puzzle-standing", id: "puzzle-standing" });
  const solutionLine = h("p", { class: "small puzzle-solution", id: "puzzle-solution", hidden: true });
  const showButton = h("button", { type: "button", id: "puzzle-show", onclick: showSolution }, t("puzzles.show_solution"));
  const nextButton = h("button", { type: "button", class: "primary", id: "puzzle-next", onclick: next }, t("puzzles.next"));
  const heading = h("h1", {}, t("puzzles.title"));
  const board = createBoard(boardBox, { viewOnly: true, onMove });
  let attempt = null;
  let fen = null;
  let legal = [];
  let over = true;
  let busy = false;
  let gone = false;
  let timers = [];

  function later(ms, work) {
    timers.push(setTimeout(() => !gone && work(), ms));
  }

  function say(text, kind) {
    notice.hidden = !text;
    notice.textContent = text || "";
    notice.className = kind ? `notice ${kind}` : "notice";
  }

  function renderStanding(me) {
    if (!me) {
      standing.replaceChildren();
      return;
    }
    const rating = me.rating
      ? h("p", { id: "puzzle-rating" }, t(me.rating.provisional ? "puzzles.rating_provisional" : "puzzles.rating", { rating: me.rating.rating }))
      : h("p", { class: "small", id: "puzzle-guest" }, t("puzzles.guest"), " ", link("/login", t("nav.sign_in")));
    standing.replaceChildren(
      rating,
      h("p", { id: "puzzle-streak" }, t("puzzles.streak", { streak: me.streak }), " · ", t("puzzles.best_streak", { streak: me.best_streak })),
    );
  }

  function setPosition(newFen, newLegal) {
    fen = newFen;
    legal = newLegal;
    const mine = !over && !busy;
    board.set({ fen, dests: mine ? destsFromLegal(legal) : new Map(), viewOnly: !mine });
  }

  async function next() {
    timers.forEach(clearTimeout);
    timers = [];
    busy = true;
    say(null);
    solutionLine.hidden = true;
    try {
      const served = await api.puzzleNext();
      if (gone) return;
      attempt = served.attempt;
      over = false;
      busy = false;
      const side = sideToMove(served.puzzle.fen);
      board.set({ orientation: side, lastMove: null });
      setPosition(served.puzzle.fen, served.legal);
      status.textContent = t(side === "red" ? "puzzles.find_red" : "puzzles.find_black");
      // `replaceChildren` writes a null as "null": only the parts there are.
      about.replaceChildren(...[
        t("puzzles.about", { rating: served.puzzle.rating, moves: served.puzzle.moves }),
        served.counts ? null : h("span", { id: "puzzle-replay" }, " ", t("puzzles.replay")),
      ].filter(Boolean));
      about.dataset.puzzle = served.puzzle.id;
      renderStanding(served.me);
      showButton.disabled = false;
    } catch (error) {
      busy = false;
      if (!gone) say(errorText(error));
    }
  }

  async function onMove(from, to) {
    if (over || busy || !attempt) return;
    busy = true;
    const before = fen;
    board.set({ viewOnly: true, dests: new Map() });
    try {
      const answer = await api.puzzleMove(attempt, from + to);
      if (gone) return;
      busy = false;
      if (answer.result === "right") {
        status.textContent = t("puzzles.right");
        const reply = answer.reply;
        later(REPLY_DELAY_MS, () => {
          board.move(reply.slice(0, 2), reply.slice(2, 4));
          setPosition(answer.fen, answer.legal);
          board.set({ lastMove: [reply.slice(0, 2), reply.slice(2, 4)] });
        });
      } else {
        finish(answer, before);
      }
    } catch (error) {
      busy = false;
      if (gone) return;
      // A refused move (not legal, the attempt moved on) puts the board back.
      if (error.code === "puzzle_over" || error.code === "puzzle_moved_on") over = true;
      setPosition(before, legal);
      say(errorText(error));
    }
  }

  async function showSolution() {
    if (over || busy || !attempt) return;
    busy = true;
    try {
      const answer = await api.puzzleSolution(attempt);
      busy = false;
      if (!gone) finish(answer, fen);
    } catch (error) {
      busy = false;
      if (!gone) say(errorText(error));
    }
  }

  /** The end of a puzzle: the words, the standing, and a failed or shown solution played out from `from`. */
  function finish(answer, from) {
    over = true;
    showButton.disabled = true;
    board.set({ viewOnly: true, dests: new Map() });
    renderStanding(answer.me);
    const change = answer.rating_change
      ? ` ${t("puzzles.rating_change", { before: answer.rating_change.before, after: answer.rating_change.after })}`
      : "";
    if (answer.result === "solved") {
      status.textContent = t("puzzles.solved");
      say(t("puzzles.solved_notice") + change, "ok");
    } else {
      status.textContent = t(answer.result === "shown" ? "puzzles.shown" : "puzzles.failed");
      say(t(answer.result === "shown" ? "puzzles.shown_notice" : "puzzles.failed_notice") + change);
      playSolution(answer.solution.slice(answer.ply), from);
    }
    solutionLine.hidden = false;
    solutionLine.textContent = t("puzzles.solution", { moves: answer.solution.join(" ") });
  }

  function playSolution(moves, from) {
    board.set({ fen: from, lastMove: null });
    moves.forEach((move, i) => {
      later(SOLUTION_STEP_MS * (i + 1), () => {
        board.move(move.slice(0, 2), move.slice(2, 4));
        board.set({ lastMove: [move.slice(0, 2), move.slice(2, 4)] });
      });
    });
  }

  const offLanguage = onLanguageChange(() => {
    heading.textContent = t("puzzles.title");
    showButton.textContent = t("puzzles.show_solution");
    nextButton.textContent = t("puzzles.next");
  });

  main.append(
    h("div", { class: "game puzzles", id: "puzzles" },
      h("div", { class: "board-column" }, boardBox),
      h("aside", { class: "panel side" },
        heading, status, notice, about, standing, solutionLine,
        h("div", { class: "controls" }, showButton, " ", nextButton))));
  if (session && session.player === null) say(t("error.not_signed_in"));
  next();

  return () => {
    gone = true;
    timers.forEach(clearTimeout);
    offLanguage();
    board.destroy();
  };
}
