"""5.0-5.3 Direct fire and 6.0 self-destruct.

Direct fire comes in two steps (5.0): step a for K and P bases, step b for C
bases. Each base fires once a turn (ruling 23), at an enemy base, a
contaminated base of either side or a fungus tower in range, arc and line of
fire (:mod:`.space`). Its 1D6 goes on the combat chart with the firer's damage
step and the target's cover (5.1); the hits wait in ``State.pending`` and land
together at the step's end (5.0, ruling 24), so a base destroyed in a step
still fires in it (5.2) and a C base hit in step a fires weakened in step b.

5.3: kinetic penetration passes the hits beyond what the target has left to
the base right behind it (ruling 37: within 1" behind it on the line of fire,
in range, defence no better than the first target's; a better-defended base
there stops them), chained. A K base that held still, with its unit's non-K
bases, may rake (``rake B1 R3``): a Control roll at the time (4.0 table, the
side's network status and network support); if it passes, the surplus sweeps
to enemy bases within 1" of the first target inside 45 degrees either side of
its facing (ruling 37), defence no better, nearest first; if it fails the base
fires an ordinary shot. Three or more C bases declared together at one target
(``fire L1+L2+L3 R3``, ruling 38) each roll on the K row (massed battery);
two together roll as usual.

6.0: in the movement phase a base may overheat: every base (friend or foe) and
tower within the blast's range of its centre is attacked at once as direct fire
(cover counts; terrain between gives cover but never shields: ruling 39), the
hits land at once, and the base is removed whatever it did.
"""

from __future__ import annotations

import math

import shapely

from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.geometry.table import EPS, TOUCH, in_arc
from warbench.rulesets.invisible_enemy import fungus, movement, space
from warbench.rulesets.invisible_enemy.actions import Destruct, Fire
from warbench.rulesets.invisible_enemy.charts import (
    chart_modifier,
    control,
    direct_fire,
    fire_modifier,
    self_destruct,
    self_destruct_attack,
)
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.space import WEAPON_NAMES, Aim
from warbench.rulesets.invisible_enemy.state import Base, Shot, State
from warbench.rulesets.kit.rulings import cite_ruling
from warbench.rulesets.kit.table.moves import own_base

RULINGS = "warbench.rulesets.invisible_enemy"
"""Where ``data/rulings.toml`` lives: refusals caused by a ruling cite it from there."""

FIRE_STEPS = ("fire_a", "fire_b")
MOVEMENT_STEPS = ("activate", "unit", "last")
MAX_GROUP = 24
FIRE_CAUSES = {"K": "kinetic fire", "P": "photon fire", "C": "chemical fire"}
"""The cause a destruction by direct fire names: the credited shooter's weapon."""


# -- who fires and at what ---------------------------------------------------------------------
def fire_step(state: State, base: Base) -> str:
    """The step ``base`` fires in (5.0): C bases in step b; K and P bases in step a,
    unless their unit uses a C weapon and the scenario reads 5.0 by the unit (ruling 25,
    option ``mixed_units = "unit"``, the default): such a unit fires wholly in step b."""
    if base.weapon == "C":
        return "fire_b"
    if state.setup.options.mixed_units == "unit" and any(
        mate.weapon == "C" for mate in state.unit_bases(base.unit)
    ):
        return "fire_b"
    return "fire_a"


def shooters(state: State, side: str, step: str) -> list[Base]:
    """Bases of ``side`` that may still fire in ``step`` (see :func:`fire_step`).

    Contaminated bases never fire (1.5 note 2); stranded ones still do (4.5).
    """
    steps: dict[str, str] = {}  # fire_step of a K or P base, by unit: its mates decide

    def step_of(b: Base) -> str:
        if b.weapon == "C":
            return "fire_b"
        found = steps.get(b.unit)
        if found is None:
            found = steps[b.unit] = fire_step(state, b)
        return found

    return [
        b
        for b in state.active(side)
        if step_of(b) == step and b.fired_turn != state.turn and not b.contaminated
    ]


