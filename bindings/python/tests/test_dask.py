"""The Dask example (docs/examples/dask_corpus.py): a LocalCluster of two
worker processes gives exactly the rows of the single-process run."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

import xiangqi
import xiangqi.engine
import xiangqi.pgn

from conftest import REPO

try:
    import pandas as pd
    import dask.distributed  # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the environment
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(
        f"dask[distributed] and pandas are needed ({missing}); "
        "pip install -r bindings/python/requirements-test.txt",
        allow_module_level=True,
    )

sys.path.insert(0, str(REPO / "docs" / "examples"))
import dask_corpus  # noqa: E402
import random_corpus  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    # Worker processes (as on a real cluster): each has its own interpreter,
    # so shards and rows cross a process boundary pickled. Two
    # single-threaded workers, started as the example starts them.
    with dask_corpus.local_client(2, processes=True) as c:
        assert len(c.nthreads()) == 2
        yield c


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("dask") / "random.pgn"
    return random_corpus.write_random_corpus(path, 2000, seed=15)


def test_two_thousand_games_give_the_single_process_rows(client: Any, corpus: Path) -> None:
    single = dask_corpus.corpus_frame(corpus)
    spread = dask_corpus.corpus_frame(corpus, client)
    assert len(single) == 2000
    assert list(single.columns) == dask_corpus.GAME_COLUMNS
    pd.testing.assert_frame_equal(spread, single)
    # More shards than workers, so the rows really came from several tasks
    # that had to be put back in file order.
    assert len(xiangqi.pgn.shards(corpus, 8)) == 8
    # The rows say what the games say.
    games = list(xiangqi.pgn.read_games(corpus))
    for index in (0, 1, 999, 1999):
        game, row = games[index], single.iloc[index]
        verdict = game.adjudicate()
        assert (row["Red"], row["Black"], row["Event"]) == (
            game.headers["Red"], game.headers["Black"], game.headers["Event"]
        )
        assert (row["result"], row["plies"], row["outcome"], row["verdict_ply"]) == (
            game.result, len(game), verdict.outcome, verdict.ply
        )
    # Random walks end now and then (mate, a repetition ruling).
    assert (single["outcome"] != "ongoing").any()
    over = single[single["outcome"] != "ongoing"]
    assert over["reason"].notna().all()


def test_annotated_rows_are_the_same_on_the_cluster(client: Any, tmp_path: Path) -> None:
    path = random_corpus.write_random_corpus(tmp_path / "few.pgn", 6, seed=7)
    single = dask_corpus.corpus_frame(path, nodes=200)
    spread = dask_corpus.corpus_frame(path, client, shard_count=3, nodes=200)
    assert list(single.columns) == dask_corpus.GAME_COLUMNS + dask_corpus.EVAL_COLUMNS
    pd.testing.assert_frame_equal(spread, single)
    assert single["red_acpl"].notna().all() and single["black_acpl"].notna().all()
    assert (single["red_acpl"] >= 0).all()
    # Random moves are bad moves: the review marks some of them.
    marks = [f"{side}_{what}" for side in ("red", "black") for what in ("inaccuracies", "mistakes", "blunders")]
    assert single[marks].to_numpy().sum() > 0


def test_evaluation_summary_counts_by_side() -> None:
    game = xiangqi.pgn.Game.from_pgn("1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *")
    with xiangqi.engine.SimpleEngine.builtin(hash_mb=1) as engine:
        reviews = xiangqi.engine.annotate(game, engine, xiangqi.engine.Limit(depth=2))
    row = dask_corpus.evaluation_summary(reviews)
    for side, colour in (("red", xiangqi.RED), ("black", xiangqi.BLACK)):
        mine = [r for r in reviews if r.mover == colour]
        symbols = [r.symbol for r in mine]
        assert row[f"{side}_inaccuracies"] == symbols.count("?!")
        assert row[f"{side}_mistakes"] == symbols.count("?")
        assert row[f"{side}_blunders"] == symbols.count("??")
        sign = 1 if colour == xiangqi.RED else -1
        losses = [
            max(0, sign * (r.red_score_before.cp - r.red_score.cp))  # type: ignore[union-attr,operator]
            for r in mine
        ]
        assert row[f"{side}_acpl"] == round(sum(losses) / len(losses), 1)
