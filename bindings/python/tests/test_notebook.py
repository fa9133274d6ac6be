"""The notebook in docs/ runs from top to bottom without errors (headless)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed")
nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed")
pytest.importorskip("ipykernel", reason="ipykernel is not installed")
pytest.importorskip("matplotlib", reason="matplotlib is not installed")

NOTEBOOK = Path(__file__).resolve().parents[3] / "docs" / "python-notebook.ipynb"


def test_notebook_executes(tmp_path: Path) -> None:
    if not NOTEBOOK.is_file():
        pytest.skip(f"{NOTEBOOK} is missing")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    os.environ.setdefault("MPLBACKEND", "Agg")
    # The corpus study reads the shared corpus beside the repository.
    shared = NOTEBOOK.parents[2] / "shared" / "testdata"
    corpus_present = (shared / "ccpd").is_dir()
    if not corpus_present and os.environ.get("CI") == "true":
        pytest.fail(f"the shared corpus is missing at {shared / 'ccpd'} (required under CI)")
    os.environ.setdefault("XIANGQI_SHARED_TESTDATA", str(shared))
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    outputs = [o for cell in nb.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    kinds = {k for o in outputs for k in o.get("data", {})}
    assert "image/svg+xml" in kinds, "boards are displayed as SVG"
    assert "image/png" in kinds, "the evaluation curve is plotted"
    # The annotated game shows itself as the viewer (Game._repr_html_).
    html = "".join(o.get("data", {}).get("text/html", "") for o in outputs)
    assert 'class="xq-viewer-frame"' in html and "mountViewer(" in html
    assert "[%eval " in html or "red_chance" in html, "the viewer holds the annotation"
    text = "".join(o.get("text", "") for o in outputs)
    assert "perpetual_check" in text and "炮二平五" in text
    # Board editing, streaming analysis and the corpus study by opening.
    assert "MISSING_GENERAL" in text and "valid: True" in text
    assert "depth 7 line 2" in text and "best:" in text
    if corpus_present:
        assert "4384 games" in text and "red_wins" in html