def may_shoot(state: State, side: str, step: str) -> bool:
    """Whether ``side`` is asked to fire in ``step`` at all: it has a base that may fire
    and, as everyone sees the table, a target one of them might reach (ruling 53).

    Decided on what both sides know, so the skip tells neither anything: measured freely,
    the exact verdicts (range, arc, line of fire); by eye, only range, between where the
    eye puts each base (the centre of its cell, :mod:`warbench.rulesets.kit.eye`) with the
    eye's whole error allowed at both ends; towers stand where the scenario puts them.
    """
    able = shooters(state, side, step)
    if not able:
        return False
    if state.setup.options.measuring == "free":
        return any(has_target(state, s) for s in able)
    eye = rules().data.eye
    slack = eye.cell * math.sqrt(2.0)  # half the cell's diagonal at each end
    aims = [eye.point(b.geo.at) for b in state.active() if b.side != side or b.contaminated]
    aims += [space.tower_centre(state, t.id) for t in state.towers.values() if not t.destroyed]
    for shooter in able:
        at = eye.point(shooter.geo.at)
        reach = shooter.model.range + space.RANGE_SLACK + slack
        if any(math.dist(at, aim) <= reach for aim in aims):
            return True
    return False


def targets(state: State, shooter: Base) -> list[str]:
    """Every target ``shooter`` may fire at now: enemy bases, contaminated bases of either
    side, fungus towers; in range, arc and line of fire (5.0)."""
    return [i for i in _aims(state, shooter) if space.refusal(state, shooter, i) is None]


def has_target(state: State, shooter: Base) -> bool:
    """Whether ``shooter`` may fire at anything now: :func:`targets`, stopping at the first."""
    return any(space.refusal(state, shooter, i) is None for i in _aims(state, shooter))


def _aims(state: State, shooter: Base) -> list[str]:
    """What ``shooter`` might fire at, in order: enemy bases, contaminated bases, towers."""
    ids = [
        b.id
        for b in state.active()
        if b.id != shooter.id and (b.side != shooter.side or b.contaminated)
    ]
    ids.extend(t.id for t in state.towers.values() if not t.destroyed)
    return ids


def rake_refusal(state: State, shooter: Base) -> str | None:
    """Why ``shooter`` may not rake (5.3), or None."""
    if shooter.weapon != "K":
        return f"{shooter.id} has no kinetic weapon: only K bases rake (5.3)"
    if shooter.moved_turn == state.turn:
        return f"{shooter.id} moved this turn: only a base that held still may rake (5.3)"
    for mate in state.unit_bases(shooter.unit):
        if mate.weapon != "K" and mate.moved_turn == state.turn:
            return (
                f"{mate.id} of {shooter.id}'s unit moved this turn: the non-K bases of a unit "
                "whose K bases rake must hold still too (5.3)"
            )
    if shooter.trapped:
        return f"{shooter.id} is trapped: it cannot turn its nose to rake (1.5, 4.0)"
    if movement.stranded(state, shooter):
        return f"{shooter.id} is out of network: it may fire but not change facing (4.5)"
    return None


def may_rake(state: State, shooter: Base, target_id: str) -> bool:
    """Whether ``rake SHOOTER TARGET`` is legal now (its Control roll may still fail)."""
    return (
        state.step in FIRE_STEPS
        and shooter in shooters(state, shooter.side, state.step)
        and rake_refusal(state, shooter) is None
        and space.refusal(state, shooter, target_id) is None
    )


