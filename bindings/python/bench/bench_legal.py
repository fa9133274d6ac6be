"""Benchmark (not a test): xiangqi against pyffish and cchess, from Python.

    python bindings/python/bench/bench_legal.py [--positions 2000] [--games 50] [--seed 1]

1. Legal moves: for each of N positions from random playouts, build the
   board from FEN and list its legal moves. Peers in the same run:
   ``pyffish.legal_moves("xiangqi", fen, [])`` and
   ``list(cchess.ChessBoard(fen).create_moves())`` (note: cchess's
   ``create_moves`` yields pseudo-legal moves, i.e. it does less work).
   Also counts positions where pyffish's legal moves differ from ours.
2. Random playouts of 200 plies from Python, games/s (peer: pyffish, which
   needs a FEN round trip per ply; cchess is timed too).
3. PGN parsing, games/s, when ``xiangqi.pgn`` is available (peer: cchess's
   one-game-per-file ``read_from_pgn``).

Peers that are not installed are skipped. Figures go to stdout.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from typing import Callable, List, Optional, Tuple

import xiangqi

try:
    import pyffish
except ImportError:  # pragma: no cover - optional peer
    pyffish = None
try:
    import cchess
except ImportError:  # pragma: no cover - optional peer
    cchess = None


def random_positions(n: int, seed: int) -> List[str]:
    rng = random.Random(seed)
    fens = []
    while len(fens) < n:
        board = xiangqi.Board()
        for _ in range(rng.randrange(0, 160)):
            moves = board.legal_moves
            if not moves:
                break
            board.push(rng.choice(moves))
        fens.append(board.fen())
    return fens


def timed(label: str, fn: Callable[[], int], repeat: int = 1) -> Tuple[float, int]:
    best = float("inf")
    count = 0
    for _ in range(repeat):
        start = time.perf_counter()
        count = fn()
        best = min(best, time.perf_counter() - start)
    return best, count


def report(label: str, seconds: float, units: int, unit: str) -> float:
    rate = units / seconds
    shown = f"{rate:,.0f}" if rate >= 100 else f"{rate:,.2f}"
    print(f"  {label:<34} {shown:>14} {unit}/s   ({seconds:.3f} s for {units})")
    return rate


def fsf_to_iccs(move: str) -> str:
    """pyffish numbers ranks 1-10 (N-ICCS-RANKS10); ICCS uses 0-9."""
    import re

    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    assert m, move
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def bench_legal(fens: List[str]) -> None:
    print(f"1. FEN -> board -> legal moves, {len(fens)} positions from random playouts")

    def ours() -> int:
        total = 0
        for fen in fens:
            total += len(xiangqi.Board(fen).legal_moves)
        return total

    t, moves = timed("xiangqi", ours, repeat=5)
    rate = report("xiangqi Board(fen).legal_moves", t, len(fens), "positions")
    print(f"  ({moves} legal moves in all)")
    if pyffish is not None:

        def ffish() -> int:
            return sum(len(pyffish.legal_moves("xiangqi", fen, [])) for fen in fens)

        t, _ = timed("pyffish", ffish)
        peer = report("pyffish.legal_moves", t, len(fens), "positions")
        print(f"  ratio xiangqi / pyffish: {rate / peer:,.0f}x")
        mismatches = 0
        for fen in fens:
            theirs = {fsf_to_iccs(m) for m in pyffish.legal_moves("xiangqi", fen, [])}
            if theirs != {str(m) for m in xiangqi.Board(fen).legal_moves}:
                mismatches += 1
        print(f"  positions where pyffish's legal moves differ from ours: {mismatches}")
    else:
        print("  pyffish not installed: skipped")
    if cchess is not None:

        def cc() -> int:
            return sum(len(list(cchess.ChessBoard(fen).create_moves())) for fen in fens)

        t, _ = timed("cchess", cc)
        peer = report("cchess ChessBoard(fen).create_moves", t, len(fens), "positions")
        print(f"  ratio xiangqi / cchess: {rate / peer:,.0f}x")
    else:
        print("  cchess not installed: skipped")


def bench_playouts(games: int, seed: int) -> None:
    plies = 200
    print(f"2. random playouts of up to {plies} plies from Python, {games} games")

    def ours() -> int:
        rng = random.Random(seed)
        for _ in range(games):
            board = xiangqi.Board()
            for _ in range(plies):
                moves = board.legal_moves
                if not moves:
                    break
                board.push(rng.choice(moves))
        return games

    t, _ = timed("xiangqi", ours, repeat=3)
    rate = report("xiangqi push(choice(legal_moves))", t, games, "games")
    peer_games = max(2, games // 25)
    if pyffish is not None:

        def ffish() -> int:
            rng = random.Random(seed)
            for _ in range(peer_games):
                fen = pyffish.start_fen("xiangqi")
                for _ in range(plies):
                    moves = pyffish.legal_moves("xiangqi", fen, [])
                    if not moves:
                        break
                    fen = pyffish.get_fen("xiangqi", fen, [rng.choice(moves)])
            return peer_games

        t, _ = timed("pyffish", ffish)
        peer = report("pyffish legal_moves + get_fen", t, peer_games, "games")
        print(f"  ratio xiangqi / pyffish: {rate / peer:,.0f}x")
    if cchess is not None:

        def cc() -> int:
            rng = random.Random(seed)
            for _ in range(peer_games):
                board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
                for _ in range(plies):
                    # create_moves is pseudo-legal: keep only moves cchess accepts
                    # and that do not leave the mover in check.
                    moves = [m for m in board.create_moves() if not board.is_checked_move(*m)]
                    if not moves:
                        break
                    board.move(*rng.choice(moves))
                    board.next_turn()
            return peer_games

        t, _ = timed("cchess", cc)
        peer = report("cchess create_moves + move", t, peer_games, "games")
        print(f"  ratio xiangqi / cchess: {rate / peer:,.0f}x")


def bench_pgn(games: int, seed: int) -> None:
    pgn = getattr(xiangqi, "pgn", None)
    if pgn is None or not hasattr(pgn, "read_games"):
        print("3. PGN parsing: xiangqi.pgn is not built yet: skipped")
        return
    print(f"3. PGN parsing, {games} games of random play written in Chinese notation")
    rng = random.Random(seed)
    records = []
    for _ in range(games):
        board = xiangqi.Board()
        for _ in range(rng.randrange(40, 160)):
            moves = board.legal_moves
            if not moves:
                break
            board.push(rng.choice(moves))
        records.append(pgn.Game.from_board(board).to_pgn(notation="chinese"))
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "all.pgn")
        with open(big, "w", encoding="utf-8") as f:
            f.write("\n\n".join(records))

        def ours() -> int:
            return sum(1 for _ in pgn.read_games(big))

        t, n = timed("xiangqi", ours, repeat=3)
        rate = report("xiangqi.pgn.read_games", t, n, "games")
        if cchess is not None:
            files = []
            for i, text in enumerate(records[: max(2, games // 20)]):
                path = os.path.join(tmp, f"g{i}.pgn")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
                files.append(path)

            def cc() -> int:
                ok = 0
                for path in files:
                    game = cchess.read_from_pgn(path)
                    ok += game is not None
                return ok

            t, n = timed("cchess", cc)
            peer = report("cchess.read_from_pgn", t, len(files), "games")
            print(f"  ratio xiangqi / cchess: {rate / peer:,.0f}x")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--pgn-games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"xiangqi {xiangqi.__version__}, Python {sys.version.split()[0]}")
    fens = random_positions(args.positions, args.seed)
    bench_legal(fens)
    bench_playouts(args.games, args.seed)
    bench_pgn(args.pgn_games, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
