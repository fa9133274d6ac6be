"""Adjudicate and annotate a corpus over a Dask cluster into a pandas DataFrame.

    python docs/examples/dask_corpus.py GAMES.pgn [--scheduler ADDRESS]
        [--workers 2] [--shards N] [--nodes 300 | --no-annotate] [-o rows.csv]

One row per game, in file order: its tags, the recorded result, the rules'
verdict (winner, reason, ply), the plies, and with annotation an evaluation
summary per side from ``xiangqi.engine.annotate`` with the built-in engine
at a fixed node count: the mean centipawn loss and the number of ``?!``,
``?`` and ``??``. The file is cut into byte ranges at game starts
(``xiangqi.pgn.shards``); each Dask task reads one range
(``read_games(path, start=, end=)``) and returns its rows. Dask does all the
scheduling: ``client.map`` over the shards, ``client.gather`` in their order.

Without ``--scheduler`` a ``LocalCluster`` of ``--workers`` processes runs
on this machine; with ``--scheduler tcp://host:8786`` the same code runs on
that cluster. Its workers need ``pip install xiangqi dask[distributed]
pandas`` and the file at the same path; this module's code is sent to them.
See docs/scale.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Optional, Union

import pandas as pd

import xiangqi
import xiangqi.engine
from xiangqi.pgn import Game, Shard, read_games, shards

#: Tags copied into the rows ("" when a game lacks one).
TAGS = ["Event", "Site", "Date", "Round", "Red", "Black"]
#: What every row holds, in this order.
GAME_COLUMNS = TAGS + ["result", "outcome", "winner", "reason", "verdict_ply", "plies"]
#: The evaluation summary, added when annotating.
EVAL_COLUMNS = [
    f"{side}_{what}"
    for side in ("red", "black")
    for what in ("acpl", "inaccuracies", "mistakes", "blunders")
]
#: Centipawns a mate (or a finished game) counts for in the centipawn loss,
#: and the cap on any score, as lichess does.
MATE_CP = 1000

PathLike = Union[str, Path]


def columns(annotate: bool) -> list[str]:
    return GAME_COLUMNS + (EVAL_COLUMNS if annotate else [])


def _red_cp(score: Optional[xiangqi.Score], red_chance: Optional[float]) -> Optional[int]:
    """Red's view in centipawns, mates and finished games as +/-MATE_CP."""
    if score is None:
        if red_chance is None:
            return None
        return MATE_CP if red_chance > 0.5 else -MATE_CP
    if score.mate is not None:
        return MATE_CP if score.mate > 0 else -MATE_CP
    assert score.cp is not None
    return max(-MATE_CP, min(MATE_CP, score.cp))


def evaluation_summary(reviews: list[xiangqi.engine.MoveReview]) -> dict[str, Any]:
    """Mean centipawn loss and ``?!``/``?``/``??`` counts per side."""
    losses: dict[str, list[int]] = {"red": [], "black": []}
    marks = {side: {"?!": 0, "?": 0, "??": 0} for side in losses}
    for review in reviews:
        side = "red" if review.mover == xiangqi.RED else "black"
        before = _red_cp(review.red_score_before, None)
        after = _red_cp(review.red_score, review.red_winning_chance)
        if before is not None and after is not None:
            sign = 1 if side == "red" else -1
            losses[side].append(max(0, sign * (before - after)))
        if review.symbol is not None:
            marks[side][review.symbol] += 1
    row: dict[str, Any] = {}
    for side in ("red", "black"):
        done = losses[side]
        row[f"{side}_acpl"] = round(sum(done) / len(done), 1) if done else None
        row[f"{side}_inaccuracies"] = marks[side]["?!"]
        row[f"{side}_mistakes"] = marks[side]["?"]
        row[f"{side}_blunders"] = marks[side]["??"]
    return row