def batteries(state: State, side: str) -> list[Fire]:
    """For each target, one massed battery (5.3) of all unfired C bases of ``side`` able to
    fire at it, when there are three or more."""
    if state.step != "fire_b":
        return []
    able: dict[str, list[str]] = {}
    for shooter in shooters(state, side, "fire_b"):
        if shooter.weapon != "C":
            continue
        for target in targets(state, shooter):
            able.setdefault(target, []).append(shooter.id)
    return [
        Fire(tuple(ids[:MAX_GROUP]), target)
        for target, ids in able.items()
        if len(ids) >= rules().data.fire.massed
    ]


def check_fire(state: State, side: str, action: Fire) -> list[Base]:
    """The firing bases, or IllegalAction with the reason (nothing changes)."""
    step = state.step
    if step not in FIRE_STEPS:
        raise IllegalAction(action, "direct fire belongs to the fire phase (1.6 phase 5)")
    bases: list[Base] = []
    for sid in action.shooters:
        base: Base = own_base(state.bases, sid, side, action)
        if base.contaminated:
            raise IllegalAction(action, f"{sid} is contaminated: it never fires again (1.5 note 2)")
        if base.fired_turn == state.turn:
            raise IllegalAction(
                action,
                f"{sid} has already fired this turn: one shot per base "
                f"(5.0, {cite_ruling(RULINGS, 23)})",
            )
        if step == "fire_a" and base.weapon == "C":
            raise IllegalAction(
                action,
                f"{sid} has a chemical weapon: C bases fire in step b, after the K and P hits "
                "are recorded (5.0)",
            )
        if step == "fire_a" and fire_step(state, base) == "fire_b":
            raise IllegalAction(
                action,
                f"{sid}'s unit {base.unit} uses a chemical weapon: the whole unit fires in "
                f"step b (5.0, {cite_ruling(RULINGS, 25)})",
            )
        if step == "fire_b" and fire_step(state, base) == "fire_a":
            raise IllegalAction(
                action,
                f"{sid} has a {WEAPON_NAMES[base.weapon]}: K and P bases fire in step a (5.0)",
            )
        bases.append(base)
    if len(bases) > 1 and any(b.weapon != "C" for b in bases):
        raise IllegalAction(
            action,
            f"only C bases fire together, as a massed battery (5.3, {cite_ruling(RULINGS, 38)})",
        )
    if action.rake:
        why = rake_refusal(state, bases[0])
        if why is not None:
            raise IllegalAction(action, why)
    for base in bases:
        why = space.refusal(state, base, action.target)
        if why is not None:
            raise IllegalAction(action, why)
    return bases


# -- resolving a shot --------------------------------------------------------------------------
def left(state: State, target: Aim) -> int:
    """Hull points the target has left once this step's pending hits land."""
    pending = sum(s.hits for s in state.pending if s.target == target.id)
    return max(0, target.hull - target.hits - pending)


def _record(state: State, shooter: str, target: Aim, hits: int) -> tuple[int, int]:
    """Pend up to what the target has left; returns (taken, surplus)."""
    taken = min(hits, left(state, target))
    if taken > 0:
        state.pending.append(Shot(shooter, target.id, taken))
    return taken, hits - taken


def _pass_on(
    state: State,
    res: Resolution,
    kind: str,
    shooter: Base,
    source: Aim,
    aimed: Aim,
    surplus: int,
    told: str,
) -> int:
    """5.3: ``surplus`` hits of ``shooter`` passed on from ``source`` to ``aimed``
    (``kind``: penetration or rake), pended up to what it has left and told as ``told``
    (``{taken}``: the hits it took); the surplus still left."""
    taken, left_over = _record(state, shooter.id, aimed, surplus)
    res.emit(
        kind,
        told.format(taken=taken),
        shooter=shooter.id,
        source=source.id,
        target=aimed.id,
        hits=taken,
    )
    return left_over


