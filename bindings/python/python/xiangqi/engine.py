"""Drive engines from Python, shaped like python-chess's ``chess.engine``.

This is the one engine API of the package. External engines speak UCI
(Pikafish, Fairy-Stockfish: ``UCI_Variant xiangqi`` and ranks 1-10 are
handled), UCCI or xboard; the built-in search sits behind the same interface
(:meth:`SimpleEngine.builtin`, the replacement of the former
``xiangqi.Engine``). Every wait has a deadline: an engine that hangs, dies or
answers nonsense raises :class:`EngineTimeoutError`,
:class:`EngineTerminatedError` or :class:`EngineProtocolError` (all
:class:`EngineError`), never blocks for ever. Searches release the GIL;
Ctrl-C stops a built-in search at once.

>>> import xiangqi, xiangqi.engine
>>> with xiangqi.engine.SimpleEngine.builtin() as engine:
...     info = engine.analyse(xiangqi.Board(), xiangqi.engine.Limit(depth=2))
...     result = engine.play(xiangqi.Board(), xiangqi.engine.Limit(depth=2))
>>> info.depth, info.score is not None, result.move is not None
(2, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType, TracebackType
from typing import Mapping, Optional, Sequence, Union, overload

from xiangqi._xiangqi import (
    Board,
    EngineClient,
    Game,
    MoveReview,
    EngineError,
    EngineInfo,
    EngineProtocolError,
    EngineResult,
    EngineTerminatedError,
    EngineTimeoutError,
    Move,
    PovScore,
    Score,
)
from xiangqi._xiangqi import annotate as _annotate

__all__ = [
    "EngineError",
    "EngineInfo",
    "EngineProtocolError",
    "EngineResult",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Limit",
    "MoveReview",
    "PlayResult",
    "PovScore",
    "Score",
    "SimpleEngine",
    "annotate",
]

Command = Union[str, Sequence[str]]
OptionValue = Union[str, int, float, bool, None]


@dataclass(frozen=True)
class Limit:
    """What a search is limited by: ``time`` (seconds), ``depth`` (plies) or
    ``nodes``. Give one."""

    time: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None


@dataclass(frozen=True)
class PlayResult:
    """The engine's move, its expected reply and what it said about the move."""

    move: Move
    ponder: Optional[Move]
    info: Optional[EngineInfo]


def _option_text(value: OptionValue) -> str:
    if value is None:
        return ""  # a button
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _options(options: Optional[Mapping[str, OptionValue]]) -> list[tuple[str, str]]:
    return [(name, _option_text(value)) for name, value in (options or {}).items()]


