"""NNUE data over Dask (docs/examples/dask_nnue.py): self-play shards by
seed and relabelled shards by file, made by a LocalCluster of two worker
processes and merged, are byte for byte what one process makes."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Iterator

import pytest

import xiangqi.nnue

from conftest import REPO

try:
    import dask.distributed  # noqa: F401
except ImportError as missing:  # pragma: no cover - depends on the environment
    if os.environ.get("CI") == "true":
        raise
    pytest.skip(
        f"dask[distributed] is needed ({missing}); "
        "pip install -r bindings/python/requirements-test.txt",
        allow_module_level=True,
    )

sys.path.insert(0, str(REPO / "docs" / "examples"))
import dask_nnue  # noqa: E402

#: Small on purpose: the test proves the plumbing, not the engine.
NODES = 150
GAMES = 2
SEEDS = [3, 4, 5]


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with dask_nnue.local_client(2, processes=True) as c:
        assert len(c.nthreads()) == 2
        yield c


def test_self_play_shards_merge_to_the_local_run(client: Any, tmp_path: Path) -> None:
    spread = dask_nnue.generate_data(
        tmp_path / "spread.bin", SEEDS, GAMES, NODES, tmp_path / "spread-shards", client
    )
    local = dask_nnue.generate_data(
        tmp_path / "local.bin", SEEDS, GAMES, NODES, tmp_path / "local-shards"
    )
    assert spread["games"] == local["games"] == GAMES * len(SEEDS)
    assert spread["positions"] == local["positions"] > 0
    assert (tmp_path / "spread.bin").read_bytes() == (tmp_path / "local.bin").read_bytes()
    # One process making each seed's file itself (no helper of the example)
    # gives the same shards: the cluster ran the library's generation.
    for seed in SEEDS:
        alone = tmp_path / f"alone-{seed}.bin"
        xiangqi.nnue.generate(alone, games=GAMES, nodes=NODES, seed=seed, jobs=1)
        shard = dask_nnue.shard_path(tmp_path / "spread-shards", "seed", seed)
        assert shard.read_bytes() == alone.read_bytes()
    # Another seed makes other games.
    other = tmp_path / "other.bin"
    xiangqi.nnue.generate(other, games=GAMES, nodes=NODES, seed=99, jobs=1)
    assert other.read_bytes() != (tmp_path / f"alone-{SEEDS[0]}.bin").read_bytes()


def test_relabelled_shards_merge_to_the_local_run(client: Any, tmp_path: Path) -> None:
    files = sorted((REPO / "docs" / "examples").glob("*.pgn")) + [
        REPO / "docs" / "examples" / "game.xqf"
    ]
    spread = dask_nnue.relabel_data(
        tmp_path / "spread.bin", files, NODES, tmp_path / "spread-shards", 1, client
    )
    local = dask_nnue.relabel_data(
        tmp_path / "local.bin", files, NODES, tmp_path / "local-shards", 1
    )
    assert spread["positions"] == local["positions"] > 0
    assert (tmp_path / "spread.bin").read_bytes() == (tmp_path / "local.bin").read_bytes()
    # One call over all the files holds as many positions (its game numbers
    # run over the whole collection, where the merge restarts them with
    # each shard, so the bytes differ there).
    whole = xiangqi.nnue.relabel(tmp_path / "whole.bin", [str(f) for f in files], nodes=NODES)
    assert whole["positions"] == local["positions"]
