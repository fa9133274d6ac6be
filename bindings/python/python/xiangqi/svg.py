"""SVG pictures of xiangqi boards, for notebooks, web pages and reports.

>>> import xiangqi, xiangqi.svg
>>> board = xiangqi.Board()
>>> board.push_iccs("h2e2")
Move.from_iccs('h2e2')
>>> picture = xiangqi.svg.board(board, lastmove=board.peek(), size=360)
>>> picture.startswith("<svg")
True

The board is drawn as it is printed: 9 x 10 intersections, the river with
its label, the palace diagonals and the start marks of cannons and soldiers.
Pieces are discs bearing their Chinese characters, red or black.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union
from xml.sax.saxutils import escape

from xiangqi._xiangqi import Board, Color, Move, Piece, Square

SquareLike = Union[Square, str, int]
ArrowLike = Union[Move, str, Tuple[SquareLike, SquareLike], "Arrow"]

#: Distance between two intersections, in SVG user units.
CELL = 50
#: Space around the grid: room for half a disc and the coordinates.
MARGIN = 45
PIECE_RADIUS = 22.5

DEFAULT_COLORS = {
    "background": "#f0d9a6",
    "border": "#5a3a1a",
    "line": "#5a3a1a",
    "river text": "#6b4a24",
    "coord": "#5a3a1a",
    "disc": "#fbeed0",
    "disc edge": "#8a6a3a",
    "red": "#c0141c",
    "black": "#1a1a1a",
    "lastmove": "#2f7bd9",
    "check": "#ff0000",
    "arrow": "#15781b",
    "square": "#2f7bd9",
}

FONT = (
    "'Noto Serif CJK SC', 'Noto Sans CJK SC', 'Source Han Serif SC', 'KaiTi', "
    "'STKaiti', 'SimSun', 'WenQuanYi Zen Hei', 'Microsoft YaHei', serif"
)


class SvgWrapper(str):
    """An SVG document as a ``str`` that Jupyter displays as a picture."""

    def _repr_svg_(self) -> str:
        return self

    def _repr_html_(self) -> str:
        return self


class Arrow:
    """An arrow from ``tail`` to ``head`` (squares), drawn over the board."""

    __slots__ = ("tail", "head", "color")

    def __init__(self, tail: SquareLike, head: SquareLike, *, color: Optional[str] = None) -> None:
        self.tail = Square(tail)
        self.head = Square(head)
        self.color = color

    def __repr__(self) -> str:
        return f"Arrow({self.tail.name!r}, {self.head.name!r}, color={self.color!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Arrow)
            and (self.tail, self.head, self.color) == (other.tail, other.head, other.color)
        )

    def __hash__(self) -> int:
        return hash((self.tail, self.head, self.color))


def _arrow(spec: Any) -> Arrow:
    if isinstance(spec, Arrow):
        return spec
    if isinstance(spec, str):
        spec = Move.from_iccs(spec)
    if isinstance(spec, Move):
        return Arrow(spec.from_square, spec.to_square)
    if isinstance(spec, tuple) and len(spec) in (2, 3):
        color = spec[2] if len(spec) == 3 else None
        if color is not None and not isinstance(color, str):
            raise TypeError(f"arrow color must be a str, not {type(color).__name__}")
        return Arrow(spec[0], spec[1], color=color)
    raise TypeError(
        "an arrow is a Move, ICCS text, a (tail, head[, color]) tuple or an Arrow, "
        f"not {type(spec).__name__}"
    )


class _Geometry:
    def __init__(self, flipped: bool, margin: float) -> None:
        self.flipped = flipped
        self.margin = margin
        self.width = 8 * CELL + 2 * margin
        self.height = 9 * CELL + 2 * margin

    def point(self, file: int, rank: int) -> Tuple[float, float]:
        """Where the intersection (file, rank) is drawn."""
        col = 8 - file if self.flipped else file
        row = rank if self.flipped else 9 - rank
        return self.margin + col * CELL, self.margin + row * CELL

    def square(self, sq: Square) -> Tuple[float, float]:
        return self.point(sq.file, sq.rank)


def _line(x1: float, y1: float, x2: float, y2: float, color: str, width: float) -> str:
    return (
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" '
        f'stroke="{color}" stroke-width="{width:g}" stroke-linecap="square"/>'
    )


def _grid(geo: _Geometry, colors: Mapping[str, str]) -> List[str]:
    out = []
    line = colors["line"]
    # Ranks run across the whole board.
    for rank in range(10):
        x1, y = geo.point(0, rank)
        x2, _ = geo.point(8, rank)
        out.append(_line(x1, y, x2, y, line, 1.2))
    # The edge files cross the river; the inner files stop at it.
    for file in range(9):
        spans = [(0, 9)] if file in (0, 8) else [(0, 4), (5, 9)]
        for lo, hi in spans:
            x, y1 = geo.point(file, lo)
            _, y2 = geo.point(file, hi)
            out.append(_line(x, y1, x, y2, line, 1.2))
    # Palace diagonals.
    for lo, hi in ((0, 2), (7, 9)):
        for f1, f2 in ((3, 5), (5, 3)):
            x1, y1 = geo.point(f1, lo)
            x2, y2 = geo.point(f2, hi)
            out.append(_line(x1, y1, x2, y2, line, 1.2))
    # A frame just outside the grid.
    x0, y0 = geo.point(0, 9) if not geo.flipped else geo.point(8, 0)
    gap = 5
    out.append(
        f'<rect x="{x0 - gap:g}" y="{y0 - gap:g}" width="{8 * CELL + 2 * gap:g}" '
        f'height="{9 * CELL + 2 * gap:g}" fill="none" stroke="{colors["border"]}" '
        'stroke-width="3"/>'
    )
    out.extend(_start_marks(geo, line))
    return out


def _start_marks(geo: _Geometry, color: str) -> List[str]:
    """The little corner marks where cannons and soldiers start."""
    points = [(1, 2), (7, 2), (1, 7), (7, 7)]
    points += [(f, r) for r in (3, 6) for f in (0, 2, 4, 6, 8)]
    gap, arm = 4, 9
    out = []
    for file, rank in points:
        x, y = geo.point(file, rank)
        for dx in (-1, 1):
            # No mark outside the edge files.
            edge_file = file + (dx if not geo.flipped else -dx)
            if edge_file < 0 or edge_file > 8:
                continue
            for dy in (-1, 1):
                cx, cy = x + dx * gap, y + dy * gap
                out.append(
                    f'<polyline points="{cx + dx * arm:g},{cy:g} {cx:g},{cy:g} '
                    f'{cx:g},{cy + dy * arm:g}" fill="none" stroke="{color}" '
                    'stroke-width="1.2"/>'
                )
    return out


def _river(geo: _Geometry, colors: Mapping[str, str]) -> List[str]:
    _, y4 = geo.point(0, 4)
    _, y5 = geo.point(0, 5)
    y = (y4 + y5) / 2
    left = geo.margin + 2 * CELL
    right = geo.margin + 6 * CELL
    style = (
        f'font-family="{FONT}" font-size="{CELL * 0.62:g}" fill="{colors["river text"]}" '
        'text-anchor="middle" dominant-baseline="central"'
    )
    return [
        f'<text x="{left:g}" y="{y:g}" {style} letter-spacing="{CELL * 0.5:g}">楚河</text>',
        f'<text x="{right:g}" y="{y:g}" {style} letter-spacing="{CELL * 0.5:g}">漢界</text>',
    ]


def _coordinates(geo: _Geometry, colors: Mapping[str, str]) -> List[str]:
    out = []
    style = (
        f'font-family="sans-serif" font-size="13" fill="{colors["coord"]}" '
        'text-anchor="middle" dominant-baseline="central"'
    )
    offset = geo.margin - 12
    for file in range(9):
        x, _ = geo.point(file, 0)
        name = "abcdefghi"[file]
        out.append(f'<text x="{x:g}" y="{geo.height - 12:g}" {style}>{name}</text>')
        out.append(f'<text x="{x:g}" y="{12:g}" {style}>{name}</text>')
    for rank in range(10):
        _, y = geo.point(0, rank)
        out.append(f'<text x="{geo.margin - offset:g}" y="{y:g}" {style}>{rank}</text>')
        out.append(f'<text x="{geo.width - 12:g}" y="{y:g}" {style}>{rank}</text>')
    return out


def _disc(x: float, y: float, piece: Piece, colors: Mapping[str, str], simplified: bool) -> str:
    ink = colors["red"] if piece.color == Color.RED else colors["black"]
    char = escape(piece.chinese(simplified=simplified))
    r = PIECE_RADIUS
    return (
        f'<g class="piece {piece.color} {piece.kind}">'
        f'<circle cx="{x:g}" cy="{y + 1.5:g}" r="{r:g}" fill="#000" fill-opacity="0.18"/>'
        f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{colors["disc"]}" '
        f'stroke="{colors["disc edge"]}" stroke-width="1.5"/>'
        f'<circle cx="{x:g}" cy="{y:g}" r="{r - 3.5:g}" fill="none" stroke="{ink}" '
        'stroke-width="1.3"/>'
        f'<text x="{x:g}" y="{y:g}" font-family="{FONT}" font-size="{r * 1.15:g}" '
        f'font-weight="bold" fill="{ink}" text-anchor="middle" '
        f'dominant-baseline="central">{char}</text></g>'
    )


def _highlight(geo: _Geometry, sq: Square, color: str, *, dashed: bool) -> str:
    x, y = geo.square(sq)
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (
        f'<circle class="lastmove" cx="{x:g}" cy="{y:g}" r="{PIECE_RADIUS + 3:g}" '
        f'fill="{color}" fill-opacity="0.22" stroke="{color}" stroke-width="2.5"{dash}/>'
    )


def _check_glow(geo: _Geometry, sq: Square) -> str:
    x, y = geo.square(sq)
    return (
        f'<circle class="check" cx="{x:g}" cy="{y:g}" r="{PIECE_RADIUS * 1.6:g}" '
        'fill="url(#check_gradient)"/>'
    )


def _arrow_svg(geo: _Geometry, arrow: Arrow, default_color: str) -> str:
    color = arrow.color or default_color
    x1, y1 = geo.square(arrow.tail)
    x2, y2 = geo.square(arrow.head)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    if length == 0:
        # Tail and head on one point: a ring around it, as python-chess draws it.
        return (
            f'<circle class="arrow" cx="{x1:g}" cy="{y1:g}" r="{PIECE_RADIUS + 2:g}" '
            f'fill="none" stroke="{color}" stroke-width="4" opacity="0.75"/>'
        )
    ux, uy = dx / length, dy / length
    head_len, head_half, shaft = 18.0, 10.0, 6.0
    bx, by = x2 - ux * head_len, y2 - uy * head_len
    px, py = -uy, ux
    head = (
        f"{x2:g},{y2:g} {bx + px * head_half:g},{by + py * head_half:g} "
        f"{bx - px * head_half:g},{by - py * head_half:g}"
    )
    return (
        f'<g class="arrow" opacity="0.75">'
        f'<line x1="{x1:g}" y1="{y1:g}" x2="{bx:g}" y2="{by:g}" stroke="{color}" '
        f'stroke-width="{shaft:g}" stroke-linecap="round"/>'
        f'<polygon points="{head}" fill="{color}"/></g>'
    )


def board(
    board: Optional[Board] = None,
    *,
    flipped: bool = False,
    lastmove: Optional[Union[Move, str]] = None,
    check: Union[SquareLike, bool, None] = None,
    arrows: Iterable[ArrowLike] = (),
    squares: Iterable[SquareLike] = (),
    size: Optional[int] = None,
    coordinates: bool = True,
    simplified: bool = False,
    colors: Optional[Mapping[str, str]] = None,
) -> SvgWrapper:
    """Draws ``board`` (or an empty board) as SVG.

    * ``flipped``: Black at the bottom.
    * ``lastmove``: a ``Move`` (or ICCS text) whose origin and destination are marked.
    * ``check``: the square to mark as in check; by default the general of
      the side to move when it is in check; ``False`` marks nothing.
    * ``arrows``: ``Move``s, ICCS texts, ``(tail, head)`` or
      ``(tail, head, color)`` tuples, or ``Arrow`` objects.
    * ``squares``: points to mark with a dot (e.g. legal destinations).
    * ``size``: width in pixels (the height follows); default: natural size.
    * ``coordinates``: ICCS file letters and rank digits around the board.
    * ``simplified``: simplified characters on the pieces (车 马 炮 ...).
    * ``colors``: overrides for any key of ``DEFAULT_COLORS``.
    """
    if board is not None and not isinstance(board, Board):
        raise TypeError(f"board must be a xiangqi.Board or None, not {type(board).__name__}")
    if size is not None and (
        isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 100_000
    ):
        raise ValueError(f"size must be an int from 1 to 100000, not {size!r}")
    palette = dict(DEFAULT_COLORS)
    if colors is not None:
        if not isinstance(colors, Mapping):
            raise TypeError(f"colors must be a mapping, not {type(colors).__name__}")
        for key, value in colors.items():
            if key not in DEFAULT_COLORS:
                raise ValueError(f"unknown color key {key!r}; known: {sorted(DEFAULT_COLORS)}")
            if not isinstance(value, str):
                raise TypeError(f"color {key!r} must be a str, not {type(value).__name__}")
            palette[key] = escape(value, {'"': "&quot;"})
    if isinstance(lastmove, str):
        lastmove = Move.from_iccs(lastmove)
    if lastmove is not None and not isinstance(lastmove, Move):
        raise TypeError(f"lastmove must be a Move, ICCS text or None, not {type(lastmove).__name__}")
    arrow_list = [_arrow(a) for a in arrows]
    marks = [Square(s) for s in squares]
    if check is None or check is True:
        check_sq = (
            board.general(board.turn)
            if board is not None and board.is_valid(lenient=True) and board.is_check()
            else None
        )
    elif check is False:
        check_sq = None
    else:
        check_sq = Square(check)

    geo = _Geometry(bool(flipped), MARGIN)
    width = geo.width if size is None else size
    height = width * geo.height / geo.width
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'viewBox="0 0 {geo.width:g} {geo.height:g}" width="{width:g}" height="{height:g}">',
        "<defs>"
        '<radialGradient id="check_gradient" r="0.5">'
        f'<stop offset="0%" stop-color="{palette["check"]}" stop-opacity="1"/>'
        f'<stop offset="50%" stop-color="{palette["check"]}" stop-opacity="0.8"/>'
        f'<stop offset="100%" stop-color="{palette["check"]}" stop-opacity="0"/>'
        "</radialGradient></defs>",
        f'<rect x="0" y="0" width="{geo.width:g}" height="{geo.height:g}" '
        f'fill="{palette["background"]}"/>',
    ]
    out.extend(_grid(geo, palette))
    out.extend(_river(geo, palette))
    if coordinates:
        out.extend(_coordinates(geo, palette))
    if lastmove is not None:
        out.append(_highlight(geo, lastmove.from_square, palette["lastmove"], dashed=True))
        out.append(_highlight(geo, lastmove.to_square, palette["lastmove"], dashed=False))
    if check_sq is not None:
        out.append(_check_glow(geo, check_sq))
    if board is not None:
        for sq, piece in board.pieces().items():
            x, y = geo.square(sq)
            out.append(_disc(x, y, piece, palette, simplified))
    for sq in marks:
        x, y = geo.square(sq)
        out.append(
            f'<circle class="mark" cx="{x:g}" cy="{y:g}" r="6" fill="{palette["square"]}" '
            'fill-opacity="0.8"/>'
        )
    for arrow in arrow_list:
        out.append(_arrow_svg(geo, arrow, palette["arrow"]))
    out.append("</svg>")
    return SvgWrapper("".join(out))


def piece(piece: Piece, *, size: Optional[int] = None, simplified: bool = False) -> SvgWrapper:
    """Draws one piece as a disc bearing its character."""
    if not isinstance(piece, Piece):
        raise TypeError(f"piece must be a xiangqi.Piece, not {type(piece).__name__}")
    extent = 2 * PIECE_RADIUS + 4
    width = extent if size is None else size
    body = _disc(extent / 2, extent / 2, piece, DEFAULT_COLORS, simplified)
    return SvgWrapper(
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 {extent:g} '
        f'{extent:g}" width="{width:g}" height="{width:g}">{body}</svg>'
    )


__all__: Sequence[str] = ["board", "piece", "Arrow", "SvgWrapper", "DEFAULT_COLORS"]
