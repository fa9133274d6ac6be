"""xiangqi.explorer: build an explorer from game files, query it with a board,
and a damaged file as an ExplorerError naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

import xiangqi
import xiangqi.explorer

GAMES = (
    '[Red "A"]\n[Black "B"]\n[RedElo "2400"]\n[BlackElo "2200"]\n1. h2e2 h9g7 2. b0c2 i9h9 1-0\n\n'
    '[Red "C"]\n[Black "D"]\n1. b0c2 h9g7 2. h2e2 i9h9 0-1\n\n'
    '[Red "E"]\n[Black "F"]\n1. c3c4 *\n'
)


@pytest.fixture()
def explorer_path(tmp_path: Path) -> Path:
    games = tmp_path / "games.pgn"
    games.write_text(GAMES, encoding="utf-8")
    db = tmp_path / "openings.db"
    report = xiangqi.explorer.build([games], db, plies=10, jobs=2)
    assert (report["games"], report["indexed"], report["skipped"]) == (3, 3, 0)
    return db


def test_query_by_board(explorer_path: Path) -> None:
    explorer = xiangqi.explorer.open(explorer_path)
    assert (explorer.games, explorer.max_plies) == (3, 10)
    answer = explorer.query(xiangqi.Board())
    assert answer["games"] == 3
    moves = [(str(m["move"]), m["games"], m["red_wins"], m["black_wins"]) for m in answer["moves"]]
    assert moves == [("b0c2", 1, 0, 1), ("c3c4", 1, 0, 0), ("h2e2", 1, 1, 0)]
    h2e2 = answer["moves"][2]
    assert isinstance(h2e2["move"], xiangqi.Move)
    assert h2e2["mean_rating"] == 2300.0
    assert h2e2["score"] == 100.0
    assert h2e2["examples"][0]["red"] == "A"
    assert h2e2["examples"][0]["result"] == "1-0"
    assert answer["moves"][1]["score"] is None  # no result, and the rules did not end it


def test_transpositions_merge(explorer_path: Path) -> None:
    board = xiangqi.Board()
    for move in ("h2e2", "h9g7", "b0c2"):
        board.push_iccs(move)
    # Both games reach it, by different move orders.
    answer = xiangqi.explorer.open(str(explorer_path)).query(board)
    assert [(str(m["move"]), m["games"], m["score"]) for m in answer["moves"]] == [("i9h9", 2, 50.0)]


def test_damaged_files_raise_explorer_error(explorer_path: Path, tmp_path: Path) -> None:
    data = explorer_path.read_bytes()
    explorer_path.write_bytes(data[: len(data) // 2])
    with pytest.raises(xiangqi.explorer.ExplorerError, match="truncated or corrupt") as error:
        xiangqi.explorer.open(explorer_path)
    assert str(explorer_path) in str(error.value)
    assert isinstance(error.value, ValueError)
    with pytest.raises(xiangqi.explorer.ExplorerError, match="cannot open"):
        xiangqi.explorer.open(tmp_path / "missing.db")


def _page_data(page: str) -> dict:
    import json

    start = page.index('id="xq-viewer-data">') + len('id="xq-viewer-data">')
    return json.loads(page[start:page.index("</script>", start)])


def test_the_viewer_shows_the_explorer_beside_the_board(explorer_path: Path) -> None:
    from xiangqi.pgn import Game

    explorer = xiangqi.explorer.open(explorer_path)
    game = Game.from_pgn('[RedAccuracy "90.5"]\n\n1. h2e2 h9g7 2. b0c2 *')
    page = game.viewer_html(explorer=explorer, notation="chinese", frame=False)
    data = _page_data(page)
    assert data["notation"] == "chinese"
    assert data["games"][0]["accuracy"] == {"red": 90.5, "black": None}
    tables = data["explorer"]
    start = tables[data["games"][0]["nodes"][0]["fen"]]
    assert [(m["move"], m["text"][2], m["games"]) for m in start["moves"]] == [
        ("b0c2", "马八进七", 1), ("c3c4", "兵七进一", 1), ("h2e2", "炮二平五", 1)]
    # The position after h2e2 h9g7 (ply 2) is reached by one game.
    assert len(tables) == 4
    # The notebook form is the same page in a frame; without an explorer, no tables.
    assert game.viewer_html(explorer=explorer).startswith("<iframe")
    assert _page_data(game.viewer_html(frame=False))["explorer"] is None


def test_the_viewer_refuses_a_wrong_notation_or_explorer(explorer_path: Path) -> None:
    from xiangqi.pgn import Game

    game = Game.from_pgn("1. h2e2 *")
    with pytest.raises(ValueError, match='unknown viewer notation "klingon": expected one of coordinate'):
        game.viewer_html(notation="klingon")
    with pytest.raises(TypeError):
        game.viewer_html(explorer=str(explorer_path))  # type: ignore[arg-type]


def test_a_build_of_nothing_raises_and_leaves_the_file(explorer_path: Path, tmp_path: Path) -> None:
    before = explorer_path.read_bytes()
    with pytest.raises(xiangqi.explorer.ExplorerError, match="no game indexed"):
        xiangqi.explorer.build([tmp_path / "missing.pgn"], explorer_path)
    assert explorer_path.read_bytes() == before
