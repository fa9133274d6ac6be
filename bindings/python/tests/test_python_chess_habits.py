"""Habits of python-chess users (issue 41, "Silent traps"): each test is
one thing a python-chess user does, which must either work as there or
raise, never lose the work silently."""

from __future__ import annotations

import collections.abc
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import xiangqi
import xiangqi.engine
import xiangqi.pgn
from xiangqi import Board
from xiangqi.pgn import Game

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "typed_usage.py"

PGN = '[Event "x"]\n[Red "A"]\n[Black "B"]\n\n1. h2e2 h9g7 2. h0g2 *\n'


# --- Edits that vanish ---------------------------------------------------


def test_header_edits_stick_and_reach_the_pgn() -> None:
    game = Game.from_pgn(PGN)
    game.headers["Event"] = "y"
    game.headers["Site"] = "z"
    assert game.headers["Event"] == "y" and game.headers["Site"] == "z"
    del game.headers["Black"]
    assert "Black" not in game.headers
    text = game.to_pgn()
    assert '[Event "y"]' in text and '[Site "z"]' in text and "Black" not in text
    assert isinstance(game.headers, collections.abc.MutableMapping)
    assert list(game.headers)[:3] == ["Event", "Red", "Site"]  # file order, new tags last


def test_result_header_edit_is_the_result() -> None:
    game = Game.from_pgn(PGN)
    game.headers["Result"] = "1-0"
    assert game.result == "1-0" and game.to_pgn().rstrip().endswith("1-0")
    with pytest.raises(ValueError, match="Result"):
        game.headers["Result"] = "red wins"


def test_nag_edits_stick() -> None:
    game = Game.from_pgn(PGN)
    node = game.variations[0]
    node.nags.add(1)
    node.nags.add(3)
    assert set(node.nags) == {1, 3} and 1 in node.nags
    node.nags.discard(3)
    assert set(node.nags) == {1}
    assert "$1" in game.to_pgn()
    assert isinstance(node.nags, collections.abc.MutableSet)
    with pytest.raises((ValueError, OverflowError, TypeError)):
        node.nags.add(-1)


def test_comment_edits_stick() -> None:
    game = Game.from_pgn(PGN)
    node = game.variations[0]
    node.comment = "the central cannon"
    assert node.comment == "the central cannon" and "{the central cannon}" in game.to_pgn()
    game.comment = "before"
    assert game.comments[0] == "before"


def test_copies_are_read_only() -> None:
    game = Game.from_pgn(PGN)
    with pytest.raises((TypeError, AttributeError)):
        game.comments.append("lost")  # type: ignore[attr-defined]
    assert game.comments == ("", "", "", "")


def test_every_copy_a_property_gives_is_read_only() -> None:
    board = Board()
    board.push_iccs("h2e2")
    game = Game.from_pgn("1. h2e2 h9g7 (1... b9c7) *")
    copies = [
        board.legal_moves,
        board.move_stack,
        game.moves,
        game.variations,
        game.variations[0].variations,
        game.errors,
        game.comments,
    ]
    for copy in copies:
        with pytest.raises(AttributeError):
            copy.append(None)  # type: ignore[union-attr]
    assert board.move_stack == (xiangqi.Move.from_iccs("h2e2"),)
    # Mappings that are copies: read-only.
    perpetual = Board("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1")
    for m in "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9".split():
        perpetual.push_iccs(m)
    verdict = perpetual.outcome("asian")
    assert verdict is not None and verdict.repetition is not None
    with pytest.raises(TypeError):
        verdict.repetition["red"] = {}  # type: ignore[index]
    played = '[Red "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. h2e2 1-0\n'
    unknown = '[Red "A"]\n[Black "B"]\n[Result "*"]\n\n1. h2e2 *\n'
    ratings = xiangqi.rate([Game.from_pgn(played), Game.from_pgn(unknown)])
    assert ratings.unrated == {"no_result": 1}
    with pytest.raises(TypeError):
        ratings.unrated["no_result"] = 0  # type: ignore[index]
    engine = xiangqi.engine.SimpleEngine.builtin()
    try:
        with pytest.raises(TypeError):
            engine.id["name"] = "renamed"  # type: ignore[index]
    finally:
        engine.quit()


