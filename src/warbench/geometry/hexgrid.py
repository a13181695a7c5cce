"""Hex-grid maths: coordinates, distances, rings, lines, labels and least-cost movement.

Ruleset-independent: nothing here knows what a unit, a terrain or a zone of control
is. Rulesets build on these pieces. The formulation is Red Blob Games' ("Hexagonal
Grids", https://www.redblobgames.com/grids/hexagons/): axial coordinates ``(q, r)``
with the implied cube coordinate ``s = -q - r``.

Orientation. Hexes are *flat-topped* and stacked in vertical columns. Screen
coordinates: x grows to the right, y grows DOWN. Axial ``q`` grows to the right
(east-south-east); axial ``r`` grows straight down (south).

Directions. ``DIRECTIONS[d]`` is the axial step ``(dq, dr)`` for direction ``d``,
numbered clockwise from north::

    0 N  (0, -1)    1 NE (+1, -1)    2 SE (+1, 0)
    3 S  (0, +1)    4 SW (-1, +1)    5 NW (-1, 0)

The opposite of direction ``d`` is ``(d + 3) % 6``.

Offset layout (what people read on a printed map). Columns are numbered 1, 2, ...
from left to right and rows 1, 2, ... from top to bottom. EVEN-numbered columns
(02, 04, ...) sit half a hex lower than the odd ones::

      ____        ____
     /    \\      /    \\
    / 0101 \\____/ 0301 \\
    \\      /    \\      /
     \\____/ 0201 \\____/
     /    \\      /    \\
    / 0102 \\____/ 0302 \\
    \\      /    \\      /
     \\____/ 0202 \\____/

That is Red Blob's "odd-q" layout in 0-based terms: with ``x = column - 1`` and
``y = row - 1``, ``q = x`` and ``r = y - (x - (x & 1)) // 2``. Hex ``0101`` is
``Hex(0, 0)``.

Labels. ``"0405"`` is column 04, row 05: two zero-padded digits per part; when the
column or the row reaches 100 both parts get 3 digits (``"101012"``), and so on.
Labels are for people (scenario files, logs, screens); code passes :class:`Hex`.

>>> Hex.from_label("0405").label
'0405'
>>> Hex.from_label("0101").distance(Hex.from_label("0401"))
3
>>> Hex.from_label("0101").distance(Hex.from_label("0404"))
5
>>> HexGrid(20, 12).parse("2105")
Traceback (most recent call last):
...
warbench.geometry.hexgrid.HexError: hex 2105 is off the 20x12 map
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Container, Iterator, Mapping, Sequence
from typing import Final, NamedTuple

from warbench.errors import excerpt

__all__ = [
    "DIRECTIONS",
    "DIRECTION_NAMES",
    "MAX_LABEL_DIGITS",
    "Hex",
    "HexError",
    "HexGrid",
    "Hexside",
    "Layout",
    "path_to",
    "reachable",
    "reachable_with_paths",
]


class HexError(ValueError):
    """A hex-grid invariant was broken: bad label, bad direction, off the map..."""


DIRECTIONS: Final[tuple[tuple[int, int], ...]] = (
    (0, -1),  # 0 N
    (1, -1),  # 1 NE
    (1, 0),  # 2 SE
    (0, 1),  # 3 S
    (-1, 1),  # 4 SW
    (-1, 0),  # 5 NW
)
"""Axial ``(dq, dr)`` unit steps, clockwise from north: N, NE, SE, S, SW, NW."""

DIRECTION_NAMES: Final[tuple[str, ...]] = ("N", "NE", "SE", "S", "SW", "NW")

# Cube (dq, dr, ds) versions of DIRECTIONS, for the line algorithms.
_CUBE_DIRECTIONS: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (dq, dr, -dq - dr) for dq, dr in DIRECTIONS
)
# (dq, dr) -> direction number, for adjacency tests without building Hex objects.
_DIRECTION_OF: Final[dict[tuple[int, int], int]] = {d: i for i, d in enumerate(DIRECTIONS)}


class Hex(NamedTuple):
    """One hex in axial coordinates ``(q, r)``; the cube coordinate is ``s = -q - r``.

    Immutable, hashable and ordered by ``(q, r)``. On a :class:`HexGrid` that order
    is label order (column by column, top to bottom within a column). ``Hex(0, 0)``
    is hex ``0101``.

    >>> Hex(2, -1).s
    -1
    >>> Hex(1, 2) + Hex(3, -1)
    Hex(q=4, r=1)
    >>> Hex(0, 0).neighbour(2)
    Hex(q=1, r=0)
    >>> Hex(0, 0).distance(Hex(3, -1))
    3
    """

    q: int
    r: int

    # A NamedTuple, not a dataclass: hashing and comparing are then done in C,
    # and dictionary lookups keyed by Hex are the hot path of every simulation.
    # (A Hex equals the plain tuple (q, r); code here never mixes the two.)

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in ``direction`` (0 = N, clockwise; see ``DIRECTIONS``).

        >>> Hex.from_label("0202").neighbour(0).label
        '0201'
        >>> Hex(0, 0).neighbour(6)
        Traceback (most recent call last):
        ...
        warbench.geometry.hexgrid.HexError: direction must be 0..5, got 6
        """
        if not 0 <= direction <= 5:
            raise HexError(f"direction must be 0..5, got {direction!r}")
        dq, dr = DIRECTIONS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The 6 adjacent hexes, in direction order (N, NE, SE, S, SW, NW).

        On a map, prefer :meth:`HexGrid.neighbours_on_map` (precomputed, no allocation).
        """
        q, r = self.q, self.r
        return (
            Hex(q, r - 1),
            Hex(q + 1, r - 1),
            Hex(q + 1, r),
            Hex(q, r + 1),
            Hex(q - 1, r + 1),
            Hex(q - 1, r),
        )

    def direction_to(self, other: Hex) -> int:
        """The direction (0..5) from this hex to the adjacent hex ``other``.

        >>> Hex(0, 0).direction_to(Hex(-1, 1))
        4
        """
        direction = _DIRECTION_OF.get((other.q - self.q, other.r - self.r))
        if direction is None:
            raise HexError(f"hexes {_name(self)} and {_name(other)} are not adjacent")
        return direction

    def distance(self, other: Hex) -> int:
        """Number of hex steps between the two hexes (0 for the same hex).

        >>> Hex.from_label("0101").distance(Hex.from_label("0301"))
        2
        """
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) >> 1

    def ring(self, radius: int) -> list[Hex]:
        """The ``6 * radius`` hexes at exactly ``radius`` steps; ``[self]`` for radius 0.

        Order: starting with the hex due north, going clockwise.

        >>> Hex(0, 0).ring(1) == list(Hex(0, 0).neighbours())
        True
        """
        if radius < 0:
            raise HexError(f"radius must be >= 0, got {radius}")
        if radius == 0:
            return [self]
        q = self.q
        r = self.r - radius  # due north
        out: list[Hex] = []
        append = out.append
        # From the north corner, walk SE, S, SW, NW, N, NE for `radius` steps each.
        for dq, dr in DIRECTIONS[2:] + DIRECTIONS[:2]:
            for _ in range(radius):
                append(Hex(q, r))
                q += dq
                r += dr
        return out

    def within(self, radius: int) -> list[Hex]:
        """All ``3 * radius * (radius + 1) + 1`` hexes at distance <= ``radius``, sorted.

        >>> len(Hex(5, 5).within(2))
        19
        """
        if radius < 0:
            raise HexError(f"radius must be >= 0, got {radius}")
        q0, r0 = self.q, self.r
        return [
            Hex(q0 + dq, r0 + dr)
            for dq in range(-radius, radius + 1)
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1)
        ]

    def line_to(self, other: Hex) -> list[tuple[Hex, ...]]:
        """The hexes a straight line from this centre to ``other``'s centre passes, in order.

        Red Blob's line: ``distance + 1`` evenly spaced points along the line, each
        mapped to the hex it lies in. Each step is a 1-tuple, or a 2-tuple (sorted)
        when that point lies EXACTLY on the edge between two hexes (computed with
        exact integer arithmetic; equivalently, lines nudged by +eps and by -eps
        disagree there). The geometry reports both hexes; the ruleset decides what a
        pair means (e.g. "blocked only if both block"). The first step is
        ``(self,)``, the last ``(other,)``; a line to itself is ``[(self,)]``.

        Two cases give a pair:

        * the line runs along the edge: the 6 "diagonal" directions, multiples of
          cube (2, -1, -1); e.g. ``Hex(0, 0)`` to ``Hex(2, -1)`` (0101 to 0301)
          runs between ``Hex(1, -1)`` and ``Hex(1, 0)``;
        * the line crosses an edge exactly at its midpoint (e.g. ``Hex(0, 0)`` to
          ``Hex(4, -1)`` at half way); then it truly enters BOTH hexes.

        Caution: ``distance + 1`` points can skip a hex whose corner the line clips
        (``Hex(0, 0)`` to ``Hex(-6, -1)`` clips ``Hex(-2, -1)`` and ``Hex(-4, 0)``,
        which this omits). For "every hex the line enters" use
        :meth:`hexes_crossed_to`.

        >>> [tuple(h.label for h in step) for step in
        ...  Hex.from_label("0102").line_to(Hex.from_label("0302"))]
        [('0102',), ('0201', '0202'), ('0302',)]
        """
        n = self.distance(other)
        if n == 0:
            return [(self,)]
        aq, ar = self.q, self.r
        dq = other.q - aq
        dr = other.r - ar
        ds = -dq - dr
        # Point i, scaled by n so it is integral: X = n * A + i * D (cube).
        xq = aq * n
        xr = ar * n
        xs = (-aq - ar) * n
        two_n = 2 * n
        steps: list[tuple[Hex, ...]] = [(self,)]
        append = steps.append
        for _ in range(n - 1):
            xq += dq
            xr += dr
            xs += ds
            # Round each coordinate of X / n half-up, then fix the worst one (Red Blob).
            cq = (2 * xq + n) // two_n
            cr = (2 * xr + n) // two_n
            cs = (2 * xs + n) // two_n
            if cq + cr + cs:
                eq = abs(xq - cq * n)
                er = abs(xr - cr * n)
                es = abs(xs - cs * n)
                if eq > er and eq > es:
                    cq = -cr - cs
                elif er > es:
                    cr = -cq - cs
                else:
                    cs = -cq - cr
            centre = Hex(cq, cr)
            # Offset from that centre (scaled). The point is on the edge towards the
            # neighbour in cube direction d iff offset . d == n (the perpendicular
            # bisector). A sample point is never a vertex, so at most one edge matches.
            oq = xq - cq * n
            o_r = xr - cr * n
            os_ = xs - cs * n
            u = oq - o_r  # . NE (+1, -1, 0); SW is -u
            v = oq - os_  # . SE (+1, 0, -1); NW is -v
            w = o_r - os_  # . S (0, +1, -1); N is -w
            if u == n:
                append(_pair(centre, Hex(cq + 1, cr - 1)))
            elif u == -n:
                append(_pair(centre, Hex(cq - 1, cr + 1)))
            elif v == n:
                append(_pair(centre, Hex(cq + 1, cr)))
            elif v == -n:
                append(_pair(centre, Hex(cq - 1, cr)))
            elif w == n:
                append(_pair(centre, Hex(cq, cr + 1)))
            elif w == -n:
                append(_pair(centre, Hex(cq, cr - 1)))
            else:
                append((centre,))
        append((other,))
        return steps

    def hexes_crossed_to(self, other: Hex) -> list[tuple[Hex, ...]]:
        """Every hex the straight centre-to-centre line enters, in order (exact).

        Unlike :meth:`line_to` this never skips a hex whose corner the line clips, so
        it can be longer than ``distance + 1``. A 1-tuple is a hex whose interior the
        line passes through; a sorted 2-tuple is an edge the line runs ALONG (only
        the 6 diagonal directions do). Touching a hex at a single corner point is not
        entering it. Computed with exact integer arithmetic.

        >>> len(Hex(0, 0).line_to(Hex(4, -1))), len(Hex(0, 0).hexes_crossed_to(Hex(4, -1)))
        (5, 6)
        """
        if self == other:
            return [(self,)]
        aq, ar = self.q, self.r
        dq = other.q - aq
        dr = other.r - ar
        ds = -dq - dr
        # D . d per direction; only directions the line heads towards (> 0) are exits.
        heading = [dq * cq + dr * cr + ds * cs for cq, cr, cs in _CUBE_DIRECTIONS]
        exits = [k for k in range(6) if heading[k] > 0]
        steps: list[tuple[Hex, ...]] = [(self,)]
        append = steps.append
        hq, hr = aq, ar  # current hex
        tq, tr = other.q, other.r
        while hq != tq or hr != tr:
            # The line A + t D leaves hex C through the bisector towards C + d at
            # t = (1 - (A - C) . d) / (D . d). Take the smallest; keep a tie.
            oq = aq - hq
            o_r = ar - hr
            os_ = -oq - o_r
            best_num = 0
            best_den = 1
            first = second = -1
            for k in exits:
                cq, cr, cs = _CUBE_DIRECTIONS[k]
                num = 1 - (oq * cq + o_r * cr + os_ * cs)
                den = heading[k]
                if first < 0 or num * best_den < best_num * den:
                    best_num, best_den, first, second = num, den, k, -1
                elif num * best_den == best_num * den:
                    second = k
            d1q, d1r = DIRECTIONS[first]
            if second < 0:  # through the inside of an edge
                hq += d1q
                hr += d1r
            else:
                # Through the corner shared with C + d1 and C + d2 (adjacent
                # directions). Next is whichever of the two the line heads towards
                # (D . (d2 - d1) says), or the edge between them if it runs along it.
                d2q, d2r = DIRECTIONS[second]
                toward = heading[second] - heading[first]
                if toward > 0:
                    hq += d2q
                    hr += d2r
                elif toward < 0:
                    hq += d1q
                    hr += d1r
                else:
                    append(_pair(Hex(hq + d1q, hr + d1r), Hex(hq + d2q, hr + d2r)))
                    hq += d1q + d2q
                    hr += d1r + d2r
            append((Hex(hq, hr),))
        return steps

    def to_offset(self) -> tuple[int, int]:
        """``(column, row)``, both 1-based, in the layout of the module docstring.

        >>> Hex(0, 0).to_offset(), Hex(1, 0).to_offset(), Hex(2, -1).to_offset()
        ((1, 1), (2, 1), (3, 1))
        """
        q = self.q
        return q + 1, self.r + ((q - (q & 1)) >> 1) + 1

    @classmethod
    def from_offset(cls, column: int, row: int) -> Hex:
        """The hex at 1-based ``(column, row)``; the inverse of :meth:`to_offset`.

        Any integers are accepted (columns < 1 are simply left of the map).
        """
        x = column - 1
        return cls(x, row - 1 - ((x - (x & 1)) >> 1))

    @property
    def label(self) -> str:
        """``"CCRR"``: zero-padded column then row, e.g. ``"0405"``; ``"101012"`` past 99.

        Raises :class:`HexError` for a hex left of column 1 or above row 1.

        >>> Hex.from_offset(4, 5).label, Hex.from_offset(101, 12).label
        ('0405', '101012')
        """
        found = _LABELS.get(self)
        if found is not None:
            return found
        column, row = self.to_offset()
        if column < 1 or row < 1:
            raise HexError(f"{self!r} is at column {column}, row {row}: labels need both >= 1")
        if column < 100 and row < 100:
            found = f"{column:02d}{row:02d}"
        else:
            width = len(str(max(column, row)))
            found = f"{column:0{width}d}{row:0{width}d}"
        if len(_LABELS) < _LABEL_CACHE_SIZE:
            _LABELS[self] = found  # labels are asked for on every event; keep them
        return found

    @classmethod
    def from_label(cls, text: str) -> Hex:
        """Parse a label: an even number (>= 4) of ASCII digits, split in half.

        Non-canonical padding is accepted (``"004005"`` is ``"0405"``). Errors
        quote at most an excerpt of ``text``, and a label longer than
        :data:`MAX_LABEL_DIGITS` is refused before any number is read from it.

        >>> Hex.from_label("0405").to_offset()
        (4, 5)
        >>> Hex.from_label("405")
        Traceback (most recent call last):
        ...
        warbench.geometry.hexgrid.HexError: bad hex label '405': want an even number (>= 4) \
