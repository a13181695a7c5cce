"""Moves in a miniatures player's words on an open table (VSGMR, MGV, Invisible Enemy).

A player at a table does not say "move R1 to 14.37,22.1"; they say "move R1
toward B2 6", "move R1 to the oak", "face R1 B2", "charge R1 B2". This module
reads those phrases and turns them into points and facings; each ruleset's
parser then builds its own concrete move from them (raw points and a facing,
whose text is what records store), and checks it with its own rules, so a
phrase is refused with the rules' reason when no legal move says it.

The phrases (each ruleset lists them in its ``usage()``):

=============================  ==========================================================
``move R1 toward B2 6``         6 inches straight toward B2 (a figure, feature or item;
                                a point X,Y is a step of the move language instead),
                                ending facing along the move, so toward it; never
                                farther than touching it. Without the inches: as far
                                as the rules let it go
``move R1 to oak``              to the nearest legal spot in the feature ``oak`` (a wood,
                                a field: the base wholly inside where it fits), or
                                touching it (a building, a wall, an item)
``face R1 B2``                  turn on the spot to face B2
``charge R1 B2``                straight into base contact with B2, facing it, where the
                                ruleset has an attack in contact (VSGMR: hand to hand)
=============================  ==========================================================

Names: a figure, feature (its id, or its label when that names one feature) or
item. Secrets: each ruleset passes only what the moving side may know; a name
outside it is refused in the very words of a name that does not exist
(:func:`name_spot`). Where the rules forbid measuring at a moment (MGV 5.3 range
guesses, Invisible Enemy 3.0 markers set down by hand), the ruleset refuses
every phrase before any name is read, so a phrase cannot measure for a player.

Points are snapped to the hundredth of an inch (never lengthening a move), so
the text a record stores is short and parses back to the very same move.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Generic, Literal, Protocol, TypeVar

import shapely

from warbench.core.actions import match_id
from warbench.errors import ActionSyntaxError, IllegalAction, excerpt
from warbench.geometry.table import Feature, Figure, Point, RectBase, RoundBase, heading
from warbench.geometry.table.text import as_facing, parse_number

PhraseKind = Literal["toward", "to", "face", "charge"]

GRID: Final = 0.01
"""Inches: phrase moves end on this grid (short text; a hundredth of an inch is below
anything a ruler on a table reads)."""
ANGLE_GRID: Final = 0.01
"""Degrees: a facing set by a phrase is rounded to this."""
SPOT_SAMPLES: Final = 48
"""Spots tried along a feature's edge for ``move R1 to FEATURE``, nearest first."""
MAX_TRIES: Final = 24
"""At most this many spots are checked against the rules (each is a full move check)."""
ROUTES: Final = 6
"""Spots tried by a way round obstacles when no straight move reaches the feature."""
BISECTIONS: Final = 30
"""Halvings when looking for the farthest legal distance or the point of contact."""

PHRASE_FORMS: Final = {
    "toward": "move {piece} toward TARGET [INCHES]   (straight; no INCHES: as far as it may)",
    "to": "move {piece} to {place}   (the nearest spot in it, or touching it)",
    "face": "face {piece} TARGET|DEGREES   (turn on the spot)",
    "charge": "charge {piece} TARGET   (straight into base contact)",
}
"""Usage lines of the phrases; ``{piece}`` is the ruleset's word (FIGURE, BASE), ``{place}``
what ``move to`` takes (FEATURE, FEATURE|ITEM)."""


def phrase_usage(piece: str, kinds: Sequence[str], place: str = "FEATURE") -> dict[str, str]:
    """The usage lines of the phrases ``kinds``, keyed ``move toward``, ``face``, ..."""
    keys = {"toward": "move toward", "to": "move to", "face": "face", "charge": "charge"}
    return {keys[k]: PHRASE_FORMS[k].format(piece=piece, place=place) for k in kinds}


# -- reading the words -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Phrase:
    """A phrase as typed: what moves, the kind, what it names, and the inches if given."""

    kind: PhraseKind
    mover: str
    target: str
    inches: float | None = None
    degrees: float | None = None
    """``face R1 90``: a facing in degrees instead of a target."""


