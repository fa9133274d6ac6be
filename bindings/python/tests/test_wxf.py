"""WXF game files (FORMAT WXF … START{ … }END): reading from every kind of
source, format detection, writing, round trips through PGN, errors."""

from __future__ import annotations

import io
import pickle
from pathlib import Path
from typing import List

import pytest

import xiangqi
import xiangqi.pgn
from xiangqi import Board

FIRST_MOVES = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]


def iccs(game: xiangqi.pgn.Game) -> List[str]:
    return [str(m) for m in game.moves]


def test_wxf_sample_is_read_whole(sample_wxf: Path) -> None:
    first, second, study = xiangqi.pgn.read_games(sample_wxf)
    assert first.headers == {
        "Game": "Chinese Chess", "Event": "Sample match", "Round": "1",
        "Red": "Lü Qin", "RedElo": "2650", "Black": "Xu Yinchuan", "BlackElo": "2600",
        "Result": "1-0",
    }
    assert iccs(first) == FIRST_MOVES and first.notation == "wxf" and first.result == "1-0"
    assert first.comments[0] == "A central cannon opening."
    assert first.comments[2] == "the screen horse" and first.comments[1] == ""
    # XieXie's shape: tabs after the keys, Black in upper case, `=` for sideways moves.
    assert second.headers["Red"] == "Xu Yinchuan" and "RedElo" not in second.headers
    assert iccs(second) == FIRST_MOVES[:5] + ["h7h3"] and second.result == "0-1"
    assert study.headers["FEN"] == "4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1"
    assert study.start_board().fen() == "4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1"
    verdict = study.adjudicate(rules="asian")
    assert (verdict.outcome, verdict.reason, verdict.ply) == ("black", "perpetual_check", 9)


@pytest.mark.parametrize("mode", ["bytes", "path", "pathlib", "text", "binary", "stringio"])
def test_wxf_every_kind_of_source(sample_wxf: Path, mode: str) -> None:
    data = sample_wxf.read_bytes()
    source: object = {
        "bytes": data,
        "path": str(sample_wxf),
        "pathlib": sample_wxf,
        "stringio": io.StringIO(data.decode("utf-8")),
    }.get(mode)
    if mode == "text":
        source = sample_wxf.open(encoding="utf-8")
    elif mode == "binary":
        source = sample_wxf.open("rb")
    games = list(xiangqi.pgn.read_games(source))  # type: ignore[arg-type]
    assert [len(g) for g in games] == [6, 6, 9]
    assert [g.notation for g in games] == ["wxf"] * 3
    assert games[0].headers["Black"] == "Xu Yinchuan" and iccs(games[0]) == FIRST_MOVES


def test_wxf_gbk_file_is_read(tmp_path: Path, sample_wxf: Path) -> None:
    path = tmp_path / "gbk.wxf"
    path.write_bytes(sample_wxf.read_text(encoding="utf-8").replace("Lü Qin", "吕钦").encode("gbk"))
    games = list(xiangqi.pgn.read_games(path))
    assert games[0].headers["Red"] == "吕钦" and games[1].headers["Black"] == "吕钦"
    assert [len(g) for g in games] == [6, 6, 9]


def test_wxf_format_is_detected_both_ways(sample_wxf: Path, sample_pgn: Path) -> None:
    wxf, pgn = sample_wxf.read_bytes(), sample_pgn.read_bytes()
    assert [g.notation for g in xiangqi.pgn.read_games(wxf)] == ["wxf"] * 3
    # PGN games in sample.pgn carry their own notations: not read as a WXF file.
    assert [g.notation for g in xiangqi.pgn.read_games(pgn)] == ["chinese", "wxf", "iccs"]
    # Blank lines and a byte-order mark before the FORMAT line.
    padded = b"\xef\xbb\xbf\n  \r\n\t\n" + wxf
    assert [len(g) for g in xiangqi.pgn.read_games(padded, format="auto")] == [6, 6, 9]
    # Detection reads ahead without consuming: a file object gives every game.
    assert [len(g) for g in xiangqi.pgn.read_games(io.BytesIO(padded))] == [6, 6, 9]
    assert [len(g) for g in xiangqi.pgn.read_games(wxf, format="wxf")] == [6, 6, 9]
    assert [len(g) for g in xiangqi.pgn.read_games(pgn, format="pgn")] == [6, 6, 9]
    assert list(xiangqi.pgn.read_games(b"", format="auto")) == []
    assert list(xiangqi.pgn.read_games(b"", format="wxf")) == []


