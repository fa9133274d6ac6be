"""Every ```python block of docs/python.md runs, in order, in one namespace."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "python.md"


def test_guide_examples_run() -> None:
    if not GUIDE.is_file():
        pytest.skip(f"{GUIDE} is missing")
    blocks = re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 10
    namespace: dict = {}
    for i, block in enumerate(blocks):
        with contextlib.redirect_stdout(io.StringIO()):
            try:
                exec(compile(block, f"{GUIDE.name}[block {i}]", "exec"), namespace)
            except Exception as error:  # pragma: no cover - the report is the point
                raise AssertionError(f"block {i} of {GUIDE.name} failed: {error!r}\n{block}")


def test_guide_mentions_every_public_name() -> None:
    import xiangqi
    import xiangqi.pgn
    import xiangqi.svg

    text = GUIDE.read_text(encoding="utf-8")
    squares = {f + r for f in "ABCDEFGHI" for r in "0123456789"}
    names = [n for n in xiangqi.__all__ if n not in squares and not n.startswith("_")]
    names += [n for n in xiangqi.pgn.__all__] + [n for n in xiangqi.svg.__all__]
    import xiangqi.engine

    names += [n for n in xiangqi.engine.__all__]
    for cls in (xiangqi.Board, xiangqi.Move, xiangqi.Square, xiangqi.Piece, xiangqi.engine.SimpleEngine,
                xiangqi.engine.EngineInfo, xiangqi.engine.PovScore, xiangqi.Score, xiangqi.Verdict,
                xiangqi.pgn.Game):
        names += [n for n in dir(cls) if not n.startswith("_")]
    missing = sorted({n for n in names if not re.search(rf"\b{re.escape(n)}\b", text)})
    assert not missing, f"not shown in docs/python.md: {missing}"
