// The board: an SVG Xiangqi board that draws a FEN, shows the legal
// destinations it is given and reports the moves a person makes (click or
// drag, mouse or touch). It knows no rules: what may move where comes from
// the caller's `dests`, which the web client builds from the server's `legal`.
//
//   const board = createBoard(element, {fen, orientation: "red" | "black",
//       dests: {e2: ["e6", ...]} | Map, lastMove: ["h2", "e2"] | null,
//       viewOnly: false, pieces: "traditional" | "pictogram", onMove(from, to) {},
//       hints: ["e5", ...] (points shown as a piece's moves, for diagrams),
//       label: "Xiangqi board" (its accessible name, in the page's language),
//       arrows: [{from: "h2", to: "e2", rank: 1}, ...] (an engine's moves, rank 1 drawn strongest)});
//   board.set({fen, dests, ...});  board.move(from, to);  board.destroy();
//
// Every intersection has `data-square="e2"` (ICCS files a-i, ranks 0-9 from
// Red's side) on a transparent target drawn above the pieces; pieces carry
// `data-piece`, the shown destinations `data-dest`, the last move's squares
// `data-last`, the arrows `data-arrow="h2e2"` and `data-rank` (for tests and tools).

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghi";
const STEP = 10;
const MARGIN = 7;
const WIDTH = MARGIN * 2 + STEP * 8;
const HEIGHT = MARGIN * 2 + STEP * 9;

/** The Chinese character of each FEN letter: Red upper case, Black lower case. */
export const PIECE_CHARS = {
  K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", n: "馬", r: "車", c: "砲", p: "卒",
};

/** The piece sets: the Chinese characters, or symbols a reader without them knows. */
export const PIECE_SETS = ["traditional", "pictogram"];

/** The symbol of each piece kind (lower-case FEN letter) in the pictogram set:
 *  drawn in a box of about 6 units around the piece's centre. */
const PICTOGRAMS = {
  // The general: a crown.
  k: (g) => {
    el("path", { d: "M-2.7 2 L-2.7 -0.8 L-1.35 0.5 L0 -2.1 L1.35 0.5 L2.7 -0.8 L2.7 2 Z", class: "xq-symbol" }, g);
    for (const [cx, cy] of [[-2.7, -1.25], [0, -2.55], [2.7, -1.25]]) el("circle", { cx, cy, r: 0.5, class: "xq-symbol" }, g);
  },
  // The advisor: a shield, crossed by its diagonal moves.
  a: (g) => {
    el("path", { d: "M0 -2.7 L2.3 -1.7 L2.1 0.7 Q1.6 2.2 0 2.8 Q-1.6 2.2 -2.1 0.7 L-2.3 -1.7 Z", class: "xq-symbol" }, g);
    el("path", { d: "M-1.1 -1.2 L1.1 1.2 M1.1 -1.2 L-1.1 1.2", class: "xq-symbol-cut" }, g);
  },
  // The elephant: a head with its ears and trunk, seen from the front.
  b: (g) => {
    el("ellipse", { cx: -1.85, cy: -0.7, rx: 1.05, ry: 1.5, class: "xq-symbol" }, g);
    el("ellipse", { cx: 1.85, cy: -0.7, rx: 1.05, ry: 1.5, class: "xq-symbol" }, g);
    el("circle", { cx: 0, cy: -0.8, r: 1.45, class: "xq-symbol" }, g);
    el("path", { d: "M0 0.2 L0 2.0 Q0.2 2.75 1.0 2.45", class: "xq-symbol-line" }, g);
  },
  // The horse: a head in profile.
  n: (g) => {
    el("path", {
      d: "M2.0 2.7 L-1.1 2.7 L-0.5 1.0 L-2.2 0.75 Q-2.85 0.25 -2.45 -0.4 L-0.75 -1.85 L-0.45 -2.85 L0.25 -2.2 Q2.35 -1.6 2.0 0.9 Z",
      class: "xq-symbol",
    }, g);
    el("circle", { cx: -0.75, cy: -0.95, r: 0.32, class: "xq-symbol-eye" }, g);
  },
  // The chariot: a spoked wheel.
  r: (g) => {
    el("circle", { r: 2.35, class: "xq-symbol-line" }, g);
    const spokes = [];
    for (let i = 0; i < 6; i++) {
      const angle = (i * Math.PI) / 3;
      spokes.push(`M0 0 L${(2.35 * Math.cos(angle)).toFixed(2)} ${(2.35 * Math.sin(angle)).toFixed(2)}`);
    }
    el("path", { d: spokes.join(" "), class: "xq-symbol-thin" }, g);
    el("circle", { r: 0.7, class: "xq-symbol" }, g);
  },
  // The cannon: a barrel on a wheel.
  c: (g) => {
    const barrel = el("g", { transform: "rotate(-24)" }, g);
    el("rect", { x: -2.7, y: -0.62, width: 4.9, height: 1.24, rx: 0.45, class: "xq-symbol" }, barrel);
    el("rect", { x: 1.85, y: -0.85, width: 0.7, height: 1.7, rx: 0.25, class: "xq-symbol" }, barrel);
    el("circle", { cx: -0.45, cy: 1.45, r: 1.05, class: "xq-symbol-wheel" }, g);
  },
  // The soldier: a foot soldier's figure.
  p: (g) => {
    el("circle", { cx: 0, cy: -1.55, r: 0.95, class: "xq-symbol" }, g);
    el("path", { d: "M-1.6 2.5 L-0.95 0.15 Q0 -0.55 0.95 0.15 L1.6 2.5 Z", class: "xq-symbol" }, g);
  },
};

