"""The peer of benches/read.rs and of `cargo xtask bench files`: cchess
1.25.5 reading the same files (the XQF directory and the two CBL libraries
of ../shared/testdata/corpus). Prints games/s and MB/s, the best of
`--runs` runs (5 by default); `--set` picks one set, `--json` prints one
JSON object per set instead (for xtask). Run with the Python that has
cchess installed: `python benches/cchess_peer.py`."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import time
from pathlib import Path

import cchess
from cchess.read_cbr import read_from_cbl
from cchess.read_xqf import read_from_xqf

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "testdata" / "corpus"


def best_of(runs: int, read, files: list[Path]) -> tuple[float, int]:
    best, games = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            games = sum(read(f) for f in files)
        best = min(best, time.perf_counter() - start)
    return best, games


def sets(corpus: Path) -> dict[str, tuple[list[Path], object]]:
    xqf = sorted(p for p in (corpus / "xqf").rglob("*") if p.suffix.lower() == ".xqf")
    cbl = [corpus / "games" / n for n in ("1956年全国象棋锦标赛93局.CBL", "1989年龙化杯象棋名师邀请赛35局.CBL")]
    return {
        "xqf_dir": (xqf, lambda f: int(read_from_xqf(str(f)) is not None)),
        "cbl_libraries": (cbl, lambda f: len(read_from_cbl(str(f))["games"])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--set", choices=["xqf_dir", "cbl_libraries"], action="append")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    version = getattr(cchess, "__version__", "")
    for name, (files, read) in sets(args.corpus).items():
        if args.set and name not in args.set:
            continue
        seconds, games = best_of(args.runs, read, files)
        size = sum(f.stat().st_size for f in files)
        if args.json:
            print(json.dumps({"cchess": version, "set": name, "files": len(files),
                              "games": games, "bytes": size, "seconds": seconds}))
            continue
        print(f"cchess {version} {name}: "
              f"{len(files)} files, {games} games, {seconds * 1000:.1f} ms: "
              f"{games / seconds:.0f} games/s, {size / seconds / 1e6:.2f} MB/s")


if __name__ == "__main__":
    main()
