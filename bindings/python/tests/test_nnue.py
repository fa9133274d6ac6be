"""xiangqi.nnue: the NNUE data made from Python (docs/engine.md, "Data over
Dask"): the library's generation, relabelling and merge, their reports,
resuming, and errors as Python exceptions."""

from __future__ import annotations

from pathlib import Path

import pytest

import xiangqi.nnue

from conftest import REPO


def test_a_file_grown_in_two_calls_is_the_file_of_one(tmp_path: Path) -> None:
    one = tmp_path / "one.bin"
    report = xiangqi.nnue.generate(one, games=3, nodes=120, seed=4, max_plies=30)
    assert (report["games_before"], report["games"]) == (0, 3)
    two = tmp_path / "two.bin"
    xiangqi.nnue.generate(two, games=1, nodes=120, seed=4, max_plies=30)
    grown = xiangqi.nnue.generate(str(two), games=3, nodes=120, seed=4, max_plies=30)
    assert (grown["games_before"], grown["games"]) == (1, 2)
    assert one.read_bytes() == two.read_bytes()
    merged = xiangqi.nnue.merge(tmp_path / "all.bin", [one, two])
    assert merged["games"] == 6
    assert merged["positions"] == 2 * report["positions"]


def test_errors_are_python_exceptions(tmp_path: Path) -> None:
    path = tmp_path / "s.bin"
    xiangqi.nnue.generate(path, games=1, nodes=100, seed=1, max_plies=10)
    with pytest.raises(ValueError, match="made with --seed 1, not 2"):
        xiangqi.nnue.generate(path, games=2, nodes=100, seed=2, max_plies=10)
    with pytest.raises(OSError, match="cannot create"):
        xiangqi.nnue.generate(tmp_path / "no" / "dir.bin", games=1, nodes=100)
    with pytest.raises(ValueError, match="no file matches"):
        xiangqi.nnue.relabel(tmp_path / "r.bin", [str(tmp_path / "*.pgn")], nodes=100)
    with pytest.raises(ValueError, match="not an NNUE data file"):
        xiangqi.nnue.merge(tmp_path / "m.bin", [REPO / "docs" / "examples" / "games.pgn"])


def test_recorded_games_are_relabelled(tmp_path: Path) -> None:
    games = REPO / "docs" / "examples" / "games.pgn"
    report = xiangqi.nnue.relabel(tmp_path / "r.bin", [games], nodes=100, jobs=2)
    assert (report["games"], report["files"], report["left_out"]) == (3, 1, 0)
    again = xiangqi.nnue.relabel(tmp_path / "r.bin", [games], nodes=100)
    assert (again["games"], again["passed_over"]) == (0, 3)
