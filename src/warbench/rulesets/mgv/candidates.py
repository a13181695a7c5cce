"""Candidate actions of MGV for bots (``RulesetInfo.exhaustive_actions`` is False).

On an open table a move may end anywhere and a sealed split has many forms, so
``legal_actions`` lists a sensible, legal sample: a person may type any legal
action. Every candidate listed is legal (the conformance suite applies them).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from typing import TYPE_CHECKING

from warbench.core.actions import Action
from warbench.core.sampling import Group
from warbench.errors import IllegalAction, MoveRefused
from warbench.geometry.table import Point, heading, in_arc, turn_angle
from warbench.geometry.table.fan import prepare_fan
from warbench.rulesets.kit.eye import Seen
from warbench.rulesets.kit.eye import seen as seen_by_eye
from warbench.rulesets.mgv import fire, movement
from warbench.rulesets.mgv.actions import (
    END,
    Arm,
    FireOrder,
    Mark,
    Move,
    Phase,
    Range,
    ScreenOrder,
    Split,
)
from warbench.rulesets.mgv.data import WEAPON_TYPES, rules
from warbench.rulesets.mgv.hitlog import placements
from warbench.rulesets.mgv.state import Base, State

if TYPE_CHECKING:
    from warbench.rulesets.mgv.rules import MGVRules

TURNS = (0.0, 45.0, -45.0, 90.0, -90.0)
NEAR_TURNS = 3
"""Turns tried within reach of the enemy (all of TURNS); farther off, the first three."""
FAR_TURNS = 3
"""Turns tried before a full straight leg (costing 0, 1/2 or 1 inch, 4.0); a reversal
is reached through the moves toward enemies (each plan costs about half a millisecond,
and a bot lists these for every base at every move)."""


def candidates(
    ruleset: MGVRules, state: State, side: str, held: Action | None = None
) -> Sequence[Action]:
    """A legal sample of ``side``'s actions now; ``held``: its own written range guesses,
    which bind its photon shots (5.3; without them no photon shot is listed)."""
    if not ruleset.asked(state, side):
        return []
    step = state.step
    if step == "arm":
        return _arm(state, side)
    if step == "choose":
        return [Phase(k) for k in ("move", "fire") if k not in state.done[side]]
    if step == "move":
        return [*_moves(state, side), END]  # as move_groups
    if step == "range":
        every = _guesses(state, side)
        return [every, Range(())] if every.guesses else [Range(())]
    if step == "declare":
        return _declarations(state, side, held if isinstance(held, Range) else None)
    if step == "screen":
        return _screens(state)
    if step == "split":
        return _splits(state, side)
    if step == "place":
        group = state.fire.groups[0]
        base = state.bases[group.target]
        options = placements(base.layout, base.log, group.hits, limit=6)
        return [Mark((), auto=True), *(Mark(tuple(p)) for p in options[1:])]
    return []


def _arm(state: State, side: str) -> list[Action]:
    from warbench.rulesets.mgv.rules import open_mounts

    mounts = open_mounts(state, side)
    out: list[Action] = [Arm(tuple((b, s, w) for b, s in mounts)) for w in WEAPON_TYPES]
    # A mixed plan: photon on the heavy hitters, missiles on wings, kinetic elsewhere.
    mixed = []
    for b, s in mounts:
        base = state.bases[b]
        attack = base.mounts[s].attack
        weapon = "photon" if attack >= 5 else "missile" if base.wing else "kinetic"
        mixed.append((b, s, weapon))
    plan = Arm(tuple(mixed))
    if plan not in out:
        out.append(plan)
    return out


def _moves(state: State, side: str) -> list[Action]:
    """Moves of the first base still to move, and staying put (a turn of nothing).

    One base at a time, in the scenario's order: a person may move them in any
    order, but listing every base's moves again after each move would plan
    most of them twice (a move changes what its neighbours can do).
    """
    return [action for _, part in _move_groups(state, side, whole=True) for action in part]


def action_groups(ruleset: MGVRules, state: State, side: str) -> list[Group[Action]] | None:
    """The move step's list in parts for a bot that draws one action
    (:mod:`warbench.core.sampling`): the first base's moves, each candidate planned only
    when drawn, staying put with its beacons, and ``end``; None in other steps."""
    if state.step != "move":
        return None
    return [*_move_groups(state, side, whole=False), (1, (END,))]


def _move_groups(state: State, side: str, whole: bool) -> list[Group[Action]]:
    """``whole``: every action will be built (a bot's list), else a few drawn."""
    movable = movement.movable(state, side)
    if not movable:
        return []
    base = movable[0]
    enemies = _seen_enemies(state, side)
    stay = Move(base.id, (), base.geo.facing)
    lit = [
        Move(base.id, (), base.geo.facing, beacon=e.id)
        for e in _beacon_targets(state, side, base, enemies)
    ]
    stays = [stay, *(m for m in lit if _legal(state, side, m))]
    return [*_base_moves(state, side, base, enemies, whole), (len(stays), stays)]


def _seen_enemies(state: State, side: str) -> list[Seen]:
    """The enemy bases on the table where ``side`` sees them (by eye, 5.3): what a listed
    move or shot may aim by, so that ``list`` tells nothing the view does not."""
    eye, measuring = rules().data.eye, state.setup.options.measuring
    return seen_by_eye(state.active(state.other(side)), eye, measuring, side)


def _base_moves(
    state: State, side: str, base: Base, enemies: list[Seen], whole: bool
) -> list[Group[Action]]:
    """Straight legs at a few turns, and for the nearest enemies: turning on the spot to
    face one, closing on it to the kinetic bands, swinging round to its flank; a
    gauntlet runner's dash for the exit edge. Each with a marker beacon where one would
    help the side's missile fire still to come this turn (4.0).

    A group a candidate (:class:`_Plains`), each planned only when it is taken."""
    speed = base.speed
    turning = rules().turning
    geo = base.geo
    tried: list[tuple[float, float]] = []
    near = any(math.dist(geo.at, e.geo.at) <= speed + ENGAGE for e in enemies)
    for turn in TURNS[: NEAR_TURNS if near else FAR_TURNS]:
        cost = turning.cost(turn) or 0.0
        tried.append((geo.facing + turn, speed - cost))
    closest = sorted(enemies, key=lambda e: math.dist(geo.at, e.geo.at))[:AIMED]
    for enemy in closest:
        direction = float(round(heading(geo.at, enemy.geo.at)))
        cost = turning.cost(turn_angle(geo.facing, direction)) or 0.0
        gap = math.dist(geo.at, enemy.geo.at)
        for short_of in CLOSE_TO:
            tried.append((direction, min(speed - cost, max(0.0, gap - short_of))))
    edge = movement.runner_edge(state, side)
    if edge is not None:
        direction = {"east": 0.0, "north": 90.0, "west": 180.0, "south": 270.0}[edge]
        cost = turning.cost(turn_angle(geo.facing, direction)) or 0.0
        tried.append((direction, speed - cost))
    ends = [
        _grid_point(geo.at, math.radians(d), far - shrink)
        for d, far in tried
        for shrink in SHRINKS
        if far - shrink > GRID
    ]
    flanks = [_flank_ends(state, base, enemy) for enemy in closest]
    ends.extend(to for spots in flanks for to, _ in spots)
    markers = _beacon_targets(state, side, base, enemies)
    plains = _Plains(state, side, base, markers)
    if whole:  # every first try at once: the plans find them (a draw plans too few)
        prepare_fan(state.scene(), geo, ends)
    for direction, length in tried:
        if length > 0.25:
            plains.add(
                _grid_tries(geo.at, direction, length),
                partial(_on_grid, state, side, base, direction, length),
            )
    for enemy, spots in zip(closest, flanks, strict=True):
        plains.add((), partial(_pivot, state, side, base, enemy))
        for to, toward in spots:
            plains.add((to,), partial(_flank, state, side, base, to, toward))
    return plains.groups()


Tried = tuple[Move | None, tuple[Point, ...]]
"""A candidate's move (None: none), and the end points it looked at on the way."""


class _Plains:
    """A base's candidate moves, each planned on its own when first asked for.

    A move ending where an earlier kept move ends is left out, and so is one that
    looked on its way at such an end (as :func:`_on_grid` gives up on a direction
    whose try meets one): the list is the first of each. Whether a candidate is kept
    asks only the earlier candidates that could end on the points it looked at, so a
    draw (:mod:`warbench.core.sampling`) plans little more than the move it takes."""

    def __init__(self, state: State, side: str, base: Base, markers: list[Seen]) -> None:
        self.state, self.side, self.base = state, side, base
        self.markers = markers
        self.could: list[tuple[Point, ...]] = []
        self.makes: list[Callable[[], Tried]] = []
        self.tried: dict[int, Tried] = {}
        self.kept_: dict[int, Move | None] = {}

    def add(self, could_end: tuple[Point, ...], make: Callable[[], Tried]) -> None:
        self.could.append(could_end)
        self.makes.append(make)

    def groups(self) -> list[Group[Action]]:
        bound = 1 + len(self.markers)
        return [(bound, self._actions(i)) for i in range(len(self.makes))]

    def _tried(self, i: int) -> Tried:
        found = self.tried.get(i)
        if found is None:
            found = self.tried[i] = self.makes[i]()
        return found

    def kept(self, i: int) -> Move | None:
        if i in self.kept_:
            return self.kept_[i]
        move, looked = self._tried(i)
        if move is not None and looked:
            for j in range(i):
                if not any(p in looked for p in self.could[j]):
                    continue
                other = self.kept(j)
                if other is not None and other.path and other.path[-1] in looked:
                    move = None
                    break
        self.kept_[i] = move
        return move

    def _actions(self, i: int) -> Iterator[Action]:
        """Candidate ``i``'s move if it is kept, then the same move lighting each
        marker it legally may (4.0)."""
        move = self.kept(i)
        if move is None:
            return
        yield move
        for enemy in self.markers:
            beacon = Move(move.base, move.path, move.facing, move.facings, beacon=enemy.id)
            try:
                movement.plan(self.state, self.side, beacon)
            except IllegalAction:
                continue
            yield beacon


AIMED = 2
"""Enemies (the nearest, as seen) each base aims moves at."""
CLOSE_TO = (4.0, 2.0)
"""Inches short of an enemy a closing move stops: inside the kinetic close and point-blank
bands (data/combat.toml [kinetic.range])."""
FLANK = (100.0, -100.0, 180.0)
"""Bearings from an enemy's front (degrees) a flanking move swings round to."""
FLANK_RANGE = 4.0
"""Inches from the enemy a flanking move ends at."""


def _pivot(state: State, side: str, base: Base, enemy: Seen) -> Tried:
    """Turning on the spot to face ``enemy``, unless the base nearly does already."""
    facing = float(round(heading(base.geo.at, enemy.geo.at)))
    if abs(turn_angle(base.geo.facing, facing)) > TURN_EPSILON:
        pivot = Move(base.id, (), facing)
        if _legal(state, side, pivot):
            return pivot, ()
    return None, ()


def _flank(state: State, side: str, base: Base, to: Point, toward: float) -> Tried:
    """Swinging round to ``to`` toward an enemy's flank or rear (in one leg, or as far
    as the allowance goes: from :func:`_flank_ends`) and then turning to face it."""
    move = Move(base.id, (to,), toward)
    return (move if _legal(state, side, move) else None), (to,)


def _flank_ends(state: State, base: Base, enemy: Seen) -> list[tuple[Point, float]]:
    """Where :func:`_aimed`'s moves toward ``enemy``'s flank and rear end, and the facing
    each ends with (toward the enemy); the base's own place left out."""
    geo = base.geo
    out = []
    turning = rules().turning
    for bearing in FLANK:
        angle = math.radians(enemy.geo.facing + bearing)
        spot = (
            enemy.geo.x + FLANK_RANGE * math.cos(angle),
            enemy.geo.y + FLANK_RANGE * math.sin(angle),
        )
        if math.dist(geo.at, spot) < 1.0 or not state.setup.table.contains_point(spot):
            continue
        way = heading(geo.at, spot)
        before = turning.cost(turn_angle(geo.facing, way)) or 0.0
        after = turning.cost(turn_angle(way, heading(spot, enemy.geo.at))) or 0.0
        length = min(math.dist(geo.at, spot), base.speed - before - after - GRID)
        if length <= 1.0:
            continue  # no room to get anywhere and still turn to face it
        to = _grid_point(geo.at, math.radians(way), length)
        if to != geo.at:
            out.append((to, float(round(heading(to, enemy.geo.at)))))
    return out


def _grid_point(start: Point, rad: float, far: float) -> Point:
    """The quarter-inch grid point nearest ``far`` inches from ``start`` at ``rad`` radians."""
    x = round((start[0] + far * math.cos(rad)) / GRID) * GRID
    y = round((start[1] + far * math.sin(rad)) / GRID) * GRID
    return (float(x), float(y))


TURN_EPSILON = 1.0
"""Degrees: a base already facing this near an enemy is not offered a turn toward it."""


def _legal(state: State, side: str, move: Move) -> bool:
    try:
        movement.plan(state, side, move)
    except IllegalAction:
        return False
    return True


def _beacon_targets(state: State, side: str, base: Base, enemies: list[Seen]) -> list[Seen]:
    """The enemies worth marking during ``base``'s move (4.0): only before the side's own
    fire of this turn (the beacon lasts the turn), within the beacon's reach of some
    move, and in the arc of a friendly missile mount still unfired (5.0: 120 degrees)."""
    if "beacons" not in base.model.traits or "fire" in state.done.get(side, []):
        return []
    missiles = [
        (b, m)
        for b in state.active(side)
        for m in b.mounts.values()
        if m.weapon == "missile" and m.spent_turn != state.turn
    ]
    if not missiles:
        return []
    half = rules().data.arc_half_angle + rules().data.missile_off_line
    reach = rules().data.beacon_range + base.speed
    out = []
    for enemy in sorted(enemies, key=lambda e: math.dist(base.geo.at, e.geo.at)):
        if math.dist(base.geo.at, enemy.geo.at) > reach:
            continue
        if state.bases[enemy.id].beacon_turn == state.turn:
            continue  # already lit for the turn
        if any(b.id == base.id or in_arc(b.geo, enemy.geo, half) for b, _ in missiles):
            out.append(enemy)
    return out[:BEACONS]


BEACONS = 2
"""Enemies a move offers to mark (the nearest that qualify)."""


ENGAGE = 6.0
"""Inches: a base with no enemy within its move and this much more is still closing in,
and is offered fewer ways to turn (straight on, 45 degrees either way, toward the enemy)."""
GRID = 0.25
"""Candidate moves end on quarter-inch points (what a person would type)."""
SHRINKS = (0.0, GRID, 2 * GRID)
"""Inches a straight move is shortened by when the allowance does not reach its end."""


def _grid_tries(at: Point, direction: float, length: float) -> tuple[Point, ...]:
    """Every end :func:`_on_grid` may try toward ``direction``."""
    rad = math.radians(direction)
    return tuple(
        _grid_point(at, rad, length - shrink) for shrink in SHRINKS if length - shrink > GRID
    )


def _on_grid(state: State, side: str, base: Base, direction: float, length: float) -> Tried:
    """The farthest legal move toward ``direction`` ending on the quarter-inch grid, and
    the ends looked at on the way (a kept move's end among them drops it: :class:`_Plains`)."""
    rad = math.radians(direction)
    looked: list[Point] = []
    for shrink in SHRINKS:
        far = length - shrink
        if far <= GRID:
            break
        to = _grid_point(base.geo.at, rad, far)
        looked.append(to)
        if to == base.geo.at:
            break
        if math.dist(base.geo.at, to) > length + 1e-9:
            continue  # rounding to the grid overshot the allowance: no need to plan it
        move = Move(base.id, (to,))
        try:
            movement.plan(state, side, move)
        except MoveRefused as refused:
            if refused.kind != "allowance":
                break  # blocked: a shorter move the same way is not worth planning
            continue
        except IllegalAction:
            break
        return move, tuple(looked)
    return None, tuple(looked)


def _guesses(state: State, side: str) -> Range:
    """A guess for every photon mount that can fire: the range to the nearest enemy base
    in sight as the side sees it (by eye, 5.3), written to the guess step."""
    where = {e.id: e.geo.at for e in _seen_enemies(state, side)}
    step = rules().data.ranging.step
    guesses = []
    for base, slot in fire.photon_ready(state, side):
        aims = fire.targets(state, base, "photon")
        target = min(aims, key=lambda t: (math.dist(base.geo.at, where[t.id]), t.id))
        inches = max(step, round(math.dist(base.geo.at, where[target.id]) / step) * step)
        guesses.append((base.id, slot, target.id, float(inches)))
    return Range(tuple(guesses))


def _declarations(state: State, side: str, held: Range | None) -> list[Action]:
    """Fire none; each mount at its nearest target; everything at the most damaged one.

    A photon mount fires only at the target its written guess names (``held``), and not
    at all without one."""
    able = [(b, s) for b, s in fire.ready_mounts(state, side)]
    where = {e.id: e.geo.at for e in _seen_enemies(state, side)}
    nearest = []
    options: dict[tuple[str, str], list[Base]] = {}
    guessing = state.fire.guesses_held
    for b, s in able:
        reach = fire.targets(state, b, str(b.mounts[s].weapon))
        if guessing and b.mounts[s].weapon == "photon":
            written = held.guess_for(b.id, s) if held is not None else None
            reach = [t for t in reach if written is not None and t.id == written[0]]
        if b.mounts[s].weapon == "missile":  # a shot of no dice is no plan (5.2)
            reach = [t for t in reach if _missile_dice(state, side, b, s, t) > 0]
        if reach:
            options[(b.id, s)] = reach
            best = min(reach, key=lambda t: math.dist(b.geo.at, where[t.id]))
            nearest.append(((b.id,), s, best.id))
    out: list[Action] = [FireOrder(())]
    if nearest:
        out.append(FireOrder(tuple(nearest)))
        sure = tuple(o for o in nearest if _worth_firing(state, o, where))
        if sure and FireOrder(sure) not in out:
            out.append(FireOrder(sure))
    weakest = sorted(
        {t.id: t for reach in options.values() for t in reach}.values(),
        key=lambda t: (-len(t.log.marks), t.defence, t.id),
    )
    for focus in weakest[:2]:
        orders = tuple(((b,), s, focus.id) for (b, s), reach in options.items() if focus in reach)
        focused = FireOrder(orders)
        if orders and focused not in out:
            out.append(focused)
    plans = [plan for plan in out if isinstance(plan, FireOrder)]
    for plan in plans:  # each plan again with its wing pairs' missiles combined (5.2)
        paired = FireOrder(_winged(state, plan.attacks))
        if paired not in out:
            out.append(paired)
    return out


def _winged(
    state: State, orders: tuple[tuple[tuple[str, ...], str, str], ...]
) -> tuple[tuple[tuple[str, ...], str, str], ...]:
    """``orders`` with the two bases of a wing, both firing their missile mounts of one
    slot at one target, joined into one attack (5.2: a wing combines its dice)."""
    out: list[tuple[tuple[str, ...], str, str]] = []
    used: set[int] = set()
    for i, (shooters, slot, target) in enumerate(orders):
        if i in used:
            continue
        used.add(i)
        base = state.bases[shooters[0]]
        if len(shooters) == 1 and base.wing is not None and base.mounts[slot].weapon == "missile":
            for j in range(i + 1, len(orders)):
                other, other_slot, other_target = orders[j]
                mate = state.bases[other[0]]
                if (
                    j not in used
                    and len(other) == 1
                    and (other_slot, other_target) == (slot, target)
                    and mate.wing == base.wing
                    and mate.mounts[slot].weapon == "missile"
                ):
                    used.add(j)
                    shooters = (base.id, mate.id)
                    break
        out.append((shooters, slot, target))
    return tuple(out)


def _missile_dice(state: State, side: str, base: Base, slot: str, target: Base) -> int:
    """The dice a missile mount would throw at ``target`` now, modifiers applied."""
    order = FireOrder((((base.id,), slot, target.id),))
    (attack,) = fire.check_declare(state, side, order, None, guesses=False)
    return fire.missile_dice(state, attack)[0]


def _worth_firing(
    state: State, order: tuple[tuple[str, ...], str, str], where: dict[str, Point]
) -> bool:
    """A photon shot is worth it only where a guess is likely to land (5.3)."""
    shooters, slot, target = order
    base = state.bases[shooters[0]]
    if base.mounts[slot].weapon != "photon":
        return True
    return math.dist(base.geo.at, where[target]) <= PHOTON_REACH


PHOTON_REACH = 14.0
"""Inches beyond which a bot's photon guess usually misses by too much (the model's spread)."""


def _screens(state: State) -> list[Action]:
    ready = fire.screeners(state)
    out: list[Action] = [ScreenOrder(())]
    defender = state.other(state.actor or "")
    on_us = [a for a in state.fire.attacks if state.bases[a.target].side == defender]
    for attack in on_us[:3]:
        every = ScreenOrder(tuple((b.id, s, attack.number) for b, s in ready))
        out.append(every)
        enough, points = [], 0
        for b, s in sorted(ready, key=lambda m: -m[0].mounts[m[1]].attack):
            if points >= 3:
                break
            enough.append((b.id, s, attack.number))
            points += b.mounts[s].attack
        if points >= 3 and ScreenOrder(tuple(enough)) not in out:
            out.append(ScreenOrder(tuple(enough)))
    return out


def _splits(state: State, side: str) -> list[Action]:
    attacker = side == state.actor
    verb = "split" if attacker else "block"
    missiles = [a for a in state.fire.attacks if a.weapon == "missile"]
    shapes = []
    for shape in ((1, 0, 0), (1, 1, 1), (2, 1, 0), (1, 1, 0)):
        dice = []
        for attack in missiles:
            own, theirs = fire.missile_dice(state, attack)
            n = own if attacker else theirs
            total = sum(shape)
            s = n * shape[0] // total
            c = n * shape[1] // total
            h = n - s - c if shape[2] else 0
            s += n - s - c - h
            dice.append((attack.number, s, c, h))
        shapes.append(Split(verb, tuple(dice)))
    out: list[Action] = []
    for split in shapes:
        if split not in out:
            out.append(split)
    return out
