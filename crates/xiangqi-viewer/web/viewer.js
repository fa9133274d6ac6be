// The game viewer: the shared board, the move tree in the reader's notation
// (variations nested, comments, NAGs), keys, flip, copy FEN / PGN, the
// evaluation curve, the players' accuracy, the opening explorer's table
// beside the board, and a game list when there are several games. It knows
// no rules: every position, move text and evaluation comes in the data the
// `xiangqi-viewer` crate writes (docs/viewer.md).
//
//   const viewer = mountViewer(element, games, {notation: "wxf", index: 0,
//       actions: (game) => [buttons…],
//       explorer: async (fen) => table | null,   // explorer.js
//       words: (key, args) => text | undefined}); // a page's language (WORDS)
//   viewer.show(games, index);  viewer.goto(nodeId);  viewer.destroy();
//
// For tests and tools the root carries `data-fen` and `data-node` (the
// position shown), moves `data-node`, the curve's points `data-node`.

import { createBoard } from "./board.js";
import { createExplorerPanel } from "./explorer.js";
import { make, makeSvg, wordsOf } from "./elements.js";

/** The notation names, in the order of each node's `text` (the crate's NOTATIONS). */
export const VIEWER_NOTATIONS = [
  ["coordinate", "Coordinates"],
  ["wxf", "WXF"],
  ["chinese", "中文"],
  ["chinese-traditional", "中文（繁體）"],
  ["vietnamese", "Tiếng Việt"],
];

/** The viewer's words in English; a page in another language passes `words`. */
export const VIEWER_WORDS = {
  start: "Start (Home)",
  prev: "Previous move (←)",
  next: "Next move (→)",
  end: "End of the line (End)",
  flip: "Flip the board (f)",
  copy_fen: "Copy FEN",
  copy_fen_hint: "Copy the position's FEN",
  copy_pgn: "Copy PGN",
  copy_pgn_hint: "Copy the game's PGN",
  copied: "{what} copied",
  games: "Games",
  notation: "Notation",
  coordinates: "Coordinates",
  ecco_opening: "ECCO opening (docs/ecco.md)",
  evaluation: "Evaluation",
  depth: "(depth {depth})",
  clock: "Clock {clock}",
  better_was: "Better was",
  engine: "Engine:",
  curve: "Evaluation curve",
  no_game: "No game",
  diagram: "A diagram, not a position to play: {reason}",
  accuracy: "Accuracy",
  accuracy_hint: "docs/engine-client.md: how much of their winning chance a player kept, move by move",
  red: "Red",
  black: "Black",
};

