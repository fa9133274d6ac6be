"""The peer of benches/read.rs: cchess 1.25.5 reading the same files (the
XQF directory and the two CBL libraries of ../shared/testdata/corpus).
Prints games/s and MB/s, best of 5 runs. Run with the Python that has
cchess installed: `python benches/cchess_peer.py`."""

from __future__ import annotations

import contextlib
import io
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


def main() -> None:
    xqf = sorted(p for p in (CORPUS / "xqf").rglob("*") if p.suffix.lower() == ".xqf")
    cbl = [CORPUS / "games" / n for n in ("1956年全国象棋锦标赛93局.CBL", "1989年龙化杯象棋名师邀请赛35局.CBL")]
    for name, files, read in [
        ("xqf_dir", xqf, lambda f: int(read_from_xqf(str(f)) is not None)),
        ("cbl_libraries", cbl, lambda f: len(read_from_cbl(str(f))["games"])),
    ]:
        seconds, games = best_of(5, read, files)
        size = sum(f.stat().st_size for f in files)
        print(f"cchess {cchess.__version__ if hasattr(cchess, '__version__') else ''} {name}: "
              f"{len(files)} files, {games} games, {seconds * 1000:.1f} ms: "
              f"{games / seconds:.0f} games/s, {size / seconds / 1e6:.2f} MB/s")


if __name__ == "__main__":
    main()
