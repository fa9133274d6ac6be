"""Cross-checks against pyffish (Fairy-Stockfish) on random playout positions."""

from __future__ import annotations

import random
import re

import pytest

import xiangqi

pyffish = pytest.importorskip("pyffish", reason="pyffish is not installed (pip install pyffish)")


def fsf_to_iccs(move: str) -> str:
    # Fairy-Stockfish numbers ranks 1-10 (N-ICCS-RANKS10).
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    assert m, move
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def test_legal_moves_agree_with_pyffish() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(6):
        board = xiangqi.Board()
        for _ in range(rng.randrange(10, 60)):
            moves = board.legal_moves
            theirs = {fsf_to_iccs(m) for m in pyffish.legal_moves("xiangqi", board.fen(), [])}
            assert {str(m) for m in moves} == theirs, board.fen()
            checked += 1
            if not moves:
                break
            board.push(rng.choice(moves))
        assert pyffish.get_fen("xiangqi", board.root().fen(), [
            f"{m.from_square.name[0]}{m.from_square.rank + 1}{m.to_square.name[0]}{m.to_square.rank + 1}"
            for m in board.move_stack
        ]).split()[:2] == board.fen().split()[:2]
    assert checked > 50


def to_fsf(move: xiangqi.Move) -> str:
    text = str(move)
    return f"{text[0]}{int(text[1]) + 1}{text[2]}{int(text[3]) + 1}"


# Points each piece letter may stand on for Red (Black's are mirrored).
_PALACE = [(f, r) for f in range(3, 6) for r in range(3)]
_POINTS = {
    "K": _PALACE,
    "A": [(3, 0), (5, 0), (4, 1), (3, 2), (5, 2)],
    "B": [(2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4)],
    "P": [(f, r) for f in range(9) for r in range(3, 10) if r >= 5 or f % 2 == 0],
}
_ANYWHERE = [(f, r) for f in range(9) for r in range(10)]


def random_fen(rng: random.Random) -> str:
    """Generals plus one to four random pieces a side, on points they can reach."""
    cells: dict[tuple[int, int], str] = {}
    for red in (True, False):
        for letter in ["K"] + [rng.choice("RNCPAB") for _ in range(rng.randint(1, 4))]:
            points = _POINTS.get(letter, _ANYWHERE)
            if not red:
                points = [(f, 9 - r) for f, r in points]
            free = [p for p in points if p not in cells]
            if free:
                cells[rng.choice(free)] = letter if red else letter.lower()
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for file in range(9):
            piece = cells.get((file, rank))
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows) + " " + rng.choice("wb") + " - - 0 1"


def reversible_move(board: xiangqi.Board, rng: random.Random) -> xiangqi.Move | None:
    moves = [
        m
        for m in board.legal_moves
        if not board.is_capture(m)
        and not (
            board.piece_at(m.from_square).kind == xiangqi.SOLDIER
            and m.from_square.rank != m.to_square.rank
        )
    ]
    return rng.choice(moves) if moves else None


def random_cycle(rng: random.Random) -> tuple[str, list[xiangqi.Move]] | None:
    """A two-move cycle played twice (8 plies, the start's third occurrence)."""
    fen = random_fen(rng)
    try:
        board = xiangqi.Board(fen)
    except xiangqi.InvalidFenError:
        return None
    cycle = []
    for _ in range(2):
        if board.is_game_over():
            return None
        move = reversible_move(board, rng)
        if move is None:
            return None
        board.push(move)
        cycle.append(move)
    for move in list(cycle):
        back = xiangqi.Move.from_iccs(str(move)[2:] + str(move)[:2])
        if not board.is_legal(back):
            return None
        board.push(back)
        cycle.append(back)
    return fen, cycle + cycle