of digits, like '0405'
        >>> Hex.from_label("9" * 8600)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        warbench.geometry.hexgrid.HexError: bad hex label '999...(8600 characters)': a label has \
at most 16 digits
        """
        if not isinstance(text, str):
            raise HexError(f"a hex label is text like '0405', not {type(text).__name__}")
        n = len(text)
        if n > MAX_LABEL_DIGITS:
            raise HexError(
                f"bad hex label '{excerpt(text)}': a label has at most {MAX_LABEL_DIGITS} digits"
            )
        if n < 4 or n % 2 or not (text.isascii() and text.isdigit()):
            raise HexError(
                f"bad hex label '{excerpt(text)}': want an even number (>= 4) of digits, "
                "like '0405'"
            )
        half = n // 2
        column = int(text[:half])
        row = int(text[half:])
        if column < 1 or row < 1:
            raise HexError(f"bad hex label '{text}': columns and rows are numbered from 1")
        return cls.from_offset(column, row)


MAX_LABEL_DIGITS: Final = 16
"""The longest hex label :meth:`Hex.from_label` reads (columns and rows up to 8 digits):
far beyond any map, short enough that no label costs anything to parse or to quote."""
_LABEL_CACHE_SIZE: Final = 100_000
_LABELS: dict[Hex, str] = {}


def _name(h: Hex) -> str:
    """The label if the hex has one, else its repr (for error messages)."""
    column, row = h.to_offset()
    return h.label if column >= 1 and row >= 1 else repr(h)


def _pair(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    if a.q < b.q or (a.q == b.q and a.r < b.r):
        return (a, b)
    return (b, a)


class Hexside(NamedTuple):
    """The edge between two ADJACENT hexes; ``Hexside.of(a, b) == Hexside.of(b, a)``.

    Stored normalised: ``a < b`` in :class:`Hex` order. Build with :meth:`of`;
    the constructor does not check or reorder.

    >>> Hexside.of(Hex(1, 0), Hex(0, 0)).hexes
    (Hex(q=0, r=0), Hex(q=1, r=0))
    """

    a: Hex
    b: Hex

    @classmethod
    def of(cls, a: Hex, b: Hex) -> Hexside:
        """The hexside between ``a`` and ``b`` in either order; HexError if not adjacent.

        >>> Hexside.of(Hex(0, 0), Hex(2, 0))
        Traceback (most recent call last):
        ...
        warbench.geometry.hexgrid.HexError: hexes 0101 and 0302 are not adjacent
        """
        if (b.q - a.q, b.r - a.r) not in _DIRECTION_OF:
            raise HexError(f"hexes {_name(a)} and {_name(b)} are not adjacent")
        if a < b:
            return cls(a, b)
        return cls(b, a)

    @property
    def hexes(self) -> tuple[Hex, Hex]:
        """The two hexes, lower first."""
        return (self.a, self.b)


class HexGrid:
    """A rectangular map of ``columns`` x ``rows`` hexes in the offset layout.

    Tables are built once: the hexes in label order (column-major: 0101, 0102, ...,
    0201, ...; the same as sorted :class:`Hex` order), a dense index per hex
    (``(column - 1) * rows + (row - 1)``), and each hex's on-map neighbours. The Hex
    objects handed out are shared, so dictionaries keyed by them hit fast.

    >>> grid = HexGrid(20, 12)
    >>> len(grid.hexes), grid.hexes[0].label, grid.hexes[12].label
    (240, '0101', '0201')
    >>> [h.label for h in grid.neighbours_on_map(grid.parse("0101"))]
    ['0201', '0102']
    """

    __slots__ = ("_columns", "_hexes", "_index", "_neighbours", "_rows")

    def __init__(self, columns: int, rows: int) -> None:
        if columns < 1 or rows < 1:
            raise HexError(f"a map needs at least 1 column and 1 row, got {columns}x{rows}")
        self._columns = columns
        self._rows = rows
        self._hexes = tuple(
            Hex.from_offset(column, row)
            for column in range(1, columns + 1)
            for row in range(1, rows + 1)
        )
        self._index = {h: i for i, h in enumerate(self._hexes)}
        index = self._index
        hexes = self._hexes
        self._neighbours: dict[Hex, tuple[Hex, ...]] = {
            h: tuple(hexes[index[n]] for n in h.neighbours() if n in index) for h in hexes
        }

    @property
    def columns(self) -> int:
        return self._columns

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """All hexes in label order (column-major)."""
        return self._hexes

    def __repr__(self) -> str:
        return f"HexGrid({self._columns}, {self._rows})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HexGrid):
            return (self._columns, self._rows) == (other._columns, other._rows)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._columns, self._rows))

    def __len__(self) -> int:
        return len(self._hexes)

    def __iter__(self) -> Iterator[Hex]:
        return iter(self._hexes)

    def __contains__(self, h: object) -> bool:
        return h in self._index

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` is on the map."""
        return h in self._index

    def index(self, h: Hex) -> int:
        """Dense index of ``h`` in ``0 .. len - 1`` (its position in :attr:`hexes`)."""
        try:
            return self._index[h]
        except KeyError:
            raise self._off_map(h) from None

    def hex_at(self, i: int) -> Hex:
        """The hex with dense index ``i`` (no negative indexing)."""
        if not 0 <= i < len(self._hexes):
            raise HexError(f"hex index {i} is outside 0..{len(self._hexes) - 1}")
        return self._hexes[i]

    def neighbours_on_map(self, h: Hex) -> tuple[Hex, ...]:
        """The on-map neighbours of on-map ``h``, in direction order (precomputed)."""
        try:
            return self._neighbours[h]
        except KeyError:
            raise self._off_map(h) from None

    def parse(self, label: str) -> Hex:
        """The on-map hex with this label; HexError for bad text or off the map.

        >>> HexGrid(20, 12).parse("0405")
        Hex(q=3, r=3)
        """
        h = Hex.from_label(label)
        try:
            return self._hexes[self._index[h]]
        except KeyError:
            raise self._off_map(h) from None

    def step_costs(
        self, cost: Callable[[Hex, Hex], int | None]
    ) -> dict[Hex, tuple[tuple[Hex, int], ...]]:
        """Build the ``step_cost`` table for :func:`reachable` from a cost function.

        ``cost(here, there)`` is the cost to enter adjacent ``there`` from ``here``,
        or ``None`` if that step is impossible. Only on-map steps are considered.

        >>> grid = HexGrid(3, 3)
        >>> table = grid.step_costs(lambda a, b: 1)
        >>> reachable(grid.parse("0101"), 1, table) == {
        ...     grid.parse(x): c for x, c in [("0101", 0), ("0201", 1), ("0102", 1)]}
        True
        """
        table: dict[Hex, tuple[tuple[Hex, int], ...]] = {}
        for here in self._hexes:
            steps: list[tuple[Hex, int]] = []
            for there in self._neighbours[here]:
                c = cost(here, there)
                if c is not None:
                    steps.append((there, c))
            table[here] = tuple(steps)
        return table

    def _off_map(self, h: Hex) -> HexError:
        return HexError(f"hex {_name(h)} is off the {self._columns}x{self._rows} map")