def test_report_game_is_one_object_whose_edits_stick(tmp_path: Path) -> None:
    source = tmp_path / "one.pgn"
    source.write_text(PGN, encoding="utf-8")
    report = xiangqi.pgn.map_games(source, "read", jobs=1)[0]
    assert report.game is not None and report.game is report.game
    report.game.headers["Event"] = "edited"
    assert report.game.headers["Event"] == "edited"


def test_report_headers_are_a_read_only_snapshot(tmp_path: Path) -> None:
    source = tmp_path / "one.pgn"
    source.write_text(PGN, encoding="utf-8")
    report = xiangqi.pgn.map_games(source, "check", jobs=1)[0]
    assert report.headers["Event"] == "x"
    with pytest.raises(TypeError):
        report.headers["Event"] = "y"  # type: ignore[index]


# --- Game-end semantics --------------------------------------------------


def test_outcome_is_none_while_the_game_goes_on() -> None:
    board = Board()
    assert board.outcome() is None
    plies = 0
    while board.outcome() is None and plies < 4:
        board.push(board.legal_moves[0])
        plies += 1
    assert plies == 4 and not board.is_game_over()


def test_is_game_over_after_a_perpetual_check() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1")
    for m in "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9".split():
        board.push_iccs(m)
    assert board.legal_moves, "the side to move still has moves: only the rules end the game"
    assert board.is_game_over()
    outcome = board.outcome()
    assert outcome is not None and outcome.reason == "perpetual_check" and outcome.winner == xiangqi.BLACK


def test_draws_are_automatic_so_claim_draw_changes_nothing() -> None:
    # EX-NC-1: the no-capture counter reaches 120 after ply 3 (no claim, rules.md section 6).
    board = Board("5k3/9/9/9/8R/9/9/9/9/3K5 w - - 117 80")
    for m in "i5i4 f9f8".split():
        board.push_iccs(m)
    assert not board.is_game_over(claim_draw=True) and board.outcome(claim_draw=True) is None
    board.push_iccs("i4i3")
    assert board.is_game_over() and board.is_game_over(claim_draw=True)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None and outcome.reason == "no_capture_rule" and outcome.result == "1/2-1/2"


def test_from_board_writes_the_result() -> None:
    board = Board("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1")
    board.push_iccs("i5f5")
    game = Game.from_board(board)
    assert game.result == "1-0" and game.headers["Result"] == "1-0"
    assert Game.from_board(Board()).result == "*"
    # What the caller says stands.
    assert Game.from_board(board, result="0-1").result == "0-1"


# --- A bad token loses the whole game ------------------------------------


def test_a_bad_token_keeps_the_headers_and_the_moves_before_it() -> None:
    text = '[Event "e"]\n[Red "A"]\n\n1. h2e2 h9g7 2. ###garbage###\n\n[Event "next"]\n\n1. h2e2 *\n'
    games = list(xiangqi.pgn.read_games(text.encode()))
    assert len(games) == 2
    first = games[0]
    assert dict(first.headers) == {"Event": "e", "Red": "A"}
    assert [str(m) for m in first.moves] == ["h2e2", "h9g7"]
    assert len(first.errors) == 1 and "###garbage###" in first.errors[0].message
    assert first.errors[0].ply == 3
    assert games[1].headers["Event"] == "next" and len(games[1]) == 1
    with pytest.raises(xiangqi.PgnError, match="garbage"):
        next(xiangqi.pgn.read_games(text.encode(), strict=True))


# --- Gaps: board editing --------------------------------------------------


def test_empty_board_is_built_piece_by_piece() -> None:
    board = Board.empty()
    assert board.piece_map() == {} and board.fen().startswith("9/9/9/9/9/9/9/9/9/9 w")
    assert not board.is_valid() and xiangqi.Status.MISSING_GENERAL in board.status()
    with pytest.raises(xiangqi.InvalidFenError, match="no general"):
        board.is_check()
    with pytest.raises(xiangqi.InvalidFenError, match="status"):
        len(board.legal_moves)
    board.set_piece_at(xiangqi.E0, xiangqi.Piece.from_symbol("K"))
    board.set_piece_at("d9", xiangqi.Piece.from_symbol("k"))
    board.set_piece_at(xiangqi.I5, xiangqi.Piece.from_symbol("R"))
    assert board.is_valid() and board.status() == xiangqi.STATUS_VALID
    assert board.fen() == "3k5/9/9/9/8R/9/9/9/9/4K4 w - - 0 1"
    assert "i5d5" in board.legal_moves
    board.push_iccs("i5d5")
    assert board.is_check()


