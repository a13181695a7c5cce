"""7.0 Engineering: the actions of the (stand-in) Engineering table played on the table.

The table is ``data/charts.toml [engineering]`` (:func:`charts.engineering`);
what an action does in play is ours (readings, docs/rules/invisible-enemy.md):

- When: an engineer base of the unit moving now, instead of moving, once a turn
  (ruling 40 a): it must not have moved or acted this activation, and afterwards
  it may not move. A stranded or trapped engineer may act (acting is not moving);
  a contaminated one may not.
- Mission: only the actions of its unit's mission (1.3, 7.0).
- Reach: a base or feature within 1" edge to edge (``rules.toml [engineering]``).
- ``repair``: one hull hit off another friendly base; a contaminated base cannot be
  repaired (1.5 note 2). ``free-trapped``: a trapped friendly base may move again.
- ``tow-immobilised`` (a trapped friend) and ``tow-enemy`` (an enemy base) put a tow
  on after a successful roll; the same keys on a friendly base that can move attach
  at once, without a roll (4.4). The engineer's next move drags the towed base
  (:mod:`.movement`). An engineer holds one tow at a time.
- ``clear-encrypted``, ``clear-minefield``, ``remove-mek-lok``: on success a lane
  1" wide (``rules.toml [clearing] lane``) is cleared straight ahead of the engineer,
  from its centre to 1" (``depth``) past where the lane first meets the feature; the
  rest of the feature stays, in pieces if the lane cuts it through. The lane must
  meet the feature within the engineer's reach ahead: it faces what it clears.
- ``plough X,Y`` (4.4, a demolition engineer's move, not a 7.0 action: no roll, and
  it leaves the once-a-turn action unspent): the engineer moves straight to X,Y
  ploughing low obstacles as well as high and medium ones, 3" an inch through them,
  and leaves a 1" lane behind it (:mod:`.movement`, ruling 52).
- ``build-mek-lok``: a MEK-Lok circle 1" across appears just ahead of the engineer
  (id ``MK1``, ``MK2``...), on the table and clear of every base.
- ``arm-payload`` arms the engineer's strike payload; ``deliver-payload`` (armed, an
  enemy base within 1") destroys the target on success and spends the payload
  (stand-in: the text leaves strike payloads to scenarios; a failed delivery keeps
  it armed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import shapely

from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.geometry.table import (
    Feature,
    Figure,
    RoundBase,
    TableGeometryError,
    edge_distance,
    overlapping,
)
from warbench.rulesets.invisible_enemy import charts, movement
from warbench.rulesets.invisible_enemy.actions import PLOUGH, Engineer, Move
from warbench.rulesets.invisible_enemy.data import rules, terrain_chart
from warbench.rulesets.invisible_enemy.scenario import FeatureSpec, feature_of
from warbench.rulesets.invisible_enemy.state import Base, State
from warbench.rulesets.kit.rulings import cite_ruling
from warbench.rulesets.kit.table.moves import own_base

RULINGS = "warbench.rulesets.invisible_enemy"
"""Where ``data/rulings.toml`` lives: refusals caused by a ruling cite it from there."""

FEATURE_KEYS = {
    "clear-encrypted": "encrypted",
    "clear-minefield": "minefield",
    "remove-mek-lok": "mek_lok",
}
"""Actions on a terrain feature, and the 1.5 kind each works on."""
BASE_KEYS = ("repair", "free-trapped", "tow-immobilised", "tow-enemy", "deliver-payload")
TOWS = ("tow-immobilised", "tow-enemy")


@dataclass(frozen=True, slots=True)
class Checked:
    """A legal engineering action: who, on what, and whether it needs its roll."""

    base: Base
    key: str
    target: Base | None = None
    feature: Feature | None = None
    roll: bool = True


def _reach() -> float:
    return rules().data.engineering.reach


def check(state: State, side: str, action: Engineer, fresh: bool = False) -> Checked:
    """Whether ``action`` may be taken now (``fresh``: at the start of an activation of
    the engineer's unit); IllegalAction says why not."""
    base: Base = own_base(state.bases, action.base, side, action)
    if base.role != "engineer":
        raise IllegalAction(action, f"{base.id} is not an engineer base (1.3)")
    if not fresh:
        if base.unit != state.current:
            raise IllegalAction(action, f"{base.id} is not of the unit moving now (7.0)")
        if base.id in state.moved:
            raise IllegalAction(action, f"{base.id} has already moved or acted this activation")
    if action.key == PLOUGH:
        return _check_plough(state, side, base, action)
    if action.to is not None:
        raise IllegalAction(action, f"{action.key} goes to no point (only plough does)")
    if base.engineered_turn == state.turn:
        raise IllegalAction(action, f"{base.id} has already taken its engineering action")
    if base.contaminated:
        raise IllegalAction(action, f"{base.id} is contaminated (1.5 note 2)")
    mission = state.units[base.unit].mission
    try:
        entry = charts.engineering_action(action.key)
    except ValueError as exc:
        raise IllegalAction(action, str(exc)) from None
    if mission is None or entry.mission != mission:
        raise IllegalAction(
            action,
            f"{action.key} is a mission {entry.mission} action; {base.unit} is tasked "
            f"{mission or 'with no mission'} and keeps to it (1.3, 7.0)",
        )
    if action.key in FEATURE_KEYS:
        return _check_feature(state, base, action)
    if action.key == "build-mek-lok":
        _no_target(action)
        mek_lok(state, base, action)
        return Checked(base, action.key, roll=False)
    if action.key == "arm-payload":
        _no_target(action)
        if base.armed:
            raise IllegalAction(action, f"{base.id}'s payload is already armed")
        return Checked(base, action.key, roll=False)
    return _check_base(state, base, action)


def plough_move(action: Engineer) -> Move:
    """The move a ``plough`` makes: straight to its point, facing the way it goes."""
    assert action.to is not None
    return Move(action.base, (action.to,))


def _check_plough(state: State, side: str, base: Base, action: Engineer) -> Checked:
    """4.4: a demolition engineer's move through low obstacles as well (ruling 52)."""
    if state.units[base.unit].mission != "E":
        raise IllegalAction(
            action, f"only a demolition (E) engineer ploughs; {base.unit} is not one (1.3, 4.4)"
        )
    if action.target is not None or action.to is None:
        raise IllegalAction(action, "write it as: engineer BASE plough X,Y (straight there, 4.4)")
    try:
        movement.plan(state, side, plough_move(action), low=True)
    except IllegalAction as exc:
        raise IllegalAction(action, exc.reason) from None
    return Checked(base, PLOUGH, roll=False)


def _no_target(action: Engineer) -> None:
    if action.target is not None:
        raise IllegalAction(action, f"{action.key} takes no target")


def _check_feature(state: State, base: Base, action: Engineer) -> Checked:
    kind = FEATURE_KEYS[action.key]
    title = terrain_chart().kinds[kind].title
    fid = action.target
    if fid is None:
        raise IllegalAction(
            action, f"name the {title} to work on: engineer {base.id} {action.key} ID"
        )
    try:
        feature = state.terrain.feature(fid)
    except TableGeometryError:
        raise IllegalAction(action, f"there is no feature {fid}") from None
    if feature.destroyed:
        raise IllegalAction(action, f"{fid} is already cleared")
    if feature.kind != kind:
        raise IllegalAction(action, f"{fid} is not {title}: {action.key} works only on {title}")
    if state.terrain.distance_to(base.geo, fid) > _reach() + 1e-9:
        raise IllegalAction(action, f'{fid} is more than {_reach():g}" from {base.id} (7.0)')
    if lane(base, feature) is None:
        raise IllegalAction(
            action,
            f'{fid} is not straight ahead of {base.id} within {_reach():g}": an engineer '
            f"clears a lane ahead of it; face {fid} first (7.0, {cite_ruling(RULINGS, 40)})",
        )
    return Checked(base, action.key, feature=feature)


def lane(base: Base, feature: Feature) -> shapely.Geometry | None:
    """The lane a 7.0 clearing action opens in ``feature``: ``lane`` inches wide along the
    engineer's facing, from its centre to ``depth`` inches past where the lane first
    meets the feature; None if it meets none of it within reach ahead of the base."""
    data = rules().data.clearing
    rad = math.radians(base.geo.facing)
    ux, uy = math.cos(rad), math.sin(rad)
    x, y = base.geo.at

    def strip(length: float) -> shapely.Geometry:
        ahead = shapely.LineString([(x, y), (x + length * ux, y + length * uy)])
        return shapely.buffer(ahead, data.lane / 2, cap_style="flat")

    met = shapely.intersection(strip(base.geo.base.bounding_radius + _reach()), feature.geometry)
    if shapely.is_empty(met) or float(shapely.area(met)) <= 0.0:
        return None
    xy = shapely.get_coordinates(met)
    entry = max(0.0, float(((xy[:, 0] - x) * ux + (xy[:, 1] - y) * uy).min()))
    return strip(entry + data.depth)


def _check_base(state: State, base: Base, action: Engineer) -> Checked:
    key = action.key
    target = state.bases.get(action.target or "")
    if target is None or not target.active:
        raise IllegalAction(action, f"name a base on the table: engineer {base.id} {key} BASE")
    if target.id == base.id:
        raise IllegalAction(action, f"{base.id} cannot work on itself")
    if edge_distance(base.geo, target.geo) > _reach() + 1e-9:
        raise IllegalAction(action, f'{target.id} is more than {_reach():g}" from {base.id} (7.0)')
    friend = target.side == base.side
    if key == "deliver-payload":
        if not base.armed:
            raise IllegalAction(action, f"{base.id}'s payload is not armed (arm-payload first)")
        if friend:
            raise IllegalAction(action, "a payload is delivered to an enemy base")
        return Checked(base, key, target)
    if key in TOWS:
        if state.tow_of(base) is not None:
            raise IllegalAction(action, f"{base.id} already has a tow on {base.towing}")
        if target.contaminated:
            raise IllegalAction(action, f"{target.id} is contaminated: no one tows it")
        if any(b.towing == target.id for b in state.active() if b.id != base.id):
            raise IllegalAction(action, f"{target.id} is already under tow")
        if friend and not target.trapped:
            return Checked(base, key, target, roll=False)  # 4.4: a mobile friend needs no roll
        if key == "tow-immobilised" and (not friend or not target.trapped):
            raise IllegalAction(action, "tow-immobilised attaches to a trapped friendly base")
        if key == "tow-enemy" and friend:
            raise IllegalAction(
                action, "tow-enemy attaches to an enemy base (a trapped friend: tow-immobilised)"
            )
        return Checked(base, key, target)
    if not friend:
        raise IllegalAction(action, f"{key} works on a friendly base")
    if key == "repair":
        if target.contaminated:
            raise IllegalAction(action, f"{target.id} is contaminated: it cannot be repaired")
        if target.hits == 0:
            raise IllegalAction(action, f"{target.id} has no hull hits to repair")
    elif key == "free-trapped" and not target.trapped:
        raise IllegalAction(action, f"{target.id} is not trapped")
    return Checked(base, key, target)


def mek_lok(state: State, base: Base, action: Engineer) -> Feature:
    """The MEK-Lok the engineer would build: a 1" circle just ahead of it, on the table
    and clear of every base (IllegalAction if there is no room)."""
    data = rules().data.engineering
    r = data.mek_lok_radius
    ahead = base.geo.base.bounding_radius + r + data.tow_gap
    rad = math.radians(base.geo.facing)
    x, y = base.geo.x + ahead * math.cos(rad), base.geo.y + ahead * math.sin(rad)
    table = state.setup.table
    if not (r <= x <= table.width - r and r <= y <= table.height - r):
        raise IllegalAction(action, f"no room on the table ahead of {base.id} for MEK-Lok")
    blob = Figure("mek-lok", x, y, 0.0, RoundBase(2 * r))
    if any(overlapping(blob, b.geo) for b in state.active()):
        raise IllegalAction(action, f"a base stands where {base.id} would build MEK-Lok")
    taken = {f.id for f in state.terrain.features} | set(state.bases) | set(state.units)
    n = 1
    while f"MK{n}" in taken:
        n += 1
    spec = FeatureSpec.model_validate(
        {"id": f"MK{n}", "kind": "mek_lok", "shape": "circle", "points": [[x, y]], "radius": r}
    )
    return feature_of("play", f"MK{n}", spec, terrain_chart().kinds["mek_lok"])


def apply_engineer(state: State, side: str, action: Engineer, res: Resolution) -> None:
    done = check(state, side, action)
    base, key = done.base, done.key
    if key == PLOUGH:
        movement.apply_move(state, side, plough_move(action), res, low=True)
        return
    mission = state.units[base.unit].mission or "E"
    die: int | None = None
    if done.roll:
        faces: list[int] = []

        def roll(purpose: str, n: int) -> tuple[int, ...]:
            got = res.roll(f"{base.id} {purpose} (7.0)", n, side)
            faces.extend(got)
            return got

        try:
            ok = charts.engineering(key, mission, roll)
        except ValueError as exc:
            raise IllegalAction(action, str(exc)) from None
        die = faces[0] if faces else None
    else:
        ok = True
    base.engineered_turn = state.turn
    state.moved.append(base.id)
    what = f" on {action.target}" if action.target else ""
    needs = charts.engineering_action(key).needs
    shown = "" if die is None else f" (rolled {die}, needed {needs}+)"
    if ok:
        _effect(state, done, res)
    res.emit(
        "engineer",
        f"{base.id} {key}{what}: {'done' if ok else 'fails'}{shown}",
        base=base.id,
        key=key,
        target=action.target,
        success=ok,
        die=die,
        needs=needs if done.roll else "auto",
    )
    state.touched()


def _effect(state: State, done: Checked, res: Resolution) -> None:
    base, key, target = done.base, done.key, done.target
    if key == "repair" and target is not None:
        target.hits -= 1
    elif key == "free-trapped" and target is not None:
        target.trapped = False
    elif key in TOWS and target is not None:
        base.towing = target.id
    elif done.feature is not None:
        area = lane(base, done.feature)
        assert area is not None  # checked
        data = rules().data.clearing
        state.cut(area, [done.feature.id], data.crumbs)
        gone = state.terrain.feature(done.feature.id).destroyed
        res.emit(
            "cleared",
            f'{base.id} clears {"the last of " if gone else ""}a {data.lane:g}" lane '
            f'{data.depth:g}" deep into {done.feature.id} (7.0)',
            base=base.id,
            features=[done.feature.id],
        )
    elif key == "build-mek-lok":
        feature = mek_lok(state, base, Engineer(base.id, key))
        state.terrain = state.terrain.replaced(feature)
        res.emit("built", f"{base.id} builds MEK-Lok {feature.id}", feature=feature.id)
    elif key == "arm-payload":
        base.armed = True
    elif key == "deliver-payload" and target is not None:
        base.armed = False
        text = f"{base.id}'s payload destroys {target.id} (stand-in)"
        state.destroy(target, res, text, touch=False, by=base.id, credit=base.id, cause="payload")


def base_options(state: State, base: Base, fresh: bool = False) -> list[Engineer]:
    """Every legal engineering action of ``base`` (``fresh``: as if its unit had just
    passed its Control roll)."""
    if base.role != "engineer" or not base.active or base.contaminated:
        return []
    mission = state.units[base.unit].mission
    if mission is None or base.engineered_turn == state.turn:
        return []
    reach = _reach() + 1e-9
    out: list[Engineer] = []
    for entry in charts.engineering_actions(mission):
        key = entry.key
        tries: list[str | None]
        if key in FEATURE_KEYS:
            tries = [
                f.id
                for f in state.terrain.features
                if not f.destroyed
                and f.kind == FEATURE_KEYS[key]
                and state.terrain.distance_to(base.geo, f.id) <= reach
            ]
        elif key in BASE_KEYS:
            tries = [
                b.id
                for b in state.active()
                if b.id != base.id and edge_distance(base.geo, b.geo) <= reach
            ]
        else:
            tries = [None]
        for target in tries:
            action = Engineer(base.id, key, target)
            try:
                check(state, base.side, action, fresh=fresh)
            except IllegalAction:
                continue
            out.append(action)
    if mission == "E" and not fresh and base.id not in state.moved:
        out.extend(_ploughs(state, base))
    return out


def _ploughs(state: State, base: Base) -> list[Engineer]:
    """``plough`` candidates: straight through the nearest low obstacle (only a plough
    crosses it as cleared ground), as far as the allowance carries the engineer."""
    kinds = terrain_chart().kinds
    here = shapely.Point(base.geo.at)
    low = [
        f
        for f in state.terrain.active
        if (f.kind not in movement.PLOUGH_KEEP or state.setup.options.plough_mines)
        and (kind := kinds.get(f.kind)) is not None
        and kind.sensitivity == "low"
        and not kind.barrier
    ]
    if not low:
        return []
    nearest = min(low, key=lambda f: float(shapely.distance(here, f.geometry)))
    gap = float(shapely.distance(here, nearest.geometry))
    if gap > base.model.speed:
        return []
    inside = shapely.get_coordinates(shapely.centroid(nearest.geometry))[0]
    far = float(math.dist(base.geo.at, inside))
    if far <= 0.0:
        return []
    goal = (
        base.geo.x + (inside[0] - base.geo.x) * 100.0 / far,
        base.geo.y + (inside[1] - base.geo.y) * 100.0 / far,
    )
    got = movement.reach(state, base, goal, low=True)
    if got <= 0.05:
        return []
    to = (
        round(base.geo.x + (goal[0] - base.geo.x) * (got - 0.01) / 100.0, 2),
        round(base.geo.y + (goal[1] - base.geo.y) * (got - 0.01) / 100.0, 2),
    )
    action = Engineer(base.id, PLOUGH, to=to)
    try:
        check(state, base.side, action)
    except IllegalAction:
        return []
    return [action]


def options(state: State, side: str) -> list[Engineer]:
    """Legal engineering actions of the moving unit's engineers (for bots)."""
    if state.current is None or state.units[state.current].side != side:
        return []
    return [a for b in state.unit_bases(state.current) for a in base_options(state, b)]


__all__ = [
    "Checked",
    "apply_engineer",
    "base_options",
    "check",
    "lane",
    "mek_lok",
    "options",
    "plough_move",
]
