// An imported game's page (`/library/{id}`): who played, where and when,
// then the game viewer with the engine's review, as a played game's review
// page has them (review.js); only its owner can open it.

import { api } from "./api.js";
import { h, link } from "./dom.js";
import { t } from "./i18n.js";
import { mountReviewViewer } from "./review.js";
import { gameDetails, gameTitle, needsAccount } from "./library.js";

export function mountLibraryGame(main, [id], session) {
  const section = h("section", { class: "review", id: "review", dataset: { imported: id } });
  main.append(section);
  if (needsAccount(section, session, "library.title")) return () => {};
  const title = h("p", { class: "review-head", id: "library-game-head" }, t("page.loading"));
  const details = h("p", { class: "small", id: "library-game-details" });
  const notice = h("p", { class: "notice", id: "review-message", hidden: true });
  const box = h("div", { id: "viewer" });
  section.append(h("p", {}, link("/library", t("library.back"))), title, details, notice, box);
  const review = mountReviewViewer(box, notice, session, {
    load: () => api.libraryViewer(id),
    annotate: () => api.libraryAnnotate(id),
    onData: (data) => {
      title.replaceChildren(gameTitle(data.summary), h("span", { class: "tag" }, data.summary.result));
      details.textContent = gameDetails(data.summary);
    },
  });
  return () => review.destroy();
}