def test_remove_piece_at_and_clear() -> None:
    board = Board()
    board.push_iccs("h2e2")
    removed = board.remove_piece_at(xiangqi.A0)
    assert removed == xiangqi.Piece.from_symbol("R") and board.piece_at(xiangqi.A0) is None
    assert board.move_stack == (), "an edit starts the board anew"
    assert board.remove_piece_at(xiangqi.A0) is None
    board.clear()
    assert board.piece_map() == {} and board.turn == xiangqi.RED


def test_piece_map_round_trip() -> None:
    board = Board()
    pieces = board.piece_map()
    assert len(pieces) == 32 and pieces[xiangqi.E0] == xiangqi.Piece.from_symbol("K")
    other = Board.empty()
    other.set_piece_map(pieces)
    assert other == board and other.is_valid()
    other.set_piece_map({"e0": xiangqi.Piece.from_symbol("K"), "e9": xiangqi.Piece.from_symbol("k")})
    assert len(other.piece_map()) == 2
    assert xiangqi.Status.GENERALS_FACING in other.status()
    assert any("face each other" in p for p in other.problems())


def test_turn_setter_edits_the_board() -> None:
    board = Board()
    board.turn = xiangqi.BLACK
    assert board.turn == xiangqi.BLACK and board.fen().split()[1] == "b"
    assert "h7e7" in board.legal_moves
    # Red to move while Black's general is in check: the rules refuse it.
    mate = Board("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")
    mate.turn = xiangqi.RED
    assert xiangqi.Status.OPPONENT_IN_CHECK in mate.status()
    with pytest.raises(xiangqi.InvalidFenError, match="in check"):
        mate.push_iccs("d0d1")


def test_status_of_a_finished_mate_diagram_is_both_in_check() -> None:
    # Both generals attacked: a manual's drawing of a mate (core's Diagram).
    board = Board.empty()
    for square, symbol in {"e0": "K", "e9": "k", "e1": "r", "e8": "R"}.items():
        board.set_piece_at(square, xiangqi.Piece.from_symbol(symbol))
    assert board.status() & xiangqi.Status.BOTH_IN_CHECK
    assert not board.is_valid()


def test_strict_and_lenient_status() -> None:
    board = Board("3k5/9/9/9/9/9/9/9/P8/4K4 w - - 0 1", lenient=True)
    assert xiangqi.Status.UNREACHABLE_SQUARE in board.status()
    assert board.is_valid(lenient=True) and not board.is_valid()
    assert any("a1" in problem for problem in board.problems())


def test_edited_board_pickles() -> None:
    import pickle

    board = Board.empty()
    board.set_piece_at("e0", xiangqi.Piece.from_symbol("K"))
    again = pickle.loads(pickle.dumps(board))
    assert again.fen() == board.fen() and not again.is_valid()


# --- Gaps: legal moves as a view -----------------------------------------


def test_legal_moves_view_counts_contains_iterates() -> None:
    board = Board()
    moves = board.legal_moves
    assert moves.count() == len(moves) == 44 and bool(moves)
    assert xiangqi.Move.from_iccs("h2e2") in moves and "h2e2" in moves
    assert "a0a5" not in moves and 42 not in moves
    assert len(list(moves)) == 44 and moves[0] in moves
    with pytest.raises(xiangqi.InvalidMoveError):
        "e4" in moves  # noqa: B015 - a chess square is no ICCS move
    board.push_iccs("h2e2")
    assert "h9g7" in moves, "the view follows the board"
    mated = Board("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1")
    assert not mated.legal_moves and mated.legal_moves.count() == 0


# --- Gaps: the game tree -------------------------------------------------

TREE = '1. h2e2 {main} h9g7 (1... {the other knight} b9c7 2. h0g2) 2. h0g2 i9h9 *'


def test_node_parent_is_the_same_object() -> None:
    game = Game.from_pgn(TREE)
    node = game.variations[0].variations[1]
    assert node.parent is node.parent
    first = game.variations[0]
    assert first.variations[0].parent is first and first.variations[1] is first.variations[1]


