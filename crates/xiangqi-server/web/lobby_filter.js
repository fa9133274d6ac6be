// The lobby's seek filters and pages, in the browser: the server caps the
// open seeks (1 000, docs/server.md), so the whole list is here and is
// filtered by speed (a time control's expected length), the seeker's
// rating range and rated or casual, then shown a page at a time.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// The choices: the value, the words' key.
const SPEEDS = [["bullet", "lobby.speed_bullet"], ["blitz", "lobby.speed_blitz"], ["rapid", "lobby.speed_rapid"], ["classical", "lobby.speed_classical"]];
const MODES = [["rated", "lobby.rated"], ["casual", "lobby.casual"]];

export const PAGE_SIZE = 20;

/** A time control's expected length in seconds: the base and 40 increments. */
export function expectedSeconds(tc) {
  const [base, inc] = String(tc).split("+").map(Number);
  return (base || 0) * 60 + 40 * (inc || 0);
}

export function speedOf(tc) {
  const seconds = expectedSeconds(tc);
  if (seconds < 180) return "bullet";
  if (seconds < 600) return "blitz";
  if (seconds < 1800) return "rapid";
  return "classical";
}

function select(id, options) {
  return h("select", { id }, h("option", { value: "" }, t("lobby.any")), options.map(([v, key]) => h("option", { value: v }, t(key))));
}

/**
 * The filter form and pager for a list of seeks; `onChange()` runs when they
 * change. `apply(seeks)` returns the seeks of the page shown.
 */
export function createSeekFilter(onChange) {
  let page = 0;
  const speed = select("filter-speed", SPEEDS);
  const mode = select("filter-mode", MODES);
  const low = h("input", { id: "filter-rating-min", type: "number", min: 0, max: 4000, step: 50, placeholder: "0", size: 5 });
  const high = h("input", { id: "filter-rating-max", type: "number", min: 0, max: 4000, step: 50, placeholder: "4000", size: 5 });
  const note = h("span", { class: "small", id: "seek-page-note" });
  const previous = h("button", { type: "button", id: "seek-page-previous", onclick: () => { page -= 1; onChange(); } }, t("lobby.previous"));
  const next = h("button", { type: "button", id: "seek-page-next", onclick: () => { page += 1; onChange(); } }, t("lobby.next"));
  const changed = () => { page = 0; onChange(); };
  for (const input of [speed, mode]) input.addEventListener("change", changed);
  for (const input of [low, high]) input.addEventListener("input", changed);
  const form = h("form", { class: "seek-filters", id: "seek-filters", onsubmit: (e) => e.preventDefault() },
    h("label", {}, `${t("lobby.speed")} `, speed), " ",
    h("label", {}, `${t("lobby.rating")} `, low, ` ${t("lobby.rating_to")} `, high), " ",
    h("label", {}, `${t("lobby.mode")} `, mode));
  const pager = h("p", { class: "pager", id: "seek-pager" }, previous, " ", note, " ", next);

  function matches(seek) {
    if (speed.value && speedOf(seek.tc) !== speed.value) return false;
    if (mode.value && seek.rated !== (mode.value === "rated")) return false;
    const min = low.value === "" ? null : Number(low.value);
    const max = high.value === "" ? null : Number(high.value);
    if (min === null && max === null) return true;
    // A guest has no rating: outside any range asked for.
    const rating = seek.player.rating;
    if (rating === null || rating === undefined) return false;
    return (min === null || rating >= min) && (max === null || rating <= max);
  }

  function apply(seeks) {
    const found = seeks.filter(matches);
    const pages = Math.max(1, Math.ceil(found.length / PAGE_SIZE));
    page = Math.min(Math.max(0, page), pages - 1);
    const shown = found.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
    const [from, to, total, all] = [page * PAGE_SIZE + 1, page * PAGE_SIZE + shown.length, found.length, seeks.length];
    note.textContent = !found.length ? "" : total === all ? t("lobby.shown", { from, to, total }) : t("lobby.shown_of_all", { from, to, total, all });
    previous.disabled = page === 0;
    next.disabled = page >= pages - 1;
    pager.hidden = found.length <= PAGE_SIZE;
    return { shown, filteredOut: found.length === 0 && seeks.length > 0 };
  }

  return { form, pager, apply, noMatch: () => t("lobby.no_match") };
}