def read_phrase(verb: str, args: Sequence[str], text: str) -> Phrase | None:
    """The phrase ``verb args`` says, or None if it is a raw form (``move R1 10,4``).

    Refuses a phrase whose words do not fit its form, saying the form.
    """
    if verb == "face":
        if len(args) != 2:
            raise ActionSyntaxError(text, "write it as: face PIECE TARGET (or face PIECE DEGREES)")
        if _looks_numeric(args[1]):
            return Phrase("face", args[0], "", degrees=parse_number(args[1], text))
        return Phrase("face", args[0], args[1])
    if verb == "charge":
        if len(args) != 2:
            raise ActionSyntaxError(text, "write it as: charge PIECE TARGET")
        return Phrase("charge", args[0], args[1])
    if verb != "move" or len(args) < 2:
        return None
    word = args[1].lower()
    if word in ("toward", "towards") and (len(args) < 3 or "," in args[2]):
        return None  # toward a point X,Y: a step of the move language (text.parse_move_words)
    if word in ("toward", "towards"):
        if len(args) not in (3, 4):
            raise ActionSyntaxError(text, "write it as: move PIECE toward TARGET [INCHES]")
        inches = None
        if len(args) == 4:
            inches = parse_number(args[3], text)
            if inches <= 0:
                raise ActionSyntaxError(text, "the inches to move must be more than 0")
        return Phrase("toward", args[0], args[2], inches)
    if word == "to":
        if len(args) != 3:
            raise ActionSyntaxError(text, "write it as: move PIECE to FEATURE")
        return Phrase("to", args[0], args[2])
    return None


def _looks_numeric(word: str) -> bool:
    return bool(word) and (word[0].isdigit() or word[0] in "+-.")


# -- what a phrase may name ------------------------------------------------------------------

SpotKind = Literal["figure", "feature", "item", "marker"]


@dataclass(frozen=True, slots=True)
class Spot:
    """Something a phrase or a measure may name, as the asking side may know it.

    ``shape``: its outline on the table (a point for an item or marker);
    ``figure``: its base, for a figure; ``enterable``: a feature a base may stand
    in (not impassable, an area); ``label``: the feature's label, if any.
    """

    id: str
    kind: SpotKind
    shape: shapely.Geometry
    figure: Figure | None = None
    enterable: bool = False
    label: str = ""
    side: str = ""

    @property
    def centre(self) -> Point:
        if self.figure is not None:
            return self.figure.at
        c = shapely.centroid(self.shape)
        return (float(c.x), float(c.y))

    @property
    def title(self) -> str:
        """How a message names it: ``B2``, ``wood1 (Copse)``."""
        return f"{self.id} ({self.label})" if self.label and self.label != self.id else self.id


