// The import page (`/import`): a game file uploaded or text pasted goes to the
// server as it is (the server reads every format through the gamefile
// crate), and the page shows what came of each game: "N imported, M with
// errors", each error under its game's number in the file, the games left
// over a limit, and a link to the games in the library.

import { api } from "./api.js";
import { h, link } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { needsAccount } from "./library.js";

// The server's limits (docs/server.md, "Library"), for the page's words.
const MAX_MIB = 8;
const MAX_GAMES_PER_IMPORT = 1000;
const MAX_LIBRARY_GAMES = 5000;
const FILE_TYPES = ".pgn,.wxf,.xqf,.cbf,.cbr,.cbl,.txt";

export function mountImport(main, params, session) {
  const section = h("section", { class: "panel wide library", id: "import" });
  main.append(section);
  if (needsAccount(section, session, "import.title")) return () => {};
  let gone = false;
  const fileInput = h("input", { type: "file", id: "import-file", accept: FILE_TYPES });
  const uploadButton = h("button", { type: "submit", id: "import-upload", class: "primary" }, t("import.upload"));
  const text = h("textarea", { id: "import-text", rows: 8, spellcheck: "false", placeholder: "[Red \"…\"]\n[Black \"…\"]\n\n1. h2e2 h9g7 …" });
  const pasteButton = h("button", { type: "submit", id: "import-paste" }, t("import.paste"));
  const report = h("div", { id: "import-report", class: "import-report", "aria-live": "polite" });

  const fileForm = h("form", { class: "import-form", id: "import-file-form" },
    h("label", { for: "import-file" }, t("import.file_label")), fileInput, uploadButton);
  fileForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const file = fileInput.files && fileInput.files[0];
    if (!file) return say(t("import.choose_file"));
    send(file.name, file);
  });
  const pasteForm = h("form", { class: "import-form", id: "import-paste-form" },
    h("label", { for: "import-text" }, t("import.paste_label")), text, pasteButton);
  pasteForm.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!text.value.trim()) return say(t("import.empty"));
    send("", new Blob([text.value], { type: "text/plain;charset=utf-8" }));
  });

  section.append(
    h("h1", {}, t("import.title")),
    h("p", {}, t("import.intro")),
    h("p", { class: "small" }, t("import.limits", { mib: MAX_MIB, games: MAX_GAMES_PER_IMPORT, library: MAX_LIBRARY_GAMES })),
    fileForm, pasteForm, report,
    h("p", {}, link("/library", t("import.to_library"))));

  function say(words) {
    report.replaceChildren(h("p", { class: "notice" }, words));
  }

  async function send(name, body) {
    uploadButton.disabled = true;
    pasteButton.disabled = true;
    report.replaceChildren(h("p", { class: "status" }, t("import.reading")));
    try {
      const answer = await api.importFile(name, body);
      if (!gone) show(answer);
    } catch (error) {
      if (gone) return;
      say(error.code === "too_large" ? t("import.too_large", { mib: MAX_MIB }) : errorText(error));
    } finally {
      uploadButton.disabled = false;
      pasteButton.disabled = false;
    }
  }

  function show(answer) {
    const read = answer.encoding
      ? t("import.read_as_encoding", { format: answer.format.toUpperCase(), encoding: answer.encoding })
      : t("import.read_as", { format: answer.format.toUpperCase() });
    const lines = [];
    for (const error of answer.errors) lines.push(h("li", { class: "error" }, t("import.game_error", { index: error.index, message: error.message })));
    for (const game of answer.games) {
      if (game.warning) lines.push(h("li", { class: "warning" }, t("import.game_warning", { index: game.index, message: game.warning })));
    }
    for (const note of answer.notes || []) lines.push(h("li", { class: "warning" }, t("import.note", { message: note })));
    if (answer.headings_skipped) lines.push(h("li", {}, t("import.headings_skipped", { count: answer.headings_skipped })));
    if (answer.errors_unlisted) lines.push(h("li", {}, t("import.errors_unlisted", { count: answer.errors_unlisted })));
    const over = answer.not_imported;
    const overText = over && t(over.reason === "library_full" ? "import.not_imported_full" : "import.not_imported_cap",
      { first: over.first, last: over.last, limit: over.limit });
    // replaceChildren would write a null as text: the parts that are there only.
    report.replaceChildren(...[
      h("p", { class: "import-summary", id: "import-summary", dataset: { imported: answer.imported, failed: answer.failed } },
        h("strong", {}, t("import.summary", { imported: answer.imported, failed: answer.failed })), " ", read),
      overText ? h("p", { class: "notice", id: "import-over" }, overText) : null,
      lines.length ? h("ul", { class: "rows import-errors", id: "import-errors" }, lines) : null,
      answer.imported ? h("p", {}, link(`/library?batch=${encodeURIComponent(answer.batch)}`, t("import.open_batch"))) : null,
    ].filter(Boolean));
  }

  return () => { gone = true; };
}