def test_next_end_and_mainline_moves() -> None:
    game = Game.from_pgn(TREE)
    first = game.variations[0]
    nxt = first.next()
    assert nxt is not None and str(nxt.move) == "h9g7" and nxt is first.variations[0]
    end = first.end()
    assert str(end.move) == "i9h9" and end.next() is None and end.end() is end
    assert [str(m) for m in game.mainline_moves()] == ["h2e2", "h9g7", "h0g2", "i9h9"]
    assert [str(m) for m in first.mainline_moves()] == ["h9g7", "h0g2", "i9h9"]


def test_variation_by_index_and_move() -> None:
    game = Game.from_pgn(TREE)
    first = game.variations[0]
    other = first.variation(1)
    assert str(other.move) == "b9c7" and first.variation("b9c7") is other
    assert first.variation(xiangqi.Move.from_iccs("h9g7")) is first.variation(0)
    assert first.has_variation("b9c7") and not first.has_variation("a9a8")
    with pytest.raises(IndexError):
        first.variation(2)
    with pytest.raises(KeyError):
        first.variation("a9a8")


def test_is_mainline_and_main_variation() -> None:
    game = Game.from_pgn(TREE)
    first = game.variations[0]
    other = first.variation(1)
    assert first.is_mainline() and first.is_main_variation()
    assert not other.is_mainline() and not other.is_main_variation()
    assert not other.variation(0).is_mainline() and other.variation(0).is_main_variation()


def test_starting_comment() -> None:
    game = Game.from_pgn(TREE)
    other = game.variations[0].variation(1)
    assert other.starting_comment == "the other knight"
    other.starting_comment = "edited"
    assert "{edited}" in game.to_pgn() and "the other knight" not in game.to_pgn()
    assert game.variations[0].starting_comment == ""
    with pytest.raises(ValueError, match="starts a variation"):
        game.variations[0].starting_comment = "nowhere to go"


def test_turn_ply_board_san_in_the_games_notation() -> None:
    game = Game.from_pgn(TREE)
    node = game.variations[0].variation(1)
    assert node.turn() == xiangqi.RED and node.ply() == 2
    assert node.board().move_stack == (xiangqi.Move.from_iccs("h2e2"), xiangqi.Move.from_iccs("b9c7"))
    assert node.san() == "b9c7", "the game was read in ICCS"
    assert node.san("wxf") == "H2+3" and node.san("chinese") == "马2进3"
    chinese = Game.from_pgn("1. 炮二平五 马８进７ *")
    assert chinese.variations[0].san() == "炮二平五"
    with pytest.raises(ValueError, match="root"):
        game.root().san()


def test_promote_demote_and_remove_keep_each_node_with_its_move() -> None:
    game = Game.from_pgn("1. h2e2 h9g7 (1... b9c7 2. h0g2) (1... c6c5) 2. h0g2 *")
    first = game.variations[0]
    main, knight, pawn = first.variations
    deep = knight.variation(0)
    knight.promote_to_main()
    assert first.variations == (knight, main, pawn) and first.variations[0] is knight
    assert [str(m) for m in game.mainline_moves()] == ["h2e2", "b9c7", "h0g2"]
    assert str(deep.move) == "h0g2" and deep.parent is knight and deep.ply() == 3
    assert knight.is_mainline() and not main.is_mainline()
    pawn.promote()
    assert [str(n.move) for n in first.variations] == ["b9c7", "c6c5", "h9g7"]
    pawn.demote()
    assert [str(n.move) for n in first.variations] == ["b9c7", "h9g7", "c6c5"]
    knight.promote()  # the main continuation already: nothing
    first.remove_variation("h9g7")
    assert [str(n.move) for n in first.variations] == ["b9c7", "c6c5"]
    with pytest.raises(ValueError, match="not in its game"):
        main.board()
    first.remove_variation(knight)
    assert [str(m) for m in game.mainline_moves()] == ["h2e2", "c6c5"] and pawn.is_mainline()
    with pytest.raises(KeyError):
        first.remove_variation("a9a8")


def test_add_main_variation() -> None:
    game = Game.from_pgn("1. h2e2 h9g7 *")
    first = game.variations[0]
    old = first.variations[0]
    new = first.add_main_variation("b9c7", comment="the other knight")
    assert first.variations == (new, old) and new.comment == "the other knight"
    assert "1. h2e2 b9c7 {the other knight} (1... h9g7)" in game.to_pgn()
    start = game.add_main_variation("b2e2")
    assert game.variations[0] is start and [str(m) for m in game.mainline_moves()] == ["b2e2"]
    game.remove_variation(start)
    assert [str(m) for m in game.mainline_moves()] == ["h2e2", "b9c7"]
    assert game.root() is game.root() and game.variations[0].parent is game.root()


