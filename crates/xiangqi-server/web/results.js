// How a game ended, in the player's language: the server sends the result
// (`1-0`, `0-1`, `1/2-1/2`, `*`), the reason's code and, where the sentence
// names them, the deciding move in the player's notation (`move`) and the side
// that aborted (`aborted_by`); the words are chosen here. A reason this
// client does not know (a newer server) shows the server's English `text`.

import { t } from "./i18n.js";

// Each reason code of the protocol and its sentence; `true` where the
// deciding move follows it in brackets.
const REASONS = {
  checkmate: ["result.checkmate", true],
  stalemate: ["result.stalemate", true],
  resignation: ["result.resignation", false],
  timeout: ["result.timeout", false],
  abandonment: ["result.abandonment", false],
  agreement: ["result.agreement", false],
  repetition: ["result.repetition", true],
  perpetual_check: ["result.perpetual_check", true],
  perpetual_chase: ["result.perpetual_chase", true],
  mutual_perpetual_check: ["result.mutual_perpetual_check", true],
  mutual_perpetual_chase: ["result.mutual_perpetual_chase", true],
  no_capture: ["result.no_capture", true],
  material: ["result.material", true],
  cancelled: ["result.cancelled", false],
  aborted: ["result.aborted", false],
};

const SIDES = { red: "color.red", black: "color.black" };

function winnerOf(result) {
  if (result.result === "1-0") return "red";
  if (result.result === "0-1") return "black";
  return null;
}

/** The sentence for a `result` object of the protocol. */
export function resultSentence(result) {
  const entry = REASONS[result.reason];
  if (!entry) return result.text || "";
  const winner = winnerOf(result);
  const loser = winner && (winner === "red" ? "black" : "red");
  let [key] = entry;
  // Time running out against bare material is a draw, not a win.
  if (result.reason === "timeout" && !winner) key = "result.timeout_draw";
  const side = (s) => (s ? t(SIDES[s]) : t("result.nobody"));
  const sentence = t(key, { winner: side(winner), loser: side(loser), by: side(result.aborted_by) });
  return entry[1] && result.move ? t("result.with_move", { sentence, move: result.move }) : t("result.end", { sentence });
}

// The short name of each reason, for lists of games.
const REASON_LABELS = {
  checkmate: "reason.checkmate", stalemate: "reason.stalemate", resignation: "reason.resignation", timeout: "reason.timeout",
  abandonment: "reason.abandonment", agreement: "reason.agreement", repetition: "reason.repetition",
  perpetual_check: "reason.perpetual_check", perpetual_chase: "reason.perpetual_chase",
  mutual_perpetual_check: "reason.mutual_perpetual_check", mutual_perpetual_chase: "reason.mutual_perpetual_chase",
  no_capture: "reason.no_capture", material: "reason.material", cancelled: "reason.cancelled", aborted: "reason.aborted",
};

/** A reason code's short name (an unknown code as it is, its underscores spaced). */
export function reasonLabel(code) {
  return REASON_LABELS[code] ? t(REASON_LABELS[code]) : code.replaceAll("_", " ");
}