_NO_HEXES: Final[frozenset[Hex]] = frozenset()


def reachable(
    start: Hex,
    budget: int,
    step_cost: Mapping[Hex, Sequence[tuple[Hex, int]]],
    blocked: Container[Hex] = _NO_HEXES,
    stops: Container[Hex] = _NO_HEXES,
) -> dict[Hex, int]:
    """Every hex reachable from ``start`` within ``budget`` -> its least cost (start -> 0).

    Dijkstra over integer costs (use integer units, e.g. half movement points).

    * ``step_cost[h]`` lists ``(neighbour, cost to enter it from h)`` for every
      neighbour that may be entered from ``h``; a hex absent from the mapping has no
      exits. Costs must be >= 0.
    * ``blocked`` hexes are never entered (e.g. enemy units).
    * ``stops`` hexes may be entered but movement ends there (e.g. zones of
      control). ``start`` is never a stop, so a unit may always leave its hex.
    * Hexes that may be passed through but not ended in (stacking limits) are the
      caller's filter on the result.

    >>> a, b, c = Hex(0, 0), Hex(1, 0), Hex(2, 0)
    >>> reachable(a, 3, {a: [(b, 1)], b: [(c, 2)]}) == {a: 0, b: 1, c: 3}
    True
    >>> reachable(a, 3, {a: [(b, 1)], b: [(c, 2)]}, stops={b}) == {a: 0, b: 1}
    True
    """
    return reachable_with_paths(start, budget, step_cost, blocked, stops)[0]