def test_read_game_one_at_a_time(tmp_path: Path) -> None:
    import io

    text = PGN + '\n[Event "second"]\n\n1. b2e2 *\n'
    handle = io.StringIO(text)
    first = xiangqi.pgn.read_game(handle)
    second = xiangqi.pgn.read_game(handle)
    assert first is not None and first.headers["Event"] == "x"
    assert second is not None and second.headers["Event"] == "second"
    assert xiangqi.pgn.read_game(handle) is None
    path = tmp_path / "two.pgn"
    path.write_text(text, encoding="utf-8")
    with open(path, encoding="utf-8") as f:
        events = []
        while (headers := xiangqi.pgn.read_headers(f)) is not None:
            events.append(headers["Event"])
    assert events == ["x", "second"]


def test_visitor_reads_in_file_order_and_skips() -> None:
    import io

    class Collect(xiangqi.pgn.BaseVisitor[list[str]]):
        def __init__(self) -> None:
            self.seen: list[str] = []

        def visit_header(self, tagname: str, tagvalue: str) -> None:
            self.seen.append(f"{tagname}={tagvalue}")

        def visit_move(self, board: Board, move: xiangqi.Move) -> None:
            self.seen.append(board.san(move, "iccs"))

        def visit_comment(self, comment: str) -> None:
            self.seen.append("{" + comment + "}")

        def visit_nag(self, nag: int) -> None:
            self.seen.append(f"${nag}")

        def begin_variation(self) -> None:
            self.seen.append("(")

        def end_variation(self) -> None:
            self.seen.append(")")

        def visit_result(self, result: str) -> None:
            self.seen.append(result)

        def result(self) -> list[str]:
            return self.seen

    text = '[Event "e"]\n\n1. h2e2 $1 {centre} h9g7 ({other} 1... b9c7 2. h0g2) 2. h0g2 1-0\n'
    seen = xiangqi.pgn.read_game(io.StringIO(text), Visitor=Collect)
    assert seen == ["Event=e", "h2e2", "$1", "{centre}", "h9g7", "(", "{other}", "b9c7", "h0g2", ")", "h0g2", "1-0"]

    class HeadersOnly(Collect):
        def end_headers(self) -> xiangqi.pgn.SkipType:
            return xiangqi.pgn.SKIP

    assert xiangqi.pgn.read_game(io.StringIO(text), Visitor=HeadersOnly) == ["Event=e", "1-0"]
    assert xiangqi.pgn.read_game(io.StringIO(""), Visitor=Collect) is None


# --- Gaps: the engine API ------------------------------------------------


def test_scores_compare_and_sort() -> None:
    from xiangqi.engine import Cp, Mate

    assert Cp(20) > Cp(-5) and Mate(1) > Mate(3) > Cp(5000) > Cp(-5000) > Mate(-3) > Mate(0)
    assert sorted([Mate(2), Cp(0), Mate(-1), Cp(-30)]) == [Mate(-1), Cp(-30), Cp(0), Mate(2)]
    assert max([Cp(10), Cp(300)]) == Cp(300) and Cp(35) == xiangqi.Score(cp=35)
    assert -Mate(2) == Mate(-2)
    with pytest.raises(ValueError, match="exactly one"):
        xiangqi.Score(cp=1, mate=2)


def test_pov_score_views() -> None:
    from xiangqi.engine import Cp, PovScore

    pov = PovScore(Cp(40), xiangqi.BLACK)
    assert pov.relative == Cp(40) and pov.black() == Cp(40) and pov.red() == Cp(-40)
    win, draw, loss = pov.wdl(ply=20)
    assert win + draw + loss == 1000 and win > loss
    assert pov.red().wdl(ply=20) == (loss, draw, win)


def test_info_is_a_mapping_too() -> None:
    with xiangqi.engine.SimpleEngine.builtin() as engine:
        info = engine.analyse(Board(), xiangqi.engine.Limit(depth=3))
    assert info["score"] == info.score and info["depth"] == 3 and info.get("depth") == 3
    assert "score" in info and "pv" in info and "nosuchkey" not in info
    assert info.get("nosuchkey", 7) == 7 and "wdl" in info.keys()
    with pytest.raises(KeyError):
        info["nosuchkey"]
    assert info.wdl is not None and sum(info.wdl) == 1000
    assert info.score is not None and info.wdl == info.score.wdl(ply=0)


