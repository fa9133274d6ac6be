"""Plots the fitted win-rate model against the observed results.

Reads the calibration table that ``xiangqi tune --wdl --wdl-table FILE.csv``
writes (positions grouped by ply band and 50-centipawn score bucket: the
observed win/draw/loss shares, the model's mean prediction and the unfitted
logistic curve annotation used before) and draws one panel per ply band:
dots are observed shares, lines the fitted model; the last row compares the
expected score (win + draw / 2) of the data, the fitted model and the old
curve. Needs matplotlib::

    python docs/examples/plot_winrate.py target/wdl-table.csv docs/images/winrate.png
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_table(path: str) -> dict[tuple[int, str], list[dict[str, float]]]:
    bands: dict[tuple[int, str], list[dict[str, float]]] = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (int(row["ply_from"]), row["ply_to"])
            bands[key].append({k: float(v) for k, v in row.items() if k != "ply_to"})
    return dict(sorted(bands.items()))


def band_name(key: tuple[int, str]) -> str:
    start, end = key
    return f"plies {start}-{int(end) - 1}" if end else f"plies {start}+"


def plot(table: dict[tuple[int, str], list[dict[str, float]]], out: str) -> None:
    columns = len(table)
    fig, axes = plt.subplots(2, columns, figsize=(4.2 * columns, 7.5), sharex=True, sharey=True, squeeze=False)
    colours = {"win": "tab:green", "draw": "tab:gray", "loss": "tab:red"}
    for column, (key, rows) in enumerate(table.items()):
        cp = [r["mean_cp"] for r in rows]
        sizes = [max(4.0, min(60.0, r["positions"] / 20)) for r in rows]
        top = axes[0][column]
        for outcome, colour in colours.items():
            top.scatter(cp, [r[f"observed_{outcome}"] for r in rows], s=sizes, color=colour, alpha=0.6,
                        label=f"observed {outcome}")
            top.plot(cp, [r[f"predicted_{outcome}"] for r in rows], color=colour, label=f"model {outcome}")
        top.set_title(f"{band_name(key)} ({int(sum(r['positions'] for r in rows))} positions)")
        bottom = axes[1][column]
        bottom.scatter(cp, [r["observed_score"] for r in rows], s=sizes, color="black", alpha=0.6,
                       label="observed score")
        bottom.plot(cp, [r["predicted_score"] for r in rows], color="tab:blue", label="fitted model")
        bottom.plot(cp, [r["unfitted_score"] for r in rows], color="tab:orange", linestyle="--",
                    label="old curve (cp/250)")
        bottom.set_xlabel("engine score, centipawns (side to move)")
        for ax in (top, bottom):
            ax.grid(alpha=0.3)
            ax.set_ylim(-0.02, 1.02)
    axes[0][0].set_ylabel("share of positions / chance")
    axes[1][0].set_ylabel("expected score (win + draw/2)")
    axes[0][-1].legend(fontsize=7, loc="center right")
    axes[1][-1].legend(fontsize=7, loc="lower right")
    fig.suptitle("Win-rate model: fitted chances (lines) against observed results (dots; size ~ positions)")
    fig.tight_layout()
    fig.savefig(out, dpi=90)


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit("usage: plot_winrate.py TABLE.csv OUT.png")
    plot(read_table(sys.argv[1]), sys.argv[2])


if __name__ == "__main__":
    main()