class SimpleEngine:
    """An engine process (or the built-in search) used synchronously.

    Use it as a context manager, or call :meth:`quit` when done.
    """

    def __init__(self, client: EngineClient) -> None:
        self._client = client

    @classmethod
    def popen_uci(
        cls,
        command: Command,
        *,
        options: Optional[Mapping[str, OptionValue]] = None,
        ranks: Optional[int] = None,
        timeout: float = 10.0,
    ) -> SimpleEngine:
        """Starts a UCI engine. ``ranks`` 0 or 1 forces the rank numbering
        (default: 1-10 for engines with ``UCI_Variant``, else 0-9);
        ``timeout`` bounds the start and every handshake (seconds)."""
        return cls(
            EngineClient.popen(command, "uci", options=_options(options), ranks=ranks, timeout=timeout)
        )

    @classmethod
    def popen_ucci(
        cls,
        command: Command,
        *,
        options: Optional[Mapping[str, OptionValue]] = None,
        timeout: float = 10.0,
    ) -> SimpleEngine:
        """Starts a UCCI engine (ElephantEye, ``xiangqi ucci``)."""
        return cls(EngineClient.popen(command, "ucci", options=_options(options), timeout=timeout))

    @classmethod
    def popen_xboard(
        cls,
        command: Command,
        *,
        options: Optional[Mapping[str, OptionValue]] = None,
        timeout: float = 10.0,
    ) -> SimpleEngine:
        """Starts an xboard/CECP engine (e.g. ``maxqi`` from fairymax);
        such engines cannot search a node count."""
        return cls(EngineClient.popen(command, "xboard", options=_options(options), timeout=timeout))

    @classmethod
    def builtin(cls, *, hash_mb: Optional[int] = None, threads: Optional[int] = None) -> SimpleEngine:
        """The built-in search, in this process: a hash table of ``hash_mb``
        MiB (default 16) searched by ``threads`` threads (default 1; more
        share the table, Lazy SMP: faster, no longer deterministic)."""
        return cls(EngineClient.builtin(hash_mb=hash_mb, threads=threads))

    @property
    def name(self) -> str:
        """The engine's name (``id name``, ``myname``, else the program)."""
        return self._client.name

    @property
    def id(self) -> Mapping[str, str]:
        """``{"name": ...}``, as python-chess has it; read-only (a copy of
        what the engine said, so an edit raises instead of vanishing)."""
        return MappingProxyType({"name": self._client.name})

    @property
    def protocol(self) -> str:
        """``"uci"``, ``"ucci"``, ``"xboard"`` or ``"builtin"``."""
        return self._client.protocol

    @property
    def client(self) -> EngineClient:
        """The compiled engine handle, :class:`EngineClient` (its ``search`` returns every line at once)."""
        return self._client

    def configure(self, options: Mapping[str, OptionValue]) -> None:
        """Sets engine options; ``None`` presses a button, booleans are ``true``/``false``."""
        for name, value in _options(options):
            self._client.configure(name, value)

    @overload
    def analyse(self, board: Board, limit: Limit, *, multipv: None = None, timeout: Optional[float] = None) -> EngineInfo: ...

    @overload
    def analyse(self, board: Board, limit: Limit, *, multipv: int, timeout: Optional[float] = None) -> list[EngineInfo]: ...

    def analyse(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Union[EngineInfo, list[EngineInfo]]:
        """Analyses the board's position (its moves are sent, so repetitions
        count). Without ``multipv``: the best line's info; with it: a list of
        up to ``multipv`` lines, best first (the engine may give fewer).
        ``timeout`` is the whole time the engine gets (seconds)."""
        result = self._client.search(
            board,
            time=limit.time,
            depth=limit.depth,
            nodes=limit.nodes,
            multipv=multipv or 1,
            timeout=timeout,
        )
        lines = result.lines
        if multipv is not None:
            return list(lines)
        if not lines:
            raise EngineProtocolError(f"{self.name} reported no analysis (no info line with a score)")
        return lines[0]

    def play(self, board: Board, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        """The move the engine plays in the board's position."""
        result = self._client.search(
            board, time=limit.time, depth=limit.depth, nodes=limit.nodes, timeout=timeout
        )
        lines = result.lines
        return PlayResult(result.best_move, result.ponder, lines[0] if lines else None)

    def stop(self) -> None:
        """Ends the built-in engine's running search early (call it from
        another thread); the search returns its best move so far. Harmless
        when nothing runs. External engines raise :class:`EngineError`."""
        self._client.stop()

    def new_game(self, board: Optional[Board] = None) -> None:
        """Tells the engine a new game starts (from ``board``'s start)."""
        self._client.new_game(board if board is not None else Board())

    @property
    def alive(self) -> bool:
        """False once the engine died, was killed after a failure, or quit."""
        return self._client.alive

    def quit(self) -> None:
        """Asks the engine to quit (killing it if it lingers)."""
        self._client.quit()

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<SimpleEngine {self.name!r} ({self.protocol})>"


def annotate(
    game: Game,
    engine: Union[SimpleEngine, EngineClient],
    limit: Limit,
    *,
    timeout: Optional[float] = None,
) -> list[MoveReview]:
    """Reviews the game's main line with ``engine`` and writes the review
    into ``game``: an ``[%eval ...]`` comment on every move (Red's view),
    ``?!``/``?``/``??`` by the drop in the mover's winning chance, and the
    engine's line as a variation where a move was a mistake or a blunder
    (formats and thresholds: docs/engine-client.md). Returns one
    :class:`MoveReview` per move (for tables and evaluation plots)."""
    client = engine.client if isinstance(engine, SimpleEngine) else engine
    return _annotate(game, client, time=limit.time, depth=limit.depth, nodes=limit.nodes, timeout=timeout)
