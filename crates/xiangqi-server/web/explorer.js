// The opening explorer's table beside a board: the moves played from a
// position in the server's corpus (`xiangqi serve --explorer FILE`), with
// games, Red win / draw / Black win shares, score for the side to move and
// an example game. `renderExplorer(container, fen)` is called whenever the
// board's position changes; a server without an explorer hides the table.

import { h } from "./dom.js";

function percent(n, total) {
  return total ? `${Math.round((100 * n) / total)}%` : "–";
}

function exampleText(example) {
  if (!example) return "";
  const names = `${example.red || "?"} – ${example.black || "?"}`;
  return example.result ? `${names} ${example.result}` : names;
}

function table(data) {
  if (!data.moves.length) {
    return h("p", { class: "small" }, "No game of the corpus reaches this position.");
  }
  const rows = data.moves.map((m) => {
    const decided = m.red_wins + m.draws + m.black_wins;
    return h("tr", { "data-move": m.move },
      h("td", { class: "mv", title: m.move }, m.text),
      h("td", { class: "num" }, String(m.games)),
      h("td", { class: "bar" },
        h("span", { class: "red", style: `width:${percent(m.red_wins, decided)}` }),
        h("span", { class: "draw", style: `width:${percent(m.draws, decided)}` }),
        h("span", { class: "black", style: `width:${percent(m.black_wins, decided)}` })),
      h("td", { class: "num" }, m.score === null ? "–" : `${m.score.toFixed(1)}%`),
      h("td", { class: "example small" }, exampleText(m.example)));
  });
  return h("table", { class: "explorer-table" },
    h("thead", {}, h("tr", {},
      h("th", {}, "Move"), h("th", {}, "Games"), h("th", {}, "Red / draw / Black"),
      h("th", {}, "Score"), h("th", {}, "Example"))),
    h("tbody", {}, ...rows));
}

export async function renderExplorer(container, fen) {
  if (!fen || container.dataset.fen === fen) return;
  container.dataset.fen = fen;
  let data;
  try {
    const response = await fetch(`/api/explorer?fen=${encodeURIComponent(fen)}`, { credentials: "same-origin" });
    if (response.status === 404) {
      container.hidden = true;
      return;
    }
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    data = await response.json();
  } catch (error) {
    data = null;
    if (container.dataset.fen === fen) {
      container.replaceChildren(h("p", { class: "small" }, `Opening explorer: ${error.message}`));
    }
    return;
  }
  // A later position may have been asked for meanwhile: only the latest shows.
  if (container.dataset.fen !== fen) return;
  container.hidden = false;
  container.replaceChildren(h("h3", {}, "Opening explorer"), table(data));
}
