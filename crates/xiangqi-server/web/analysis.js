// The analysis board (/analysis): set up any position (board_editor.js),
// checked by the server's rules core, then play moves on it, step back and
// forth along the line, and have the engine analyse each position live
// (analysis_engine.js), with its lines as arrows on the board. The page
// holds no rules: every position, its legal moves and the moves' text come
// from POST /api/position. `?fen=FEN&moves=m1,m2` opens a position (the
// "Analyse" button of a game's review page).

import { api } from "./api.js";
import { createBoard, destsFromLegal, START_FEN } from "./board.js";
import { createEditor } from "./board_editor.js";
import { createEnginePanel } from "./analysis_engine.js";
import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { problemText } from "./position_words.js";
import { pieceSet } from "./settings.js";

export function mountAnalysis(main, _params, session) {
  const query = new URLSearchParams(location.search);
  const pieces = pieceSet(session);
  const boardBox = h("div", { class: "board-box", id: "board" });
  const palette = h("div", { class: "palette", id: "palette" });
  const board = createBoard(boardBox, { viewOnly: true, pieces, label: t("game.board"), onMove: (from, to) => play(from + to) });
  const state = { mode: "edit", check: null, start: null, moves: [], texts: [], ply: 0, shown: null, asked: 0, gone: false };

  const status = h("p", { class: "status", id: "position-status" });
  const problems = h("ul", { class: "problems", id: "problems" });
  const notice = h("p", { class: "notice", id: "analysis-notice", hidden: true });
  const fenIn = h("input", { type: "text", id: "fen-in", spellcheck: "false", autocomplete: "off", "aria-label": t("analysis.fen_in") });
  const fenOut = h("input", { type: "text", id: "fen-out", readonly: true, spellcheck: "false", "aria-label": t("analysis.fen_out") });
  const side = h("select", { id: "side", onchange: () => editor.setSide(side.value) },
    h("option", { value: "red" }, t("color.red")), h("option", { value: "black" }, t("color.black")));
  const editButton = h("button", { type: "button", id: "mode-edit", onclick: () => setMode("edit") }, t("analysis.mode_edit"));
  const playButton = h("button", { type: "button", id: "mode-play", class: "primary", onclick: () => setMode("play") }, t("analysis.mode_play"));
  const lineMoves = h("ol", { class: "line-moves", id: "line-moves" });
  const editTools = h("div", { class: "edit-tools", id: "edit-tools" },
    h("div", { class: "controls" },
      h("button", { type: "button", id: "start-position", onclick: () => editor.setFen(START_FEN) }, t("analysis.start_position")),
      h("button", { type: "button", id: "clear-board", onclick: () => editor.clear() }, t("analysis.clear")),
      h("label", {}, t("analysis.side_to_move"), " ", side)),
    h("p", { class: "small" }, t("analysis.palette_hint")));
  const playTools = h("div", { class: "play-tools", id: "play-tools", hidden: true },
    h("div", { class: "controls" },
      h("button", { type: "button", id: "to-start", title: t("analysis.to_start"), onclick: () => goto(0) }, "|◀"),
      h("button", { type: "button", id: "back", title: t("analysis.back"), onclick: () => goto(state.ply - 1) }, "◀"),
      h("button", { type: "button", id: "forward", title: t("analysis.forward"), onclick: () => goto(state.ply + 1) }, "▶"),
      h("button", { type: "button", id: "to-end", title: t("analysis.to_end"), onclick: () => goto(state.moves.length) }, "▶|")),
    lineMoves);

  const engine = createEnginePanel({
    onArrows: (arrows) => board.set({ arrows }),
    onPlay: (move) => play(move),
    onNotice: say,
  });
  const editor = createEditor({ boardBox, board, palette, pieces, onChange: check });

  function say(text) {
    notice.hidden = !text;
    notice.textContent = text || "";
  }

  /** A newer request makes an older answer stale: only the last one counts. */
  async function ask(fen, moves) {
    const asked = ++state.asked;
    const answer = await api.position(fen, moves);
    return asked === state.asked && !state.gone ? answer : null;
  }

  /** The editor's board changed: the server says whether it is a position. */
  async function check(fen) {
    fenOut.value = fen;
    side.value = editor.side;
    try {
      const answer = await ask(fen, []);
      if (!answer) return;
      state.check = answer;
      showCheck(answer);
    } catch (error) {
      if (!state.gone) say(errorText(error));
    }
  }

  function showCheck(answer) {
    if (answer.fen) fenOut.value = answer.fen;
    status.textContent = answer.valid ? t("analysis.valid") : t("analysis.invalid");
    status.className = answer.valid ? "status ok" : "status bad";
    problems.replaceChildren(...(answer.problems || []).map((problem) => h("li", { dataset: { problem: problem.problem } }, problemText(problem))));
    playButton.disabled = !answer.valid;
  }

  async function loadFen() {
    const text = fenIn.value.trim();
    if (!text) return;
    say("");
    try {
      const answer = await ask(text, []);
      if (!answer) return;
      if (!answer.fen) {
        // Not even a board: nothing to show, only why.
        showCheck(answer);
        return;
      }
      if (state.mode !== "edit") setMode("edit");
      editor.setFen(answer.fen);
    } catch (error) {
      say(errorText(error));
    }
  }

  function setMode(mode) {
    if (mode === "play" && !(state.check && state.check.valid)) return;
    state.mode = mode;
    say("");
    editor.setActive(mode === "edit");
    editTools.hidden = mode !== "edit";
    playTools.hidden = mode !== "play";
    engine.element.hidden = mode !== "play";
    editButton.classList.toggle("primary", mode === "play");
    playButton.hidden = mode === "play";
    editButton.hidden = mode === "edit";
    main.querySelector("#analysis").dataset.mode = mode;
    if (mode === "play") {
      state.start = state.check.fen;
      state.moves = [];
      state.texts = [];
      goto(0);
    } else {
      engine.clear();
      // Set-up goes on from the position shown.
      editor.setFen(state.shown ? state.shown.end_fen : editor.fen);
    }
  }

  /** Shows the position after the first `ply` moves of the line. */
  async function goto(ply) {
    if (ply < 0 || ply > state.moves.length) return;
    await showLine(state.moves, ply);
  }

  async function showLine(moves, ply) {
    try {
      const answer = await ask(state.start, moves.slice(0, ply));
      if (!answer) return;
      state.moves = moves;
      state.ply = ply;
      state.shown = answer;
      state.texts = answer.moves.map((m) => m.text).concat(state.texts.slice(ply, moves.length));
      const last = ply ? moves[ply - 1] : null;
      board.set({ fen: answer.end_fen, dests: destsFromLegal(answer.legal), viewOnly: false, lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : null, arrows: [] });
      fenOut.value = answer.end_fen;
      status.textContent = answer.legal.length ? t(answer.side === "red" ? "analysis.red_to_move" : "analysis.black_to_move") : t("analysis.no_moves");
      status.className = "status";
      problems.replaceChildren();
      renderLine();
      engine.show(state.start, moves.slice(0, ply), answer.end_fen);
    } catch (error) {
      say(errorText(error));
    }
  }

  /** A move played on the board (or a line's first move): the line after the shown ply is replaced. */
  async function play(move) {
    if (state.mode !== "play") return;
    const moves = state.moves.slice(0, state.ply).concat([move]);
    state.texts = state.texts.slice(0, state.ply);
    await showLine(moves, moves.length);
  }

  function renderLine() {
    if (!state.moves.length) {
      lineMoves.replaceChildren(h("li", { class: "small empty" }, t("analysis.no_line")));
      return;
    }
    lineMoves.replaceChildren(...state.moves.map((move, index) => h("li", { class: index + 1 === state.ply ? "current" : "", dataset: { ply: index + 1, move } },
      h("button", { type: "button", class: "linkish", onclick: () => goto(index + 1) }, state.texts[index] || move))));
  }

  async function copyFen() {
    try {
      await navigator.clipboard.writeText(fenOut.value);
    } catch {
      fenOut.select();
      document.execCommand("copy");
    }
    say(t("analysis.copied"));
  }

  const flipButton = h("button", { type: "button", id: "flip", onclick: () => board.flip() }, t("analysis.flip"));
  main.append(
    h("div", { class: "game analysis", id: "analysis", dataset: { mode: "edit" } },
      h("div", { class: "board-column" }, boardBox, palette),
      h("aside", { class: "panel side" },
        h("h1", {}, t("analysis.title")),
        h("div", { class: "controls" }, editButton, playButton, flipButton),
        status, problems, notice, editTools, playTools,
        h("div", { class: "fen-row" },
          h("label", { for: "fen-out" }, t("analysis.fen")), fenOut,
          h("button", { type: "button", id: "copy-fen", onclick: copyFen }, t("analysis.copy"))),
        h("form", { class: "fen-row", id: "fen-form", onsubmit: (event) => { event.preventDefault(); loadFen(); } },
          fenIn, h("button", { type: "submit", id: "load-fen" }, t("analysis.load_fen"))),
        engine.element)));
  editButton.hidden = true;
  engine.element.hidden = true;

  (async () => {
    const fen = query.get("fen");
    const moves = (query.get("moves") || "").split(",").filter(Boolean);
    editor.setFen(START_FEN);
    if (!fen) return;
    try {
      const answer = await ask(fen, moves);
      if (!answer) return;
      if (!answer.valid) {
        if (answer.fen) editor.setFen(answer.fen);
        else showCheck(answer);
        return;
      }
      editor.setFen(answer.fen);
      state.check = { valid: true, fen: answer.fen };
      setMode("play");
      await showLine(moves, moves.length);
    } catch (error) {
      say(errorText(error));
    }
  })();

  return () => {
    state.gone = true;
    engine.destroy();
    editor.destroy();
    board.destroy();
  };
}
