// The opening explorer's table beside a board, one for the project: the
// moves played from the shown position in a corpus, with games, Red win /
// draw / Black win shares, the mover's score and an example game (the
// `xiangqi-viewer` crate's ExplorerTable, docs/explorer.md). Where the
// table comes from is the caller's: the server's /api/explorer, or the
// tables a self-contained page carries.
//
//   const panel = createExplorerPanel(element, {
//       lookup: async (fen) => table | null,   // null: no explorer, hide
//       notation: () => index into each row's `text`,
//       opening: () => {code, name} | null,     // the ECCO opening of the
//                                                // moves that led here
//       onMove: (iccs) => …});                   // a row was clicked
//   panel.update(fen, playedMoves);  panel.redraw();
//
// Rows carry `data-move` (ICCS); a move the shown game plays from here has
// the class `played`.

import { make, wordsOf } from "./elements.js";

function explorerPercent(n, total) {
  return total ? `${((100 * n) / total).toFixed(1)}%` : "0%";
}

function explorerExample(example) {
  if (!example) return "";
  const names = `${example.red || "?"} – ${example.black || "?"}`;
  const when = example.date && !example.date.includes("?") ? ` ${example.date}` : "";
  return `${names}${when}${example.result ? ` ${example.result}` : ""}`;
}

/** Mounts the explorer's panel in `container` (emptied, hidden until a table comes). */
/** The table's words in English; a page in another language passes `options.words`. */
export const EXPLORER_WORDS = {
  explorer_title: "Opening explorer",
  explorer_opening: "ECCO opening of the moves that led here",
  explorer_empty: "No game of the corpus reaches this position.",
  explorer_games: ({ count }) => (count === 1 ? "{count} game" : "{count} games"),
  explorer_scores: "{side} scores {score}%",
  explorer_move: "Move",
  explorer_games_column: "Games",
  explorer_results: "Red / draw / Black",
  explorer_score: "Score",
  explorer_rating: "Rating",
  explorer_example: "Example",
  explorer_failed: "Opening explorer: {error}",
  red: "Red",
  black: "Black",
};

export function createExplorerPanel(container, options) {
  const w = wordsOf(EXPLORER_WORDS, options.words);
  container.classList.add("xq-explorer");
  container.hidden = true;
  let shown = { fen: null, table: null, played: [] };
  let asked = null;
  // Set once the lookup says there is no explorer: nothing more is asked.
  let absent = false;

  function rows(table) {
    const index = options.notation ? options.notation() : 0;
    return table.moves.map((m) => {
      const decided = m.red_wins + m.draws + m.black_wins;
      const share = (n) => explorerPercent(n, decided);
      const played = shown.played.includes(m.move);
      return make("tr", {
        "data-move": m.move, class: played ? "played" : null, role: options.onMove ? "button" : null,
        title: [`${m.move}: ${m.red_wins} Red wins, ${m.draws} draws, ${m.black_wins} Black wins`,
          m.mean_rating ? `mean rating ${Math.round(m.mean_rating)}` : "", explorerExample(m.example)].filter(Boolean).join(" · "),
        onclick: options.onMove ? () => options.onMove(m.move) : null,
      },
        make("td", { class: "mv" }, m.text[index] || m.text[0] || m.move),
        make("td", { class: "num games" }, String(m.games)),
        make("td", { class: "bar" },
          make("span", { class: "red", style: `width:${share(m.red_wins)}` }),
          make("span", { class: "draw", style: `width:${share(m.draws)}` }),
          make("span", { class: "black", style: `width:${share(m.black_wins)}` })),
        make("td", { class: "num score" }, m.score === null || m.score === undefined ? "–" : `${m.score.toFixed(1)}%`),
        make("td", { class: "num rating" }, m.mean_rating ? String(Math.round(m.mean_rating)) : ""),
        make("td", { class: "example" }, explorerExample(m.example)));
    });
  }

  /** The opening of the moves that led here, when the page knows them. */
  function openingLine() {
    const opening = options.opening ? options.opening() : null;
    if (!opening) return "";
    return make("p", { class: "xq-explorer-opening", title: w("explorer_opening") },
      make("b", {}, opening.code), " ", opening.name);
  }

  function draw() {
    const table = shown.table;
    const heading = make("h3", {}, w("explorer_title"));
    if (!table || !table.moves.length) {
      container.replaceChildren(heading, openingLine(), make("p", { class: "xq-explorer-empty" }, w("explorer_empty")));
      return;
    }
    const mover = w(table.side_to_move === "black" ? "black" : "red");
    container.replaceChildren(heading, openingLine(),
      make("p", { class: "xq-explorer-total" },
        w("explorer_games", { count: table.games }),
        table.score === null || table.score === undefined ? "" : ` · ${w("explorer_scores", { side: mover, score: table.score.toFixed(1) })}`),
      make("table", { class: "xq-explorer-table" },
        make("thead", {}, make("tr", {},
          make("th", {}, w("explorer_move")), make("th", { class: "num" }, w("explorer_games_column")),
          make("th", {}, w("explorer_results")), make("th", { class: "num" }, w("explorer_score")),
          make("th", { class: "num rating" }, w("explorer_rating")), make("th", { class: "example" }, w("explorer_example")))),
        make("tbody", {}, rows(table))));
  }

  async function update(fen, played = []) {
    if (!fen || absent) return;
    if (shown.fen === fen) {
      shown.played = played;
      draw();
      return;
    }
    asked = fen;
    let table;
    try {
      table = await options.lookup(fen);
    } catch (error) {
      if (asked !== fen) return;
      container.hidden = false;
      container.replaceChildren(make("p", { class: "xq-explorer-empty" }, w("explorer_failed", { error: error.message })));
      return;
    }
    // A later position may have been asked for meanwhile: only the latest shows.
    if (asked !== fen) return;
    if (table === null || table === undefined) {
      absent = true;
      container.hidden = true;
      return;
    }
    shown = { fen, table, played };
    container.hidden = false;
    container.dataset.fen = fen;
    draw();
  }

  return { update, redraw: draw };
}