def reachable_with_paths(
    start: Hex,
    budget: int,
    step_cost: Mapping[Hex, Sequence[tuple[Hex, int]]],
    blocked: Container[Hex] = _NO_HEXES,
    stops: Container[Hex] = _NO_HEXES,
) -> tuple[dict[Hex, int], dict[Hex, Hex]]:
    """Like :func:`reachable`, plus each reached hex's predecessor on a least-cost path.

    ``start`` has no predecessor. Ties keep the first path found, so results are
    deterministic for a given ``step_cost`` order. Feed the map to :func:`path_to`.

    >>> a, b, c = Hex(0, 0), Hex(1, 0), Hex(2, 0)
    >>> costs, previous = reachable_with_paths(a, 3, {a: [(b, 1)], b: [(c, 2)]})
    >>> path_to(previous, a, c) == [a, b, c]
    True
    """
    if budget < 0:
        raise HexError(f"movement budget must be >= 0, got {budget}")
    best: dict[Hex, int] = {start: 0}
    previous: dict[Hex, Hex] = {}
    heap: list[tuple[int, int, Hex]] = [(0, 0, start)]
    push = heapq.heappush
    pop = heapq.heappop
    no_steps: tuple[tuple[Hex, int], ...] = ()
    get_steps = step_cost.get
    get_best = best.get
    check_blocked = bool(blocked)
    check_stops = bool(stops)
    seq = 0
    while heap:
        cost, _, here = pop(heap)
        if cost > best[here]:
            continue  # stale entry
        if check_stops and here is not start and here in stops:
            continue
        for there, step in get_steps(here, no_steps):
            new = cost + step
            if new > budget:
                continue
            old = get_best(there)
            if (old is None or new < old) and not (check_blocked and there in blocked):
                if step < 0:
                    raise HexError(f"negative step cost {step} into {_name(there)}")
                best[there] = new
                previous[there] = here
                seq += 1
                push(heap, (new, seq, there))
    return best, previous


