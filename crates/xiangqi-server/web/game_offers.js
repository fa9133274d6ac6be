// The game page's takeback and rematch controls: what to show for a
// pending request or offer, built from the game's state. The server judges
// every request; these only send them.

import { h, link } from "./dom.js";
import { t } from "./i18n.js";

function sideName(side) {
  return t(side === "red" ? "color.red" : "color.black");
}

function button(id, text, onclick, extra = {}) {
  return h("button", { id, type: "button", onclick, ...extra }, text);
}

/** Whether `side` has a move of its own in the game (something to take back). */
function hasMoved(game, side) {
  const blackFirst = (game.startFen || "").split(" ")[1] === "b";
  const first = (side === "red") === !blackFirst ? 0 : 1;
  return game.moves.length > first;
}

/** The takeback controls while the game is played. */
export function takebackControls(game, send) {
  const mine = game.you;
  const offer = game.takebackOffer;
  if (offer && offer !== mine) {
    return [
      h("span", { class: "offer", id: "takeback-offer" }, t("game.takeback_offer", { side: sideName(offer) })),
      button("accept-takeback", t("game.accept"), () => send("accept_takeback"), { class: "primary" }),
      button("decline-takeback", t("game.decline"), () => send("decline_takeback")),
    ];
  }
  return [button("takeback", offer === mine ? t("game.takeback_asked") : t("game.takeback"),
    () => send("offer_takeback"), { disabled: offer === mine || !hasMoved(game, mine) })];
}

/** The rematch controls after the end (players), or a link to the rematch (everyone). */
export function rematchControls(game, send) {
  if (game.rematch) {
    return [h("p", { class: "rematch" }, link(`/games/${game.rematch}`, t("game.rematch_watch")))];
  }
  if (!game.you) return [];
  const offer = game.rematchOffer;
  if (offer && offer !== game.you) {
    return [h("p", { class: "rematch" },
      h("span", { class: "offer", id: "rematch-offer" }, t("game.rematch_offer", { side: sideName(offer) })), " ",
      button("accept-rematch", t("game.accept"), () => send("accept_rematch"), { class: "primary" }), " ",
      button("decline-rematch", t("game.decline"), () => send("decline_rematch")))];
  }
  return [h("p", { class: "rematch" },
    button("rematch", offer === game.you ? t("game.rematch_offered") : t("game.rematch"), () => send("offer_rematch"),
      { class: "primary", disabled: offer === game.you }))];
}
