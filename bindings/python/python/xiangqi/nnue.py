"""Training data of the NNUE evaluation (docs/engine.md, "NNUE: training
data and training"), made from Python so that a Dask cluster can make it
shard by shard: ``generate`` plays self-play games of one seed,
``relabel`` scores recorded games with our search, ``merge`` puts shards
together. Each writes the documented binary data file (resumable:
running the same call again goes on where a stopped one ended) and
returns its report as a dict. ``docs/examples/dask_nnue.py`` spreads
them over a cluster.

>>> import tempfile, os, xiangqi.nnue
>>> d = tempfile.mkdtemp()
>>> xiangqi.nnue.generate(os.path.join(d, "s1.bin"), games=1, nodes=100, seed=1, max_plies=6)["games"]
1
"""

from __future__ import annotations

from xiangqi._xiangqi import nnue_generate as generate
from xiangqi._xiangqi import nnue_merge as merge
from xiangqi._xiangqi import nnue_relabel as relabel

__all__ = ["generate", "merge", "relabel"]
