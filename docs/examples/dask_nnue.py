"""Make NNUE training data over a Dask cluster: self-play sharded by seed,
or recorded games relabelled sharded by file, then merged in one file.

    python docs/examples/dask_nnue.py gen OUT.bin --seeds 1-8 --games 500 [--nodes 1000]
        [--scheduler ADDRESS | --workers 2] [--shard-dir DIR]
    python docs/examples/dask_nnue.py relabel OUT.bin GAMES... [--nodes 1000]
        [--scheduler ADDRESS | --workers 2] [--shard-dir DIR] [--files-per-shard 200]

Each Dask task runs ``xiangqi.nnue.generate`` for one seed (or
``xiangqi.nnue.relabel`` for one run of game files) into its own shard
file on one thread; ``xiangqi.nnue.merge`` then puts the shards together
in seed (or file) order: the merged file is byte for byte the one the
same calls give in one process. A shard already there is resumed, so a
stopped run is finished by running the command again. Without
``--scheduler`` a ``LocalCluster`` of ``--workers`` processes runs on this
machine; on a real cluster the workers need ``pip install xiangqi
dask[distributed]`` and the shard directory (and the game files) at the
same path on every machine (a shared file system). See docs/engine.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Optional, Sequence, Union

import xiangqi.nnue

PathLike = Union[str, Path]


def shard_path(shard_dir: PathLike, kind: str, number: int) -> Path:
    return Path(shard_dir) / f"{kind}-{number:05d}.bin"


def generate_shard(path: str, seed: int, games: int, nodes: int) -> dict[str, Any]:
    """One task: the games of one seed, on one thread."""
    return dict(xiangqi.nnue.generate(path, games=games, nodes=nodes, seed=seed, jobs=1))


def relabel_shard(path: str, files: list[str], nodes: int) -> dict[str, Any]:
    """One task: a run of game files relabelled, on one thread."""
    return dict(xiangqi.nnue.relabel(path, files, nodes=nodes, jobs=1))


def _map(client: Any, function: Any, *columns: Sequence[Any], **kwargs: Any) -> list[Any]:
    """``function`` over the columns, on the cluster or (no client) here, in order."""
    if client is None:
        return [function(*row, **kwargs) for row in zip(*columns)]
    _send_by_value()
    futures = client.map(function, *columns, pure=False, **kwargs)
    return list(client.gather(futures))


def generate_data(
    output: PathLike,
    seeds: Sequence[int],
    games: int,
    nodes: int,
    shard_dir: PathLike,
    client: Any = None,
) -> dict[str, Any]:
    """Self-play shards of ``seeds`` (``games`` each) merged into ``output``."""
    Path(shard_dir).mkdir(parents=True, exist_ok=True)
    paths = [str(shard_path(shard_dir, "seed", seed)) for seed in seeds]
    _map(client, generate_shard, paths, list(seeds), games=games, nodes=nodes)
    return dict(xiangqi.nnue.merge(output, paths))


def relabel_data(
    output: PathLike,
    files: Sequence[PathLike],
    nodes: int,
    shard_dir: PathLike,
    files_per_shard: int = 200,
    client: Any = None,
) -> dict[str, Any]:
    """``files`` relabelled in runs of ``files_per_shard``, merged into ``output``."""
    Path(shard_dir).mkdir(parents=True, exist_ok=True)
    runs = [
        [str(f) for f in files[i : i + files_per_shard]]
        for i in range(0, len(files), files_per_shard)
    ]
    paths = [str(shard_path(shard_dir, "files", n)) for n in range(len(runs))]
    _map(client, relabel_shard, paths, runs, nodes=nodes)
    return dict(xiangqi.nnue.merge(output, paths))


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


def _seeds(text: str) -> list[int]:
    """``1-8`` or ``1,5,9``."""
    if "-" in text:
        first, last = text.split("-", 1)
        return list(range(int(first), int(last) + 1))
    return [int(s) for s in text.split(",")]


def _game_files(inputs: Sequence[str]) -> list[Path]:
    """Files as given, folders walked in sorted order (game-file extensions)."""
    found: list[Path] = []
    for name in inputs:
        path = Path(name)
        if path.is_dir():
            found.extend(
                sorted(
                    p
                    for p in path.rglob("*")
                    if p.suffix.lower() in {".pgn", ".wxf", ".xqf", ".cbf", ".cbr", ".cbl"}
                )
            )
        else:
            found.append(path)
    return found


def main(argv: Optional[list[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["gen", "relabel"])
    parser.add_argument("output", type=Path, help="the merged data file")
    parser.add_argument("games_files", nargs="*", help="relabel: game files or folders")
    parser.add_argument("--seeds", default="1-4", help="gen: seeds, 1-8 or 1,5,9 (default 1-4)")
    parser.add_argument("--games", type=int, default=100, help="gen: games per seed")
    parser.add_argument("--nodes", type=int, default=1000, help="nodes per position")
    parser.add_argument("--files-per-shard", type=int, default=200, help="relabel: files a task")
    parser.add_argument("--shard-dir", type=Path, help="shard files (default: OUTPUT.shards)")
    parser.add_argument(
        "--scheduler", help="address of a running Dask scheduler (default: a LocalCluster)"
    )
    parser.add_argument("--workers", type=int, default=2, help="LocalCluster workers (default 2)")
    args = parser.parse_args(argv)
    shard_dir = args.shard_dir or args.output.with_name(args.output.name + ".shards")

    from dask.distributed import Client

    client = Client(args.scheduler) if args.scheduler else local_client(args.workers)
    with client:
        if args.what == "gen":
            report = generate_data(
                args.output, _seeds(args.seeds), args.games, args.nodes, shard_dir, client
            )
        else:
            files = _game_files(args.games_files)
            report = relabel_data(
                args.output, files, args.nodes, shard_dir, args.files_per_shard, client
            )
    print(f"{args.output}: {report['games']} games, {report['positions']} positions")


if __name__ == "__main__":
    main()