def apply_fire(state: State, side: str, action: Fire, res: Resolution) -> None:
    """5.0: validate, roll each firer's 1D6, pend the hits (and 5.3 surplus)."""
    bases = check_fire(state, side, action)
    target = space.aim(state, action.target)
    assert target is not None  # checked by space.refusal
    massed = len(bases) >= rules().data.fire.massed
    raking = False
    if action.rake:
        raking = _rake_control(state, side, bases[0], res)
    letter = "a" if state.step == "fire_a" else "b"
    for base in bases:
        line = space.line_of_fire(state, base, target.id)
        faces: list[int] = []

        def roll(
            purpose: str, n: int, who: str = base.id, faces: list[int] = faces
        ) -> tuple[int, ...]:
            got = res.roll(f"{who} at {target.id}: {purpose} (5.0)", n, side)
            faces.extend(got)
            return got

        weapon = base.model.weapon
        modifier = chart_modifier(base.model.attack, target.defence, weapon, massed)
        modifier += fire_modifier(base.damage, line.cover)
        hits = direct_fire(
            base.model.attack, target.defence, weapon, base.damage, line.cover, roll, massed
        )
        base.fired_turn = state.turn
        _, surplus = _record(state, base.id, target, hits)
        row = "K row, massed battery (5.3)" if massed else f"{'K' if weapon == 'K' else 'C/P'} row"
        notes = [row]
        if base.damage != "none":
            notes.append(f"firer {base.damage} damaged (5.1)")
        if line.cover:
            notes.append("target covered (5.1)")
        res.emit(
            "fire",
            f"{base.id} fires at {target.id} ({'; '.join(notes)}): {faces[0]} {modifier:+d} = "
            f"{hits} hit(s), landing at the end of step {letter} (5.0)",
            side=side,
            shooter=base.id,
            shooters=list(action.shooters),
            target=target.id,
            die=faces[0],
            modifier=modifier,
            hits=hits,
            massed=massed,
            cover=line.cover,
            rake=action.rake,
        )
        if weapon == "K" and surplus > 0:
            if raking:
                _rake(state, base, target, surplus, res)
            else:
                _penetrate(state, base, target, surplus, res)


def _rake_control(state: State, side: str, shooter: Base, res: Resolution) -> bool:
    """5.3: the Control roll at the time of the rake (the side's status, network support)."""
    status = state.networks[side].status
    support = space.network_support(state, shooter)

    def roll(purpose: str, n: int) -> tuple[int, ...]:
        return res.roll(f"{shooter.id} rakes: {purpose} (5.3)", n, side)

    passed = control(status, support, roll)
    res.emit(
        "control",
        f"{shooter.id} {'passes' if passed else 'fails'} its Control roll to rake (5.3)"
        + ("" if passed else ": it fires an ordinary shot"),
        side=side,
        base=shooter.id,
        rake=True,
        passed=passed,
    )
    return passed


def _penetrate(state: State, shooter: Base, first: Aim, surplus: int, res: Resolution) -> None:
    """5.3 kinetic penetration along the line of fire, chained (ruling 37)."""
    eye = space.base_aim(shooter)
    length = space.distance(eye, first)
    if length <= 0.0:
        return
    ux = (first.centre[0] - eye.centre[0]) / length
    uy = (first.centre[1] - eye.centre[1]) / length
    reach = shooter.model.range
    far = (eye.centre[0] + ux * reach, eye.centre[1] + uy * reach)
    ray = shapely.LineString([eye.centre, far])
    current, along = first, length
    done = {first.id, shooter.id}
    while surplus > 0:
        best: tuple[float, Base] | None = None
        for base in state.active():
            if base.id in done:
                continue
            core, radius = base.geo.solid
            t = (base.geo.x - eye.centre[0]) * ux + (base.geo.y - eye.centre[1]) * uy
            if t <= along + EPS or float(shapely.distance(ray, core)) >= radius - EPS:
                continue
            if space.gap(current, space.base_aim(base)) > rules().data.fire.behind + TOUCH:
                continue
            if best is None or (t, base.id) < (best[0], best[1].id):
                best = (t, base)
        if best is None:
            return
        along, behind = best
        aimed = space.base_aim(behind)
        if behind.model.defence > first.defence:
            res.emit(
                "penetration",
                f"{behind.id} behind {current.id} has a better defence than {first.id}: "
                f"the {surplus} surplus hit(s) of {shooter.id} stop there (5.3)",
                shooter=shooter.id,
                target=behind.id,
                hits=0,
            )
            return
        if space.distance(eye, aimed) > reach + space.RANGE_SLACK:
            return
        if space.terrain_line(state, eye, aimed).blocked is not None:
            return
        told = (
            f"{{taken}} surplus hit(s) of {shooter.id} pass through {current.id} to {behind.id} "
            "(5.3 kinetic penetration)"
        )
        surplus = _pass_on(state, res, "penetration", shooter, current, aimed, surplus, told)
        done.add(behind.id)
        current = aimed