const NAG_SYMBOLS = { 1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!", 10: "=", 13: "∞", 14: "⩲", 15: "⩱", 16: "±", 17: "∓", 18: "+−", 19: "−+" };

function nagText(nag) {
  return NAG_SYMBOLS[nag] || `$${nag}`;
}

/** Copies `text`: the clipboard API where allowed, else a hidden text area. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = make("textarea", { style: "position:fixed;opacity:0" });
    area.value = text;
    document.body.append(area);
    area.select();
    let done = false;
    try {
      done = document.execCommand("copy");
    } catch {
      done = false;
    }
    area.remove();
    return done;
  }
}

/** Mounts the viewer in `element` (emptied) for `games`, the crate's data. */
export function mountViewer(element, games, options = {}) {
  const known = VIEWER_NOTATIONS.map(([name]) => name);
  const w = wordsOf(VIEWER_WORDS, options.words);
  const view = {
    games: games || [],
    index: 0,
    node: 0,
    notation: Math.max(0, known.indexOf(options.notation || "coordinate")),
    orientation: "red",
  };

  element.replaceChildren();
  // The element is the layout's container (viewer.css lays out by its width).
  element.classList.add("xq-viewer-host");
  const layout = make("div", { class: "xq-viewer" });
  element.append(layout);
  const list = make("nav", { class: "xq-game-list", "aria-label": w("games") });
  const boardBox = make("div", { class: "board-box xq-viewer-board" });
  const buttons = make("div", { class: "xq-nav" });
  const curve = make("div", { class: "xq-curve" });
  const title = make("h2", { class: "xq-title" });
  const tags = make("p", { class: "xq-tags" });
  const accuracy = make("p", { class: "xq-accuracy" });
  // A diagram no game can reach (both generals in check): shown, not played.
  const invalidStart = make("p", { class: "xq-invalid-start", role: "note" });
  const notationSelect = make("select", { class: "xq-notation", "aria-label": w("notation") },
    VIEWER_NOTATIONS.map(([name, label], i) => make("option", { value: name, selected: i === view.notation }, name === "coordinate" ? w("coordinates") : label)));
  const moves = make("div", { class: "xq-moves", tabindex: "0" });
  const info = make("div", { class: "xq-info" });
  const copies = make("div", { class: "xq-copies" });
  const actions = make("div", { class: "xq-actions" });
  const status = make("p", { class: "xq-status", role: "status" });
  // The place for panels beside the board (an opening explorer, for one).
  const aside = make("div", { class: "xq-aside" });
  layout.append(
    list,
    make("div", { class: "xq-board-column" }, boardBox, buttons, curve),
    make("div", { class: "xq-panel" }, title, tags, invalidStart, accuracy, make("label", { class: "xq-notation-label" }, `${w("notation")} `, notationSelect),
      moves, info, copies, actions, status),
    aside,
  );
  const board = createBoard(boardBox, { viewOnly: true, pieces: options.pieces, label: options.boardLabel });
  // The explorer's table follows the shown position; a click on one of its
  // moves that the tree holds goes there.
  let explorer = null;
  if (options.explorer) {
    const explorerBox = make("div", { class: "xq-explorer-box" });
    aside.append(explorerBox);
    explorer = createExplorerPanel(explorerBox, {
      lookup: options.explorer,
      words: options.words,
      notation: () => view.notation,
      opening: () => {
        const opening = current().opening;
        return opening ? { code: opening.code, name: opening.name[view.notation] || opening.name[0] } : null;
      },
      onMove: (iccs) => {
        const child = current().children.find((id) => nodes()[id].move === iccs);
        if (child !== undefined) goto(child);
      },
    });
  }

  const button = (label, name, onclick, hint) =>
    make("button", { type: "button", class: `xq-${name}`, "data-action": name, title: hint, "aria-label": hint, onclick }, label);
  buttons.append(
    button("|◀", "start", () => goto(0), w("start")),
    button("◀", "prev", previous, w("prev")),
    button("▶", "next", next, w("next")),
    button("▶|", "end", end, w("end")),
    button("⇅", "flip", flip, w("flip")),
  );
  copies.append(
    button(w("copy_fen"), "copy-fen", () => copy(current().fen, "FEN"), w("copy_fen_hint")),
    button(w("copy_pgn"), "copy-pgn", () => copy(game().pgn, "PGN"), w("copy_pgn_hint")),
  );
  notationSelect.addEventListener("change", () => {
    view.notation = Math.max(0, known.indexOf(notationSelect.value));
    renderMoves();
    renderInfo();
    if (explorer) explorer.redraw();
  });

  function game() {
    return view.games[view.index];
  }

  function nodes() {
    return game() ? game().nodes : [];
  }

  function current() {
    return nodes()[view.node] || { fen: undefined, children: [] };
  }

  function say(text) {
    status.textContent = text || "";
  }

  async function copy(text, what) {
    element.dataset.copied = text;
    say((await copyText(text)) ? w("copied", { what }) : `${what}: ${text}`);
  }

  function moveText(node) {
    return node.text[view.notation] || node.move;
  }

  function goto(id) {
    if (!nodes()[id]) return;
    view.node = id;
    const node = current();
    element.dataset.node = String(id);
    element.dataset.fen = node.fen;
    board.set({ fen: node.fen, lastMove: node.move ? [node.move.slice(0, 2), node.move.slice(2, 4)] : null });
    for (const el of moves.querySelectorAll(".xq-move.current")) el.classList.remove("current");
    const active = moves.querySelector(`.xq-move[data-node="${id}"]`);
    if (active) {
      active.classList.add("current");
      active.scrollIntoView({ block: "nearest" });
    }
    for (const el of curve.querySelectorAll(".current")) el.classList.remove("current");
    const point = curve.querySelector(`[data-node="${id}"]`);
    if (point) point.classList.add("current");
    renderInfo();
    if (explorer) explorer.update(node.fen, node.children.map((child) => nodes()[child].move));
  }

  function next() {
    const child = current().children[0];
    if (child !== undefined) goto(child);
  }

  function previous() {
    const parent = current().parent;
    if (parent !== null && parent !== undefined) goto(parent);
  }

  function end() {
    let id = view.node;
    while (nodes()[id].children.length) id = nodes()[id].children[0];
    goto(id);
  }

  function flip() {
    view.orientation = view.orientation === "red" ? "black" : "red";
    board.set({ orientation: view.orientation });
    element.dataset.orientation = view.orientation;
  }

  function moveSpan(node, withNumber) {
    const number = withNumber ? make("span", { class: "xq-no" }, node.color === "red" ? `${node.number}.` : `${node.number}…`) : null;
    const nags = node.nags.length ? make("span", { class: "xq-nag" }, node.nags.map(nagText).join(" ")) : null;
    const classes = ["xq-move", node.mainline ? "main" : "side", node.engine_line ? "engine" : "", node.nags.some((n) => n === 2 || n === 4) ? "bad" : "", node.nags.includes(6) ? "dubious" : ""];
    return make("span", {
      class: classes.filter(Boolean).join(" "), "data-node": node.id, role: "button",
      onclick: () => goto(node.id),
    }, number, make("span", { class: "xq-san" }, moveText(node)), nags);
  }

  /** Writes the line that starts with node `id` into `box`. */
  function renderLine(box, id) {
    const all = nodes();
    let needNumber = true;
    while (id !== undefined) {
      const node = all[id];
      for (const text of node.before) box.append(make("span", { class: "xq-comment" }, text));
      if (node.engine_line && needNumber) box.append(make("span", { class: "xq-engine-label" }, w("engine")));
      box.append(moveSpan(node, needNumber || node.color === "red"));
      needNumber = false;
      for (const text of node.comments) {
        box.append(make("span", { class: "xq-comment" }, text));
        needNumber = true;
      }
      // The alternatives to this move follow it, each in its own block.
      const parent = all[node.parent];
      if (parent.children[0] === id) {
        for (const alternative of parent.children.slice(1)) {
          const block = make("div", { class: all[alternative].engine_line ? "xq-variation engine" : "xq-variation" });
          renderLine(block, alternative);
          box.append(block);
          needNumber = true;
        }
      }
      id = node.children[0];
    }
  }

  function renderMoves() {
    moves.replaceChildren();
    const all = nodes();
    if (!all.length) return;
    for (const text of all[0].comments) moves.append(make("span", { class: "xq-comment" }, text));
    const first = all[0].children[0];
    if (first !== undefined) renderLine(moves, first);
    else moves.append(make("span", { class: "xq-empty" }, "No moves."));
    moves.append(make("span", { class: "xq-result" }, game().result));
    const active = moves.querySelector(`.xq-move[data-node="${view.node}"]`);
    if (active) active.classList.add("current");
  }

  /** The current move's details, and the engine's line where it left one. */
  function renderInfo() {
    info.replaceChildren();
    const node = current();
    const all = nodes();
    // The opening (ECCO) of the moves so far, named for the reader's notation.
    if (node.opening) info.append(make("p", { class: "xq-opening", title: w("ecco_opening") }, make("b", {}, node.opening.code), " ", node.opening.name[view.notation] || node.opening.name[0]));
    if (node.eval) info.append(make("p", { class: "xq-eval" }, `${w("evaluation")} `, make("b", {}, node.eval.text), node.eval.depth ? ` ${w("depth", { depth: node.eval.depth })}` : ""));
    if (node.clock) info.append(make("p", { class: "xq-clock" }, w("clock", { clock: node.clock })));
    if (node.parent === null || node.parent === undefined) return;
    const better = all[node.parent].children.map((id) => all[id]).find((n) => n.engine_line && n.id !== node.id);
    if (!better) return;
    const line = make("p", { class: "xq-better" }, `${w("better_was")} `);
    for (let id = better.id; id !== undefined; id = all[id].children[0]) {
      line.append(make("span", { class: "xq-better-move", "data-node": id, role: "button", onclick: () => goto(id) }, moveText(all[id])), " ");
    }
    if (better.eval) line.append(make("span", { class: "xq-eval-text" }, `(${better.eval.text})`));
    info.append(line);
  }

  /** The evaluation curve of the main line: Red's winning chance per ply. */
  function renderCurve() {
    curve.replaceChildren();
    const current = game();
    if (!current || !current.has_eval) {
      curve.hidden = true;
      return;
    }
    curve.hidden = false;
    const mainline = [];
    for (let id = 0; id !== undefined; id = current.nodes[id].children[0]) mainline.push(current.nodes[id]);
    const width = 400;
    const height = 80;
    const last = Math.max(1, mainline.length - 1);
    const x = (ply) => (ply / last) * width;
    const y = (chance) => height - chance * height;
    const svg = makeSvg("svg", { viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none", class: "xq-curve-svg", role: "img", "aria-label": w("curve") }, curve);
    makeSvg("rect", { x: 0, y: 0, width, height, class: "xq-curve-bg" }, svg);
    makeSvg("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "xq-curve-mid" }, svg);
    const points = mainline.map((node, i) => [i, node.eval ? node.eval.red_chance : i === 0 ? 0.5 : null]);
    let path = "";
    let previous = 0.5;
    for (const [i, chance] of points) {
      const value = chance === null ? previous : chance;
      previous = value;
      path += `${path ? "L" : "M"}${x(i).toFixed(2)},${y(value).toFixed(2)} `;
    }
    makeSvg("path", { d: `${path}L${width},${height} L0,${height} Z`, class: "xq-curve-area" }, svg);
    makeSvg("path", { d: path, class: "xq-curve-line" }, svg);
    for (const [i, chance] of points) {
      if (chance === null || i === 0) continue;
      const node = mainline[i];
      const bad = node.nags.some((n) => n === 2 || n === 4);
      makeSvg("circle", { cx: x(i), cy: y(chance), r: bad ? 3.2 : 1.8, class: bad ? "xq-curve-point bad" : "xq-curve-point", "data-node": node.id }, svg);
    }
    // A click anywhere on the curve goes to the nearest main-line move.
    svg.addEventListener("click", (event) => {
      const box = svg.getBoundingClientRect();
      const ply = Math.round(((event.clientX - box.left) / box.width) * last);
      const target = mainline[Math.max(0, Math.min(mainline.length - 1, ply))];
      goto(target.id);
    });
  }

  function renderList() {
    list.replaceChildren();
    list.hidden = view.games.length < 2;
    if (list.hidden) return;
    const items = view.games.map((g, i) => make("li", {},
      make("button", { type: "button", class: i === view.index ? "xq-game current" : "xq-game", "data-game": i, onclick: () => show(view.games, i) },
        make("span", { class: "xq-game-title" }, g.title), make("span", { class: "xq-game-result" }, g.result))));
    list.append(make("h3", {}, `${view.games.length} games`), make("ol", {}, items));
  }

  function renderHeader() {
    const g = game();
    title.textContent = g ? g.title : w("no_game");
    const shown = g ? g.tags.filter(([key, value]) => ["Event", "Site", "Date", "Round", "Opening"].includes(key) && !/^[?.\s-]*$/.test(value)) : [];
    tags.replaceChildren(...shown.map(([key, value]) => make("span", { class: "xq-tag", title: key }, value)));
    invalidStart.hidden = !(g && g.invalid_start);
    invalidStart.textContent = g && g.invalid_start ? w("diagram", { reason: g.invalid_start }) : "";
    const scores = g && g.accuracy ? [["red", g.accuracy.red], ["black", g.accuracy.black]].filter(([, value]) => value !== null && value !== undefined) : [];
    accuracy.hidden = !scores.length;
    accuracy.replaceChildren(...(scores.length ? [`${w("accuracy")} `] : []),
      ...scores.map(([side, value], i) => make("span", { class: `xq-accuracy-${side}`, "data-side": side, title: w("accuracy_hint") },
        `${i ? " · " : ""}${w(side)} `, make("b", {}, value.toFixed(1)))));
    actions.replaceChildren(...(options.actions && g ? options.actions(g) : []));
  }

  /** Shows game `index` of `games` (new data: the same viewer, redrawn). */
  function show(newGames, index = 0, node = 0) {
    view.games = newGames || [];
    view.index = Math.max(0, Math.min(index, view.games.length - 1));
    element.dataset.game = String(view.index);
    renderList();
    renderHeader();
    renderMoves();
    renderCurve();
    goto(nodes()[node] ? node : 0);
  }

  function onKey(event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { ArrowRight: next, ArrowLeft: previous, Home: () => goto(0), End: end, f: flip };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }
  document.addEventListener("keydown", onKey);

  show(view.games, options.index || 0);

  return {
    show,
    goto,
    get node() {
      return view.node;
    },
    get aside() {
      return aside;
    },
    destroy() {
      document.removeEventListener("keydown", onKey);
      board.destroy();
      element.replaceChildren();
    },
  };
}
