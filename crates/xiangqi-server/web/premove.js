// Premoves: one move queued while the opponent thinks. The client holds it;
// when the opponent's move arrives it is checked against the server's new
// `legal` list and sent as an ordinary `move`, or dropped if not legal then.
// The board may pick up any piece of the player's and drop it on any square
// not holding one of their own (the board knows no rules, and what is
// legal is only known once the opponent has moved). A click on the board
// cancels a queued premove.

/** The squares each of `side`'s pieces may be premoved to, for the board. */
export function premoveDests(pieces, side) {
  const mine = (letter) => (side === "red" ? letter === letter.toUpperCase() : letter === letter.toLowerCase());
  const free = [];
  for (const file of "abcdefghi") {
    for (let rank = 0; rank <= 9; rank += 1) {
      const square = file + rank;
      const letter = pieces.get(square);
      if (!letter || !mine(letter)) free.push(square);
    }
  }
  const dests = new Map();
  for (const [square, letter] of pieces) {
    if (mine(letter)) dests.set(square, free);
  }
  return dests;
}

/** Marks the premove's squares on the board (its targets are redrawn with each change). */
export function markPremove(boardBox, move) {
  for (const node of boardBox.querySelectorAll("[data-premove]")) {
    node.removeAttribute("data-premove");
    node.classList.remove("premove");
  }
  if (!move) return;
  for (const square of [move.slice(0, 2), move.slice(2, 4)]) {
    const target = boardBox.querySelector(`[data-square="${square}"]`);
    if (target) {
      target.classList.add("premove");
      target.setAttribute("data-premove", square);
    }
  }
}