/** The starting position. */
export const START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/** Parses the placement field of a FEN into a map square -> letter. */
export function parsePlacement(fen) {
  const pieces = new Map();
  const rows = (fen || "").split(" ")[0].split("/");
  rows.forEach((row, index) => {
    const rank = 9 - index;
    let file = 0;
    for (const ch of row) {
      if (ch >= "1" && ch <= "9") {
        file += Number(ch);
      } else if (PIECE_CHARS[ch] && file < 9 && rank >= 0) {
        pieces.set(FILES[file] + rank, ch);
        file += 1;
      }
    }
  });
  return pieces;
}

/** Turns the server's `legal` list ["h2e2", ...] into {from: [to, ...]}. */
export function destsFromLegal(legal) {
  const dests = new Map();
  for (const move of legal || []) {
    const from = move.slice(0, 2);
    const to = move.slice(2, 4);
    if (!dests.has(from)) dests.set(from, []);
    dests.get(from).push(to);
  }
  return dests;
}

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function squareName(file, rank) {
  return FILES[file] + rank;
}

function fileOf(square) {
  return FILES.indexOf(square[0]);
}

function rankOf(square) {
  return Number(square.slice(1));
}

function toMap(dests) {
  if (!dests) return new Map();
  if (dests instanceof Map) return dests;
  return new Map(Object.entries(dests));
}

/** One piece (FEN letter) of `pieceSet` centred on (x, y) in `parent`. */
function drawPiece(letter, pieceSet, x, y, parent, extraClass = "") {
  const red = letter === letter.toUpperCase();
  const group = el("g", {
    class: `xq-piece ${red ? "xq-red" : "xq-black"} ${extraClass}`.trim(),
    transform: `translate(${x} ${y})`,
  }, parent);
  el("circle", { r: 4.45, class: "xq-disc" }, group);
  el("circle", { r: 3.7, class: "xq-ring" }, group);
  if (pieceSet === "pictogram") {
    const symbol = el("g", { class: "xq-pictogram", "data-symbol": letter.toLowerCase() }, group);
    PICTOGRAMS[letter.toLowerCase()](symbol);
    return group;
  }
  const text = el("text", { class: "xq-char", y: 0.15 }, group);
  text.textContent = PIECE_CHARS[letter];
  return group;
}

/** A piece on its own, as a small picture (settings, rules pages). */
export function pieceIcon(letter, pieceSet = "traditional") {
  const svg = el("svg", { viewBox: "-5 -5 10 10", class: "xq-icon", "data-icon": letter });
  drawPiece(letter, pieceSet, 0, 0, svg);
  return svg;
}

