"""One-ply scores of VSGMR actions for the greedy bot, in points of figures.

An attack is worth its exact chance of defeating the target (:mod:`.attacks`,
dispute rolls included) times the target's points; a skill roll its chance
times what the task gives; picking an item up most of the item's points.

A move is scored by how much better the figure stands afterwards: what it can
attack from there (exact odds of the attack, with a quick sight test), less
what the enemy could do to it there (their odds against it, weighted by how
soon they can reach it), plus pulls toward the enemy and the objectives. The
quick sight test (the centre line against terrain: an area seen through up to
a depth blocks when the line crosses more of it, else covers; cover from terrain by
either end) stands in for the exact one to keep a move's score cheap; the
rules themselves always use the exact line of sight.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import shapely

from warbench.core.actions import Action
from warbench.geometry.table import Feature, Figure, Point, Terrain, bearing, heading
from warbench.geometry.table.depth import deeper_than, half_planes
from warbench.rulesets.vsgmr import attacks, combat, space
from warbench.rulesets.vsgmr.actions import End, Fight, First, Move, Shoot, Skill, Take
from warbench.rulesets.vsgmr.attacks import Situation
from warbench.rulesets.vsgmr.candidates import riderless, signature
from warbench.rulesets.vsgmr.state import Fig, State

if TYPE_CHECKING:
    from warbench.rulesets.vsgmr.rules import VSGMRRules as VSGMR

FloatArray = npt.NDArray[np.float64]

FIRST_TURN = 0.3
"""Going first is worth this: your distance attacks come before theirs."""
FEATURE_SHOT = 0.05
"""A shot at terrain that shelters an enemy (worth a little); at other terrain it
counts against (it may be one's own cover)."""
SHELTER = 1.5
"""Terrain this close to an enemy's base shelters it (inches)."""
EXPOSURE = 0.6
"""How much of the enemy's expected gain against a figure a move counts against it."""
LATER = 0.4
"""Weight of a threat from an enemy that must move first to strike."""
APPROACH = 0.03
"""Pull toward the enemy, per inch beyond attack range and per point of the figure."""
OBJECTIVE = 0.6
"""Share of an item's or task's points that standing at it is worth."""
TOUCH_ITEM = 0.8
"""Share of an unlocked item's points that touching it is worth (it can be picked up
next): the take itself is worth :data:`TAKE`, so the bot walks up and takes it."""
TAKE = 0.9
"""Share of an item's points that picking it up is worth."""
CARRY = 0.05
"""Pull of a carried item toward the exit, per inch and per point of the item: a full
move (6") toward the edge with the 6-point relic is worth 1.8, more than most fights."""
CARRIED_RISK = 0.5
"""Share of a carried item's points added to what its carrier risks (it drops if the
carrier falls)."""


@dataclass(frozen=True, slots=True)
class Seen:
    """A quick look from one point to another: open, and who has cover."""

    clear: bool
    target_cover: bool
    eye_cover: bool


_SEEN = {
    (clear, target, eye): Seen(clear, target, eye)
    for clear in (False, True)
    for target in (False, True)
    for eye in (False, True)
}
"""Every :class:`Seen` there is (eight), made once: a look is one of them."""
OPEN = _SEEN[True, False, False]
"""A look that nothing blocks or covers."""


Pieces = tuple[Any, Any, list[Any], Any, list[Any]]
"""(tree, geometries, features, whether each is seen through to a depth, the half-planes
of each convex one seen through, else None) of the terrain that blocks sight."""


def _sight_pieces(terrain: Terrain) -> Pieces | None:
    """The :data:`Pieces` of the terrain that blocks sight, or None if nothing does."""
    feats = [f for f in terrain.active if f.blocks_los != "no"]
    if not feats:
        return None
    geoms = np.array([f.geometry for f in feats], dtype=object)
    deep = np.array([f.see_depth is not None for f in feats], dtype=np.bool_)
    planes = [half_planes(f.geometry) if f.see_depth is not None else None for f in feats]
    return shapely.STRtree(geoms), geoms, feats, deep, planes


def _too_deep(
    pieces: Pieces,
    asked: Sequence[Look],
    lines: Any,
    li_all: Any,
    fi_all: Any,
    through: Any,
) -> Any:
    """For the pairs ``through`` (a line and a feature seen through to a depth), whether
    the line crosses more than the feature's depth (+0.02) of it, as shapely's
    ``length(intersection(line, feature))`` decides it. Across a convex feature the
    depth is the part of the line inside all its half-planes; shapely measures only
    the pairs where that is not clear by far more than rounding (lines nearly
    parallel to an edge, depths near the limit, other shapes: see
    :func:`~warbench.geometry.table.depth.deeper_than`)."""
    _, geoms, feats, _, planes = pieces
    over = np.zeros(len(through), dtype=np.bool_)
    unsure = np.ones(len(through), dtype=np.bool_)
    owners = fi_all[through]
    for u in np.unique(owners).tolist():
        found = planes[u]
        if found is None:
            continue
        sel = np.nonzero(owners == u)[0]
        which = li_all[through[sel]].tolist()
        start = np.array([asked[i][0] for i in which], dtype=np.float64).reshape(len(sel), 2)
        end = np.array([asked[i][2] for i in which], dtype=np.float64).reshape(len(sel), 2)
        deep, sure = deeper_than(found, start, end, feats[u].see_depth + 0.02)
        over[sel[sure]] = deep[sure]
        unsure[sel[sure]] = False
    rest = np.nonzero(unsure)[0]
    if len(rest):
        k = through[rest]
        crossed = shapely.length(shapely.intersection(lines[li_all[k]], geoms[fi_all[k]]))
        limits = np.array([feats[f].see_depth + 0.02 for f in fi_all[k].tolist()])
        over[rest] = crossed > limits
    return over


LOOKS_KEPT = 20_000
"""Quick looks kept per layout (see :func:`quick_sights`)."""

Look = tuple[Point, float, Point, float]
"""A quick look asked for: eye, its base radius, target centre, its base radius."""


def _looks(state: State) -> tuple[Pieces | None, dict[Look, Seen]]:
    """The layout's sight pieces (None: nothing blocks sight) and its kept quick looks."""
    terrain = space.terrain(state)
    cache = state.setup.caches
    key = ("quick_sight", id(terrain))
    if key not in cache:
        cache[key] = _sight_pieces(terrain)
    looks: dict[Look, Seen] = cache.setdefault(("quick_looks", id(terrain)), {})
    return cache[key], looks


def quick_sights(
    state: State,
    eye: Point,
    eye_r: float,
    targets: Sequence[tuple[Point, float]],
    wanted: Sequence[bool] | None = None,
) -> list[Seen | None]:
    """Quick looks from ``eye`` to each target centre (with base radii for nearness);
    None for a target not ``wanted`` (every one if ``wanted`` is None).

    A look depends only on its two points, their radii and the terrain, so each is
    kept per layout (every game of the set-up) and only the new ones are worked out,
    together (see also :func:`prefetch_looks`)."""
    if not targets:
        return []
    pieces, looks = _looks(state)
    if pieces is None:
        return [OPEN] * len(targets)
    out: list[Seen | None] = [None] * len(targets)
    missing: list[int] = []
    keys: list[Look] = []
    for i, (at, r) in enumerate(targets):
        if wanted is None or wanted[i]:
            key = (eye, eye_r, at, r)
            seen = looks.get(key)
            if seen is None:
                missing.append(i)
                keys.append(key)
            else:
                out[i] = seen
    if missing:
        if len(looks) + len(missing) > LOOKS_KEPT:
            looks.clear()
        for i, key, seen in zip(missing, keys, _looks_now(pieces, keys), strict=True):
            out[i] = looks[key] = seen
    return out


def look_reach(state: State, fig: Fig, enemy: Fig) -> float:
    """The largest gap between bases at which :meth:`_Mover.place_value` reads the look
    from ``fig`` at ``enemy`` (-inf: never). The look decides only distance attacks:
    ``fig``'s, within the range, and the enemy's, within the range and (unless it rides:
    its mount is weighed instead) its move as well."""
    rules = state.setup.rules
    reach = rules.range if fig.profile.distance else -math.inf
    if enemy.profile.distance and enemy.where != "mounted":
        reach = max(reach, rules.range + full_move(state, enemy))
    return reach


def prefetch_looks(state: State, asked: Sequence[Look]) -> None:
    """Work out the quick looks of ``asked`` not yet kept, all at once (each look is the
    one :func:`quick_sights` would work out alone)."""
    pieces, looks = _looks(state)
    if pieces is None:
        return
    missing = list(dict.fromkeys(k for k in asked if k not in looks))
    if not missing:
        return
    if len(looks) + len(missing) > LOOKS_KEPT:
        looks.clear()
    for k, seen in zip(missing, _looks_now(pieces, missing), strict=True):
        looks[k] = seen


def _looks_now(pieces: Pieces, asked: Sequence[Look]) -> list[Seen]:
    """The quick looks ``asked``, worked out (each on its own, all at once)."""
    tree, geoms, feats, deep, _ = pieces
    coords = np.array([(*eye, *at) for eye, _, at, _ in asked], dtype=np.float64)
    lines = shapely.linestrings(coords.reshape(len(asked), 2, 2))
    pairs = tree.query(lines, predicate="intersects")
    if not pairs.shape[1]:
        return [OPEN] * len(asked)
    li_all, fi_all = pairs[0], pairs[1]
    li_list = li_all.tolist()
    ends = shapely.points(np.array([asked[i][2] for i in li_list]))
    eyes = shapely.points(np.array([asked[i][0] for i in li_list]))
    g = geoms[fi_all]
    d_target = shapely.distance(ends, g).tolist()
    d_eye = shapely.distance(eyes, g).tolist()
    # Whether each line runs too deep into a feature: asked only of those seen through.
    too_deep = np.zeros(len(li_all), dtype=np.bool_)
    through = np.nonzero(deep[fi_all])[0]
    if len(through):
        too_deep[through] = _too_deep(pieces, asked, lines, li_all, fi_all, through)
    deeper = too_deep.tolist()
    flags = [[True, False, False] for _ in asked]
    for k, (li, fi) in enumerate(zip(li_list, fi_all.tolist(), strict=True)):
        feature = feats[fi]
        eye_r, target_r = asked[li][1], asked[li][3]
        if feature.see_depth is not None:  # seen through up to a depth (the geometry's rule)
            at_eye = d_eye[k] <= eye_r + 0.02
            at_target = d_target[k] <= target_r + 0.02
            if deeper[k]:
                flags[li][0] = False
            else:  # covered at the end that stands at (or beyond) the area, both if neither
                flags[li][1] = flags[li][1] or at_target or not at_eye
                flags[li][2] = flags[li][2] or at_eye or not at_target
            continue
        reach = feature.beyond_reach if feature.blocks_los == "beyond" else 0.0
        if d_target[k] <= target_r + reach + 0.02:
            flags[li][1] = True
        elif d_eye[k] <= eye_r + reach + 0.02:
            flags[li][2] = True
        else:
            flags[li][0] = False
    return [_SEEN[clear, target, eye] for clear, target, eye in flags]


def full_move(state: State, fig: Fig) -> float:
    """How far a figure could move this round: its full allowance, nothing for a mount
    without a rider (II.2)."""
    if fig.profile.is_mount and fig.rider is None:
        return 0.0
    return state.setup.rules.allowance(fig.profile.kind, half=False)


def value(fig: Fig) -> float:
    return float(fig.profile.points)


_P_CACHE: dict[tuple[Any, ...], float] = {}


def _attack_p(state: State, attacker: Fig, target: Fig, hand: bool, cover: bool) -> float:
    """The exact chance that ``attacker`` defeats ``target`` (as a float, remembered)."""
    cover = (cover or target.where == "mounted") and not hand
    auto = attacker.profile.auto and not hand
    key = (attacker.profile.kind, target.profile.kind, hand, cover, auto, target.profile.armour)
    found = _P_CACHE.get(key)
    if found is None:
        o = combat.attack_odds(
            state.setup.rules,
            attacker.profile.kind,
            target.profile.kind,
            hand=hand,
            cover=cover,
            auto=auto,
            armour=target.profile.armour,
        )
        found = _P_CACHE[key] = float(o.hit)
    return found


@dataclass(frozen=True, slots=True)
class _EnemyOdds:
    """One enemy as :meth:`_Mover.place_value` weighs it (indexed by cover: False, True)."""

    hand: float
    """The figure's chance of defeating it hand to hand, times its points."""
    distance: tuple[float, float]
    """The same for a distance attack, by the enemy's cover."""
    mounted: bool
    reach: float
    """How far it moves to strike (0: a mount without a rider)."""
    shoots: bool
    shot: tuple[float, float]
    """Its chance of defeating the figure by a distance attack, by the figure's cover."""
    blow: float
    """Its chance hand to hand."""


ENEMY_ODDS_KEPT = 100_000
"""Pairs of a figure and an enemy kept per set-up with their :class:`_EnemyOdds`."""


def _enemy_odds(state: State, fig: Fig, enemy: Fig) -> _EnemyOdds:
    """What :meth:`_Mover.place_value` reads of ``enemy`` wherever ``fig`` stands (the
    exact chances, as floats). It reads the two figures' profiles (fixed by their ids),
    whether each rides, and whether the enemy, a mount, carries a rider: kept per set-up
    by those."""
    cache: dict[tuple[Any, ...], _EnemyOdds] = state.setup.caches.setdefault("enemy_odds", {})
    key = (fig.id, fig.where, enemy.id, enemy.where, enemy.rider)
    found = cache.get(key)
    if found is None:
        if len(cache) >= ENEMY_ODDS_KEPT:
            cache.clear()
        found = cache[key] = _enemy_odds_now(state, fig, enemy)
    return found


def _enemy_odds_now(state: State, fig: Fig, enemy: Fig) -> _EnemyOdds:
    worth = value(enemy)
    reach = full_move(state, enemy)
    shot = (
        _attack_p(state, enemy, fig, False, False),
        _attack_p(state, enemy, fig, False, True),
    )
    blow = _attack_p(state, enemy, fig, True, False)
    return _EnemyOdds(
        hand=_attack_p(state, fig, enemy, True, False) * worth,
        distance=(
            _attack_p(state, fig, enemy, False, False) * worth,
            _attack_p(state, fig, enemy, False, True) * worth,
        ),
        mounted=enemy.where == "mounted",
        reach=reach,
        shoots=enemy.profile.distance,
        shot=shot,
        blow=blow,
    )


class _Mover:
    """Scores places for one figure, against the enemies as they stand now."""

    exposure = EXPOSURE
    approach = APPROACH
    strike = 1.0
    """Weight of what the figure can attack from a place (greedy: all of it)."""
    reads_order = False
    """Whether the round's order counts (the planner; greedy: no). An enemy whose side
    has moved this round stands where it is, facing as it does (II.2): this round it can
    shoot only within its range and front arc, or strike only what touches it. It also
    attacks first (its side is earlier in the order, II.3-4), so what the figure could
    attack counts only as far as it survives those attacks."""

    def __init__(self, state: State, fig: Fig) -> None:
        self.state = state
        self.fig = fig
        rules = state.setup.rules
        self.rules = rules
        self.me = space.body(state, fig)
        self.enemies = [
            (e, space.body(state, e))
            for e in state.figs.values()
            if e.side != fig.side and e.active
        ]
        self.range = rules.range
        self.targets = [(b.at, b.base.bounding_radius) for _, b in self.enemies]
        self.look_reach = [look_reach(state, fig, e) for e, _ in self.enemies]
        self._odds = [_enemy_odds(state, fig, enemy) for enemy, _ in self.enemies]
        self._far = [self._reads_within(odds) for odds in self._odds]
        self._carried = self.carried()
        mine = value(fig) + (value(state.figs[fig.rider]) if fig.rider else 0.0)
        self._mine = mine + CARRIED_RISK * sum(state.items[i].points for i in self._carried)
        self._items = self._items_now()
        self._tasks = self._tasks_now()
        moved = self.moved_sides(state, fig)
        self.standing = [e.side in moved for e, _ in self.enemies]
        """Per enemy: whether its side has moved this round (see :attr:`reads_order`)."""

    @classmethod
    def moved_sides(cls, state: State, fig: Fig) -> frozenset[str]:
        """The enemy sides done moving this round, if this mover reads the order."""
        if not cls.reads_order or state.phase != "movement" or fig.side not in state.order:
            return frozenset()
        me = state.order.index(fig.side)
        return frozenset(state.order[:me]) | (state.done - {fig.side})

    def _reads_within(self, odds: _EnemyOdds) -> float:
        """The largest gap at which :meth:`place_value` reads anything of an enemy: its
        attacks on the figure or the figure's on it (the same sums as the tests there).
        Farther off it adds nothing (a zero to the threat, a factor one to survival)."""
        rules = self.rules
        near = max(rules.touch + 0.05, rules.range if self.fig.profile.distance else 0.0)
        if odds.mounted:
            return near
        return max(near, rules.range + odds.reach, odds.reach + rules.touch)

    def place_value(self, at: Point, facing: float, mounted_on: Fig | None = None) -> float:
        fig, state, rules = self.fig, self.state, self.rules
        ghost: Figure | None = None  # the figure at ``at``, made when a facing counts
        base_r = self.me.base.bounding_radius
        # The gaps between the bounding circles of the bases.
        gaps = [max(0.0, math.dist(at, there) - base_r - r) for there, r in self.targets]
        wanted = [g <= reach for g, reach in zip(gaps, self.look_reach, strict=True)]
        seen = quick_sights(state, at, base_r, self.targets, wanted)
        mine = self._mine
        can_hit = fig.where != "mounted" and mounted_on is None and not fig.attacked
        shoots = fig.profile.distance
        touch = rules.touch
        fight_gap = touch + 0.05
        in_range = self.range
        half_angle = rules.facing_half_angle
        best = 0.0
        threat = 0.0
        survives = 1.0
        nearest = min(gaps, default=math.inf)
        for (_, body), gap, seen_here, odds, standing, far in zip(
            self.enemies, gaps, seen, self._odds, self.standing, self._far, strict=True
        ):
            if gap > far:
                continue
            # Read only within look_reach (by a distance attack either way).
            look = OPEN if seen_here is None else seen_here
            # What this figure can do to the enemy from here.
            if can_hit:
                if gap <= fight_gap:
                    best = max(best, odds.hand)
                if shoots and gap <= in_range and look.clear:
                    ghost = ghost or self.me.moved_to(at, facing)
                    if abs(bearing(ghost, body)) <= half_angle:
                        best = max(best, odds.distance[1 if look.target_cover else 0])
            # What the enemy can do to it here.
            if odds.mounted:
                continue
            reach = odds.reach
            covered = 1 if look.eye_cover or mounted_on is not None else 0
            if standing:
                # It has moved: it attacks from where it stands, before this figure does.
                now = 0.0
                if odds.shoots and look.clear and gap <= in_range:
                    ghost = ghost or self.me.moved_to(at, facing)
                    if abs(bearing(body, ghost)) <= half_angle:
                        now = odds.shot[covered]
                if gap <= touch:
                    now = max(now, odds.blow)
                threat += now * mine
                survives *= 1.0 - now
                continue
            shot = 0.0
            if odds.shoots and look.clear:
                if gap <= in_range:
                    shot = odds.shot[covered]
                elif gap <= in_range + reach:
                    shot = LATER * odds.shot[covered]
            blow = 0.0
            if gap <= reach + touch:
                blow = odds.blow if gap <= touch else LATER * odds.blow
            threat += max(shot, blow) * mine
        score = self.strike * best * survives - self.exposure * threat
        if math.isfinite(nearest):
            want = self.range - 1.0 if fig.profile.distance else 0.0
            score -= self.approach * value(fig) * max(0.0, nearest - want)
        score += self.objectives(at)
        return score

    def carried(self) -> list[str]:
        """The items the figure (or its rider) carries."""
        fig = self.fig
        return list(fig.items) + (list(self.state.figs[fig.rider].items) if fig.rider else [])

    def objectives(self, at: Point) -> float:
        """Pulls toward the scenario's objectives: a carried item toward the exit, an
        item on the table (touching an unlocked one most: it can be picked up next),
        and a task the figure could try (by its chance of success)."""
        state, fig = self.state, self.fig
        total = 0.0
        setup = state.setup
        for item_id in self._carried:
            item = state.items[item_id]
            edge = setup.edges.get(fig.side)
            if setup.victory.item_exit == "any_edge" or edge is None:
                d = min(at[0], at[1], setup.table.width - at[0], setup.table.height - at[1])
            else:
                d = {
                    "north": setup.table.height - at[1],
                    "south": at[1],
                    "east": setup.table.width - at[0],
                    "west": at[0],
                }[edge]
            total -= CARRY * max(item.points, 1) * d
        if fig.where == "mounted":
            return total
        touch = setup.rules.touch
        ghost = None
        for spot, worth, share, takes, touching in self._items:
            d = math.dist(at, spot)
            pull = worth * max(0.0, 1.0 - d / 24.0) * share
            if takes and d <= self.me.base.bounding_radius + touch:
                ghost = ghost or self.me.moved_to(at)
                if ghost.covers(spot, tolerance=touch):
                    pull = max(pull, touching)
            total += pull
        for place, reach, pull in self._tasks:
            if isinstance(place, Feature):
                d = _feature_distance(state, at, place)
            else:
                d = math.dist(at, place)
            total += pull * max(0.0, 1.0 - max(0.0, d - reach) / 18.0)
        return total

    def _items_now(self) -> list[tuple[Point, float, float, bool, float]]:
        """The items on the table as :meth:`objectives` weighs them: place, pull at
        most, its share (half for a locked one), whether the figure could pick it up
        (then touching it pulls the last figure)."""
        fig = self.fig
        can_take = not (fig.profile.is_mount and fig.rider is None)
        return [
            (
                item.at,
                max(item.points, 1) * OBJECTIVE,
                0.5 if item.locked else 1.0,
                can_take and not item.locked,
                TOUCH_ITEM * max(item.points, 1),
            )
            for item in self.state.items.values()
            if item.at is not None and not item.gone
        ]

    def _tasks_now(self) -> list[tuple[Point | Feature, float, float]]:
        """The tasks the figure could try as :meth:`objectives` weighs them: the spot or
        the feature to reach, how near counts as there, and the pull there (none for a
        figure other than a guy)."""
        state, fig = self.state, self.fig
        if not fig.profile.is_guy:
            return []
        out: list[tuple[Point | Feature, float, float]] = []
        for task in state.setup.tasks:
            if task.id in state.tasks_done or f"{task.id}:{fig.side}" in state.tasks_done:
                continue
            place: Point | Feature | None = task.at
            if place is None:
                place = space.feature(state, task.feature or "")
                if place is None or place.id in state.destroyed:
                    continue
            worth = _task_worth(state, task.effect, task.points, task.target) * OBJECTIVE
            # The better the figure's chance, the stronger the pull (a scholar to a seal).
            chance = 2.0 * _skill_p(state, fig, task.skill)
            out.append((place, task.reach, chance * worth))
        return out


FEATURE_DISTANCES_KEPT = 20_000
"""Points and features kept per set-up with the distance between them."""


def _feature_distance(state: State, at: Point, feature: Feature) -> float:
    """Distance from a point to a feature (its shape is fixed: kept per set-up)."""
    cache: dict[tuple[Point, str], float] = state.setup.caches.setdefault("feature_distances", {})
    key = (at, feature.id)
    found = cache.get(key)
    if found is None:
        if len(cache) >= FEATURE_DISTANCES_KEPT:
            cache.clear()
        found = cache[key] = float(shapely.distance(shapely.Point(at), feature.geometry))
    return found


def _skill_p(state: State, fig: Fig, skill: str | None) -> float:
    """The figure's chance of a skill roll of kind ``skill`` (II.5, Specific Skills)."""
    specific = state.setup.options.specific_skills and skill is not None
    hero = fig.profile.kind == "hero"
    skilled = bool(specific and skill in fig.profile.skills)
    key = ("skill_p", hero, skilled)  # the set-up's rules decide the rest
    found: float | None = state.setup.caches.get(key)
    if found is None:
        found = state.setup.caches[key] = float(
            combat.skill_chance(state.setup.rules, hero, skilled)
        )
    return found


def _task_worth(state: State, effect: str, points: int, target: str | None) -> float:
    if effect == "points":
        return float(points)
    if effect == "unlock_item" and target in state.items:
        return max(1.0, 0.5 * state.items[target].points)
    return 1.0


def _move_score(
    rules: VSGMR,
    state: State,
    side: str,
    action: Move,
    mover_class: type[_Mover] | None = None,
    cache_name: str = "move_scores",
) -> float:
    """A move's gain over staying put, by ``mover_class``'s weights (the greedy bot's by
    default; the planner's own, kept apart under ``cache_name``)."""
    fig = state.figs[action.figure]
    # A move's score depends on the figure and the enemy, not on its friends:
    # kept per set-up like the candidates, so a phase scores each figure once.
    kind = mover_class or _Mover
    sig = _score_key(state, fig, kind)
    cache: dict[Any, Any] = state.setup.caches.setdefault(cache_name, {})
    if len(cache) > MOVE_SCORES_KEPT:
        cache.clear()
    key = (sig, action)
    found: float | None = cache.get(key)
    if found is not None:
        return found
    mover_key = ("mover", kind, fig.id)
    mover: _Mover | None = state.caches.get(mover_key)
    if mover is None or mover.fig is not fig:  # one per figure and state version
        mover = state.caches[mover_key] = kind(state, fig)
    here_key = (sig, "here")
    now: float | None = cache.get(here_key)
    if now is None:
        now = mover.place_value(mover.me.at, mover.me.facing)
        cache[here_key] = now
    if action.path:
        end = action.path[-1]
        before = action.path[-2] if len(action.path) > 1 else mover.me.at
        facing = action.facing if action.facing is not None else heading(before, end)
    else:
        end = mover.me.at
        facing = action.facing if action.facing is not None else mover.me.facing
    setup = state.setup
    if not setup.table.contains_point(end, tolerance=0.0):
        # Off the table: scores what it carries off, loses the figure for the game.
        carried = [state.items[i] for i in fig.items]
        if fig.rider:
            carried += [state.items[i] for i in state.figs[fig.rider].items]
        gain = sum(i.points for i in carried)
        found = float(gain) - 0.5 * value(fig) - now
    else:
        mount = None
        if fig.profile.is_guy:  # the last of the side's riderless mounts standing there
            for other in riderless(state, fig.side):
                if other.geo.at == end:
                    mount = other
        found = mover.place_value(end, facing, mount) - now
        if mount is not None:
            found += 0.3 * value(mount)
        if fig.where == "mounted":
            found -= 0.2
    cache[key] = found
    return found


def _hit(state: State, sit: Situation) -> float:
    """``attacks.odds(state, sit).hit`` as a float, kept per set-up by what it reads."""
    p = state.figs[sit.attacker].profile
    target = None if sit.feature else state.figs[sit.target].profile
    key = (
        "situation_hit",
        p.kind,
        p.auto,
        sit.hand,
        sit.feature,
        None if target is None else (target.kind, target.armour),
        sit.cover,
        sit.cover_dispute,
        sit.see_dispute,
    )
    cache = state.setup.caches
    found: float | None = cache.get(key)
    if found is None:
        found = cache[key] = float(attacks.odds(state, sit).hit)
    return found


SHELTERS_KEPT = 20_000
"""Bases and features kept per set-up by whether the feature shelters the base."""


def _shelters(state: State, body: Figure, feature_id: str) -> bool:
    """Whether the feature stands within :data:`SHELTER` of the base (both fixed shapes:
    kept per set-up)."""
    cache: dict[tuple[str, Figure], bool] = state.setup.caches.setdefault("shelters", {})
    key = (feature_id, body)
    found = cache.get(key)
    if found is None:
        if len(cache) >= SHELTERS_KEPT:
            cache.clear()
        found = cache[key] = space.terrain(state).distance_to(body, feature_id) <= SHELTER
    return found


def _situation_score(state: State, sit: Situation) -> float:
    hit = _hit(state, sit)
    if sit.feature:
        side = state.figs[sit.attacker].side
        key = ("shelters", side, sit.target)
        shelters: bool | None = state.caches.get(key)
        if shelters is None:
            shelters = state.caches[key] = any(
                _shelters(state, space.body(state, e), sit.target)
                for e in state.figs.values()
                if e.side != side and e.active
            )
        return (FEATURE_SHOT if shelters else -FEATURE_SHOT) * hit
    target = state.figs[sit.target]
    worth = value(target)
    if target.rider is not None:
        worth += 0.3 * value(state.figs[target.rider])
    return hit * worth


MOVE_SCORES_KEPT = 10_000
"""Move scores kept per set-up (past it, :func:`_move_score` forgets them all)."""
SIGNATURES_KEPT = 20_000
"""Numbers of figures' signatures kept per set-up (see :func:`_score_key`)."""


def _score_key(state: State, fig: Fig, kind: type[_Mover]) -> tuple[int, frozenset[str]]:
    """What ``fig``'s move scores are kept by: a number for its :func:`signature` (equal
    signatures, equal numbers, in every game of the set-up; a forgotten signature gets a
    new number, never an old one) and the sides done moving, read afresh (they may change
    within a version of the state, see :meth:`_Mover.moved_sides`)."""
    key = ("score_signature", fig.id)
    number: int | None = state.caches.get(key)
    if number is None:
        cache = state.setup.caches
        numbers: dict[tuple[Any, ...], int] = cache.setdefault("score_signatures", {})
        sig = signature(state, fig)
        number = numbers.get(sig)
        if number is None:
            if len(numbers) >= SIGNATURES_KEPT:
                numbers.clear()
            number = numbers[sig] = cache.get("score_signatures_made", 0)
            cache["score_signatures_made"] = number + 1
        state.caches[key] = number
    return number, kind.moved_sides(state, fig)


def _prefetch_moves(state: State, actions: Sequence[Action], cache_name: str) -> dict[int, float]:
    """The scores of the moves among ``actions`` already kept (by their place in
    ``actions``), and for the others, the quick looks they will ask for (from where each
    figure stands and where each move ends, to every enemy), worked out at once:
    :meth:`_Mover.place_value` then finds them kept.

    The kept scores are those :func:`_move_score` would find, one by one: none is
    given when scoring the rest might fill the cache to where it is forgotten."""
    scored: dict[Any, Any] = state.setup.caches.get(cache_name, {})
    moves = sum(1 for a in actions if isinstance(a, Move))
    safe = len(scored) + 2 * moves <= MOVE_SCORES_KEPT
    known: dict[int, float] = {}
    asked: list[Look] = []
    per_fig: dict[str, tuple[Any, Figure, list[tuple[Point, float, float]]]] = {}
    table = state.setup.table

    def ask(at: Point, r: float, targets: list[tuple[Point, float, float]]) -> None:
        # The looks place_value will read (see look_reach: centres no farther apart than
        # the reach and both radii; a hair more, as any look asked here is only kept).
        asked.extend((at, r, t_at, t_r) for t_at, t_r, far in targets if math.dist(at, t_at) <= far)

    for i, action in enumerate(actions):
        if not isinstance(action, Move):
            continue
        found = per_fig.get(action.figure)
        if found is None:
            fig = state.figs[action.figure]
            me = space.body(state, fig)
            r = me.base.bounding_radius
            targets = []
            for e in state.figs.values():
                if e.side == fig.side or not e.active:
                    continue
                reach = look_reach(state, fig, e)
                if reach >= 0.0:  # else the look is never read
                    b = space.body(state, e)
                    t_r = b.base.bounding_radius
                    targets.append((b.at, t_r, reach + r + t_r + 1e-6))
            sig = _score_key(state, fig, _Mover)
            found = per_fig[action.figure] = (sig, me, targets)
            if (found[0], "here") not in scored:
                ask(me.at, r, targets)
        sig, me, targets = found
        score = scored.get((sig, action))
        if score is not None:
            if safe:
                known[i] = score
            continue
        end = action.path[-1] if action.path else me.at
        if table.contains_point(end, tolerance=0.0):
            ask(end, me.base.bounding_radius, targets)
    if asked:
        prefetch_looks(state, asked)
    return known


def evaluate(rules: VSGMR, state: State, side: str, actions: Sequence[Action]) -> list[float]:
    known = _prefetch_moves(state, actions, "move_scores")
    scores: list[float] = []
    for i, action in enumerate(actions):
        score = 0.0
        if isinstance(action, First):
            score = FIRST_TURN if action.side == side else 0.0
        elif isinstance(action, Shoot | Fight):
            fig = state.figs[action.figure]
            sit = rules.situation(state, fig, action.target, isinstance(action, Fight))
            score = _situation_score(state, sit) if isinstance(sit, Situation) else -1.0
        elif isinstance(action, Skill):
            fig = state.figs[action.figure]
            task = state.setup.task(action.task)
            if task is not None:
                p = float(rules.skill_chance(state, fig, task))
                score = p * _task_worth(state, task.effect, task.points, task.target)
        elif isinstance(action, Take):
            item = state.items[action.item]
            score = TAKE * max(item.points, 1)
        elif isinstance(action, Move):
            found = known.get(i)
            score = _move_score(rules, state, side, action) if found is None else found
        elif isinstance(action, End):
            score = 0.0
        scores.append(score)
    return scores


def standing(state: State) -> dict[str, float]:
    """Each side's figures still in the game at their points, plus its score."""
    found = {side: float(state.scores.get(side, 0.0)) for side in state.setup.sides}
    for fig in state.figs.values():
        if fig.active:
            found[fig.side] += value(fig)
    return found
