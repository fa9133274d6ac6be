"""A typed tour of the documented imports, checked by `mypy --strict` and
`pyright` in bindings/python/tests/test_python_chess_habits.py: every
public class is used once at least.

Run it: `python docs/examples/typed_usage.py`."""

from __future__ import annotations

import asyncio
import io
from typing import Optional

import xiangqi
from xiangqi import Board, Color, LegalMoves, Move, Piece, PieceKind, Score, Square, Status, Verdict
from xiangqi.engine import (
    AnalysisResult,
    AsyncEngine,
    Cp,
    EngineInfo,
    EngineResult,
    Limit,
    Mate,
    PlayResult,
    PovScore,
    SimpleEngine,
)
from xiangqi.pgn import SKIP, BaseVisitor, Game, GameNode, Headers, Nags, SkipType


def play_to_mate() -> Board:
    """Red mates along the f-file (rules.md EX-END-FG)."""
    board = Board("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1")
    while board.outcome() is None:
        board.push(Move.from_iccs("i5f5"))
    return board


def build_by_hand() -> Board:
    board = Board.empty()
    general: Piece = Piece(xiangqi.RED, PieceKind.GENERAL)
    board.set_piece_at(xiangqi.E0, general)
    board.set_piece_at("d9", Piece.from_symbol("k"))
    board.set_piece_at(Square("i5"), Piece.from_symbol("R"))
    status: Status = board.status()
    assert status == xiangqi.STATUS_VALID and board.is_valid()
    turn: Color = board.turn
    assert turn == xiangqi.RED
    moves: LegalMoves = board.legal_moves
    assert "i5d5" in moves and moves.count() == len(list(moves))
    return board


def annotate(game: Game) -> GameNode:
    headers: Headers = game.headers
    headers["Event"] = "Typed example"
    first = game.variations[0]
    nags: Nags = first.nags
    nags.add(1)
    first.comment = "the only move"
    end: GameNode = first.end()
    assert end.next() is None and first.is_mainline() and first.san() == "i5f5"
    return first


def read_one() -> Optional[Game]:
    return xiangqi.pgn.read_game(io.StringIO("1. h2e2 h9g7 *\n"))


class Events(BaseVisitor[str]):
    """Reads only the Event tag: the moves are skipped."""

    def __init__(self) -> None:
        self.event = ""

    def visit_header(self, tagname: str, tagvalue: str) -> None:
        if tagname == "Event":
            self.event = tagvalue

    def end_headers(self) -> Optional[SkipType]:
        return SKIP

    def result(self) -> str:
        return self.event


def analyse() -> PlayResult:
    with SimpleEngine.builtin() as engine:
        analysis: AnalysisResult = engine.analysis(Board(), Limit(depth=3))
        infos: list[EngineInfo] = list(analysis)
        result: EngineResult = analysis.wait()
        assert infos and result.best_move in Board().legal_moves
        info = engine.analyse(Board(), Limit(depth=2))
        pov: Optional[PovScore] = info.score
        assert pov is not None and info["score"] == pov
        scores: list[Score] = sorted([Mate(2), Cp(10), pov.red()])
        assert scores[-1] == Mate(2)
        return engine.play(Board(), Limit(depth=2))


async def analyse_async() -> PlayResult:
    engine: AsyncEngine = await AsyncEngine.builtin()
    try:
        return await engine.play(Board(), Limit(depth=1))
    finally:
        await engine.quit()


def main() -> None:
    board = play_to_mate()
    outcome: Optional[Verdict] = board.outcome()
    assert outcome is not None and board.is_game_over(claim_draw=True)
    game = Game.from_board(board)
    node = annotate(game)
    assert game.result == "1-0" and 1 in node.nags
    assert build_by_hand().fen() == "3k5/9/9/9/8R/9/9/9/9/4K4 w - - 0 1"
    one = read_one()
    assert one is not None and [str(m) for m in one.mainline_moves()] == ["h2e2", "h9g7"]
    event = xiangqi.pgn.read_game(io.StringIO('[Event "e"]\n\n1. h2e2 *\n'), Visitor=Events)
    assert event == "e"
    assert analyse().move in Board().legal_moves
    assert asyncio.run(analyse_async()).move in Board().legal_moves
    print(outcome.result, outcome.reason, game.headers["Event"])
    print(game.to_pgn())


if __name__ == "__main__":
    main()
