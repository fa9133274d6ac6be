"""The type stubs describe the compiled module exactly."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

import xiangqi
import xiangqi._xiangqi as compiled

PACKAGE = Path(xiangqi.__file__).parent
STUB = PACKAGE / "_xiangqi.pyi"


def stub_names() -> set:
    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_every_public_name_is_in_the_stubs() -> None:
    public = {n for n in dir(compiled) if not n.startswith("_")} | {"__version__"}
    missing = public - stub_names()
    assert not missing, f"names missing from {STUB.name}: {sorted(missing)}"
    assert set(compiled.__all__) <= stub_names()


def test_package_ships_markers() -> None:
    assert (PACKAGE / "py.typed").is_file()
    assert STUB.is_file()


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_mypy_stubtest() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "xiangqi._xiangqi"],
        capture_output=True,
        text=True,
        cwd=PACKAGE.parent,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed")
def test_package_passes_mypy_strict() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "-p", "xiangqi"],
        capture_output=True,
        text=True,
        cwd=PACKAGE.parent,
    )
    assert result.returncode == 0, result.stdout + result.stderr


