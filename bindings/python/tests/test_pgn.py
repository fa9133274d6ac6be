"""PGN: lazy reading from every kind of source, games, round trips, errors."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import pytest

import xiangqi
import xiangqi.pgn
from xiangqi import Board, Move


def test_read_games_from_a_path(sample_pgn: Path) -> None:
    games = xiangqi.pgn.read_games(str(sample_pgn))
    first = next(games)
    assert first.headers["Red"] == "Lü Qin" and first.headers["Round"] == "1"
    assert [str(m) for m in first.moves] == ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
    assert first.result == "1-0" and first.notation == "chinese" and len(first) == 6
    assert first.comments[0] == "A central cannon opening."
    assert first.comments[2] == "the screen horse" and first.comments[1] == ""
    assert first.start_board() == Board()
    end = first.board()
    assert len(end.move_stack) == 6 and end.root() == Board()
    rest = list(games)
    assert [g.headers.get("Round") for g in rest] == ["2", None]
    assert rest[0].notation == "wxf" and rest[0].moves[-1] == Move.from_iccs("h7h3")
    study = rest[1]
    assert study.start_board().fen() == "4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1"
    verdict = study.adjudicate(rules="asian")
    assert (verdict.outcome, verdict.reason, verdict.ply) == ("black", "perpetual_check", 9)
    assert verdict.winner == xiangqi.BLACK and verdict.result == "0-1"


@pytest.mark.parametrize("mode", ["path", "pathlib", "text", "binary", "bytes", "stringio"])
def test_every_kind_of_source(sample_pgn: Path, mode: str) -> None:
    data = sample_pgn.read_bytes()
    source: object = {
        "path": str(sample_pgn),
        "pathlib": sample_pgn,
        "bytes": data,
        "stringio": io.StringIO(data.decode("utf-8")),
    }.get(mode)
    if mode == "text":
        source = sample_pgn.open(encoding="utf-8")
    elif mode == "binary":
        source = sample_pgn.open("rb")
    games = list(xiangqi.pgn.read_games(source))  # type: ignore[arg-type]
    assert [len(g) for g in games] == [6, 6, 9]
    assert games[0].headers["Black"] == "Xu Yinchuan"


def test_gbk_files_are_read(tmp_path: Path, sample_pgn: Path) -> None:
    path = tmp_path / "gbk.pgn"
    text = sample_pgn.read_text(encoding="utf-8").replace("Lü Qin", "吕钦")
    path.write_bytes(text.encode("gbk"))
    first = next(xiangqi.pgn.read_games(path))
    assert first.headers["Red"] == "吕钦" and len(first) == 6


def test_reading_is_lazy(sample_pgn: Path) -> None:
    game_text = sample_pgn.read_text(encoding="utf-8").split("\n\n[Game")[0] + "\n\n"
    big = game_text * 10000

    class CountingReader(io.BytesIO):
        consumed = 0

        def read(self, n: int = -1) -> bytes:  # type: ignore[override]
            chunk = super().read(n)
            CountingReader.consumed += len(chunk)
            return chunk

    source = CountingReader(big.encode("utf-8"))
    games = xiangqi.pgn.read_games(source)
    assert len(next(games)) == 6
    # One buffer (64 KiB), not the whole 2.5 MB, is read for the first game.
    assert CountingReader.consumed <= 128 * 1024 < len(big.encode("utf-8")) // 10
    assert sum(1 for _ in games) == 9999


def test_round_trip_in_every_notation(sample_pgn: Path) -> None:
    for game in xiangqi.pgn.read_games(sample_pgn):
        for notation in xiangqi.NOTATIONS:
            text = game.to_pgn(notation=notation)  # type: ignore[arg-type]
            again = xiangqi.pgn.Game.from_pgn(text)
            assert again.moves == game.moves, notation
            assert again.notation == notation
            assert again.result == game.result
            assert again.comments == game.comments
    traditional = next(xiangqi.pgn.read_games(sample_pgn)).to_pgn(notation="chinese", simplified=False)
    assert "傌二進三" in traditional


def test_game_from_board_and_pickle() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    board.push_iccs("e0d0")
    game = xiangqi.pgn.Game.from_board(board, headers={"Event": "test"}, result="*")
    assert game.headers["FEN"] == "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1"
    assert game.board() == board and game.moves == board.move_stack
    game.set_header("Red", "me")
    clone = pickle.loads(pickle.dumps(game))
    assert clone.headers == game.headers and clone.moves == game.moves
    assert "Event" in game.to_pgn() and repr(game).startswith('<Game "me"')
    plain = xiangqi.pgn.Game.from_board(board)
    assert plain.result == "*" and plain.to_pgn().rstrip().endswith("*")
    assert xiangqi.pgn.Game.from_board(board, result="1-0").headers["Result"] == "1-0"
    tagged = xiangqi.pgn.Game.from_board(board, headers={"Result": "0-1"})
    assert tagged.result == "0-1" and tagged.to_pgn().rstrip().endswith("0-1")
    with pytest.raises(ValueError):
        xiangqi.pgn.Game.from_board(board, headers={"Result": "junk"})
    with pytest.raises(ValueError):
        xiangqi.pgn.Game.from_board(board, result="2-0")


def test_errors(tmp_path: Path, sample_pgn: Path) -> None:
    broken = tmp_path / "broken.pgn"
    good = sample_pgn.read_text(encoding="utf-8")
    broken.write_text(
        '[Event "bad"]\n\n1. h2e2 h2e2 *\n\n' + good, encoding="utf-8"
    )
    # 2... h2e2 names no black piece: the game keeps its first move, and
    # its error says where; the loop goes on with the next games.
    games = list(xiangqi.pgn.read_games(broken))
    assert [len(g) for g in games] == [1, 6, 6, 9]
    [cut] = games[0].errors
    assert isinstance(cut, xiangqi.PgnError)
    assert (cut.game, cut.ply, cut.line, cut.column) == (1, 2, 3, 9)
    assert "game 1, line 3" in str(cut)
    assert all(not g.errors for g in games[1:])
    # Strict reading raises at it, as reading did before.
    strict = xiangqi.pgn.read_games(broken, strict=True)
    with pytest.raises(xiangqi.PgnError, match=r"game 1, line 3"):
        next(strict)
    assert [len(g) for g in strict] == [6, 6, 9]
    assert [len(g) for g in xiangqi.pgn.read_games(broken, strict=True, errors="skip")] == [6, 6, 9]
    with pytest.raises(OSError):
        xiangqi.pgn.read_games(tmp_path / "missing.pgn")
    with pytest.raises(TypeError):
        xiangqi.pgn.read_games(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        xiangqi.pgn.read_games(broken, errors="ignore")  # type: ignore[arg-type]
    with pytest.raises(xiangqi.PgnError):
        xiangqi.pgn.Game.from_pgn("")
    with pytest.raises(xiangqi.PgnError):
        xiangqi.pgn.Game.from_pgn('[FEN "junk"]\n\n1. h2e2 *')
    assert issubclass(xiangqi.PgnError, ValueError)
