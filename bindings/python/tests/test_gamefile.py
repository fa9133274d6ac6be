"""Every game-file format through `read_games`, and the move tree as `GameNode`s."""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest

import xiangqi
import xiangqi.pgn

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "testdata" / "corpus"


def corpus() -> Path:
    if not (CORPUS / "cchess-reference.jsonl").is_file():
        if os.environ.get("CI") == "true":
            raise AssertionError(f"the corpus is missing at {CORPUS}")
        pytest.skip(f"no corpus at {CORPUS}")
    return CORPUS


def iccs_lines(game: xiangqi.pgn.Game) -> list[list[str]]:
    return [[str(m) for m in line] for line in game.lines()]


def test_the_cbl_libraries_and_xqf_files_read_as_cchess_reads_them() -> None:
    root = corpus()
    reference: dict[str, list[dict]] = {}
    for line in (root / "cchess-reference.jsonl").read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        reference.setdefault(entry["file"], []).append(entry)
    checked = 0
    for name, entries in reference.items():
        if not name.startswith("games/") or not name.endswith((".CBL", ".XQF")):
            continue
        games = list(xiangqi.pgn.read_games(root / name))
        # CBL headings (an empty board) are no games; nor is a record its
        # index does not list: cchess reads every slot, and the 1989
        # library's 38th holds a deleted copy of its 37th game
        # (docs/gamefile.md, "CCBridge libraries").
        real = [e for e in entries if not e["fen"].startswith("9/9/9/9/9/9/9/9/9/9 ")]
        if name.startswith("games/1989"):
            assert real[-1]["info"]["title"].strip() == real[-2]["info"]["title"].strip()
            real = real[:-1]
        assert len(games) == len(real), name
        for game, entry in zip(games, real):
            if name.endswith(".CBL"):
                assert game.headers["Title"] == entry["info"]["title"].strip(), name
            lines = iccs_lines(game)
            assert lines[0] == entry["lines"][0], name
            assert sorted(lines[1:]) == sorted(entry["lines"][1:]), name
            assert game.start_board().fen().split()[0] == entry["fen"].split()[0]
            checked += 1
    assert checked == 129


def test_every_format_is_sniffed_or_named() -> None:
    root = corpus() / "games"
    for name, fmt in [("test.cbf", "cbf"), ("test.cbr", "cbr"), ("030-黄松轩先胜冯敬如.XQF", "xqf")]:
        sniffed = next(xiangqi.pgn.read_games(str(root / name)))
        named = next(xiangqi.pgn.read_games((root / name).read_bytes(), format=fmt))
        assert sniffed.moves == named.moves and len(sniffed) > 1
        with (root / name).open("rb") as f:  # a binary file object
            assert next(xiangqi.pgn.read_games(f)).moves == sniffed.moves
    xqf = next(xiangqi.pgn.read_games(root / "030-黄松轩先胜冯敬如.XQF"))
    assert xqf.headers["Red"] == "黄松轩" and xqf.result == "1-0"
    assert len(xqf.lines()) == 2
    again = xiangqi.pgn.Game.from_pgn(xqf.to_pgn(notation="chinese"))
    assert again.lines() == xqf.lines()


def test_a_broken_binary_file_names_the_byte() -> None:
    header = b"XQ\x0a" + bytes(13) + b"\xff" * 32 + bytes(976)
    with pytest.raises(xiangqi.PgnError) as info:
        next(xiangqi.pgn.read_games(header + b"\x18\x20", errors="raise"))
    assert (info.value.game, info.value.offset, info.value.line) == (1, 1024, None)
    assert "the file ends inside a move record" in info.value.message
    # Kept (the default), the broken game comes out without moves.
    [kept] = list(xiangqi.pgn.read_games(header + b"\x18\x20"))
    assert len(kept) == 0 and kept.source is None
    [error] = kept.errors
    assert (error.game, error.offset) == (1, 1024)
    with pytest.raises(xiangqi.PgnError) as info:
        next(xiangqi.pgn.read_games(b"XQ\x13" + bytes(1021), format="xqf", strict=True))
    assert info.value.offset == 2 and "unsupported XQF version 19" in str(info.value)
    with pytest.raises(ValueError, match='format="doc"'):
        xiangqi.pgn.read_games(b"", format="doc")  # type: ignore[arg-type]