def pyffish_winner(fen: str, moves: list[xiangqi.Move], turn: xiangqi.Color) -> str:
    ended, value = pyffish.is_optional_game_end("xiangqi", fen, [to_fsf(m) for m in moves])
    if not ended:
        return "ongoing"
    if value == 0:
        return "draw"
    mover_wins = value > 0
    return "red" if (turn == xiangqi.RED) == mover_wins else "black"


def our_winner(fen: str, moves: list[xiangqi.Move]) -> tuple[str, xiangqi.Color]:
    board = xiangqi.Board(fen)
    for move in moves:
        assert board.outcome("asian") is None, (fen, moves)
        board.push(move)
    verdict = board.outcome("asian")
    assert verdict is not None and verdict.ply == 8, (fen, moves, verdict)
    return verdict.outcome, board.turn


def test_repetition_verdicts_agree_with_pyffish_on_random_cycles() -> None:
    # R-REP-*: the `asian` preset against Fairy-Stockfish's judge on random
    # cycles. Known deliberate differences (docs/adjudication.md) are pinned
    # in the next test; none occurs among these cases.
    rng = random.Random(1)
    judged, disagreements = 0, []
    while judged < 800:
        case = random_cycle(rng)
        if case is None:
            continue
        fen, moves = case
        ours, turn = our_winner(fen, moves)
        theirs = pyffish_winner(fen, moves, turn)
        judged += 1
        if ours != theirs:
            disagreements.append((fen, " ".join(map(str, moves)), ours, theirs))
    assert disagreements == []


def test_a_chariot_keeping_its_attack_along_its_line_is_no_new_chase_unlike_pyffish() -> None:
    # The one kind of difference the random cycles show (1 in 5 500): the
    # chariot f8 attacks the advisor on e8 and steps back along that rank to
    # i8, still attacking it. By R-REP-CHASE-NEW that attack is not new, so
    # Red chases only on every other move: a draw. Fairy-Stockfish counts
    # the retreat as a chase of the same advisor and gives Black the game.
    fen = "3k5/8R/5a2b/9/9/n8/9/3A1A3/9/3K3n1 w - - 0 1"
    moves = [xiangqi.Move.from_iccs(m) for m in "i8f8 f7e8 f8i8 e8f7 i8f8 f7e8 f8i8 e8f7".split()]
    ours, turn = our_winner(fen, moves)
    assert ours == "draw"
    assert pyffish_winner(fen, moves, turn) == "black"


def test_a_horse_freed_by_a_general_step_chases_only_on_that_step_like_pyffish() -> None:
    # The black horse e5 is held by the facing generals; e9f9 frees it onto
    # the elephant c4. After c0e2 guards c4, f9e9 keeps the attack standing
    # and only holds the guard by the facing rule: no new threat
    # (R-REP-CHASE-NEW), so Black chases every other move, a draw
    # (docs/adjudication.md, refinement 3).
    fen = "4k4/9/3a5/9/4n4/2B6/2n6/9/4K4/2B6 b - - 0 1"
    moves = [xiangqi.Move.from_iccs(m) for m in "e9f9 c0e2 f9e9 e2c0 e9f9 c0e2 f9e9 e2c0".split()]
    ours, turn = our_winner(fen, moves)
    assert ours == "draw"
    assert pyffish_winner(fen, moves, turn) == "draw"


def test_attackers_freed_by_every_general_step_chase_unlike_pyffish() -> None:
    # The positive control: each black general step frees a pinned attacker
    # (the horse e5, then the cannon d4) of the unprotected elephant g4, a new
    # threat every move: Black chases perpetually. Fairy-Stockfish looks for
    # new attacks only around the moved piece and calls it a draw.
    fen = "4k4/9/9/9/4n4/3c1pB2/9/9/9/4K4 b - - 0 1"
    moves = [xiangqi.Move.from_iccs(m) for m in "e9d9 e0d0 d9e9 d0e0 e9d9 e0d0 d9e9 d0e0".split()]
    ours, turn = our_winner(fen, moves)
    assert ours == "red"
    assert pyffish_winner(fen, moves, turn) == "draw"