def _squash(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


def name_spot(word: str, spots: Iterable[Spot], what: str, text: str) -> Spot:
    """The spot ``word`` names: an id (any case), else the label of exactly one feature.

    Anything else, a name the side may not know included, is refused with the
    same words: ``there is no WHAT 'WORD'``.
    """
    known = list(spots)
    lowered = word.lower()
    for spot in known:
        if spot.id == word:
            return spot
    for spot in known:
        if spot.id.lower() == lowered:
            return spot
    squashed = _squash(word)
    labelled = [s for s in known if s.label and squashed and _squash(s.label) == squashed]
    if len(labelled) == 1:
        return labelled[0]
    if len(labelled) > 1:
        names = ", ".join(s.id for s in labelled)
        raise ActionSyntaxError(text, f"'{excerpt(word)}' names {names}: write one of those")
    raise ActionSyntaxError(text, f"there is no {what} '{excerpt(word)}'")


def figure_spot(figure: Figure, side: str = "") -> Spot:
    return Spot(figure.id, "figure", figure.outline, figure=figure, side=side)


def point_spot(spot_id: str, at: Point, kind: SpotKind, label: str = "", side: str = "") -> Spot:
    return Spot(spot_id, kind, shapely.Point(at), label=label, side=side)


# -- geometry of the phrases -------------------------------------------------------------------


def inner_radius(figure: Figure) -> float:
    """The radius of the largest circle about the centre inside the base."""
    base = figure.base
    if isinstance(base, RoundBase):
        return base.radius
    assert isinstance(base, RectBase)
    return min(base.width, base.depth) / 2.0


def snap(start: Point, end: Point) -> Point:
    """``end`` on the :data:`GRID`, no farther from ``start`` than it was, nearest the line.

    A point already on the grid is kept; of the four grid corners around ``end``
    the one closest to the line of the move is taken among those that do not
    lengthen it (a move may not grow past its allowance by rounding).
    """
    length = math.dist(start, end)
    gx, gy = end[0] / GRID, end[1] / GRID
    corners = {
        (round(math.floor(gx) * GRID, 2), round(math.floor(gy) * GRID, 2)),
        (round(math.ceil(gx) * GRID, 2), round(math.floor(gy) * GRID, 2)),
        (round(math.floor(gx) * GRID, 2), round(math.ceil(gy) * GRID, 2)),
        (round(math.ceil(gx) * GRID, 2), round(math.ceil(gy) * GRID, 2)),
    }
    short = [c for c in corners if math.dist(start, c) <= length + 1e-12]
    if not short:
        return end
    return min(short, key=lambda c: (math.dist(c, end), c))


def facing_to(at: Point, target: Point) -> float:
    """The facing from ``at`` to ``target``, rounded to :data:`ANGLE_GRID` degrees."""
    return as_facing(round(heading(at, target) / ANGLE_GRID) * ANGLE_GRID)


def along(start: Point, towards: Point, length: float) -> Point:
    """The point ``length`` inches from ``start`` straight toward ``towards`` (snapped)."""
    d = math.dist(start, towards)
    if d == 0.0:
        return start
    t = length / d
    end = (start[0] + (towards[0] - start[0]) * t, start[1] + (towards[1] - start[1]) * t)
    return snap(start, end)


def gap_to(mover: Figure, spot: Spot) -> float:
    """Edge-to-edge gap between a base and a spot's outline (negative: overlapping)."""
    core, radius = mover.solid
    if spot.figure is not None:
        other, other_radius = spot.figure.solid
        return float(shapely.distance(core, other)) - radius - other_radius
    return float(shapely.distance(core, spot.shape)) - radius


def aim_point(mover: Figure, spot: Spot) -> Point:
    """Where a move toward ``spot`` heads: a figure's centre, else its nearest point."""
    if spot.figure is not None or spot.kind in ("item", "marker"):
        return spot.centre
    line = shapely.shortest_line(shapely.Point(mover.at), spot.shape)
    coords = shapely.get_coordinates(line)
    return (float(coords[-1][0]), float(coords[-1][1]))


def contact_length(mover: Figure, towards: Point, spot: Spot, gap: float) -> float | None:
    """How far ``mover`` goes straight toward ``towards`` (facing that way) before its
    edge comes within ``gap`` of ``spot``; None if it never does along that line
    (it passes beside it); 0 if it already does."""
    direction = heading(mover.at, towards) if mover.at != towards else mover.facing
    span = math.dist(mover.at, towards)

    def gap_at(length: float) -> float:
        rad = math.radians(direction)
        point = (mover.x + length * math.cos(rad), mover.y + length * math.sin(rad))
        return gap_to(mover.moved_to(point, direction), spot)

    if gap_at(0.0) <= gap:
        return 0.0
    if gap_at(span) > gap:
        return None
    lo, hi = 0.0, span
    for _ in range(BISECTIONS + 10):
        mid = (lo + hi) / 2.0
        if gap_at(mid) > gap:
            lo = mid
        else:
            hi = mid
    return lo


def spots_into(mover: Figure, spot: Spot, gap: float) -> list[Point]:
    """Candidate centres for ``move PIECE to FEATURE``, nearest first.

    An enterable feature: the base wholly inside it where it fits (else its centre
    inside); anything else (a building, a wall, an item): the base touching it.
    """
    here = shapely.Point(mover.at)
    if spot.kind in ("item", "marker"):
        centre = spot.centre
        ring = shapely.boundary(shapely.buffer(shapely.Point(centre), inner_radius(mover) * 0.8))
        return [centre, *_nearest_along(mover, ring)]
    if spot.enterable:
        inner = shapely.buffer(spot.shape, -inner_radius(mover) - gap)
        region = spot.shape if shapely.is_empty(inner) else inner
        if float(shapely.distance(region, here)) <= GRID:  # in it already (snapping aside)
            return []
        return _nearest_along(mover, shapely.boundary(region))
    reach = mover.base.bounding_radius + gap
    ring = shapely.boundary(shapely.buffer(spot.shape, reach))
    out: list[Point] = []
    for p in _nearest_along(mover, ring):
        length = contact_length(mover, p, spot, gap / 2.0)
        if length is None or length > math.dist(mover.at, p) + 1e-9:
            out.append(p)
        else:
            out.append(_point_along(mover.at, p, length))
    return out


def _point_along(start: Point, towards: Point, length: float) -> Point:
    d = math.dist(start, towards)
    if d == 0.0:
        return start
    t = length / d
    return (start[0] + (towards[0] - start[0]) * t, start[1] + (towards[1] - start[1]) * t)


def _nearest_along(mover: Figure, line: shapely.Geometry) -> list[Point]:
    """The point of ``line`` nearest the mover's centre, then samples along it, nearest first."""
    here = shapely.Point(mover.at)
    if shapely.is_empty(line):
        return []
    nearest = shapely.get_coordinates(shapely.shortest_line(here, line))[-1]
    points = [(float(nearest[0]), float(nearest[1]))]
    total = float(shapely.length(line))
    if total > 0.0:
        dense = shapely.get_coordinates(shapely.segmentize(line, total / SPOT_SAMPLES))
        points.extend((float(x), float(y)) for x, y in dense)
    points.sort(key=lambda p: math.dist(p, mover.at))
    return points


# -- finding a legal move --------------------------------------------------------------------

A = TypeVar("A")
Check = Callable[[A], str | None]
"""The ruleset's verdict on a move: None if legal, else why not."""


def first_legal(
    moves: Sequence[A], check: Callable[[A], str | None]
) -> tuple[int | None, str | None]:
    """The index of the first legal move of ``moves``, and the reason the first one was
    refused (None if the first was legal or there were none)."""
    first_reason: str | None = None
    for k, move in enumerate(moves):
        why = check(move)
        if why is None:
            return k, first_reason
        if first_reason is None:
            first_reason = why
    return None, first_reason


def farthest_legal(make: Callable[[float], A], check: Check[A], top: float) -> tuple[A, str | None]:
    """The move ``make(length)`` for the greatest length up to ``top`` the rules allow.

    Tries ``top`` first; else halves the interval (a move blocked part way is
    legal up to where it is blocked). Returns the move and None, or the move of
    ``top`` and the reason it is refused when no length above nothing is legal.
    """
    best = make(top)
    why = check(best)
    if why is None:
        return best, None
    lo, hi = 0.0, top
    found: A | None = None
    for _ in range(BISECTIONS):
        mid = (lo + hi) / 2.0
        move = make(mid)
        if check(move) is None:
            lo, found = mid, move
        else:
            hi = mid
        if hi - lo < GRID:
            break
    if found is None or lo < GRID:
        return best, why
    return found, None


def refuse(action: object, reason: str) -> IllegalAction:
    """The refusal of a phrase (an IllegalAction naming the words typed)."""
    return IllegalAction(action, reason)


# -- a phrase made a move ---------------------------------------------------------------------

M = TypeVar("M")


@dataclass(frozen=True, slots=True)
class Mover(Generic[M]):
    """What a ruleset tells :func:`build_move` about the piece a phrase moves.

    ``make(path, facing)`` builds the ruleset's own move; ``check(move)`` is the
    rules' verdict (None: legal); ``reach`` is the longest straight move to try
    when no inches are given (the full allowance); ``gap`` how near counts as
    touching; ``no_contact`` the refusal of ``charge`` in a ruleset without an
    attack in base contact (None where it has one).
    """

    figure: Figure
    spots: Sequence[Spot]
    what: str
    make: Callable[[tuple[Point, ...], float | None], M]
    check: Check[M]
    reach: float
    gap: float
    side: str = ""
    no_contact: str | None = None
    route: Callable[[Point, Point], Sequence[Point] | None] | None = None
    """A way round obstacles from the start to a point (its corners after the start), for
    ``move PIECE to FEATURE`` when no straight move reaches it; None: straight only."""


def build_move(phrase: Phrase, mover: Mover[M], text: str) -> M:
    """The ruleset's move that ``phrase`` says, checked by its rules; IllegalAction if none."""
    me = mover.figure
    if phrase.kind == "charge" and mover.no_contact is not None:
        raise refuse(text, mover.no_contact)
    if phrase.kind == "face" and phrase.degrees is not None:
        move = mover.make((), phrase.degrees)
        return _checked(mover, move, text, "")
    spot = name_spot(phrase.target, mover.spots, mover.what, text)
    if spot.id == me.id:
        raise refuse(text, f"{me.id} cannot {phrase.kind} itself")
    aim = aim_point(me, spot)
    if phrase.kind == "face":
        if aim == me.at:
            raise refuse(text, f"{spot.title} is right under {me.id}: no way to face")
        return _checked(mover, mover.make((), facing_to(me.at, aim)), text, "")
    if phrase.kind == "to":
        return _to(spot, mover, text)
    touching = None if spot.kind in ("item", "marker") else contact_length(me, aim, spot, mover.gap)
    if phrase.kind == "charge":
        if spot.kind in ("item", "marker"):
            raise refuse(
                text, f"{spot.title} is not something to charge; write: move {me.id} to {spot.id}"
            )
        if spot.kind == "figure" and spot.side == mover.side:
            raise refuse(text, f"{spot.id} is {mover.side}'s own: a charge goes at the enemy")
        if touching is None:
            raise refuse(text, f"a straight move from {me.id} toward {spot.title} passes beside it")
        if touching < GRID:
            raise refuse(text, f"{me.id} is already in contact with {spot.title}")
        move = mover.make((along(me.at, aim, touching),), None)
        return _checked(mover, move, text, f"{me.id} cannot charge {spot.title}: ")
    # toward
    limit = math.dist(me.at, aim) if touching is None else touching
    if limit < GRID:
        raise refuse(text, f"{me.id} is already at {spot.title}")
    if phrase.inches is not None:
        move = mover.make((along(me.at, aim, min(phrase.inches, limit)),), None)
        return _checked(mover, move, text, "")
    top = min(mover.reach, limit)
    move, why = farthest_legal(
        lambda length: mover.make((along(me.at, aim, length),), None), mover.check, top
    )
    if why is not None:
        raise refuse(text, why)
    return move


def _to(spot: Spot, mover: Mover[M], text: str) -> M:
    me = mover.figure
    points = spots_into(me, spot, mover.gap)
    if not points:
        raise refuse(text, f"{me.id} is already in {spot.title}")
    moves = [mover.make((snap(me.at, p),), None) for p in points[:MAX_TRIES]]
    index, why = first_legal(moves, mover.check)
    if index is None and mover.route is not None:
        routed = [_routed(mover, p) for p in points[:ROUTES]]
        moves = [m for m in routed if m is not None]
        index, _ = first_legal(moves, mover.check)
    if index is None:
        raise refuse(
            text,
            f"no spot at {spot.title} that {me.id} may reach this move ({why}); "
            f"to go part of the way, write: move {me.id} toward {spot.id}",
        )
    return moves[index]


def _routed(mover: Mover[M], goal: Point) -> M | None:
    """The move along the way round to ``goal`` (each corner snapped), or None."""
    assert mover.route is not None
    way = mover.route(mover.figure.at, goal)
    if not way or len(way) < 2:
        return None
    corners = list(way[1:])
    here = mover.figure.at
    path: list[Point] = []
    for corner in corners:
        here = snap(here, corner)
        path.append(here)
    return mover.make(tuple(path), None)


def _checked(mover: Mover[M], move: M, text: str, prefix: str) -> M:
    why = mover.check(move)
    if why is not None:
        raise refuse(text, prefix + why)
    return move


# -- what the rulesets' parsers share --------------------------------------------------------


def feature_spots(features: Iterable[Feature]) -> list[Spot]:
    """The standing features as a phrase may name them; an area that is not impassable
    is one a base may stand in."""
    return [
        Spot(
            f.id,
            "feature",
            f.geometry,
            enterable=not f.impassable and f.shape != "polyline",
            label=f.label,
        )
        for f in features
    ]


def checked_by(plan: Callable[[M], object]) -> Check[M]:
    """A move check (None, or the reason) from a rules function raising IllegalAction."""

    def check(move: M) -> str | None:
        try:
            plan(move)
        except IllegalAction as exc:
            return exc.reason
        return None

    return check


class Hull(Protocol):
    """A base of MGV or Invisible Enemy as a phrase moves it."""

    @property
    def id(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def geo(self) -> Figure: ...
    @property
    def active(self) -> bool: ...


H = TypeVar("H", bound=Hull)

BASE_GAP: Final = 0.05
"""Inches: how near a base's edge counts as touching, for MGV and Invisible Enemy bases."""


def base_move(
    phrase: Phrase,
    text: str,
    bases: Mapping[str, H],
    *,
    spots: Callable[[], Sequence[Spot]],
    what: str,
    no_contact: str,
    make: Callable[[str, tuple[Point, ...], float | None], M],
    plan: Callable[[str, M], object],
    reach: Callable[[H], float],
    moving: Callable[[], Sequence[str]],
) -> M:
    """The move ``phrase`` says for a base of a ruleset without an attack in base contact
    (MGV, Invisible Enemy), checked by its rules.

    ``charge`` is refused with ``no_contact`` (``{mover}`` and ``{target}`` stand for
    the words typed); the base is named among ``bases`` and must be on the table;
    ``make(base, path, facing)`` builds the raw move, ``plan(side, move)`` is the
    rules' check (raising IllegalAction) and ``reach(base)`` its longest move.
    A base of a side not among ``moving()`` is refused before anything is worked
    out: the move, or its refusal, would quote points found from the base's exact
    place, which another side may see only by eye.
    """
    if phrase.kind == "charge":
        words = {"mover": excerpt(phrase.mover, 20), "target": excerpt(phrase.target, 20)}
        raise refuse(text, no_contact.format(**words))
    ref = match_id(phrase.mover, bases, "base", text)
    base = bases[ref]
    if not base.active:
        raise refuse(text, f"there is no base {ref} on the table")
    asked = moving()
    if base.side not in asked:
        acting = "/".join(asked) or "no side"
        raise refuse(text, f"{ref} is not of the side moving now ({acting})")
    mover = Mover(
        figure=base.geo,
        spots=spots(),
        what=what,
        make=lambda path, facing: make(base.id, path, facing),
        check=checked_by(lambda move: plan(base.side, move)),
        reach=reach(base),
        gap=BASE_GAP,
        side=base.side,
        no_contact=no_contact.format(mover=base.id, target="TARGET"),
    )
    return build_move(phrase, mover, text)


# -- measuring in words ----------------------------------------------------------------------


def inches(value: float) -> str:
    """A distance as a measure prints it: ``7.25"``."""
    return f'{value:.2f}"'


__all__ = [
    "BASE_GAP",
    "GRID",
    "PHRASE_FORMS",
    "Mover",
    "Phrase",
    "Spot",
    "aim_point",
    "along",
    "base_move",
    "build_move",
    "checked_by",
    "contact_length",
    "facing_to",
    "farthest_legal",
    "feature_spots",
    "figure_spot",
    "first_legal",
    "gap_to",
    "inches",
    "inner_radius",
    "name_spot",
    "phrase_usage",
    "point_spot",
    "read_phrase",
    "refuse",
    "snap",
    "spots_into",
]