def test_the_tree_walks_like_python_chess() -> None:
    game = xiangqi.pgn.Game.from_pgn("{start} 1. h2e2 h9g7 (1... b9c7 $2 {other} 2. h0g2) 2. h0g2 *")
    root = game.root()
    assert root.move is None and root.parent is None and root.comment == "start"
    assert game.comment == "start" and root.ply() == 0
    [first] = game.variations
    main, other = first.variations
    assert (str(main.move), str(other.move)) == ("h9g7", "b9c7")
    assert other.nags == {2} and other.comment == "other" and other.parent == first
    assert [str(n.move) for n in game.mainline()] == ["h2e2", "h9g7", "h0g2"]
    assert [str(m) for m in first.mainline_moves()] == ["h9g7", "h0g2"]
    assert game.mainline()[-1].is_end() and not first.is_end()
    assert len(other.mainline()[0].board().move_stack) == 3

    new = main.add_variation(xiangqi.Move.from_iccs("b0c2"), comment="fresh")
    assert new.parent == main and new.comment == "fresh" and new.ply() == 3
    assert main.variations[1] == new
    tail = new.add_variation("b9c7")  # the main continuation of a new line
    assert tail.parent == new and new.variations == (tail,)
    assert iccs_lines(game) == [
        ["h2e2", "h9g7", "h0g2"],
        ["h2e2", "h9g7", "b0c2", "b9c7"],
        ["h2e2", "b9c7", "h0g2"],
    ]
    again = xiangqi.pgn.Game.from_pgn(game.to_pgn())
    assert again.lines() == game.lines()
    with pytest.raises(xiangqi.IllegalMoveError):
        tail.add_variation("a0a5")
    root.comment = "new start"
    assert game.comments[0] == "new start"
    with pytest.raises(ValueError):
        root.nags = {1}
    empty = xiangqi.pgn.Game.from_board(xiangqi.Board())
    assert empty.variations == () and empty.lines() == [[]]
    empty.add_variation("h2e2")
    assert [str(m) for m in empty.moves] == ["h2e2"]


def test_a_loop_over_a_file_never_stops_at_a_broken_game() -> None:
    root = corpus()
    # The GBK PGN ends with a line of `=` signs, which is no game: a
    # warning on the file (the iterator's `warnings`, known once the games
    # are read), not a game without moves; the loop ends normally.
    path = root / "games" / "中炮对列炮黑先平士角炮.pgn"
    reading = xiangqi.pgn.read_games(path)
    games = [g for g in reading]
    assert [len(g) for g in games] == [23]
    assert not games[0].errors and games[0].source == str(path)
    [warning] = reading.warnings
    assert (warning.game, warning.line, warning.column) == (0, 29, 3)
    assert "text after the last game" in str(warning)


def test_a_composition_with_an_illegal_move_keeps_the_legal_part() -> None:
    path = corpus() / "xqf" / "现代排局" / "寸土必争 红先胜.xqf"
    [game] = list(xiangqi.pgn.read_games(path))
    assert len(game) == 5 and game.source == str(path)
    [error] = game.errors
    assert (error.game, error.ply) == (1, 6)
    assert "e8d8" in error.message and error.offset is not None
    with pytest.raises(xiangqi.PgnError, match="ply 6"):
        next(xiangqi.pgn.read_games(path, strict=True))
    with pytest.raises(ValueError, match="errors="):
        xiangqi.pgn.read_games(path, errors="ignore")  # type: ignore[arg-type]