def path_to(predecessors: Mapping[Hex, Hex], start: Hex, goal: Hex) -> list[Hex]:
    """The path ``start .. goal`` (both included) read back from a predecessor map.

    Raises :class:`HexError` if ``goal`` was not reached from ``start``.
    """
    path = [goal]
    here = goal
    limit = len(predecessors) + 1
    while here != start:
        try:
            here = predecessors[here]
        except KeyError:
            raise HexError(f"no path from {_name(start)} to {_name(goal)}") from None
        path.append(here)
        if len(path) > limit:
            raise HexError(f"predecessor map loops; no path from {_name(start)}")
    path.reverse()
    return path


_SQRT3: Final = math.sqrt(3.0)
# Corner i of a flat-top hex is at angle 60 * i degrees (0 = east; y grows down,
# so the corners go clockwise on screen starting from the east corner).
_CORNER_UNITS: Final[tuple[tuple[float, float], ...]] = tuple(
    (math.cos(math.radians(60 * i)), math.sin(math.radians(60 * i))) for i in range(6)
)


class Layout:
    """Pixel maths for flat-top hexes, kept apart from the grid maths (for renderers).

    ``size`` is the centre-to-corner distance: a hex is ``2 * size`` wide and
    ``sqrt(3) * size`` tall; columns are ``1.5 * size`` apart. ``Hex(0, 0)`` (hex
    0101) is centred on the origin; x grows right, y grows down.

    >>> [round(v, 3) for v in Layout.hex_to_pixel(Hex(1, 0), 10.0)]
    [15.0, 8.66]
    >>> Layout.pixel_to_hex(15.0, 9.0, 10.0)
    Hex(q=1, r=0)
    """

    __slots__ = ()

    @staticmethod
    def hex_to_pixel(h: Hex, size: float) -> tuple[float, float]:
        """Centre of ``h`` in pixels."""
        q = h.q
        return 1.5 * size * q, _SQRT3 * size * (h.r + 0.5 * q)

    @staticmethod
    def corners(h: Hex, size: float) -> list[tuple[float, float]]:
        """The 6 corners of ``h``: east first, then clockwise on screen (y down)."""
        q = h.q
        x = 1.5 * size * q
        y = _SQRT3 * size * (h.r + 0.5 * q)
        return [(x + size * cx, y + size * cy) for cx, cy in _CORNER_UNITS]

    @staticmethod
    def pixel_to_hex(x: float, y: float, size: float) -> Hex:
        """The hex containing pixel ``(x, y)`` (for mouse clicks)."""
        if size <= 0:
            raise HexError(f"hex size must be > 0, got {size}")
        fq = (2.0 / 3.0 * x) / size
        fr = (-1.0 / 3.0 * x + _SQRT3 / 3.0 * y) / size
        fs = -fq - fr
        q = round(fq)
        r = round(fr)
        s = round(fs)
        dq = abs(q - fq)
        dr = abs(r - fr)
        ds = abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return Hex(q, r)