def _rake(state: State, shooter: Base, first: Aim, surplus: int, res: Resolution) -> None:
    """5.3 raking: surplus to the next enemy within 1" of the first target in the sweep."""
    eye = space.base_aim(shooter)
    done = {first.id, shooter.id}
    while surplus > 0:
        best: tuple[float, str, Aim] | None = None
        for base in state.active():
            if base.id in done or not (base.side != shooter.side or base.contaminated):
                continue
            if base.model.defence > first.defence:
                continue
            aimed = space.base_aim(base)
            near = space.gap(first, aimed)
            if near > rules().data.fire.rake_near + TOUCH or not in_arc(
                shooter.geo, base.geo, rules().data.fire.rake_sweep
            ):
                continue
            if space.distance(eye, aimed) > shooter.model.range + space.RANGE_SLACK:
                continue
            if space.terrain_line(state, eye, aimed).blocked is not None:
                continue
            if any(b.id != first.id for b in space.bases_between(state, eye, aimed)):
                continue  # 5.0: a kinetic gun never fires through another base
            if best is None or (near, base.id) < (best[0], best[1]):
                best = (near, base.id, aimed)
        if best is None:
            return
        aimed = best[2]
        told = (
            f"{shooter.id} sweeps {{taken}} surplus hit(s) from {first.id} onto {aimed.id} "
            "(5.3 raking fire)"
        )
        surplus = _pass_on(state, res, "rake", shooter, first, aimed, surplus, told)
        done.add(aimed.id)


# -- damage ------------------------------------------------------------------------------------
def end_step(state: State, res: Resolution) -> None:
    """5.0 / 5.2: the step's hits land together; a base at its hull points is destroyed."""
    totals: dict[str, int] = {}
    shooters: dict[str, dict[str, int]] = {}
    for shot in state.pending:
        totals[shot.target] = totals.get(shot.target, 0) + shot.hits
        by = shooters.setdefault(shot.target, {})
        by[shot.shooter] = by.get(shot.shooter, 0) + shot.hits
    for target_id, hits in totals.items():
        if target_id in state.bases:
            # A kill is credited to the shooter that put the most hits on it (the first
            # of those tied), for balance statistics.
            most = shooters[target_id]
            credit = max(most, key=lambda s: most[s]) if most else None
            cause = FIRE_CAUSES[state.bases[credit].weapon] if credit else "direct fire"
            damage_base(state, state.bases[target_id], hits, res, cause=cause, credit=credit)
        elif target_id in state.towers:
            damage_tower(state, target_id, hits, res)
    state.pending = []
    state.touched()


def damage_base(
    state: State,
    base: Base,
    hits: int,
    res: Resolution,
    why: str = "5.2",
    credit: str | None = None,
    *,
    cause: str,
) -> None:
    """Mark ``hits`` on the base's hull (never past its hull points); destroyed at full,
    ``credit`` (the shooter, or the base that blew itself up) and ``cause`` (a weapon's
    fire, or a blast) named in the event."""
    if not base.active or hits <= 0:
        return
    base.hits = min(base.model.hull, base.hits + hits)
    res.emit(
        "hits",
        f"{base.id} takes {hits} hull hit(s): {base.hits} of {base.model.hull} ({why})",
        base=base.id,
        hits=hits,
        total=base.hits,
    )
    if base.hits >= base.model.hull:
        state.destroy(base, res, f"{base.id} is destroyed ({why})", credit=credit, cause=cause)


