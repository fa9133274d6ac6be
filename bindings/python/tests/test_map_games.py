"""xiangqi.pgn.map_games: our own per-game work on every game of a file or a
collection on N threads, one report per game in file order, the same for
every `jobs` and the same as reading and judging one game at a time."""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Union

import pytest

import xiangqi
import xiangqi.pgn
from xiangqi.pgn import GameReport, map_games

from conftest import REPO

# Beside the repository, as for the other tests; a checkout elsewhere names
# the shared test data with XIANGQI_SHARED_TESTDATA.
CORPUS = Path(os.environ.get("XIANGQI_SHARED_TESTDATA", REPO.parent / "shared" / "testdata")) / "corpus"

Item = Union[xiangqi.pgn.Game, Exception]


def corpus_files() -> List[Path]:
    """The shared corpus's game files (CBL libraries, XQF, CBF, CBR, a GBK
    PGN), or a skip (a failure under CI=true) when it is missing."""
    files = sorted((CORPUS / "games").glob("*"))
    if len(files) < 8:
        if os.environ.get("CI") == "true":
            pytest.fail(f"reference corpus {CORPUS} is missing")
        pytest.skip(f"reference corpus {CORPUS} is missing")
    return files


def one_at_a_time(source: Union[Path, str]) -> List[Item]:
    """Every game of `source` as `read_games` yields it, a broken game as
    the exception it raises there. A file is read as a list of one, so
    that its errors name it, as map_games's do."""
    games = xiangqi.pgn.read_games(source if Path(source).is_dir() else [source], errors="raise")
    items: List[Item] = []
    while True:
        try:
            items.append(next(games))
        except StopIteration:
            return items
        except (xiangqi.PgnError, OSError) as error:
            items.append(error)


def same_error(got: object, expected: BaseException) -> bool:
    return type(got) is type(expected) and str(got) == str(expected)


def assert_report_is(report: GameReport, item: Item, index: int, task: str, rules: str = "online") -> None:
    assert report.index == index
    if isinstance(item, Exception):
        assert not report.ok
        assert same_error(report.error, item), (report.error, item)
        assert (report.plies, report.result, report.headers, report.notation) == (0, "*", {}, None)
        assert report.game is None and report.verdict is None
        return
    assert report.source == item.source
    assert report.headers == item.headers
    assert (report.plies, report.result, report.notation) == (len(item), item.result, item.notation)
    assert [str(w) for w in report.warnings] == [str(e) for e in item.errors]
    assert all(isinstance(w, xiangqi.PgnError) for w in report.warnings)
    if task == "read":
        assert report.game is not None and report.game.to_pgn() == item.to_pgn()
        assert report.game.source == item.source
    else:
        assert report.game is None
    if task != "adjudicate":
        assert report.ok and report.error is None and report.verdict is None
        return
    try:
        verdict = item.adjudicate(rules)
    except Exception as error:  # the one-game path's exception, kept in the report
        assert not report.ok and report.verdict is None
        assert same_error(report.error, error)
        return
    assert report.ok and report.error is None and report.verdict is not None
    assert report.verdict.__reduce__() == verdict.__reduce__()


def assert_reports_are(reports: List[GameReport], items: List[Item], task: str, rules: str = "online") -> None:
    """`reports` say what `items` are; each is numbered in its file."""
    assert len(reports) == len(items)
    numbers: dict = {}
    for report, item in zip(reports, items):
        numbers[report.source] = numbers.get(report.source, 0) + 1
        assert_report_is(report, item, numbers[report.source], task, rules)


def states(reports: List[GameReport]) -> List[str]:
    """Everything a report says, as text, to compare runs."""
    out = []
    for r in reports:
        verdict = r.verdict.__reduce__() if r.verdict is not None else None
        game = r.game.to_pgn() if r.game is not None else None
        out.append(
            repr((r.index, r.source, r.ok, repr(r.error), [str(w) for w in r.warnings], r.headers,
                  r.plies, r.result, r.notation, verdict, game))
        )
    return out


@pytest.mark.parametrize("task", ["read", "check", "adjudicate"])
def test_corpus_files_equal_one_game_at_a_time(task: str) -> None:
    for path in corpus_files():
        expected = one_at_a_time(path)
        assert expected, path
        for jobs in (1, 2):
            assert_reports_are(map_games(path, task, jobs=jobs), expected, task)


def test_asian_rules_and_a_collection() -> None:
    corpus_files()
    folder = CORPUS / "xqf" / "中局攻杀谱"
    expected = one_at_a_time(folder)
    assert len(expected) == 495
    reports = map_games(folder, "adjudicate", rules="asian", jobs=2)
    assert_reports_are(reports, expected, "adjudicate", rules="asian")
    assert len({r.source for r in reports}) == 495 and {r.index for r in reports} == {1}
    # A list of paths: the files one after another, each numbered from 1.
    files = corpus_files()[:3]
    reports = map_games([str(f) for f in files], "check", jobs=2)
    assert [r.source for r in reports] == [s for f in files for s in [str(f)] * len(one_at_a_time(f))]