def test_wxf_file_read_as_pgn_is_an_error(sample_wxf: Path, sample_pgn: Path) -> None:
    with pytest.raises(xiangqi.PgnError) as caught:
        next(xiangqi.pgn.read_games(sample_wxf, format="pgn", errors="raise"))
    assert (caught.value.game, caught.value.line, caught.value.column) == (1, 1, 1)
    assert "FORMAT" in caught.value.message
    with pytest.raises(xiangqi.PgnError) as caught:
        next(xiangqi.pgn.read_games(sample_pgn, format="wxf", errors="raise"))
    assert caught.value.game == 1 and caught.value.line == 1
    assert str(caught.value).startswith("game 1, line 1, column 1: ")
    # Kept (the default), the same game comes out without moves and says why.
    unread = next(xiangqi.pgn.read_games(sample_wxf, format="pgn"))
    assert len(unread) == 0 and "FORMAT" in unread.errors[0].message


def test_wxf_reading_is_lazy(sample_wxf: Path) -> None:
    game_text = sample_wxf.read_text(encoding="utf-8").split("\n\n")[0] + "\n\n"
    big = (game_text * 10000).encode("utf-8")

    class CountingReader(io.BytesIO):
        consumed = 0

        def read(self, n: int = -1) -> bytes:  # type: ignore[override]
            chunk = super().read(n)
            CountingReader.consumed += len(chunk)
            return chunk

    games = xiangqi.pgn.read_games(CountingReader(big))
    assert iccs(next(games)) == FIRST_MOVES
    # One buffer (64 KiB, also used for detection), not the whole 2.5 MB.
    assert CountingReader.consumed <= 128 * 1024 < len(big) // 10
    assert sum(1 for _ in games) == 9999


@pytest.mark.parametrize("style", ["official", "fsf"])
@pytest.mark.parametrize("moves_per_line", [None, 0, 1, 5])
def test_wxf_round_trip_from_pgn(
    sample_pgn: Path, style: str, moves_per_line: "int | None"
) -> None:
    for game in xiangqi.pgn.read_games(sample_pgn):
        text = game.to_wxf(style=style, moves_per_line=moves_per_line)  # type: ignore[arg-type]
        assert text.startswith("FORMAT  WXF\n") and text.endswith("}END\n")
        assert ("WXFSTYLE fsf\n" in text) == (style == "fsf")
        (again,) = xiangqi.pgn.read_games(text.encode("utf-8"), format="wxf")
        assert again.moves == game.moves
        assert again.headers == game.headers
        assert again.result == game.result and again.comments == game.comments
        assert again.notation == "wxf"
        assert xiangqi.pgn.Game.from_wxf(text).moves == game.moves
        # Back to PGN: the same game again.
        assert xiangqi.pgn.Game.from_pgn(again.to_pgn()).moves == game.moves


def test_wxf_writing_shapes(sample_wxf: Path) -> None:
    first = next(xiangqi.pgn.read_games(sample_wxf))
    assert first.to_wxf() == sample_wxf.read_text(encoding="utf-8").split("\n\n")[0].replace(
        "h2+3 1-0", "h2+3"
    ) + "\n"
    one_line = xiangqi.pgn.Game.from_pgn("1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. c3c4 *")
    assert " 1. C2.5 h8+7   2. H2+3 r9.8   3. R1.2 h2+3   4. P7+1\n" in one_line.to_wxf(
        moves_per_line=0
    )
    assert " 1. C2.5 h8+7\n 2. H2+3 r9.8\n" in one_line.to_wxf(moves_per_line=1)
    annotated = xiangqi.pgn.Game.from_pgn("1. h2e2 $1 h9g7 $6 *")
    text = annotated.to_wxf()
    assert " 1. C2.5! h8+7?!\n" in text
    assert xiangqi.pgn.Game.from_wxf(text).moves == annotated.moves


