// What makes a set-up board no position, in the player's language: the
// rules core's problem (`POST /api/position`'s `problems`, an `analyse`
// error's `args`) as a sentence, its side, piece and point filled in.

import { has, t } from "./i18n.js";

/** The words for one problem `{problem, color, piece, square, …, message}`. */
export function problemText(problem) {
  if (!problem) return "";
  const key = `position.${problem.problem}`;
  if (!problem.problem || !has(key)) return problem.message || t("error.unknown");
  const args = { ...problem };
  if (problem.color) args.side = t(`color.${problem.color}`);
  if (problem.piece) args.piece = t(`howto.piece_${problem.piece}_name`);
  return t(key, args);
}
