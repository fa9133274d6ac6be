// "How to play": the pieces and their moves, each on a small board drawn by
// the shared board code (its dots are the piece's moves), how a game ends,
// the online rules this server applies and what the lobby's rule sets mean.
// Every word comes from the catalogues, in the player's language; the facts
// follow the project's rules reference.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { createBoard, pieceIcon } from "./board.js";
import { pieceSet } from "./settings.js";

const FILES = "abcdefghi";

/** A FEN placement from {square: letter}. */
function placement(pieces) {
  const rows = [];
  for (let rank = 9; rank >= 0; rank--) {
    let row = "";
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const letter = pieces[FILES[file] + rank];
      if (letter) {
        if (empty) row += empty;
        row += letter;
        empty = 0;
      } else {
        empty += 1;
      }
    }
    rows.push(row + (empty ? empty : ""));
  }
  return `${rows.join("/")} w - - 0 1`;
}

// Each piece kind: its FEN letter, a position showing it, and its moves there
// (a blocker or a target where the rule needs one).
const PIECES = [
  { letter: "K", name: "howto.piece_k_name", text: "howto.piece_k", pieces: { e1: "K" }, hints: ["e0", "e2", "d1", "f1"] },
  { letter: "A", name: "howto.piece_a_name", text: "howto.piece_a", pieces: { e1: "A", e0: "K" }, hints: ["d0", "f0", "d2", "f2"] },
  { letter: "B", name: "howto.piece_b_name", text: "howto.piece_b", pieces: { e2: "B", f3: "P" }, hints: ["c0", "g0", "c4"] },
  { letter: "N", name: "howto.piece_n_name", text: "howto.piece_n", pieces: { e4: "N", e5: "P" }, hints: ["c5", "c3", "g5", "g3", "d2", "f2"] },
  { letter: "R", name: "howto.piece_r_name", text: "howto.piece_r", pieces: { e4: "R", e7: "p", b4: "P" },
    hints: ["e5", "e6", "e7", "e3", "e2", "e1", "e0", "d4", "c4", "f4", "g4", "h4", "i4"] },
  { letter: "C", name: "howto.piece_c_name", text: "howto.piece_c", pieces: { b2: "C", b5: "P", b8: "n" },
    hints: ["b3", "b4", "b8", "b1", "b0", "a2", "c2", "d2", "e2", "f2", "g2", "h2", "i2"] },
  { letter: "P", name: "howto.piece_p_name", text: "howto.piece_p", pieces: { c3: "P", g5: "P" }, hints: ["c4", "g6", "f5", "h5"] },
];

const ENDINGS = ["howto.end_mate", "howto.end_stalemate", "howto.end_resign", "howto.end_draw"];
const ONLINE = ["howto.online_away", "howto.online_cancel", "howto.online_abort", "howto.online_perpetual"];
const RULE_SETS = [
  ["rules.online", "howto.rules_online"],
  ["rules.asian", "howto.rules_asian"],
  ["rules.pikafish", "howto.rules_pikafish"],
  ["rules.fairy", "howto.rules_fairy"],
  ["rules.plain", "howto.rules_plain"],
];

export function mountHowTo(main, _params, session) {
  const set = pieceSet(session);
  const boards = [];
  const pieceSections = PIECES.map((piece) => {
    const diagram = h("div", { class: "howto-diagram", dataset: { piece: piece.letter } });
    boards.push(createBoard(diagram, { fen: placement(piece.pieces), viewOnly: true, hints: piece.hints, pieces: set, label: t(piece.name) }));
    return h("section", { class: "howto-piece", id: `piece-${piece.letter.toLowerCase()}` },
      diagram,
      h("div", { class: "howto-piece-text" },
        h("h3", {}, pieceIcon(piece.letter, set), pieceIcon(piece.letter.toLowerCase(), set), " ", t(piece.name)),
        h("p", {}, t(piece.text))));
  });
  main.append(h("article", { class: "panel wide howto", id: "howto" },
    h("h1", {}, t("howto.title")),
    h("p", {}, t("howto.intro")),
    h("p", {}, t("howto.board")),
    h("h2", {}, t("howto.pieces_title")),
    h("p", { class: "small" }, t("howto.diagram_hint")),
    h("div", { class: "howto-pieces" }, pieceSections),
    h("h2", {}, t("howto.ending_title")),
    h("ul", { class: "howto-list", id: "howto-endings" }, ENDINGS.map((key) => h("li", {}, t(key)))),
    h("h2", {}, t("howto.online_title")),
    h("ul", { class: "howto-list", id: "howto-online" }, ONLINE.map((key) => h("li", {}, t(key)))),
    h("h2", {}, t("howto.rulesets_title")),
    h("p", {}, t("howto.rulesets_intro")),
    h("dl", { class: "howto-rulesets" }, RULE_SETS.map(([name, text]) => [h("dt", {}, t(name)), h("dd", {}, t(text))]))));
  return () => boards.forEach((board) => board.destroy());
}
