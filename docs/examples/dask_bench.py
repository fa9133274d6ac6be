"""Games per second of the Dask example with 1 and 2 workers, same corpus, same run.

    python docs/examples/dask_bench.py [--games 2000] [--nodes 100] [--runs 2]
        [--variant processes|threads ...]

Writes a random corpus (random_corpus.py), takes the rows of
``dask_corpus.corpus_frame`` in this process as the reference, then on a
LocalCluster of 1 and of 2 single-threaded worker processes and of 1 and 2
worker threads in this process: wall time of
``corpus_frame`` only (the cluster is started, and its workers have read
one shard, before the clock starts), annotated at ``--nodes`` and
adjudicated only. Every run's rows are checked against the reference. A
benchmark, not a test: it asserts no time. Figures: docs/scale.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pandas as pd  # noqa: E402

import dask_corpus  # noqa: E402
import random_corpus  # noqa: E402


def timed(path: Path, client: Any, nodes: Optional[int], reference: pd.DataFrame) -> float:
    start = time.perf_counter()
    frame = dask_corpus.corpus_frame(path, client, nodes=nodes)
    elapsed = time.perf_counter() - start
    pd.testing.assert_frame_equal(frame, reference)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--nodes", type=int, default=100)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument(
        "--variant", action="append", choices=["processes", "threads"],
        help="only these cluster kinds (repeatable; default all three)",
    )
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="dask-bench-"))
    path = random_corpus.write_random_corpus(folder / "corpus.pgn", args.games, args.seed)
    print(f"corpus: {args.games} random games, {path.stat().st_size} bytes; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}", flush=True)
    modes = {"annotated": args.nodes, "adjudicated": None}
    references = {}
    for mode, nodes in modes.items():
        start = time.perf_counter()
        references[mode] = dask_corpus.corpus_frame(path, nodes=nodes)
        elapsed = time.perf_counter() - start
        print(f"one process, no Dask, {mode}: {args.games / elapsed:.1f} games/s", flush=True)
    rates: dict[tuple[str, str, int], list[float]] = {}
    # Worker processes, and worker threads in this process (the GIL is
    # released while the library works).
    variants = {
        name: options
        for flag, name, options in [
            ("processes", "processes", dict(processes=True)),
            ("threads", "threads", dict(processes=False)),
        ]
        if not args.variant or flag in args.variant
    }
    for variant, options in variants.items():
        for workers in (1, 2):
            with dask_corpus.local_client(workers, **options) as client:
                # Warm-up: start the workers, import xiangqi there.
                dask_corpus.corpus_frame(path, client, shard_count=2 * workers)
                for mode, nodes in modes.items():
                    for run in range(args.runs):
                        elapsed = timed(path, client, nodes, references[mode])
                        rate = args.games / elapsed
                        rates.setdefault((variant, mode, workers), []).append(rate)
                        print(f"{variant}, {workers} worker(s), {mode}, run {run + 1}: "
                              f"{elapsed:.2f} s, {rate:.1f} games/s", flush=True)
    for variant in variants:
        for mode in modes:
            one, two = max(rates[(variant, mode, 1)]), max(rates[(variant, mode, 2)])
            print(f"{variant}, {mode}: best of {args.runs}: 1 worker {one:.1f}, "
                  f"2 workers {two:.1f} games/s, ratio {two / one:.2f}x")

if __name__ == "__main__":
    main()