def test_multipv_zero_is_an_error() -> None:
    with xiangqi.engine.SimpleEngine.builtin() as engine:
        with pytest.raises(ValueError, match="multipv 0"):
            engine.analyse(Board(), xiangqi.engine.Limit(depth=1), multipv=0)
        assert len(engine.analyse(Board(), xiangqi.engine.Limit(depth=2), multipv=2)) == 2


def test_streaming_analysis() -> None:
    with xiangqi.engine.SimpleEngine.builtin() as engine:
        analysis = engine.analysis(Board(), xiangqi.engine.Limit(depth=4))
        depths = [info.depth for info in analysis]
        assert depths == [1, 2, 3, 4], "one report per completed depth, as they come"
        result = analysis.wait()
        assert analysis.done() and analysis.info is not None and analysis.info.depth == 4
        assert result.best_move in Board().legal_moves
        # stop() ends a long search early, with a move.
        with engine.analysis(Board(), xiangqi.engine.Limit(depth=60)) as running:
            first = next(running)
            assert first.depth == 1
            running.stop()
            assert running.wait().best_move in Board().legal_moves
        # The engine is free again afterwards.
        assert engine.analyse(Board(), xiangqi.engine.Limit(depth=1)).depth == 1


def test_async_engine() -> None:
    import asyncio

    async def main() -> tuple[object, object]:
        engine = await xiangqi.engine.AsyncEngine.builtin()
        try:
            info = await engine.analyse(Board(), xiangqi.engine.Limit(depth=2))
            played = await engine.play(Board(), xiangqi.engine.Limit(depth=2))
        finally:
            await engine.quit()
        return info, played

    info, played = asyncio.run(main())
    assert isinstance(info, xiangqi.engine.EngineInfo) and info.depth == 2
    assert isinstance(played, xiangqi.engine.PlayResult)
    assert asyncio.iscoroutinefunction(xiangqi.engine.popen_uci)


def test_analysis_and_async_popen_of_an_external_engine(xiangqi_cli: str) -> None:
    import asyncio

    with xiangqi.engine.SimpleEngine.popen_uci([xiangqi_cli, "uci", "--hash", "4"]) as engine:
        with engine.analysis(Board(), xiangqi.engine.Limit(depth=3), multipv=2) as analysis:
            lines = list(analysis)
            assert lines and {info.multipv for info in lines} == {1, 2}
            assert analysis.info is not None and analysis.info.multipv == 1
            assert len(analysis.multipv) == 2 and analysis.wait().best_move in Board().legal_moves

    async def main() -> xiangqi.engine.PlayResult:
        engine = await xiangqi.engine.popen_uci([xiangqi_cli, "uci", "--hash", "4"])
        try:
            return await engine.play(Board(), xiangqi.engine.Limit(depth=2))
        finally:
            await engine.quit()

    assert asyncio.run(main()).move in Board().legal_moves


def test_limit_parts_combine_and_the_first_reached_ends_the_search(xiangqi_cli: str) -> None:
    limit = xiangqi.engine.Limit(depth=30, time=0.2)
    with xiangqi.engine.SimpleEngine.builtin() as engine:
        info = engine.analyse(Board(), limit)
        assert info.depth is not None and info.depth < 30
    # The same limit reaches an external UCI engine as one `go`.
    with xiangqi.engine.SimpleEngine.popen_uci([xiangqi_cli, "uci", "--hash", "4"]) as engine:
        info = engine.analyse(Board(), limit)
        assert info.depth is not None and info.depth < 30


def test_limit_clocks_let_the_engine_manage_its_time(xiangqi_cli: str) -> None:
    # Red to move with a tenth of a second left: the engine answers at once.
    short = xiangqi.engine.Limit(red_clock=0.1, black_clock=300, red_inc=0, black_inc=2)
    with xiangqi.engine.SimpleEngine.builtin() as engine:
        assert engine.play(Board(), short).move in Board().legal_moves
    with xiangqi.engine.SimpleEngine.popen_uci([xiangqi_cli, "uci", "--hash", "4"]) as engine:
        assert engine.play(Board(), short).move in Board().legal_moves
    # UCCI sends the mover's clock and the opponent's.
    with xiangqi.engine.SimpleEngine.popen_ucci([xiangqi_cli, "ucci", "--hash", "4"]) as engine:
        assert engine.play(Board(), short).move in Board().legal_moves


