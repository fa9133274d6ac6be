// The analysis board's engine panel: asks the server to analyse the shown
// position (`analyse` over the socket, docs/server.md "Analysis board"),
// shows the lines it reports (score from the side to move's view, depth,
// the line in the player's notation; a click plays a line's first move)
// and hands the board one arrow per line's first move. It keeps no rules:
// the server checks every request and writes every move's text.

import { socket } from "./socket.js";
import { h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";

/** A score as a reader expects it: pawns with a sign, or mate in N. */
export function scoreText(score) {
  if (score.mate !== undefined && score.mate !== null) return `#${score.mate}`;
  const pawns = (score.cp || 0) / 100;
  return `${pawns > 0 ? "+" : ""}${pawns.toFixed(2)}`;
}

/**
 * The panel: `onArrows(arrows)` gets the arrows to draw, `onPlay(move)` a
 * line's first move clicked, `onNotice(text)` what to tell the player.
 */
export function createEnginePanel({ onArrows, onPlay, onNotice }) {
  const state = { on: false, request: null, fen: null, id: null, report: null, arrows: true, multipv: 3 };
  const toggle = h("input", { type: "checkbox", id: "engine", onchange: () => setOn(toggle.checked) });
  const arrowsBox = h("input", { type: "checkbox", id: "arrows", checked: true, onchange: () => { state.arrows = arrowsBox.checked; drawArrows(); } });
  const multipv = h("select", { id: "multipv", onchange: () => { state.multipv = Number(multipv.value); send(); } },
    ...[1, 2, 3, 4, 5].map((n) => h("option", { value: n, selected: n === state.multipv }, String(n))));
  const info = h("p", { class: "small", id: "engine-info" });
  const lines = h("ol", { class: "engine-lines", id: "lines" });
  const note = h("p", { class: "small", id: "score-note" }, t("analysis.score_note"));
  const element = h("section", { class: "engine-panel", id: "engine-panel" },
    h("div", { class: "engine-controls" },
      h("label", {}, toggle, " ", t("analysis.engine")),
      h("label", {}, t("analysis.lines"), " ", multipv),
      h("label", {}, arrowsBox, " ", t("analysis.arrows"))),
    info, lines, note);

  function send() {
    if (!state.on || !state.request) return;
    state.report = null;
    state.id = null;
    render();
    info.textContent = t("analysis.waiting");
    socket.send({ t: "analyse", fen: state.request.fen, moves: state.request.moves, multipv: state.multipv });
  }

  function setOn(on) {
    state.on = on;
    toggle.checked = on;
    if (on) send();
    else {
      socket.send({ t: "stop_analysis" });
      state.report = null;
      state.id = null;
      info.textContent = "";
      render();
    }
  }

  function drawArrows() {
    const report = state.report;
    if (!state.on || !state.arrows || !report) return onArrows([]);
    onArrows(report.lines.filter((line) => line.pv.length).map((line) => ({
      from: line.pv[0].slice(0, 2), to: line.pv[0].slice(2, 4), rank: line.multipv,
    })));
  }

  function render() {
    const report = state.report;
    lines.replaceChildren(...(report ? report.lines : []).map((line) => h("li", { class: "engine-line", dataset: { multipv: line.multipv, move: line.pv[0] || "" } },
      h("button", { type: "button", class: "linkish line-play", title: t("analysis.play_line"), onclick: () => line.pv[0] && onPlay(line.pv[0]) },
        h("span", { class: "score" }, scoreText(line.score)), " ", h("span", { class: "pv" }, line.pv_text.join(" "))))));
    if (report) {
      // A search of a few milliseconds (a mate found at once) has no speed worth showing.
      info.textContent = report.time_ms >= 100
        ? t("analysis.depth", { depth: report.depth, knps: Math.round(report.nps / 1000) })
        : t("analysis.depth_only", { depth: report.depth });
      if (report.done) info.textContent += ` · ${t(report.lines.length ? "analysis.finished" : "analysis.no_moves")}`;
    }
    drawArrows();
  }

  const offs = [
    socket.on("analysis", (frame) => {
      // Frames of an earlier request (another position) may still come in.
      if (!state.on || frame.fen !== state.fen) return;
      state.id = frame.id;
      state.report = frame;
      render();
    }),
    socket.on("analysis_end", (frame) => {
      if (frame.id !== state.id) return;
      if (frame.reason === "replaced") {
        state.on = false;
        toggle.checked = false;
        onNotice(t("analysis.replaced"));
      }
    }),
    socket.on("error", (frame) => {
      if (state.on && ["bad_fen", "illegal_position", "bad_multipv", "too_many_moves"].includes(frame.code)) onNotice(errorText(frame));
    }),
    // After a reconnection the server has forgotten the analysis: ask again.
    socket.whenReady(() => send()),
  ];

  return {
    element,
    /** The shown position changed: `fen` is the position after `moves` from `start`. */
    show(start, moves, fen) {
      state.request = { fen: start, moves };
      state.fen = fen;
      send();
    },
    /** The board is being set up: nothing to analyse. */
    clear() {
      state.request = null;
      state.fen = null;
      if (state.on) socket.send({ t: "stop_analysis" });
      state.report = null;
      render();
      info.textContent = "";
    },
    get on() {
      return state.on;
    },
    destroy() {
      if (state.on) socket.send({ t: "stop_analysis" });
      offs.forEach((off) => off());
    },
  };
}