def big_corpus(tmp_path: Path) -> Path:
    """A PGN of a few hundred KiB (so that the workers read byte ranges of
    it), made of the corpus's master games, with broken games and games cut
    at an illegal move among them, CRLF line ends in part."""
    games = [g.to_pgn() for f in corpus_files() if f.suffix.upper() == ".CBL" for g in xiangqi.pgn.read_games(f)]
    broken = '[Event "bad fen"]\n[FEN "nonsense"]\n\n1. h2e2 *\n'
    illegal = '[Event "illegal"]\n\n1. h2e2 h2e2 *\n'
    parts = []
    for copy in range(4):
        for i, text in enumerate(games):
            parts.append(text)
            if i % 37 == copy:
                parts.append(broken if i % 2 else illegal)
    body = "\n".join(parts)
    half = len(body) // 2
    path = tmp_path / "big.pgn"
    path.write_bytes((body[:half] + body[half:].replace("\n", "\r\n")).encode("utf-8"))
    assert path.stat().st_size > 256 << 10
    return path


def test_jobs_give_the_same_reports(tmp_path: Path) -> None:
    path = big_corpus(tmp_path)
    expected = one_at_a_time(path)
    one = map_games(path, "adjudicate", jobs=1)
    assert_reports_are(one, expected, "adjudicate")
    assert sum(not r.ok for r in one) >= 8 and sum(bool(r.warnings) for r in one) >= 8
    for jobs in (2, 3, 0, None):
        assert states(map_games(path, "adjudicate", jobs=jobs)) == states(one), jobs
    assert states(map_games(path, "read", jobs=2)) == states(map_games(path, "read", jobs=1))


def test_broken_games_are_reports_never_dropped(tmp_path: Path) -> None:
    path = tmp_path / "broken.pgn"
    path.write_text(
        '[Event "a"]\n\n1. h2e2 h9g7 *\n\n'
        '[Event "bad fen"]\n[FEN "nonsense"]\n\n1. h2e2 *\n\n'
        '[Event "illegal"]\n\n1. h2e2 h2e2 *\n\n'
        '[Event "c"]\n\n1. h2e2 {unterminated\n',
        encoding="utf-8",
    )
    for jobs in (1, 2):
        reports = map_games(path, "adjudicate", jobs=jobs)
        assert [r.index for r in reports] == [1, 2, 3, 4]
        assert [r.ok for r in reports] == [True, False, True, False]
        assert isinstance(reports[1].error, xiangqi.PgnError) and reports[1].error.game == 2
        assert "invalid FEN" in str(reports[1].error)
        assert "not closed" in str(reports[3].error) and reports[3].error.line == 16
        assert [str(w) for w in reports[2].warnings] and reports[2].plies == 1
        assert reports[0].verdict is not None and reports[0].verdict.outcome == "ongoing"
        assert_reports_are(reports, one_at_a_time(path), "adjudicate")
    assert "error=" in repr(reports[1]) and repr(reports[0]).startswith("<GameReport 1 ")
    # A broken binary file is a report too; a file named alone that cannot
    # be opened raises, as read_games does; in a collection it is a report.
    cut = tmp_path / "cut.xqf"
    cut.write_bytes(b"XQ\x0a" + b"\0" * 40)
    (report,) = map_games(cut)
    assert not report.ok and isinstance(report.error, xiangqi.PgnError)
    missing = tmp_path / "missing.pgn"
    with pytest.raises(OSError):
        map_games(missing)
    reports = map_games([path, missing])
    assert len(reports) == 5 and isinstance(reports[4].error, OSError)
    assert reports[4].source == str(missing)


def test_progress_is_called_and_may_stop_the_run(tmp_path: Path) -> None:
    path = big_corpus(tmp_path)
    calls: List[tuple] = []
    reports = map_games(path, jobs=2, progress=lambda *args: calls.append(args))
    size = path.stat().st_size
    assert calls and calls[-1] == (len(reports), size, size)
    assert all(0 <= games <= len(reports) and 0 <= done <= size == total for games, done, total in calls)

    class Stop(Exception):
        pass

    def stop(games: int, done: int, total: int) -> None:
        raise Stop(games)

    with pytest.raises(Stop):
        map_games(path, jobs=2, progress=stop)


def test_wrong_arguments() -> None:
    path = REPO / "bindings" / "python" / "tests" / "data" / "sample.pgn"
    with pytest.raises(TypeError, match="give a path"):
        map_games(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="give a path"):
        map_games(path.read_bytes())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        map_games(path, 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="jobs must be an int"):
        map_games(path, jobs="2")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="jobs must be an int"):
        map_games(path, jobs=2.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        map_games(path, rules=None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="progress must be callable"):
        map_games(path, progress=5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        map_games([path, 3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="task="):
        map_games(path, "annotate")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="rule"):
        map_games(path, "adjudicate", rules="chess")
    with pytest.raises(ValueError, match="must not be negative"):
        map_games(path, jobs=-1)
    with pytest.raises(ValueError, match="format="):
        map_games(path, format="pdf")  # type: ignore[arg-type]
    (first, *_) = map_games(path, "adjudicate")
    assert isinstance(first, GameReport) and first.ok and first.verdict is not None
