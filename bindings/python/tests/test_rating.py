"""xiangqi.rate: Elo of a small corpus with a known answer."""

from __future__ import annotations

import io
import math

import pytest

import xiangqi
import xiangqi.pgn


def record(red: str, black: str, result: str, tags: str = "") -> str:
    return f'[Red "{red}"]\n[Black "{black}"]\n[Result "{result}"]\n{tags}\n{result}\n\n'


def corpus() -> list[xiangqi.pgn.Game]:
    # Strengths 9 : 3 : 1 with results at their expectation: A-B 3-1, B-C 3-1, A-C 9-1.
    text = record("A", "B", "1-0") * 3 + record("B", "A", "1-0")
    text += record("B", "C", "1-0") * 3 + record("C", "B", "1-0")
    text += record("A", "C", "1-0") * 9 + record("C", "A", "1-0")
    # Red flags before its first move: cancelled (R-CLOCK-CANCEL); and no result.
    text += record("C", "A", "0-1", '[Termination "time forfeit"]') + record("C", "A", "*")
    return list(xiangqi.pgn.read_games(io.StringIO(text)))


def test_known_answer() -> None:
    ratings = xiangqi.rate(corpus(), prior_draws=0)
    step = 400 * math.log10(3)
    assert [p.name for p in ratings.players] == ["A", "B", "C"]
    assert ratings.elo("A") == pytest.approx(step, abs=1e-6)
    assert ratings.elo("B") == pytest.approx(0, abs=1e-6)
    assert ratings.elo("C") == pytest.approx(-step, abs=1e-6)
    assert ratings.rated_games == 18 and ratings.unrated == {"cancelled": 1, "no_result": 1}
    a = ratings.players[0]
    assert (a.games, a.points) == (14, 12.0) and "PlayerRating" in repr(a)
    assert ratings.elo("nobody") is None


def test_prior_mean_and_errors() -> None:
    shrunk = xiangqi.rate(corpus(), mean=1500)
    assert 1500 < shrunk.elo("A") < 1500 + 400 * math.log10(3)  # type: ignore[operator]
    assert sum(p.elo for p in shrunk.players) / 3 == pytest.approx(1500)
    one = list(xiangqi.pgn.read_games(io.StringIO(record("A", "B", "1-0"))))
    with pytest.raises(ValueError, match="infinite"):
        xiangqi.rate(one, prior_draws=0)
    with pytest.raises(ValueError, match="no rated games"):
        xiangqi.rate([])
    with pytest.raises(TypeError, match="Game"):
        xiangqi.rate(["not a game"])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        xiangqi.rate(corpus(), rules="nonsense")