def damage_tower(state: State, tower_id: str, hits: int, res: Resolution) -> None:
    """Hits on a fungus tower (1.5 note 2: dead at a third, cleared away at full)."""
    if hits > 0:
        res.emit(
            "hits",
            f"fungus tower {tower_id} takes {hits} hit(s) (1.5 note 2)",
            tower=tower_id,
            hits=hits,
        )
    fungus.damage_tower(state, tower_id, hits, res)


# -- 6.0 self-destruct -------------------------------------------------------------------------
def destructible(state: State, side: str) -> list[Base]:
    """Bases of ``side`` that may self-destruct (6.0): on the table and not contaminated."""
    return [b for b in state.active(side) if not b.contaminated]


def speed_rating(base: Base) -> int:
    """The speed rating the Self Destruct table is crossed with (6.0): inches per turn."""
    return int(base.model.speed)


def apply_destruct(state: State, side: str, action: Destruct, res: Resolution) -> None:
    """6.0: the base overheats; everything within the blast is attacked; it is removed."""
    if state.step not in MOVEMENT_STEPS:
        raise IllegalAction(action, "a base self-destructs only during the movement phase (6.0)")
    base: Base = own_base(state.bases, action.base, side, action)
    if base.contaminated:
        raise IllegalAction(
            action,
            f"{action.base} is contaminated: it has lost the use of its weapons (1.5 note 2)",
        )
    speed, defence = speed_rating(base), base.model.defence
    blast = self_destruct(speed, defence)
    eye = space.base_aim(base)
    victims: list[tuple[float, str, Aim]] = []
    for other in state.active():
        if other.id != base.id:
            aimed = space.base_aim(other)
            victims.append((space.distance(eye, aimed), other.id, aimed))
    for tower in state.towers.values():
        found = space.aim(state, tower.id)
        if found is not None:
            victims.append((space.distance(eye, found), found.id, found))
    victims = sorted(v for v in victims if v[0] <= blast.range + space.RANGE_SLACK)
    res.emit(
        "destruct",
        f"{base.id} overheats its transducers: attack {blast.attack} against everything "
        f'within {blast.range:g}" (6.0)',
        side=side,
        base=base.id,
        attack=blast.attack,
        range=blast.range,
        targets=[v[1] for v in victims],
    )
    for _, victim_id, victim in victims:
        cover = space.covered(state, eye, victim)

        def roll(purpose: str, n: int, who: str = victim_id) -> tuple[int, ...]:
            return res.roll(f"{base.id}'s blast on {who}: {purpose} (6.0)", n, side)

        hits = self_destruct_attack(speed, defence, victim.defence, cover, roll)
        res.emit(
            "blast",
            f"{base.id}'s blast does {hits} hit(s) to {victim_id}"
            + (" (covered, 5.1)" if cover else ""),
            base=base.id,
            target=victim_id,
            hits=hits,
            cover=cover,
        )
        if victim.base is not None:
            damage_base(state, victim.base, hits, res, "6.0", credit=base.id, cause="blast")
        else:
            damage_tower(state, victim_id, hits, res)
    state.destroy(
        base, res, f"{base.id} is gone, consumed by its own blast (6.0)", cause="self-destruct"
    )


__all__ = [
    "apply_destruct",
    "apply_fire",
    "batteries",
    "check_fire",
    "damage_base",
    "damage_tower",
    "destructible",
    "end_step",
    "may_rake",
    "may_shoot",
    "rake_refusal",
    "shooters",
    "targets",
]
