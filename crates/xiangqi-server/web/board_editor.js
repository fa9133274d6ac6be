// The analysis board's editor: pieces dragged from a palette onto the board,
// moved on it, and dragged off it to remove them (mouse or touch); or, by
// clicks, a palette piece (or the eraser) chosen and then put on points.
// It holds only a placement and a side to move and writes them as FEN text:
// whether that is a position is the server's to say (POST /api/position).
//
//   const editor = createEditor({boardBox, board, palette, pieces, onChange(fen) {}});
//   editor.setFen(fen);  editor.fen;  editor.setSide("red" | "black");  editor.clear();
//
// Palette buttons carry `data-palette` (a FEN letter, or "x" for the eraser);
// a dragged piece is a floating icon with the id `drag-piece`.

import { parsePlacement, pieceIcon } from "./board.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

const FILES = "abcdefghi";
const RED = ["K", "A", "B", "N", "R", "C", "P"];
const BLACK = RED.map((letter) => letter.toLowerCase());
/** Pointer travel (px) that turns a press into a drag. */
const DRAG_START_PX = 4;

/** A placement and side as FEN text, with the move counters `counters` ("0 1" at the start). */
export function placementFen(pieces, side, counters = "0 1") {
  const ranks = [];
  for (let rank = 9; rank >= 0; rank--) {
    let text = "";
    let empty = 0;
    for (const file of FILES) {
      const letter = pieces.get(file + rank);
      if (letter) {
        if (empty) text += empty;
        text += letter;
        empty = 0;
      } else {
        empty += 1;
      }
    }
    ranks.push(empty ? text + empty : text);
  }
  return `${ranks.join("/")} ${side === "black" ? "b" : "w"} - - ${counters}`;
}

/** The point of the board in `boardBox` under the viewport point (x, y), if any. */
function squareAt(boardBox, x, y) {
  for (const node of document.elementsFromPoint(x, y)) {
    if (node.dataset && node.dataset.square && boardBox.contains(node)) return node.dataset.square;
  }
  return null;
}

export function createEditor({ boardBox, board, palette, pieces = "traditional", onChange }) {
  // The counters of a loaded FEN are kept (the no-capture count matters to the
  // engine); a cleared board or the start position starts them again.
  const state = { pieces: new Map(), side: "red", counters: "0 1", tool: null, drag: null, active: true, pieceSet: pieces };
  const fen = () => placementFen(state.pieces, state.side, state.counters);

  function changed() {
    board.set({ fen: fen(), lastMove: null, arrows: [], dests: new Map(), viewOnly: true });
    if (onChange) onChange(fen());
  }

  function toolButton(letter) {
    const label = letter === "x" ? t("analysis.eraser") : t(`howto.piece_${letter.toLowerCase()}_name`);
    const content = letter === "x" ? h("span", { class: "eraser" }, "✕") : pieceIcon(letter, state.pieceSet);
    return h("button", { type: "button", class: "palette-piece", title: label, "aria-label": label, dataset: { palette: letter } }, content);
  }

  function drawPalette() {
    palette.replaceChildren(
      h("div", { class: "palette-row" }, ...RED.map(toolButton)),
      h("div", { class: "palette-row" }, ...BLACK.map(toolButton), toolButton("x")),
    );
    for (const button of palette.querySelectorAll("[data-palette]")) {
      button.classList.toggle("chosen", button.dataset.palette === state.tool);
    }
  }

  function floating(letter, x, y) {
    const icon = pieceIcon(letter, state.pieceSet);
    const node = h("div", { class: "drag-piece", id: "drag-piece" });
    node.append(icon);
    document.body.append(node);
    place(node, x, y);
    return node;
  }

  function place(node, x, y) {
    node.style.left = `${x}px`;
    node.style.top = `${y}px`;
  }

  function begin(event, drag) {
    state.drag = { ...drag, x: event.clientX, y: event.clientY, moved: false, node: null, pointer: event.pointerId };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", onUp);
    window.addEventListener("pointercancel", onCancel);
  }

  function end() {
    window.removeEventListener("pointermove", onMove);
    window.removeEventListener("pointerup", onUp);
    window.removeEventListener("pointercancel", onCancel);
    if (state.drag && state.drag.node) state.drag.node.remove();
    state.drag = null;
  }

  function onPaletteDown(event) {
    const button = event.target.closest && event.target.closest("[data-palette]");
    if (!button || !state.active) return;
    event.preventDefault();
    begin(event, { letter: button.dataset.palette, from: null });
  }

  function onBoardDown(event) {
    if (!state.active || (event.button !== undefined && event.button > 0)) return;
    const square = squareAt(boardBox, event.clientX, event.clientY);
    if (!square) return;
    event.preventDefault();
    const letter = state.pieces.get(square);
    begin(event, { letter: letter || null, from: square });
  }

  function onMove(event) {
    const drag = state.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
    if (!drag.letter || drag.letter === "x") return;
    if (!drag.moved) {
      drag.moved = true;
      drag.node = floating(drag.letter, event.clientX, event.clientY);
    }
    place(drag.node, event.clientX, event.clientY);
  }

  function onUp(event) {
    const drag = state.drag;
    if (!drag || event.pointerId !== drag.pointer) return;
    const target = squareAt(boardBox, event.clientX, event.clientY);
    end();
    if (drag.moved) {
      // A piece dropped off the board is taken off it; a palette piece dropped off, forgotten.
      if (drag.from) state.pieces.delete(drag.from);
      if (target) state.pieces.set(target, drag.letter);
      changed();
      return;
    }
    if (drag.from === null) {
      // A click on the palette chooses (or, again, drops) that tool.
      state.tool = state.tool === drag.letter ? null : drag.letter;
      drawPalette();
      return;
    }
    if (!state.tool || target !== drag.from) return;
    if (state.tool === "x") state.pieces.delete(target);
    else state.pieces.set(target, state.tool);
    changed();
  }

  function onCancel() {
    end();
  }

  palette.addEventListener("pointerdown", onPaletteDown);
  boardBox.addEventListener("pointerdown", onBoardDown, true);
  drawPalette();

  return {
    get fen() {
      return fen();
    },
    get side() {
      return state.side;
    },
    /** Takes the placement and side of `fen` (already read by the server). */
    setFen(text) {
      const fields = text.split(" ");
      state.pieces = parsePlacement(text);
      state.side = (fields[1] || "w") === "b" ? "black" : "red";
      state.counters = fields.length >= 6 ? `${fields[4]} ${fields[5]}` : "0 1";
      changed();
    },
    setSide(side) {
      state.side = side;
      changed();
    },
    clear() {
      state.pieces = new Map();
      state.counters = "0 1";
      changed();
    },
    /** Whether presses on the board edit it (the set-up mode) or not. */
    setActive(active) {
      state.active = active;
      if (!active) end();
      palette.hidden = !active;
    },
    redrawPalette: drawPalette,
    destroy() {
      end();
      palette.removeEventListener("pointerdown", onPaletteDown);
      boardBox.removeEventListener("pointerdown", onBoardDown, true);
    },
  };
}
