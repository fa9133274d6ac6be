"""Re-judge the games of a match with pyffish (Fairy-Stockfish's rules) as referee.

    python docs/examples/pyffish_referee.py match.pgn --engine NAME [--json]

Each game of the PGN (as ``xiangqi match --pgn`` writes it) is replayed move
by move with pyffish's ``xiangqi`` variant. The game ends where pyffish first
says it ends: no legal move (checkmate or stalemate, both a loss), an
immediate end, or an optional end (repetition with its perpetual check and
chase rules, the move-count rule). A game pyffish sees as still going when
its moves run out keeps the result recorded in the PGN (a time forfeit, an
adjudication of ours pyffish has no rule for), and is counted apart.

Prints the W/D/L of ``--engine`` (the PGN's ``Red``/``Black`` name) by the
recorded results and by pyffish's, and every game whose result differs
(games that end with the same result at another ply, e.g. a draw by
pyffish's own move-count rule, are only counted). Uses
no code of ours for the judging: only the PGN reader.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Optional

import pyffish

import xiangqi
import xiangqi.pgn

VARIANT = "xiangqi"


def to_fsf(move: xiangqi.Move) -> str:
    """ICCS (ranks 0-9) to Fairy-Stockfish's UCI (ranks 1-10)."""
    text = str(move)
    return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"


def pyffish_result(fen: str, moves: list[xiangqi.Move]) -> tuple[Optional[str], int]:
    """The result pyffish gives (``1-0``, ``0-1``, ``1/2-1/2``), or None when
    the game is not over by its rules after all of ``moves``; and the ply."""
    board = xiangqi.Board(fen, lenient=True)
    # pyffish is given the moves since the last capture from that position's
    # FEN: no position before a capture can repeat after it, and the FEN
    # carries the move counters, so nothing is lost and each ply costs the
    # moves since the last capture, not the whole game.
    base, played = fen, []
    for ply in range(len(moves) + 1):
        ended, value = pyffish.is_immediate_game_end(VARIANT, base, played)
        if not ended:
            ended, value = pyffish.is_optional_game_end(VARIANT, base, played)
        if not ended and not pyffish.legal_moves(VARIANT, base, played):
            ended, value = True, pyffish.game_result(VARIANT, base, played)
        if ended:
            if value == 0:
                return "1/2-1/2", ply
            mover_wins = value > 0
            return ("1-0" if (board.turn == xiangqi.RED) == mover_wins else "0-1"), ply
        if ply < len(moves):
            move = moves[ply]
            capture = board.is_capture(move)
            board.push(move)
            played.append(to_fsf(move))
            if capture:
                base, played = pyffish.get_fen(VARIANT, base, played), []
    return None, len(moves)


def score(result: str, engine_is_red: bool) -> float:
    return {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result] if engine_is_red else {
        "1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}[result]


def elo(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """Elo difference and its 95% half-width, from the per-game variance of
    the score (draws count half)."""
    games = wins + draws + losses
    p = (wins + draws / 2) / games
    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / games

    def to_elo(x: float) -> float:
        x = min(max(x, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / x - 1)

    half = 1.96 * math.sqrt(variance / games)
    return to_elo(p), (to_elo(p + half) - to_elo(p - half)) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path)
    parser.add_argument("--engine", required=True, help="the engine's name in the Red/Black tags")
    parser.add_argument("--json", action="store_true", help="one JSON summary on stdout")
    args = parser.parse_args()

    tallies = {"recorded": [0, 0, 0], "pyffish": [0, 0, 0]}
    points = {"recorded": 0.0, "pyffish": 0.0}
    differ = []
    kept = 0
    earlier = 0
    games = 0
    for number, game in enumerate(xiangqi.pgn.read_games(args.pgn), start=1):
        red, black = game.headers.get("Red"), game.headers.get("Black")
        if args.engine not in (red, black):
            continue
        engine_is_red = red == args.engine
        recorded = game.result
        if recorded not in ("1-0", "0-1", "1/2-1/2"):
            continue
        fen = game.start_board().fen()
        judged, ply = pyffish_result(fen, game.moves)
        if judged is None:
            judged = recorded
            kept += 1
        elif judged != recorded:
            differ.append({"game": number, "recorded": recorded, "pyffish": judged,
                           "pyffish_ply": ply, "plies": len(game)})
        elif ply != len(game):
            earlier += 1
        games += 1
        for kind, result in (("recorded", recorded), ("pyffish", judged)):
            s = score(result, engine_is_red)
            points[kind] += s
            tallies[kind][0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
    summary = {
        "games": games,
        "engine": args.engine,
        "recorded": dict(zip(("wins", "draws", "losses"), tallies["recorded"])),
        "pyffish": dict(zip(("wins", "draws", "losses"), tallies["pyffish"])),
        "kept_recorded": kept,
        "same_result_other_ply": earlier,
        "differ": differ,
    }
    for kind in ("recorded", "pyffish"):
        diff, error = elo(*tallies[kind]) if games else (0.0, 0.0)
        summary[kind].update(score=points[kind] / games if games else 0.0, elo=diff, elo_95=error)
    if args.json:
        print(json.dumps(summary))
        return
    for kind in ("recorded", "pyffish"):
        t = summary[kind]
        print(f"{kind:>8}: W/D/L {t['wins']}/{t['draws']}/{t['losses']}, "
              f"{100 * t['score']:.1f}%, Elo {t['elo']:+.1f} ± {t['elo_95']:.1f}")
    print(f"{kept} game(s) not over by pyffish's rules keep the recorded result; "
          f"{earlier} end with the same result at another ply")
    for d in differ:
        print(f"game {d['game']}: recorded {d['recorded']} after {d['plies']} plies, "
              f"pyffish {d['pyffish']} at ply {d['pyffish_ply']}")


if __name__ == "__main__":
    main()
