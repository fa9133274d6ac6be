"""Games per second of ``xiangqi.pgn.map_games`` with 1 and 2 jobs against a
plain Python loop over ``read_games``, same corpus, same run.

    python docs/examples/map_games_bench.py [--corpus DIR] [--copies 100] [--runs 5]

The corpus is what ``cargo xtask bench jobs`` times: the 129 master games of
the shared corpus's two CBL libraries (``--corpus``: its ``games`` folder,
default ``../shared/testdata/corpus/games`` beside the repository) written
as PGN and repeated ``--copies`` times. For each task, ``check`` (tags,
length, result, notation, warnings of every game) and ``adjudicate`` (also
the online rules' verdict), it times the loop (``read_games`` and, per
game, the same attributes and ``Game.adjudicate``), then ``map_games`` with
``jobs=1`` and ``jobs=2``, in rotating order, ``--runs`` times, and prints
the best wall time of each (and the CPU time of that run, all threads), and
the best time of two processes each running ``map_games(jobs=1)`` at once:
what this machine gives two copies of the work that share nothing, the
ceiling of any ``jobs=2`` (as ``cargo xtask bench jobs`` measures it). Every run's answers are checked against the
loop's. A benchmark, not a test: it asserts no time. Figures: docs/scale.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List

import xiangqi.pgn

REPO = Path(__file__).resolve().parents[2]


def write_corpus(games_dir: Path, copies: int, out: Path) -> int:
    libraries = sorted(p for p in games_dir.iterdir() if p.suffix.upper() == ".CBL")
    texts = [g.to_pgn() for lib in libraries for g in xiangqi.pgn.read_games(lib)]
    out.write_text("\n".join(texts * copies), encoding="utf-8")
    return len(texts) * copies


def loop(path: Path, task: str) -> List[Any]:
    """One game at a time in Python: what map_games replaces."""
    rows = []
    for game in xiangqi.pgn.read_games(path):
        row = (game.headers, len(game), game.result, game.notation, [str(e) for e in game.errors])
        if task == "adjudicate":
            row += (repr(game.adjudicate()),)
        rows.append(row)
    return rows


def mapped(path: Path, task: str, jobs: int) -> List[Any]:
    rows = []
    for r in xiangqi.pgn.map_games(path, task, jobs=jobs):
        row = (r.headers, r.plies, r.result, r.notation, [str(e) for e in r.warnings])
        if task == "adjudicate":
            row += (repr(r.verdict),)
        rows.append(row)
    return rows


def two_at_once(path: Path, task: str) -> float:
    """Wall time of two processes each running map_games(jobs=1) on the
    whole file, started together: the throughput this machine gives two
    copies of the work that share nothing, the ceiling of any jobs=2."""
    code = f"import xiangqi.pgn; xiangqi.pgn.map_games({str(path)!r}, {task!r}, jobs=1)"
    start = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(2)]
    assert all(p.wait() == 0 for p in procs)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "testdata" / "corpus" / "games")
    parser.add_argument("--copies", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    path = Path(tempfile.mkdtemp(prefix="map-games-bench-")) / "corpus.pgn"
    games = write_corpus(args.corpus, args.copies, path)
    print(f"corpus: {games} games, {path.stat().st_size} bytes; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}", flush=True)
    for task in ("check", "adjudicate"):
        reference = loop(path, task)
        assert len(reference) == games
        runners: Dict[str, Callable[[], List[Any]]] = {
            "Python loop": lambda: loop(path, task),
            "map_games jobs=1": lambda: mapped(path, task, 1),
            "map_games jobs=2": lambda: mapped(path, task, 2),
        }
        best = {name: float("inf") for name in runners}
        cpu = {name: 0.0 for name in runners}
        names = list(runners)
        for run in range(args.runs):
            for name in names[run % len(names):] + names[:run % len(names)]:
                start, start_cpu = time.perf_counter(), time.process_time()
                rows = runners[name]()
                elapsed = time.perf_counter() - start
                assert rows == reference, name
                if elapsed < best[name]:
                    best[name], cpu[name] = elapsed, time.process_time() - start_cpu
        ceiling = min(two_at_once(path, task) for _ in range(args.runs))
        base = best["Python loop"]
        for name, seconds in best.items():
            print(f"{task:<10} {name:<18} {seconds:7.3f} s  {games / seconds:9.0f} games/s  "
                  f"{base / seconds:5.2f}x the loop  (CPU {cpu[name]:.3f} s)", flush=True)
        one = best["map_games jobs=1"]
        print(f"{task:<10} jobs=2 / jobs=1: {one / best['map_games jobs=2']:.2f}x; two jobs=1 processes "
              f"at once: {2 * one / ceiling:.2f}x of one (process start included); "
              f"load {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
