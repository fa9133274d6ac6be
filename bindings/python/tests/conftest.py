"""Shared fixtures: the reference data in the repository's tests/fixtures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

FIXTURES = Path(__file__).resolve().parents[3] / "tests" / "fixtures"


def load_jsonl(name: str) -> List[Dict[str, Any]]:
    path = FIXTURES / name
    if not path.is_file():
        pytest.skip(f"reference data {path} is missing")
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def legal_records() -> List[Dict[str, Any]]:
    return load_jsonl("legal.jsonl")


@pytest.fixture(scope="session")
def perft_records() -> List[Dict[str, Any]]:
    return load_jsonl("perft.jsonl")


@pytest.fixture(scope="session")
def wxf_records() -> List[Dict[str, Any]]:
    return load_jsonl("wxf.jsonl")


@pytest.fixture(scope="session")
def ending_records() -> List[Dict[str, Any]]:
    return load_jsonl("endings.jsonl")


DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture(scope="session")
def sample_pgn() -> Path:
    return DATA / "sample.pgn"


@pytest.fixture(scope="session")
def sample_wxf() -> Path:
    """The games of sample.pgn as a WXF game file, in PlayOK's shape
    (games 1 and 3) and XieXie's (tabs, Black in upper case, `=`)."""
    return DATA / "sample.wxf"


REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def xiangqi_cli() -> str:
    """The `xiangqi` command-line binary (it serves `xiangqi uci` and
    `xiangqi ucci`): $XIANGQI_BIN, else the newest build in the target
    directory, else built now with cargo."""
    import os
    import subprocess

    given = os.environ.get("XIANGQI_BIN")
    if given:
        return given
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    built = [p for p in (target / "release" / "xiangqi", target / "debug" / "xiangqi") if p.is_file()]
    if not built:
        subprocess.run(
            ["cargo", "build", "--quiet", "-p", "xiangqi-cli", "--bin", "xiangqi"], cwd=REPO, check=True
        )
        built = [target / "debug" / "xiangqi"]
    return str(max(built, key=lambda p: p.stat().st_mtime))


@pytest.fixture(scope="session")
def xiangqi_engine() -> str:
    """The standalone `xiangqi-engine` program (UCI, or UCCI after `ucci`,
    with no arguments): $XIANGQI_ENGINE_BIN, else the newest build in the
    target directory, else built now with cargo."""
    import os
    import subprocess

    given = os.environ.get("XIANGQI_ENGINE_BIN")
    if given:
        return given
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    built = [
        p for p in (target / "release" / "xiangqi-engine", target / "debug" / "xiangqi-engine") if p.is_file()
    ]
    if not built:
        subprocess.run(
            ["cargo", "build", "--quiet", "-p", "xiangqi-cli", "--bin", "xiangqi-engine"], cwd=REPO, check=True
        )
        built = [target / "debug" / "xiangqi-engine"]
    return str(max(built, key=lambda p: p.stat().st_mtime))