/** Creates a board inside `element` (emptied first) and returns its handle. */
export function createBoard(element, options = {}) {
  const state = {
    fen: START_FEN,
    orientation: "red",
    dests: new Map(),
    lastMove: null,
    viewOnly: false,
    onMove: null,
    pieceSet: "traditional",
    hints: [],
    arrows: [],
    pieces: new Map(),
    selected: null,
    drag: null,
  };

  element.replaceChildren();
  const svg = el("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "xq-board",
    role: "img",
    "aria-label": options.label || "Xiangqi board",
  });
  element.appendChild(svg);
  el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 2, class: "xq-wood" }, svg);
  const gridLayer = el("g", { class: "xq-grid" }, svg);
  const markLayer = el("g", { class: "xq-marks" }, svg);
  const pieceLayer = el("g", { class: "xq-pieces" }, svg);
  const arrowLayer = el("g", { class: "xq-arrows" }, svg);
  const hintLayer = el("g", { class: "xq-hints" }, svg);
  const dragLayer = el("g", { class: "xq-drag" }, svg);
  const targetLayer = el("g", { class: "xq-targets" }, svg);

  function point(square) {
    const file = fileOf(square);
    const rank = rankOf(square);
    const flipped = state.orientation === "black";
    const column = flipped ? 8 - file : file;
    const row = flipped ? rank : 9 - rank;
    return [MARGIN + column * STEP, MARGIN + row * STEP];
  }

  function drawGrid() {
    gridLayer.replaceChildren();
    const left = MARGIN;
    const right = MARGIN + 8 * STEP;
    const top = MARGIN;
    const bottom = MARGIN + 9 * STEP;
    el("rect", { x: left, y: top, width: right - left, height: bottom - top, class: "xq-frame" }, gridLayer);
    for (let row = 1; row < 9; row++) {
      const y = top + row * STEP;
      el("line", { x1: left, y1: y, x2: right, y2: y }, gridLayer);
    }
    for (let column = 1; column < 8; column++) {
      const x = left + column * STEP;
      el("line", { x1: x, y1: top, x2: x, y2: top + 4 * STEP }, gridLayer);
      el("line", { x1: x, y1: top + 5 * STEP, x2: x, y2: bottom }, gridLayer);
    }
    // The palaces' diagonals, in board squares so they follow the orientation.
    for (const [a, b] of [["d0", "f2"], ["f0", "d2"], ["d7", "f9"], ["f7", "d9"]]) {
      const [x1, y1] = point(a);
      const [x2, y2] = point(b);
      el("line", { x1, y1, x2, y2 }, gridLayer);
    }
    // The starting points of cannons and soldiers get the traditional corner marks.
    const marked = ["b2", "h2", "b7", "h7", "a3", "c3", "e3", "g3", "i3", "a6", "c6", "e6", "g6", "i6"];
    const gap = 0.9;
    const arm = 1.8;
    for (const square of marked) {
      const [x, y] = point(square);
      for (const dx of [-1, 1]) {
        if ((x === left && dx < 0) || (x === right && dx > 0)) continue;
        for (const dy of [-1, 1]) {
          const cx = x + dx * gap;
          const cy = y + dy * gap;
          el("polyline", {
            points: `${cx + dx * arm},${cy} ${cx},${cy} ${cx},${cy + dy * arm}`,
            class: "xq-point",
          }, gridLayer);
        }
      }
    }
    const riverY = top + 4.5 * STEP;
    const riverLeft = el("text", { x: left + 2 * STEP, y: riverY, class: "xq-river" }, gridLayer);
    riverLeft.textContent = state.orientation === "black" ? "漢界" : "楚河";
    const riverRight = el("text", { x: left + 6 * STEP, y: riverY, class: "xq-river" }, gridLayer);
    riverRight.textContent = state.orientation === "black" ? "楚河" : "漢界";
  }

  function drawTargets() {
    targetLayer.replaceChildren();
    for (let file = 0; file < 9; file++) {
      for (let rank = 0; rank < 10; rank++) {
        const square = squareName(file, rank);
        const [x, y] = point(square);
        el("rect", {
          x: x - STEP / 2, y: y - STEP / 2, width: STEP, height: STEP,
          class: "xq-target", "data-square": square,
        }, targetLayer);
      }
    }
  }

  function pieceNode(letter, x, y, parent, extraClass = "") {
    return drawPiece(letter, state.pieceSet, x, y, parent, extraClass);
  }

  function drawPieces() {
    pieceLayer.replaceChildren();
    for (const [square, letter] of state.pieces) {
      const [x, y] = point(square);
      const node = pieceNode(letter, x, y, pieceLayer);
      node.setAttribute("data-piece", square);
      if (state.drag && state.drag.from === square && state.drag.moved) node.classList.add("xq-lifted");
    }
  }

  function drawMarks() {
    markLayer.replaceChildren();
    if (state.lastMove) {
      for (const square of state.lastMove) {
        const [x, y] = point(square);
        el("rect", {
          x: x - 4.9, y: y - 4.9, width: 9.8, height: 9.8, rx: 1.6, class: "xq-last", "data-last": square,
        }, markLayer);
      }
    }
    if (state.selected) {
      const [x, y] = point(state.selected);
      el("circle", { cx: x, cy: y, r: 5, class: "xq-selected", "data-selected": state.selected }, markLayer);
    }
  }

  function drawHints() {
    hintLayer.replaceChildren();
    const shown = state.selected ? state.dests.get(state.selected) || [] : state.hints;
    for (const to of shown) {
      const [x, y] = point(to);
      if (state.pieces.has(to)) {
        el("circle", { cx: x, cy: y, r: 4.6, class: "xq-capture", "data-dest": to }, hintLayer);
      } else {
        el("circle", { cx: x, cy: y, r: 1.35, class: "xq-dest", "data-dest": to }, hintLayer);
      }
    }
  }

  /** An arrow from one point to another: a shaft and a head, as one polygon. */
  function drawArrows() {
    arrowLayer.replaceChildren();
    // The weakest first, so the best line's arrow lies on top.
    const arrows = [...state.arrows].sort((a, b) => (b.rank || 1) - (a.rank || 1));
    for (const arrow of arrows) {
      const [x1, y1] = point(arrow.from);
      const [x2, y2] = point(arrow.to);
      const length = Math.hypot(x2 - x1, y2 - y1);
      if (!length) continue;
      const best = (arrow.rank || 1) === 1;
      const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
      const [nx, ny] = [-uy, ux];
      const shaft = best ? 1.5 : 1.0;
      const head = best ? 4.2 : 3.2;
      const headLength = Math.min(best ? 3.8 : 3.0, length * 0.6);
      const [sx, sy] = [x1 + ux * 1.5, y1 + uy * 1.5];
      const [tx, ty] = [x2 - ux * 0.8, y2 - uy * 0.8];
      const [hx, hy] = [tx - ux * headLength, ty - uy * headLength];
      const at = (x, y, side) => `${(x + nx * side).toFixed(2)},${(y + ny * side).toFixed(2)}`;
      el("polygon", {
        points: [at(sx, sy, shaft / 2), at(hx, hy, shaft / 2), at(hx, hy, head / 2), at(tx, ty, 0),
          at(hx, hy, -head / 2), at(hx, hy, -shaft / 2), at(sx, sy, -shaft / 2)].join(" "),
        class: best ? "xq-arrow xq-arrow-best" : "xq-arrow",
        "data-arrow": arrow.from + arrow.to,
        "data-rank": arrow.rank || 1,
      }, arrowLayer);
    }
  }

  function redraw() {
    drawGrid();
    drawMarks();
    drawPieces();
    drawArrows();
    drawHints();
    drawTargets();
  }

  function canMoveFrom(square) {
    return !state.viewOnly && (state.dests.get(square) || []).length > 0;
  }

  function isDest(from, to) {
    return (state.dests.get(from) || []).includes(to);
  }

  function select(square) {
    state.selected = square;
    drawMarks();
    drawHints();
  }

  function play(from, to) {
    state.selected = null;
    relocate(from, to);
    if (state.onMove) state.onMove(from, to);
  }

  function relocate(from, to) {
    const letter = state.pieces.get(from);
    if (!letter) return;
    state.pieces.delete(from);
    state.pieces.set(to, letter);
    state.lastMove = [from, to];
    state.dests = new Map();
    state.arrows = [];
    redraw();
  }

  function svgPoint(event) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return null;
    const p = svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    return p.matrixTransform(matrix.inverse());
  }

  function squareAt(event) {
    const p = svgPoint(event);
    if (!p) return null;
    let column = Math.round((p.x - MARGIN) / STEP);
    let row = Math.round((p.y - MARGIN) / STEP);
    if (column < 0 || column > 8 || row < 0 || row > 9) return null;
    const flipped = state.orientation === "black";
    const file = flipped ? 8 - column : column;
    const rank = flipped ? row : 9 - row;
    return squareName(file, rank);
  }

  function onPointerDown(event) {
    if (event.button !== undefined && event.button > 0) return;
    const square = squareAt(event);
    if (!square) return;
    if (state.selected && isDest(state.selected, square)) {
      event.preventDefault();
      play(state.selected, square);
      return;
    }
    if (canMoveFrom(square)) {
      event.preventDefault();
      const wasSelected = state.selected === square;
      select(square);
      state.drag = { from: square, pointer: event.pointerId, moved: false, wasSelected, node: null };
      svg.setPointerCapture?.(event.pointerId);
      return;
    }
    if (state.selected) select(null);
  }

  function onPointerMove(event) {
    const drag = state.drag;
    if (!drag || drag.pointer !== event.pointerId) return;
    const p = svgPoint(event);
    if (!p) return;
    const [x0, y0] = point(drag.from);
    if (!drag.moved && Math.hypot(p.x - x0, p.y - y0) < 2) return;
    if (!drag.moved) {
      drag.moved = true;
      drawPieces();
      drag.node = pieceNode(state.pieces.get(drag.from), p.x, p.y, dragLayer, "xq-dragging");
    }
    drag.node.setAttribute("transform", `translate(${p.x} ${p.y})`);
  }

  function onPointerUp(event) {
    const drag = state.drag;
    if (!drag || drag.pointer !== event.pointerId) return;
    state.drag = null;
    dragLayer.replaceChildren();
    const square = squareAt(event);
    if (drag.moved) {
      if (square && isDest(drag.from, square)) {
        play(drag.from, square);
        return;
      }
      drawPieces();
      return;
    }
    // A plain click on the already selected piece puts it down again.
    if (square === drag.from && drag.wasSelected) select(null);
  }

  function onPointerCancel() {
    state.drag = null;
    dragLayer.replaceChildren();
    drawPieces();
  }

  svg.addEventListener("pointerdown", onPointerDown);
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp);
  svg.addEventListener("pointercancel", onPointerCancel);

  function set(changes = {}) {
    if ("fen" in changes && changes.fen) {
      state.fen = changes.fen;
      state.pieces = parsePlacement(changes.fen);
    }
    if ("orientation" in changes && changes.orientation) state.orientation = changes.orientation;
    if ("dests" in changes) state.dests = toMap(changes.dests);
    if ("lastMove" in changes) state.lastMove = changes.lastMove;
    if ("viewOnly" in changes) state.viewOnly = Boolean(changes.viewOnly);
    if ("onMove" in changes) state.onMove = changes.onMove;
    if ("pieces" in changes && PIECE_SETS.includes(changes.pieces)) state.pieceSet = changes.pieces;
    if ("hints" in changes) state.hints = changes.hints || [];
    if ("arrows" in changes) state.arrows = changes.arrows || [];
    if (state.selected && !canMoveFrom(state.selected)) state.selected = null;
    svg.classList.toggle("xq-flipped", state.orientation === "black");
    redraw();
  }

  set({ fen: START_FEN, ...options });

  return {
    set,
    /** Shows a move made elsewhere (or awaiting the server) without any rule check. */
    move: relocate,
    /** Red's side at the bottom, or Black's. */
    get orientation() {
      return state.orientation;
    },
    flip() {
      set({ orientation: state.orientation === "red" ? "black" : "red" });
    },
    destroy() {
      svg.remove();
    },
  };
}
