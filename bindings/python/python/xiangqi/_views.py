"""Live views onto a game record, as python-chess has them: ``Game.headers``
(a mutable mapping of the tags) and ``GameNode.nags`` (a mutable set).
Every edit goes straight into the record, so it shows in ``to_pgn()``;
nothing is a copy that would swallow an edit."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, MutableMapping, MutableSet

if TYPE_CHECKING:
    from xiangqi._xiangqi import Game, GameNode


class Headers(MutableMapping[str, str]):
    """The tag pairs of a ``Game``, in file order (new tags last), live:
    ``game.headers["Event"] = "y"`` changes the game. Setting ``Result``
    sets the game's result (``"1-0"``, ``"0-1"``, ``"1/2-1/2"`` or ``"*"``)."""

    __slots__ = ("_game",)

    def __init__(self, game: Game) -> None:
        self._game = game

    def __getitem__(self, name: str) -> str:
        for key, value in self._game._header_items():
            if key == name:
                return value
        raise KeyError(name)

    def __setitem__(self, name: str, value: str) -> None:
        self._game.set_header(name, value)

    def __delitem__(self, name: str) -> None:
        if not self._game._remove_header(name):
            raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        return iter([key for key, _ in self._game._header_items()])

    def __len__(self) -> int:
        return len(self._game._header_items())

    def __repr__(self) -> str:
        return f"Headers({dict(self._game._header_items())!r})"


class Nags(MutableSet[int]):
    """The numeric annotation glyphs of a move (``$1`` is 1), live:
    ``node.nags.add(1)`` annotates the move."""

    __slots__ = ("_node",)

    def __init__(self, node: GameNode) -> None:
        self._node = node

    def __contains__(self, value: object) -> bool:
        return value in self._node._nag_values()

    def __iter__(self) -> Iterator[int]:
        return iter(self._node._nag_values())

    def __len__(self) -> int:
        return len(self._node._nag_values())

    def add(self, value: int) -> None:
        self._node.nags = (*self._node._nag_values(), value)

    def discard(self, value: int) -> None:
        self._node.nags = [n for n in self._node._nag_values() if n != value]

    def __repr__(self) -> str:
        return f"Nags({set(self._node._nag_values())!r})"
