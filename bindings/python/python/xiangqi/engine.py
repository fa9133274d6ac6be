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

import asyncio
from dataclasses import dataclass
from types import MappingProxyType, TracebackType
from typing import TYPE_CHECKING, Mapping, Optional, Sequence, Union, overload

from xiangqi._xiangqi import (
    AnalysisResult,
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
from xiangqi._xiangqi import _check_limit

if TYPE_CHECKING:
    from xiangqi._xiangqi import _LimitKeywords
from xiangqi._xiangqi import annotate as _annotate

__all__ = [
    "AnalysisResult",
    "AsyncEngine",
    "Cp",
    "EngineError",
    "EngineInfo",
    "EngineProtocolError",
    "EngineResult",
    "EngineTerminatedError",
    "EngineTimeoutError",
    "Limit",
    "Mate",
    "MoveReview",
    "PlayResult",
    "PovScore",
    "Score",
    "SimpleEngine",
    "annotate",
    "popen_uci",
    "popen_ucci",
    "popen_xboard",
]

Command = Union[str, Sequence[str]]
OptionValue = Union[str, int, float, bool, None]


_LIMIT_FIELDS = (
    "time",
    "depth",
    "nodes",
    "mate",
    "red_clock",
    "black_clock",
    "red_inc",
    "black_inc",
    "remaining_moves",
)


class Limit:
    """What a search is limited by, any combination: ``time`` (seconds for
    the move), ``depth`` (plies), ``nodes``, ``mate`` (a mate in at most that
    many moves), and the game's clocks for the engine to manage its own time:
    ``red_clock``/``black_clock`` (seconds left), ``red_inc``/``black_inc``
    (seconds added per move), ``remaining_moves`` (moves to the next time
    control). The search stops at whichever part is reached first.

    python-chess's spellings are accepted too: ``white_clock``,
    ``white_inc`` (White is Red) and ``black_clock``, ``black_inc``. A clock
    given for one side only stands for both. An empty limit, a negative
    value or an increment without a clock is a ``ValueError`` naming the
    field. Each protocol sends what it can express (UCCI one of depth, nodes
    or time; xboard no nodes and no mate) and refuses the rest with an
    ``EngineError`` (``xiangqi/guide/engine-client.md``)."""

    __slots__ = _LIMIT_FIELDS

    time: Optional[float]
    depth: Optional[int]
    nodes: Optional[int]
    mate: Optional[int]
    red_clock: Optional[float]
    black_clock: Optional[float]
    red_inc: Optional[float]
    black_inc: Optional[float]
    remaining_moves: Optional[int]

    def __init__(
        self,
        *,
        time: Optional[float] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        mate: Optional[int] = None,
        red_clock: Optional[float] = None,
        black_clock: Optional[float] = None,
        red_inc: Optional[float] = None,
        black_inc: Optional[float] = None,
        remaining_moves: Optional[int] = None,
        white_clock: Optional[float] = None,
        white_inc: Optional[float] = None,
    ) -> None:
        for red_name, red, white_name, white in (
            ("red_clock", red_clock, "white_clock", white_clock),
            ("red_inc", red_inc, "white_inc", white_inc),
        ):
            if red is not None and white is not None:
                raise ValueError(f"give {red_name} or its python-chess spelling {white_name}, not both")
        values: _LimitKeywords = {
            "time": time,
            "depth": depth,
            "nodes": nodes,
            "mate": mate,
            "red_clock": red_clock if red_clock is not None else white_clock,
            "black_clock": black_clock,
            "red_inc": red_inc if red_inc is not None else white_inc,
            "black_inc": black_inc,
            "remaining_moves": remaining_moves,
        }
        # The same checks as every search's, so a bad limit fails where it is made.
        _check_limit(**values)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def white_clock(self) -> Optional[float]:
        """Red's clock under python-chess's name (White is Red)."""
        return self.red_clock

    @property
    def white_inc(self) -> Optional[float]:
        """Red's increment under python-chess's name (White is Red)."""
        return self.red_inc

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Limit cannot be changed: make a new one (setting {name})")

    def _keywords(self) -> _LimitKeywords:
        keywords: _LimitKeywords = {
            "time": self.time,
            "depth": self.depth,
            "nodes": self.nodes,
            "mate": self.mate,
            "red_clock": self.red_clock,
            "black_clock": self.black_clock,
            "red_inc": self.red_inc,
            "black_inc": self.black_inc,
            "remaining_moves": self.remaining_moves,
        }
        return keywords

    def __getstate__(self) -> _LimitKeywords:
        return self._keywords()

    def __setstate__(self, state: _LimitKeywords) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Limit):
            return NotImplemented
        return self._keywords() == other._keywords()

    def __hash__(self) -> int:
        return hash(tuple(self._keywords().values()))

    def __repr__(self) -> str:
        given = ", ".join(f"{name}={value!r}" for name, value in self._keywords().items() if value is not None)
        return f"Limit({given})"


def Cp(cp: int) -> Score:
    """A centipawn score, ``Score(cp=cp)`` (python-chess's ``Cp``)."""
    return Score(cp=cp)


def Mate(moves: int) -> Score:
    """A mate score, ``Score(mate=moves)``: positive when this side mates in
    ``moves``, negative (or 0) when it is mated (python-chess's ``Mate``)."""
    return Score(mate=moves)


