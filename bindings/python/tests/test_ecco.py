"""xiangqi.ecco: the ECCO opening of a game or of moves (docs/ecco.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

import xiangqi
import xiangqi.ecco
import xiangqi.pgn

CCPD = Path(__file__).resolve().parents[3].parent / "shared" / "testdata" / "ccpd" / "對局"


def test_classify_moves_as_text_or_move_objects() -> None:
    opening = xiangqi.ecco.classify(["h2e2", "h9g7", "h0g2", "b9c7"])
    assert opening is not None
    assert (opening.code, opening.name, opening.ply) == ("C00", "中炮对屏风马", 4)
    assert opening.name_traditional == "中炮對屏風馬"
    assert opening.name_en == "Central Cannon vs Screen Horses"
    moves = [xiangqi.Move.from_iccs(m) for m in ["h2e2", "h9g7", "h0g2", "b9c7"]]
    assert xiangqi.ecco.classify(moves) == opening
    assert xiangqi.ecco.classify([]) is None


def test_game_opening_is_classify_of_the_game() -> None:
    game = xiangqi.pgn.Game.from_pgn("1. 炮二平五 炮8平5 2. 马二进三 马8进7 *")
    opening = game.opening()
    assert opening is not None and opening.code == "D00"
    assert xiangqi.ecco.classify(game) == opening
    assert opening.to_dict() == {
        "code": "D00",
        "name": "顺炮缓开车对其他",
        "name_traditional": "順炮緩開車對其他",
        "name_en": "Same-direction Cannons Slow Chariot vs Others",
        "ply": 2,
    }
    assert "D00" in repr(opening)


def test_a_game_from_a_diagram_has_no_code() -> None:
    game = xiangqi.pgn.Game.from_pgn('[FEN "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"]\n\n1. d0d1 *')
    assert game.opening() is None


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(xiangqi.IllegalMoveError, match="move 2"):
        xiangqi.ecco.classify(["h2e2", "h2e2"])
    with pytest.raises(xiangqi.InvalidMoveError):
        xiangqi.ecco.classify(["h2e2", "zz"])
    with pytest.raises(TypeError, match="sequence of moves"):
        xiangqi.ecco.classify("h2e2")
    with pytest.raises(TypeError):
        xiangqi.ecco.classify(42)


def test_codes_lists_the_260_defined_codes() -> None:
    codes = xiangqi.ecco.codes()
    assert len(codes) == 260
    assert codes[0] == {
        "code": "A00",
        "name": "其他开局",
        "name_traditional": "其他開局",
        "name_en": "Other Openings",
    }
    assert "A09" not in {c["code"] for c in codes}


def test_a_corpus_grouped_by_code_with_pandas() -> None:
    pd = pytest.importorskip("pandas")
    if not CCPD.is_dir():
        pytest.skip(f"{CCPD} is missing")
    files = sorted((CCPD / "大師對局" / "以棋手分類" / "呂欽").glob("*.pgn"))
    games = [g for f in files for g in xiangqi.pgn.read_games(f)]
    openings = [(g, g.opening()) for g in games]
    df = pd.DataFrame([{"tag": g.headers.get("ECCO"), **o.to_dict()} for g, o in openings if o])
    by_code = df.groupby("code").size()
    assert by_code.sum() == len(df) > 100
    assert (df["tag"] == df["code"]).mean() > 0.95
