"""xiangqi.pgn.shards and read_games(start=, end=): byte ranges aligned to
game starts that together hold every game exactly once, in file order; and
corpus reading and judging from several threads at once (the GIL is
released while the library works)."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Callable, List

import pytest

import xiangqi
import xiangqi.pgn

from conftest import REPO


def _texts(games: object) -> List[str]:
    return [g.to_pgn() for g in games]  # type: ignore[attr-defined]


def _check_shards(path: Path, fmt: str = "auto") -> int:
    whole = _texts(xiangqi.pgn.read_games(path, format=fmt))
    size = path.stat().st_size
    for n in list(range(1, len(whole) + 3)) + [10 * len(whole) + 7]:
        parts = xiangqi.pgn.shards(path, n, format=fmt)
        assert 1 <= len(parts) <= min(n, max(1, len(whole))), (n, parts)
        assert parts[0].start == 0 and parts[-1].end == size
        assert all(a.end == b.start for a, b in zip(parts, parts[1:])), parts
        assert all(len(s) == s.end - s.start > 0 for s in parts)
        read: List[str] = []
        for shard in parts:
            games = _texts(xiangqi.pgn.read_games(path, format=fmt, start=shard.start, end=shard.end))
            assert games, f"{shard} of {n} holds no game"
            read += games
        assert read == whole, n
    return len(whole)


def test_pgn_shards_hold_every_game_once(tmp_path: Path, sample_pgn: Path) -> None:
    text = sample_pgn.read_text(encoding="utf-8").strip() + "\n\n"
    # Games with and without blank lines between them, CRLF line ends, a
    # comment line with an [%eval] at its start.
    body = text * 3 + text.replace("\n\n[", "\n[") * 2
    body += '[Event "last"]\n\n1. h2e2 {\n[%eval 0.30]\n} h9g7 *\n'
    path = tmp_path / "corpus.pgn"
    path.write_bytes(body.replace("\n", "\r\n").encode("utf-8"))
    assert _check_shards(path) > 10
    lf = tmp_path / "lf.pgn"
    lf.write_text(body, encoding="utf-8")
    assert _check_shards(lf, "pgn") > 10


def test_wxf_shards(tmp_path: Path, sample_wxf: Path) -> None:
    path = tmp_path / "corpus.wxf"
    path.write_bytes(sample_wxf.read_bytes() * 4)
    assert _check_shards(path) >= 8


def test_binary_files_are_one_shard() -> None:
    """XQF, CBR, CBF (one game) and CBL (a library) cannot be cut: one shard."""
    root = REPO.parent / "shared" / "testdata" / "corpus" / "games"
    files = [f for pattern in ("*.XQF", "*.CBL", "*.cbr", "*.cbf") for f in sorted(root.glob(pattern))[:1]]
    if len(files) < 4:
        if os.environ.get("CI") == "true":
            pytest.fail(f"reference corpus {root} is missing")
        pytest.skip(f"reference corpus {root} is missing")
    for path in files:
        parts = xiangqi.pgn.shards(path, 4)
        assert parts == [xiangqi.pgn.Shard(0, path.stat().st_size)], path
        games = _texts(xiangqi.pgn.read_games(path, start=0, end=parts[0].end))
        assert games and games == _texts(xiangqi.pgn.read_games(path)), path


def test_empty_file_and_argument_errors(tmp_path: Path, sample_pgn: Path) -> None:
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    assert xiangqi.pgn.shards(empty, 3) == [xiangqi.pgn.Shard(0, 0)]
    assert list(xiangqi.pgn.read_games(empty, start=0, end=0)) == []
    with pytest.raises(ValueError, match="at least 1"):
        xiangqi.pgn.shards(sample_pgn, 0)
    with pytest.raises(TypeError):
        xiangqi.pgn.shards(sample_pgn, 2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="format="):
        xiangqi.pgn.shards(sample_pgn, 2, format="pdf")  # type: ignore[arg-type]
    with pytest.raises(OSError):
        xiangqi.pgn.shards(tmp_path / "missing.pgn", 2)
    with pytest.raises(TypeError, match="give its path"):
        xiangqi.pgn.read_games(sample_pgn.read_bytes(), start=0)
    with pytest.raises(ValueError, match="must not be negative"):
        xiangqi.pgn.read_games(sample_pgn, start=-1)
    with pytest.raises(ValueError, match="before start"):
        xiangqi.pgn.read_games(sample_pgn, start=10, end=5)
    with pytest.raises(ValueError, match="before start"):
        xiangqi.pgn.Shard(10, 5)
    shard = xiangqi.pgn.Shard(3, 40)
    assert (shard.start, shard.end, len(shard), repr(shard)) == (3, 40, 37, "Shard(start=3, end=40)")
    assert shard == xiangqi.pgn.Shard(3, 40) and hash(shard) == hash(xiangqi.pgn.Shard(3, 40))
    # Only `start`: to the end of the file; only `end`: from its start.
    whole = _texts(xiangqi.pgn.read_games(sample_pgn))
    assert _texts(xiangqi.pgn.read_games(sample_pgn, start=0)) == whole
    assert _texts(xiangqi.pgn.read_games(sample_pgn, end=sample_pgn.stat().st_size)) == whole


def test_threads_read_and_judge_at_once(tmp_path: Path, sample_pgn: Path) -> None:
    text = sample_pgn.read_text(encoding="utf-8").strip() + "\n\n"
    path = tmp_path / "threads.pgn"
    path.write_text(text * 40, encoding="utf-8")

    def judge(shard: xiangqi.pgn.Shard) -> List[str]:
        games = xiangqi.pgn.read_games(path, start=shard.start, end=shard.end)
        return [f"{g.adjudicate('online')!r} {g.adjudicate('asian')!r} {g.to_pgn()}" for g in games]

    def rate() -> List[str]:
        return [repr(p) for p in xiangqi.rate(xiangqi.pgn.read_games(path)).players]

    whole = xiangqi.pgn.Shard(0, path.stat().st_size)
    expected = judge(whole)
    expected_ratings = rate()
    halves = xiangqi.pgn.shards(path, 2)
    assert len(halves) == 2
    results: dict = {}
    errors: List[BaseException] = []
    start = threading.Barrier(4)

    def run(name: str, work: Callable[[], List[str]]) -> None:
        try:
            start.wait()
            for _ in range(3):
                results[name] = work()
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    workers = [
        threading.Thread(target=run, args=("a", lambda: judge(halves[0]))),
        threading.Thread(target=run, args=("b", lambda: judge(halves[1]))),
        threading.Thread(target=run, args=("whole", lambda: judge(whole))),
        threading.Thread(target=run, args=("rate", rate)),
    ]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert not errors, errors
    assert results["a"] + results["b"] == expected == results["whole"]
    assert results["rate"] == expected_ratings


def test_one_iterator_shared_by_threads(sample_pgn: Path, tmp_path: Path) -> None:
    path = tmp_path / "shared.pgn"
    path.write_text(sample_pgn.read_text(encoding="utf-8") * 30, encoding="utf-8")
    expected = sorted(_texts(xiangqi.pgn.read_games(path)))
    games = xiangqi.pgn.read_games(path)
    taken: List[List[str]] = [[], []]

    def drain(mine: List[str]) -> None:
        for game in games:
            mine.append(game.to_pgn())

    workers = [threading.Thread(target=drain, args=(taken[i],)) for i in range(2)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert sorted(taken[0] + taken[1]) == expected