def test_a_directory_a_pattern_or_a_list_is_read_file_after_file(tmp_path: Path) -> None:
    import shutil

    games_dir = corpus() / "games"
    (tmp_path / "b").mkdir()
    shutil.copy(games_dir / "030-黄松轩先胜冯敬如.XQF", tmp_path / "b" / "2.XQF")
    shutil.copy(games_dir / "test.cbr", tmp_path / "a.cbr")
    shutil.copy(games_dir / "1989年龙化杯象棋名师邀请赛35局.CBL", tmp_path / "c.CBL")
    (tmp_path / "b" / "1.xqf").write_bytes(b"XQ\x0a" + bytes(20))  # cut short
    (tmp_path / "notes.txt").write_text("not a game file")
    games = list(xiangqi.pgn.read_games(tmp_path))
    # Sorted paths: a.cbr, b/1.xqf (broken: kept without moves), b/2.XQF, c.CBL.
    sources = [Path(g.source).relative_to(tmp_path).as_posix() for g in games]
    assert sources[:3] == ["a.cbr", "b/1.xqf", "b/2.XQF"]
    assert sources[3:] == ["c.CBL"] * 35
    # The library's deleted copy of its last game is a warning, not a game.
    one = xiangqi.pgn.read_games(tmp_path / "c.CBL")
    assert len(list(one)) == 35
    [warning] = one.warnings
    assert "slot 37 holds a record the index does not list" in str(warning) and warning.offset
    assert len(games[1]) == 0 and games[1].errors[0].offset is not None
    assert all(not g.errors for g in games if g is not games[1])
    # The same through a pattern and through a list, and the broken file raised.
    by_pattern = list(xiangqi.pgn.read_games(str(tmp_path / "**" / "*.[xX][qQ][fF]")))
    assert [len(g) for g in by_pattern] == [len(games[1]), len(games[2])]
    listed = list(xiangqi.pgn.read_games([tmp_path / "c.CBL", str(tmp_path / "a.cbr")], errors="skip"))
    assert len(listed) == 36 and listed[-1].source == str(tmp_path / "a.cbr")
    with pytest.raises(xiangqi.PgnError):
        list(xiangqi.pgn.read_games(tmp_path, errors="raise"))
    # A missing file in a list is one more broken game; an empty folder, an error.
    [missing] = list(xiangqi.pgn.read_games([tmp_path / "nope.pgn"]))
    assert isinstance(missing.errors[0], OSError)
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no game file"):
        xiangqi.pgn.read_games(tmp_path / "empty")
    with pytest.raises(TypeError):
        xiangqi.pgn.read_games([tmp_path, 3])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        xiangqi.pgn.read_games(tmp_path, start=0)


DIAGRAM = "5ab2/4a4/1R1kb4/2N6/9/6B2/6n2/5K2B/4Ar3/3A5 w - - 0 1"


def test_a_diagram_no_game_can_reach_opens_but_never_plays(tmp_path: Path) -> None:
    """A manual's finished mate leaves both generals in check: the game
    opens, says what is wrong, shows the board, and refuses to be played."""
    path = tmp_path / "manual.pgn"
    path.write_text(f'[Event "mate"]\n[FEN "{DIAGRAM}"]\n\n{{final}} 1-0\n', encoding="utf-8")
    [game] = list(xiangqi.pgn.read_games(path))
    assert len(game) == 0
    assert game.start_fen() == DIAGRAM
    assert game.start_status() == ["both generals are in check (R-LEGAL-POSITION)"]
    [error] = game.errors
    assert "both generals are in check" in str(error) and error.line == 2
    for play in (game.start_board, game.board, game.adjudicate):
        with pytest.raises(xiangqi.InvalidFenError, match="the side not to move, is in check"):
            play()
    with pytest.raises(xiangqi.InvalidFenError):
        xiangqi.Board(DIAGRAM)
    page = game.viewer_html(frame=False)
    assert "both generals are in check" in page and DIAGRAM in page
    assert "5ab2/4a4/1R1kb4" in game.to_pgn()
    again = pickle.loads(pickle.dumps(game))
    assert again.start_fen() == DIAGRAM and again.start_status() == game.start_status()
    # A playable start has no problem; strict reading refuses the diagram.
    assert xiangqi.pgn.Game.from_pgn("1. h2e2 *").start_status() == []
    with pytest.raises(xiangqi.PgnError, match="diagram"):
        list(xiangqi.pgn.read_games(path, strict=True, errors="raise"))
