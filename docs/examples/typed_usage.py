"""A typed tour of the documented imports, checked by `mypy --strict` and
`pyright` in bindings/python/tests/test_python_chess_habits.py.

Run it: `python docs/examples/typed_usage.py`."""

from __future__ import annotations

from typing import Optional

from xiangqi import Board, Move, Verdict
from xiangqi.pgn import Game, GameNode, Headers, Nags


def play_to_mate() -> Board:
    """Red mates along the f-file (rules.md EX-END-FG)."""
    board = Board("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1")
    while board.outcome() is None:
        board.push(Move.from_iccs("i5f5"))
    return board


def annotate(game: Game) -> GameNode:
    headers: Headers = game.headers
    headers["Event"] = "Typed example"
    first = game.variations[0]
    nags: Nags = first.nags
    nags.add(1)
    first.comment = "the only move"
    return first


def main() -> None:
    board = play_to_mate()
    outcome: Optional[Verdict] = board.outcome()
    assert outcome is not None and board.is_game_over(claim_draw=True)
    game = Game.from_board(board)
    node = annotate(game)
    assert game.result == "1-0" and 1 in node.nags
    print(outcome.result, outcome.reason, game.headers["Event"])
    print(game.to_pgn())


if __name__ == "__main__":
    main()