def test_limit_takes_python_chess_white_spellings_for_red() -> None:
    Limit = xiangqi.engine.Limit
    chess_style = Limit(white_clock=5.0, black_clock=4.0, white_inc=1.0, black_inc=0.5)
    assert chess_style == Limit(red_clock=5.0, black_clock=4.0, red_inc=1.0, black_inc=0.5)
    assert chess_style.white_clock == chess_style.red_clock == 5.0 and chess_style.white_inc == 1.0
    with pytest.raises(ValueError, match="white_clock"):
        Limit(red_clock=5.0, white_clock=5.0)


def test_limit_mate_searches_for_a_mate() -> None:
    with xiangqi.engine.SimpleEngine.builtin() as engine:
        info = engine.analyse(Board("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1"), xiangqi.engine.Limit(mate=1))
    assert info.score is not None and info.score.relative == xiangqi.engine.Mate(1)
    assert info.pv[0] == xiangqi.Move.from_iccs("i5f5")


def test_empty_or_negative_limit_is_a_value_error_naming_the_field() -> None:
    Limit = xiangqi.engine.Limit
    with pytest.raises(ValueError, match="give a limit"):
        Limit()
    with pytest.raises(ValueError, match="red_clock"):
        Limit(red_clock=-1)
    for field in ["time", "depth", "nodes", "mate", "black_clock", "remaining_moves"]:
        with pytest.raises(ValueError, match=field):
            Limit(red_clock=1.0, **{field: -1})
    with pytest.raises(ValueError, match="black_inc"):
        Limit(red_clock=1.0, black_inc=-0.5)
    with pytest.raises(ValueError, match="red_inc needs a clock"):
        Limit(red_inc=1.0)


# --- Gaps: smaller ---------------------------------------------------------


def test_range_messages_say_0_to_89() -> None:
    with pytest.raises(ValueError, match="square index 90 is not in 0 to 89"):
        xiangqi.Square(90)
    with pytest.raises(ValueError, match="not in 0 to 2085"):
        xiangqi.decode_move(xiangqi.MOVE_ENCODING_SIZE)


def test_help_board_lists_the_orderings_that_raise() -> None:
    import pydoc

    text = pydoc.render_doc(Board, renderer=pydoc.plaintext)
    assert "Orderings that raise" in text and "IndexError" in text and "InvalidFenError" in text


def test_docstrings_point_to_the_shipped_guide() -> None:
    assert xiangqi.GUIDE.is_file() and "## Boards" in xiangqi.GUIDE.read_text(encoding="utf-8")
    assert "xiangqi.GUIDE" in (xiangqi.__doc__ or "")
    assert (xiangqi.GUIDE.parent / "engine-client.md").is_file()
    package = Path(xiangqi.__file__).parent
    for source in package.glob("*.py"):
        assert "docs/python.md" not in source.read_text(encoding="utf-8").replace("the project's docs/python.md", ""), source


# --- mypy --strict on the documented import ------------------------------


def test_all_is_static() -> None:
    import ast

    tree = ast.parse(Path(xiangqi.__file__).read_text(encoding="utf-8"))
    assigned = [
        n.value
        for n in tree.body
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)
    ]
    assert len(assigned) == 1 and isinstance(assigned[0], ast.List)
    assert all(isinstance(e, ast.Constant) for e in assigned[0].elts)
    assert sorted(xiangqi.__all__) == sorted(set(xiangqi.__all__))
    assert all(hasattr(xiangqi, name) for name in xiangqi.__all__)


def _tool(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(
            f"{module} could not be installed into this environment "
            "(bindings/python/requirements-test.txt lists it; `cargo xtask test` installs it)"
        )


def test_mypy_strict_accepts_the_typed_example() -> None:
    _tool("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(EXAMPLE)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyright_accepts_the_typed_example() -> None:
    _tool("pyright")
    result = subprocess.run(
        [sys.executable, "-m", "pyright", "--pythonpath", sys.executable, str(EXAMPLE)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 errors" in result.stdout, result.stdout


def test_the_typed_example_runs() -> None:
    result = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("1-0 checkmate Typed example")