def test_wxf_game_pickles_and_exports(sample_wxf: Path) -> None:
    study = list(xiangqi.pgn.read_games(sample_wxf))[2]
    clone = pickle.loads(pickle.dumps(study))
    assert clone.moves == study.moves and clone.headers == study.headers
    assert clone.board() == study.board() and study.board().root() == Board(
        "4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1"
    )


def test_to_wxf_refuses_what_the_format_cannot_hold() -> None:
    varied = xiangqi.pgn.Game.from_pgn("1. h2e2 (1. b2e2 h9g7) h9g7 2. h0g2 $14 *")
    with pytest.raises(ValueError, match=r"ply 1 has variations"):
        varied.to_wxf()
    dropped = varied.to_wxf(drop_variations=True)
    # Exactly the main line's file: no trace of the variation (C8.5) or of $14.
    assert dropped == xiangqi.pgn.Game.from_pgn("1. h2e2 h9g7 2. h0g2 *").to_wxf()
    assert iccs(xiangqi.pgn.Game.from_wxf(dropped)) == ["h2e2", "h9g7", "h0g2"]
    nags = xiangqi.pgn.Game.from_pgn("1. h2e2 $14 *")
    with pytest.raises(ValueError, match=r"ply 1: annotations \[14\]"):
        nags.to_wxf()
    assert " 1. C2.5\n" in nags.to_wxf(drop_variations=True)
    tagged = xiangqi.pgn.Game.from_pgn("1. h2e2 *")
    tagged.set_header("Event", "two\nlines")
    with pytest.raises(ValueError, match=r'tag "Event" cannot be written as a WXF header'):
        tagged.to_wxf()
    reserved = xiangqi.pgn.Game.from_pgn("1. h2e2 *")
    reserved.set_header("WXFStyle", "fsf")
    with pytest.raises(ValueError, match=r"reserved"):
        reserved.to_wxf()
    braced = xiangqi.pgn.Game.from_pgn("1. h2e2 ; a } in a line comment\nh9g7 *")
    assert braced.comments[1] == "a } in a line comment"
    with pytest.raises(ValueError, match=r"contains '\}'"):
        braced.to_wxf()
    bad_fen = xiangqi.pgn.Game.from_pgn("1. h2e2 *")
    bad_fen.set_header("FEN", "junk")
    with pytest.raises(xiangqi.InvalidFenError, match=r"cannot write the game"):
        bad_fen.to_wxf()


def test_wxf_broken_game_has_its_place_and_can_be_skipped(
    tmp_path: Path, sample_wxf: Path
) -> None:
    good = sample_wxf.read_text(encoding="utf-8")
    broken = tmp_path / "broken.wxf"
    broken.write_text(
        "FORMAT  WXF\nEVENT   bad\nSTART{\n 1. C2.5 h8+7   2. H2+3 h8+7\n}END\n\n" + good,
        encoding="utf-8",
    )
    # 2... h8+7 names no horse: game 1 keeps its first three moves.
    cut, *rest = xiangqi.pgn.read_games(broken)
    assert len(cut) == 3 and [len(g) for g in rest] == [6, 6, 9]
    [error] = cut.errors
    assert isinstance(error, ValueError)
    assert (error.game, error.ply, error.line, error.column) == (1, 4, 4, 25)
    games = xiangqi.pgn.read_games(broken, strict=True)
    with pytest.raises(xiangqi.PgnError, match=r"^game 1, line 4, column 25: move 2\.\.\.") as caught:
        next(games)
    error = caught.value
    assert (error.game, error.line, error.column) == (1, 4, 25)
    assert error.message.startswith('move 2...: "h8+7"') and error.message in str(error)
    # The reader goes on after the broken game's }END.
    assert [len(g) for g in games] == [6, 6, 9]
    assert [len(g) for g in xiangqi.pgn.read_games(broken, strict=True, errors="skip")] == [6, 6, 9]
    unclosed = b"FORMAT WXF\nSTART{\n 1. C2.5\n" + good.encode("utf-8")
    with pytest.raises(xiangqi.PgnError, match=r"expected \}END") as caught:
        next(xiangqi.pgn.read_games(unclosed, errors="raise"))
    assert caught.value.game == 1
    skipped = list(xiangqi.pgn.read_games(unclosed, errors="skip"))
    assert [len(g) for g in skipped] == [6, 6, 9]