def game_row(
    game: Game, engine: Optional[xiangqi.engine.SimpleEngine], nodes: int, rules: str
) -> dict[str, Any]:
    """The row of one game (annotated when ``engine`` is given)."""
    headers = game.headers
    verdict = game.adjudicate(rules)
    row: dict[str, Any] = {tag: headers.get(tag, "") for tag in TAGS}
    row.update(
        result=game.result,
        outcome=verdict.outcome,
        winner=None if verdict.winner is None else str(verdict.winner).lower(),
        reason=verdict.reason,
        verdict_ply=verdict.ply,
        plies=len(game),
    )
    if engine is not None:
        reviews = xiangqi.engine.annotate(game, engine, xiangqi.engine.Limit(nodes=nodes))
        row.update(evaluation_summary(reviews))
    return row


def shard_rows(
    path: PathLike,
    shard: Optional[Shard] = None,
    *,
    nodes: Optional[int] = None,
    rules: str = "online",
) -> list[dict[str, Any]]:
    """The rows of the games in ``shard`` of ``path`` (all of them without
    one), in file order: one Dask task. ``nodes`` annotates at that node
    count (a fresh built-in engine per task; each game starts with a
    cleared hash, so a row does not depend on which task read it)."""
    games = read_games(path) if shard is None else read_games(path, start=shard.start, end=shard.end)
    if nodes is None:
        return [game_row(game, None, 0, rules) for game in games]
    with xiangqi.engine.SimpleEngine.builtin(hash_mb=1) as engine:
        return [game_row(game, engine, nodes, rules) for game in games]


def corpus_frame(
    path: PathLike,
    client: Any = None,
    *,
    shard_count: Optional[int] = None,
    nodes: Optional[int] = None,
    rules: str = "online",
) -> pd.DataFrame:
    """The rows of every game of ``path`` as a DataFrame (index: the game's
    number in the file). With a ``dask.distributed.Client`` the shards are
    mapped over its cluster (``shard_count`` of them, default four per
    worker thread); without one, this process reads the file."""
    if client is None:
        rows = shard_rows(path, nodes=nodes, rules=rules)
    else:
        _send_by_value()
        if shard_count is None:
            shard_count = 4 * max(1, sum(client.nthreads().values()))
        parts = shards(path, shard_count)
        # Not pure: the key would not change when the file does.
        futures = client.map(
            shard_rows, [str(path)] * len(parts), parts, nodes=nodes, rules=rules, pure=False
        )
        rows = [row for part in client.gather(futures) for row in part]
    return pd.DataFrame(rows, columns=columns(nodes is not None))


def _send_by_value() -> None:
    """Workers get this module's functions in the pickle, so they need
    only ``xiangqi`` installed, not this file."""
    import cloudpickle

    module = sys.modules[__name__]
    if __name__ != "__main__":
        cloudpickle.register_pickle_by_value(module)


def local_client(workers: int, processes: bool = True) -> Any:
    """A ``Client`` on a new ``LocalCluster`` of ``workers`` single-threaded
    workers (processes unless ``processes=False``), closed with the client."""
    from dask.distributed import Client

    return Client(
        n_workers=workers, threads_per_worker=1, processes=processes, dashboard_address=None
    )


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", type=Path, help="a PGN or WXF game file")
    parser.add_argument(
        "--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)"
    )
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    parser.add_argument("--shards", type=int, help="byte ranges (default: 4 per worker thread)")
    parser.add_argument("--nodes", type=int, default=300, help="annotation nodes per position")
    parser.add_argument("--no-annotate", action="store_true", help="adjudicate only")
    parser.add_argument("--rules", default="online", help="rule set (default online)")
    parser.add_argument("-o", "--output", type=Path, help="write the rows as CSV here")
    args = parser.parse_args(argv)

    from dask.distributed import Client

    client = Client(args.scheduler) if args.scheduler else local_client(args.workers)
    with client:
        frame = corpus_frame(
            args.pgn,
            client,
            shard_count=args.shards,
            nodes=None if args.no_annotate else args.nodes,
            rules=args.rules,
        )
    if args.output:
        frame.to_csv(args.output, index_label="game")
    else:
        print(frame.to_string())


if __name__ == "__main__":
    main()
