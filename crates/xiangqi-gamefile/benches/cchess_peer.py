"""The peer of benches/read.rs and of `cargo xtask bench files`: cchess
1.25.5 reading the same files (the XQF directory and the two CBL libraries
of ../shared/testdata/corpus, and the Big5 PGN files of
../shared/testdata/ccpd). Prints games/s and MB/s, the best of `--runs`
runs (5 by default); `--set` picks one set, `--json` prints one JSON object
per set instead (for xtask). Run with the Python that has cchess
installed: `python benches/cchess_peer.py`.

cchess has no encoding detection nor an encoding parameter: `read_from_pgn`
opens a file in the locale's encoding (UTF-8 here), which cannot read a
Big5 file at all. For the `ccpd_dir` set its `open` is given the encoding
(`big5hkscs`, undecodable bytes replaced), a help ours does not get; a file
whose reading raises counts as an error, and the plies it read are counted
(cchess stops a game at the first move it cannot read, silently)."""

from __future__ import annotations

import argparse
import builtins
import contextlib
import functools
import io
import json
import time
from pathlib import Path

import cchess
import cchess.read_pgn
from cchess.read_cbr import read_from_cbl
from cchess.read_pgn import read_from_pgn
from cchess.read_xqf import read_from_xqf

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "testdata" / "corpus"

# cchess's PGN reader opens files in the locale's encoding; the Big5 files
# are handed to it decoded (see the module's doc).
setattr(cchess.read_pgn, "open", functools.partial(builtins.open, encoding="big5hkscs", errors="replace"))


class Tally:
    """Files read without an exception, files whose reading raised, plies read."""

    def __init__(self) -> None:
        self.errors = 0
        self.plies = 0

    def pgn(self, path: Path) -> int:
        try:
            game = read_from_pgn(str(path))
        except Exception:
            self.errors += 1
            return 0
        lines = game.dump_iccs_moves()
        self.plies += len(lines[0]) if lines else 0
        return 1


def best_of(runs: int, read, files: list[Path]) -> tuple[float, int]:
    best, games = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            games = sum(read(f) for f in files)
        best = min(best, time.perf_counter() - start)
    return best, games


def sets(corpus: Path, tally: Tally) -> dict[str, tuple[list[Path], object]]:
    xqf = sorted(p for p in (corpus / "xqf").rglob("*") if p.suffix.lower() == ".xqf")
    cbl = [corpus / "games" / n for n in ("1956年全国象棋锦标赛93局.CBL", "1989年龙化杯象棋名师邀请赛35局.CBL")]
    ccpd = sorted((corpus.parent / "ccpd").rglob("*.pgn"))
    return {
        "xqf_dir": (xqf, lambda f: int(read_from_xqf(str(f)) is not None)),
        "cbl_libraries": (cbl, lambda f: len(read_from_cbl(str(f))["games"])),
        "ccpd_dir": (ccpd, tally.pgn),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--set", choices=["xqf_dir", "cbl_libraries", "ccpd_dir"], action="append")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    version = getattr(cchess, "__version__", "")
    tally = Tally()
    for name, (files, read) in sets(args.corpus, tally).items():
        if args.set and name not in args.set:
            continue
        tally.errors = tally.plies = 0
        seconds, games = best_of(args.runs, read, files)
        size = sum(f.stat().st_size for f in files)
        # Every run reads the same: the tally's totals over the runs, divided.
        errors, plies = tally.errors // args.runs, tally.plies // args.runs
        if args.json:
            print(json.dumps({"cchess": version, "set": name, "files": len(files),
                              "games": games, "errors": errors, "plies": plies,
                              "bytes": size, "seconds": seconds}))
            continue
        print(f"cchess {version} {name}: "
              f"{len(files)} files, {games} games, {seconds * 1000:.1f} ms: "
              f"{games / seconds:.0f} games/s, {size / seconds / 1e6:.2f} MB/s")


if __name__ == "__main__":
    main()
