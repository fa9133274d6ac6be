// The library page (`/library`): the player's imported games, newest import
// first, a page at a time, filtered by a player's name or one import (kept
// in the page's address: `?player=hu&batch=b_…&page=2`); each opens on its
// review page (library_game.js) or is deleted (a second click confirms).

import { api } from "./api.js";
import { h, link } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";

const FILTER_KEYS = ["player", "batch", "page"];

/**
 * For a visitor without an account: says the library needs one in `section`
 * (under the heading `titleKey`) and returns true.
 */
export function needsAccount(section, session, titleKey) {
  const player = session.player;
  if (player && !player.guest) return false;
  section.replaceChildren(h("h1", {}, t(titleKey)), h("p", { class: "notice", id: "library-account" }, t("library.need_account")),
    h("p", {}, link("/login", t("nav.sign_in"))));
  return true;
}

function filtersInAddress() {
  const query = new URLSearchParams(location.search);
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, query.get(key) || ""]));
}

function putInAddress(filters) {
  const address = new URL(location.href);
  address.search = "";
  for (const key of FILTER_KEYS) {
    if (filters[key] && !(key === "page" && filters[key] === "1")) address.searchParams.set(key, filters[key]);
  }
  history.replaceState(history.state, "", address);
}

/** Who played, where and when, as the list and a game's page show it. */
export function gameTitle(game) {
  return `${game.red || "?"} ${t("game.vs")} ${game.black || "?"}`;
}

export function gameDetails(game) {
  return [game.event, game.date, game.ecco ? `${game.ecco} ${game.opening || ""}`.trim() : null,
    t("library.source", { name: game.name, index: game.index })].filter(Boolean).join(" · ");
}

export function mountLibrary(main, params, session) {
  const section = h("section", { class: "panel wide library", id: "library" });
  main.append(section);
  if (needsAccount(section, session, "library.title")) return () => {};
  let gone = false;
  let filters = filtersInAddress();
  const size = h("p", { class: "small", id: "library-size" });
  const list = h("ul", { class: "rows", id: "library-games" });
  const playerInput = h("input", { type: "search", id: "library-player", value: filters.player, size: 14, maxlength: 60 });
  const batchNote = h("span", { class: "small", id: "library-batch" });
  const form = h("form", { class: "game-filters", id: "library-filter" },
    h("label", { for: "library-player" }, `${t("library.player_filter")} `), playerInput, " ",
    h("button", { type: "submit" }, t("player.filter")), " ",
    h("button", { type: "button", id: "library-clear", onclick: () => { playerInput.value = ""; filters = { player: "", batch: "", page: "" }; load(); } }, t("player.clear")),
    " ", batchNote);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    filters = { ...filters, player: playerInput.value.trim(), page: "" };
    load();
  });
  const notice = h("p", { class: "notice", id: "library-message", hidden: true });
  const pageNote = h("span", { class: "small", id: "page-note" });
  const previous = h("button", { type: "button", id: "page-previous", onclick: () => turn(-1) }, t("player.newer"));
  const next = h("button", { type: "button", id: "page-next", onclick: () => turn(1) }, t("player.older"));
  const pager = h("p", { class: "pager", id: "pager" }, previous, " ", pageNote, " ", next);
  section.append(
    h("div", { class: "library-head" }, h("h1", {}, t("library.title")), link("/import", h("span", { class: "button primary", id: "library-import" }, t("library.import")))),
    size, form, notice, list, pager);

  function turn(step) {
    filters = { ...filters, page: String(Math.max(1, Number(filters.page || 1) + step)) };
    load();
  }

  function say(text) {
    notice.textContent = text || "";
    notice.hidden = !text;
  }

  function row(game) {
    const remove = h("button", { type: "button", class: "linkish delete", onclick: () => askDelete(game, remove) }, t("library.delete"));
    return h("li", { dataset: { game: game.id } },
      h("span", { class: "who" }, link(`/library/${game.id}`, gameTitle(game))),
      h("span", { class: "tag" }, game.result),
      link(`/library/${game.id}`, t("player.open")), remove,
      h("span", { class: "details small" }, gameDetails(game)));
  }

  async function askDelete(game, button) {
    if (!button.classList.contains("confirm")) {
      button.classList.add("confirm");
      button.textContent = t("library.confirm_delete");
      return;
    }
    try {
      await api.libraryDelete(game.id);
      say(t("library.deleted"));
      load();
    } catch (error) {
      say(errorText(error));
    }
  }

  function show(data) {
    size.textContent = t("library.size", { size: data.size, limit: data.limit });
    const filtered = Boolean(filters.player || filters.batch);
    const empty = filtered ? t("player.no_match") : t("library.empty");
    list.replaceChildren(...(data.games.length ? data.games.map(row) : [h("li", { class: "empty" }, empty)]));
    batchNote.replaceChildren(filters.batch ? h("span", {}, `${t("library.one_import")} `,
      h("button", { type: "button", class: "linkish", id: "library-all", onclick: () => { filters = { ...filters, batch: "", page: "" }; load(); } }, t("library.all_imports"))) : "");
    const pages = Math.max(1, Math.ceil(data.total / data.per_page));
    pageNote.textContent = t("library.page", { page: data.page, pages });
    previous.disabled = data.page <= 1;
    next.disabled = data.page >= pages;
    pager.hidden = pages <= 1;
  }

  function load() {
    putInAddress(filters);
    api.library(filters).then((data) => { if (!gone) show(data); }).catch((error) => { if (!gone) say(errorText(error)); });
  }

  load();
  return () => { gone = true; };
}