def test_pgn_errors_have_the_same_attributes(sample_pgn: Path) -> None:
    text = '[Event "bad"]\n\n1. h2e2 h2e2 *\n\n' + sample_pgn.read_text(encoding="utf-8")
    with pytest.raises(xiangqi.PgnError) as caught:
        next(xiangqi.pgn.read_games(text.encode("utf-8"), strict=True))
    error = caught.value
    assert (error.game, error.line) == (1, 3) and error.column >= 1
    assert next(xiangqi.pgn.read_games(text.encode("utf-8"))).errors[0].args == error.args
    assert str(error) == f"game 1, line 3, column {error.column}: {error.message}"
    with pytest.raises(xiangqi.PgnError) as caught:
        xiangqi.pgn.Game.from_pgn("")
    assert (caught.value.game, caught.value.line, caught.value.column) == (None, None, None)
    assert caught.value.message == "no game in the PGN text"
    # Raised by Python code, the error has the attributes too (class defaults).
    mine = xiangqi.PgnError("made by hand")
    assert (mine.game, mine.line, mine.column, mine.message) == (None, None, None, None)


def test_from_wxf_errors() -> None:
    with pytest.raises(xiangqi.PgnError, match=r"no game in the WXF text") as caught:
        xiangqi.pgn.Game.from_wxf("\n\n")
    assert caught.value.line is None
    with pytest.raises(xiangqi.PgnError, match=r"unsupported move format") as caught:
        xiangqi.pgn.Game.from_wxf("FORMAT  XYZ\nSTART{\n}END\n")
    assert (caught.value.game, caught.value.line) == (1, 1)
    with pytest.raises(xiangqi.PgnError, match=r"FEN header: invalid FEN"):
        xiangqi.pgn.Game.from_wxf("FORMAT WXF\nFEN junk\nSTART{\n}END\n")


def test_read_errors_are_not_skipped() -> None:
    class FailingReader:
        calls = 0

        def read(self, n: int) -> bytes:
            FailingReader.calls += 1
            if FailingReader.calls == 1:
                return b"FORMAT  WXF\nSTART{\n 1. C2.5 h8+7\n}END\nFORMAT  WXF\nSTART{\n"
            raise RuntimeError("disk on fire")

    games = xiangqi.pgn.read_games(FailingReader(), errors="skip")
    assert iccs(next(games)) == ["h2e2", "h9g7"]
    with pytest.raises(OSError, match=r"disk on fire"):
        next(games)


def test_bad_format_and_style_values(sample_wxf: Path) -> None:
    with pytest.raises(ValueError, match=r"format=\"xml\": expected 'auto', 'pgn', 'wxf', 'xqf', 'cbf', 'cbr' or 'cbl'"):
        xiangqi.pgn.read_games(sample_wxf, format="xml")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r'format="WXF"'):
        xiangqi.pgn.read_games(b"", format="WXF")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        xiangqi.pgn.read_games(sample_wxf, format=None)  # type: ignore[arg-type]
    game = next(xiangqi.pgn.read_games(sample_wxf))
    with pytest.raises(ValueError, match=r"style=\"chess\": expected 'official' or 'fsf'"):
        game.to_wxf(style="chess")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"moves_per_line -1 must not be negative"):
        game.to_wxf(moves_per_line=-1)
    with pytest.raises(ValueError, match=r"out of range"):
        game.to_wxf(moves_per_line=2**70)
    with pytest.raises(TypeError, match=r"moves_per_line must be an int"):
        game.to_wxf(moves_per_line="3")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.to_wxf("fsf")  # type: ignore[misc]
