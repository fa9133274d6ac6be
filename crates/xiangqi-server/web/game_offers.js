// The game page's takeback and rematch controls: what to show for a
// pending request or offer, built from the game's state. The server judges
// every request; these only send them.

import { h, link } from "./dom.js";
import { words } from "./play_text.js";

const SIDE_NAME = { red: "Red", black: "Black" };

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
      h("span", { class: "offer", id: "takeback-offer" }, words("takeback.offer", { side: SIDE_NAME[offer] })),
      button("accept-takeback", words("takeback.accept"), () => send("accept_takeback"), { class: "primary" }),
      button("decline-takeback", words("takeback.decline"), () => send("decline_takeback")),
    ];
  }
  return [button("takeback", offer === mine ? words("takeback.asked") : words("takeback.ask"),
    () => send("offer_takeback"), { disabled: offer === mine || !hasMoved(game, mine) })];
}

/** The rematch controls after the end (players), or a link to the rematch (everyone). */
export function rematchControls(game, send) {
  if (game.rematch) {
    return [h("p", { class: "rematch" }, link(`/games/${game.rematch}`, words("rematch.watch")))];
  }
  if (!game.you) return [];
  const offer = game.rematchOffer;
  if (offer && offer !== game.you) {
    return [h("p", { class: "rematch" },
      h("span", { class: "offer", id: "rematch-offer" }, words("rematch.incoming", { side: SIDE_NAME[offer] })), " ",
      button("accept-rematch", words("rematch.accept"), () => send("accept_rematch"), { class: "primary" }), " ",
      button("decline-rematch", words("rematch.decline"), () => send("decline_rematch")))];
  }
  return [h("p", { class: "rematch" },
    button("rematch", offer === game.you ? words("rematch.offered") : words("rematch.offer"), () => send("offer_rematch"),
      { class: "primary", disabled: offer === game.you }))];
}