def _multipv(multipv: Optional[int]) -> Optional[int]:
    # 0 is no number of lines: an error, not one line (python-chess says so too).
    if multipv is not None and multipv < 1:
        raise ValueError(f"multipv {multipv} is not a number of lines: give 1 or more")
    return multipv


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
            multipv=_multipv(multipv),
            timeout=timeout,
            **limit._keywords(),
        )
        lines = result.lines
        if multipv is not None:
            return list(lines)
        if not lines:
            raise EngineProtocolError(f"{self.name} reported no analysis (no info line with a score)")
        return lines[0]

    def analysis(
        self,
        board: Board,
        limit: Limit,
        *,
        multipv: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> AnalysisResult:
        """Starts analysing the board's position and returns at once: iterate
        the :class:`AnalysisResult` for each line as it comes, read its
        ``info`` (the best line so far), ``stop()`` it, ``wait()`` for the
        :class:`EngineResult`; as a context manager it stops and waits on
        exit. The built-in search reports every completed depth; an external
        engine's lines come when its search ends. A limit is needed (an
        external engine cannot be stopped mid-search here)."""
        return AnalysisResult.start(
            self._client,
            board,
            multipv=_multipv(multipv),
            timeout=timeout,
            **limit._keywords(),
        )

    def play(self, board: Board, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        """The move the engine plays in the board's position."""
        result = self._client.search(
            board, timeout=timeout, **limit._keywords()
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
    (formats and thresholds: ``xiangqi/guide/engine-client.md``). Returns one
    :class:`MoveReview` per move (for tables and evaluation plots)."""
    client = engine.client if isinstance(engine, SimpleEngine) else engine
    return _annotate(game, client, timeout=timeout, **limit._keywords())


class AsyncEngine:
    """An engine for ``asyncio`` code, as python-chess's protocol objects:
    every method is a coroutine that runs the blocking call on a worker
    thread (``asyncio.to_thread``), so the event loop keeps running while
    the engine searches. Made by :func:`popen_uci`, :func:`popen_ucci`,
    :func:`popen_xboard` or :meth:`builtin`."""

    def __init__(self, engine: SimpleEngine) -> None:
        self._engine = engine

    @classmethod
    async def builtin(cls, *, hash_mb: Optional[int] = None, threads: Optional[int] = None) -> AsyncEngine:
        """The built-in search (see :meth:`SimpleEngine.builtin`)."""
        return cls(await asyncio.to_thread(SimpleEngine.builtin, hash_mb=hash_mb, threads=threads))

    @property
    def engine(self) -> SimpleEngine:
        """The synchronous engine underneath."""
        return self._engine

    @property
    def id(self) -> Mapping[str, str]:
        return self._engine.id

    async def configure(self, options: Mapping[str, OptionValue]) -> None:
        await asyncio.to_thread(self._engine.configure, options)

    async def analyse(
        self, board: Board, limit: Limit, *, multipv: Optional[int] = None, timeout: Optional[float] = None
    ) -> Union[EngineInfo, list[EngineInfo]]:
        """:meth:`SimpleEngine.analyse`, awaited."""
        if multipv is None:
            return await asyncio.to_thread(self._engine.analyse, board, limit, timeout=timeout)
        return await asyncio.to_thread(self._engine.analyse, board, limit, multipv=multipv, timeout=timeout)

    async def analysis(
        self, board: Board, limit: Limit, *, multipv: Optional[int] = None, timeout: Optional[float] = None
    ) -> AnalysisResult:
        """:meth:`SimpleEngine.analysis`: the running analysis (its
        ``wait()`` blocks; await ``asyncio.to_thread(analysis.wait)``)."""
        return self._engine.analysis(board, limit, multipv=multipv, timeout=timeout)

    async def play(self, board: Board, limit: Limit, *, timeout: Optional[float] = None) -> PlayResult:
        """:meth:`SimpleEngine.play`, awaited."""
        return await asyncio.to_thread(self._engine.play, board, limit, timeout=timeout)

    async def quit(self) -> None:
        await asyncio.to_thread(self._engine.quit)

    def __repr__(self) -> str:
        return f"<AsyncEngine {self._engine.name!r} ({self._engine.protocol})>"


async def popen_uci(
    command: Command,
    *,
    options: Optional[Mapping[str, OptionValue]] = None,
    ranks: Optional[int] = None,
    timeout: float = 10.0,
) -> AsyncEngine:
    """Starts a UCI engine for ``asyncio`` code: ``engine = await
    xiangqi.engine.popen_uci("pikafish")``. Different from python-chess,
    which returns a ``(transport, protocol)`` pair: the engine alone (its
    ``quit()`` ends the process)."""
    return AsyncEngine(
        await asyncio.to_thread(SimpleEngine.popen_uci, command, options=options, ranks=ranks, timeout=timeout)
    )


async def popen_ucci(
    command: Command, *, options: Optional[Mapping[str, OptionValue]] = None, timeout: float = 10.0
) -> AsyncEngine:
    """:func:`popen_uci` for a UCCI engine."""
    return AsyncEngine(await asyncio.to_thread(SimpleEngine.popen_ucci, command, options=options, timeout=timeout))


async def popen_xboard(
    command: Command, *, options: Optional[Mapping[str, OptionValue]] = None, timeout: float = 10.0
) -> AsyncEngine:
    """:func:`popen_uci` for an xboard/CECP engine."""
    return AsyncEngine(
        await asyncio.to_thread(SimpleEngine.popen_xboard, command, options=options, timeout=timeout)
    )
