"""Text encodings through `read_games`: detected once per file (Big5,
GBK/GB18030, UTF-8, UTF-16), or forced with `encoding=`; the shared Big5
sample (`shared/testdata/ccpd`) read as a folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import xiangqi.pgn

CCPD = Path(__file__).resolve().parents[4] / "shared" / "testdata" / "ccpd"

GAME = (
    '[Event "第八屆"銀荔杯"象棋全國冠軍賽 列手炮"]\n[Red "胡榮華"]\n\n'
    "1. 炮二平五  馬８進７\n2. 馬二進三 車９平８ 1-0\n"
)


def ccpd() -> Path:
    if not (CCPD / "README.md").is_file():
        if os.environ.get("CI") == "true":
            raise AssertionError(f"the CCPD sample is missing at {CCPD}")
        pytest.skip(f"no CCPD sample at {CCPD}")
    return CCPD


def test_every_ccpd_file_is_one_game_without_errors() -> None:
    folder = ccpd()
    files = sorted(p for p in folder.rglob("*.pgn"))
    assert len(files) == 4729
    games = list(xiangqi.pgn.read_games(folder))
    assert len(games) == len(files)
    # One game per file, in the collection's order (names compared as strings).
    sources = [Path(g.source) for g in games]
    assert sorted(sources) == sorted(files)
    assert len(set(sources)) == len(files)
    broken = [(g.source, g.errors) for g in games if g.errors]
    assert broken == []
    assert all(len(g.moves) > 0 or "FEN" in g.headers for g in games)


@pytest.mark.parametrize("codec", ["big5", "gb18030", "utf-8", "utf-16"])
def test_each_encoding_is_detected(tmp_path: Path, codec: str) -> None:
    path = tmp_path / f"{codec}.pgn"
    path.write_bytes(GAME.encode(codec))
    game = next(xiangqi.pgn.read_games(path))
    assert game.headers["Red"] == "胡榮華"
    assert game.headers["Event"] == '第八屆"銀荔杯"象棋全國冠軍賽 列手炮'
    assert len(game.moves) == 4
    assert game.errors == ()


def test_encoding_can_be_forced(tmp_path: Path) -> None:
    path = tmp_path / "big5.pgn"
    path.write_bytes(GAME.encode("big5"))
    game = next(xiangqi.pgn.read_games(path, encoding="big5"))
    assert game.headers["Red"] == "胡榮華"
    # As GBK its moves are mojibake: the game cannot be read, and says why.
    wrong = next(xiangqi.pgn.read_games(path, encoding="gbk"))
    assert wrong.headers.get("Red") != "胡榮華"
    assert wrong.errors and "invalid move" in str(wrong.errors[0])
    with pytest.raises(ValueError, match="unknown encoding"):
        xiangqi.pgn.read_games(path, encoding="latin-1")


def test_undecodable_bytes_are_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "bad.pgn"
    path.write_bytes(b'[Red "\xff"]\n1. h2e2 *\n')
    game = next(xiangqi.pgn.read_games(path, encoding="utf-8"))
    assert game.headers["Red"] == "\ufffd"
    assert len(game.moves) == 1
    assert len(game.errors) == 1
    assert "not valid UTF-8" in str(game.errors[0])


def test_map_games_detects_or_takes_the_encoding(tmp_path: Path) -> None:
    path = tmp_path / "big5.pgn"
    path.write_bytes(GAME.encode("big5"))
    for encoding in (None, "big5"):
        [report] = xiangqi.pgn.map_games(path, jobs=1, encoding=encoding)
        assert report.ok, report.error
        assert report.headers["Red"] == "胡榮華"
        assert report.plies == 4
    # As GBK the first move is mojibake: the game reads as far as that,
    # with the error as its warning.
    [wrong] = xiangqi.pgn.map_games(path, jobs=1, encoding="gbk")
    assert wrong.plies == 0
    assert any("invalid move" in str(w) for w in wrong.warnings), wrong.warnings
    with pytest.raises(ValueError, match="unknown encoding"):
        xiangqi.pgn.map_games(path, encoding="latin-1")


def test_explorer_build_detects_or_takes_the_encoding(tmp_path: Path) -> None:
    import xiangqi.explorer

    path = tmp_path / "big5.pgn"
    path.write_bytes(GAME.encode("big5"))
    for encoding, entries, partial in ((None, 4, 0), ("big5", 4, 0), ("gbk", 0, 1)):
        report = xiangqi.explorer.build([path], tmp_path / "openings.db", encoding=encoding)
        assert (report["games"], report["entries"], report["partial"]) == (1, entries, partial), (
            encoding,
            report,
        )
