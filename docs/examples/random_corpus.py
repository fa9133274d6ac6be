"""A reproducible corpus of random legal games, written as one PGN file.

    python docs/examples/random_corpus.py OUT.pgn [--games 2000] [--seed 15]

Each game is a random walk through the legal moves (``random.Random(seed)``)
of 10 to 120 plies, stopping early when the game is over under the online
rules; players, events and dates are drawn from small pools so that the
tags vary. The test of the Dask example and its benchmark both read such a
corpus.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import xiangqi
from xiangqi.pgn import Game

PLAYERS = ["Ada", "Bo", "Chen", "Dai", "Eun", "Fei", "Gao", "Hua"]
RESULTS = ["1-0", "0-1", "1/2-1/2"]


def random_game(rng: random.Random, number: int) -> Game:
    """Game ``number`` of the corpus: random legal moves from the start."""
    board = xiangqi.Board()
    for _ in range(rng.randint(10, 120)):
        moves = board.legal_moves
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    red, black = rng.sample(PLAYERS, 2)
    headers = {
        "Event": f"Random {number // 100}",
        "Site": "generated",
        "Date": f"2026.{1 + number % 12:02}.{1 + number % 28:02}",
        "Round": str(number % 100 + 1),
        "Red": red,
        "Black": black,
    }
    verdict = board.outcome()
    result = verdict.result if verdict is not None else rng.choice(RESULTS)
    return Game.from_board(board, headers, result)


def write_random_corpus(path: Path, games: int, seed: int = 15) -> Path:
    """Writes ``games`` random games to ``path`` (PGN, ICCS moves)."""
    rng = random.Random(seed)
    with open(path, "w", encoding="utf-8") as out:
        for number in range(games):
            out.write(random_game(rng, number).to_pgn())
            out.write("\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    write_random_corpus(args.output, args.games, args.seed)


if __name__ == "__main__":
    main()
