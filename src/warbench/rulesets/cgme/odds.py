"""``warbench odds cgme|veg attack ...``: exact odds of one attack, and of actions in play.

The keys are those of every CGME world: ``att`` (a combined attack gives its
summed ATT), ``def``, ``spillover`` (worlds without it refuse ``true``),
``range0_infantry`` (how many of the attacking units are of the range-0 class at
range 0: each adds its bonus, as the engine does; worlds without the bonus refuse
more than 0), ``terrain`` (the defender's hex; where a terrain treats movement
classes differently the choice names the class, ``city/infantry``) and ``road``
(the defender's hex is on a road: the terrain's DEF penalty is ignored, its bonus
kept). The outcomes are the result table's: destroy, wound, none; where the
defender's terrain is a hazard, the hazard's own attack on it is given beside.

A world with hazards has a ``hazard`` query too: ``def`` and ``terrain`` give the
hazard's attack on a unit entering or staying there (craters: H(8 - DEF) against
that DEF); ``riders`` says how many riders a carrier has, who die with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.core.odds import OddsKey, OddsQuery, OddsResult
from warbench.errors import OddsError
from warbench.rulesets.cgme import combat
from warbench.rulesets.cgme.actions import Attack, Join, Move, Roll
from warbench.rulesets.cgme.data import Core, Hazard, ResultName, World, load_world
from warbench.rulesets.cgme.state import State, Unit
from warbench.rulesets.kit.odds import Explained

if TYPE_CHECKING:
    from warbench.rulesets.cgme.rules import CGMERules as CGME


def terrain_choices(world: World) -> dict[str, int]:
    """Terrain choices for the defender and their DEF modifiers.

    A terrain that modifies every class that may stand in it alike is one
    choice (``clear``); otherwise one choice per class (``woods/infantry``).
    """
    out: dict[str, int] = {}
    for name, rule in world.terrain.items():
        standing = {c: e.dfn for c, e in rule.per_class.items() if e.cost is not None}
        if not standing:
            continue
        if len(set(standing.values())) == 1:
            out[name] = next(iter(standing.values()))
        else:
            out.update({f"{name}/{c}": value for c, value in standing.items()})
    return out


def _terrain_mod(world: World, choice: str, road: bool) -> int:
    """The DEF modifier of a terrain choice; on a road a penalty is ignored (Roads)."""
    mod = terrain_choices(world)[choice]
    return max(mod, 0) if road else mod


def _hazard_of(world: World, choice: str) -> Hazard | None:
    return world.terrain[choice.partition("/")[0]].hazard


def _hazard_chances(
    world: World, hazard: Hazard, dfn: int, mod: int
) -> Mapping[ResultName, Fraction]:
    """The hazard's attack on a unit of DEF ``dfn`` standing where the DEF modifier is
    ``mod`` (rules:_hazard_attack: the strength uses the DEF, the roll is against DEF
    plus the modifier, or against the dice alone under the core's ``[hazard] defence``)."""
    against = dfn + mod if world.core.hazard_defence == "def" else 0
    return combat.chances(world.core, hazard.strength(dfn) - against)


def attack_odds(world: World, values: Mapping[str, Any]) -> OddsResult:
    """Chances of destroy / wound / none for the situation ``values`` in ``world``.

    Where the defender's terrain is a hazard, ``extra`` gives the hazard's own
    attack on it (in the hazard phase, or as it enters), which is not this attack.
    """
    att, dfn = values["att"], values["def"]
    if att < 0 or dfn < 0:
        raise OddsError("att and def are ratings: 0 or more")
    if values["spillover"]:
        if world.spillover_att is None:
            raise OddsError(f"{world.name} has no spillover attacks (a V.E.G. rule)")
        att += world.spillover_att
    squads = values["range0_infantry"]
    if squads < 0:
        raise OddsError("range0_infantry counts attacking units: 0 or more")
    if squads:
        if world.range0_class is None:
            raise OddsError(f"{world.name} has no range-0 attack bonus (a V.E.G. rule)")
        att += world.range0_att * squads
    mod = _terrain_mod(world, values["terrain"], values["road"])
    exact = combat.chances(world.core, att - (dfn + mod))
    extra: dict[str, Fraction] = {}
    hazard = _hazard_of(world, values["terrain"])
    if hazard is not None:
        beside = _hazard_chances(world, hazard, dfn, mod)
        name = values["terrain"].partition("/")[0]
        extra = {
            f"{name} {hazard.label} destroy": beside["destroy"],
            f"{name} {hazard.label} wound": beside["wound"],
        }
    return OddsResult({name: p for name, p in exact.items()}, extra)


def hazard_odds(world: World, values: Mapping[str, Any]) -> OddsResult:
    """Chances of the hazard's attack on a unit entering or staying in it; a carrier's
    riders die with it (Transporting), which ``extra`` says when there are riders."""
    dfn, riders = values["def"], values["riders"]
    if dfn < 0 or riders < 0:
        raise OddsError("def is a rating and riders a count: 0 or more")
    choice = values["terrain"]
    hazard = _hazard_of(world, choice)
    assert hazard is not None  # the choices are the hazard terrains
    exact = _hazard_chances(world, hazard, dfn, _terrain_mod(world, choice, values["road"]))
    extra: dict[str, Fraction] = {}
    if riders:
        extra[f"its {riders} rider{'s' if riders > 1 else ''} destroyed with it"] = exact["destroy"]
    return OddsResult({name: p for name, p in exact.items()}, extra)


def result_rows(core: Core) -> str:
    """The result table by attack minus defence: ``1+ destroy, 0 wound`` (V.E.G.).

    A row runs from its own threshold up to the row above it: an open range
    for the first (``1+``), one number or ``a to b`` for the others.

    >>> result_rows(load_world("warbench.rulesets.cgme").core)
    '2+ destroy, 1 wound'
    """
    out = []
    above: int | None = None
    for at_least, result in core.results:
        low = core.margin + at_least
        if above is None:
            span = f"{low}+"
        elif above - 1 == low:
            span = str(low)
        else:
            span = f"{low} to {above - 1}"
        out.append(f"{span} {result}")
        above = low
    return ", ".join(out)


@cache
def queries(world_package: str) -> dict[str, OddsQuery]:
    world = load_world(world_package)
    choices = tuple(terrain_choices(world))
    spill = (
        f"a spillover attack ({world.spillover_att:+d} ATT) on another unit in the hex"
        if world.spillover_att is not None
        else "not in this world (V.E.G. only)"
    )
    bonus = (
        f"how many attacking units are {world.range0_class} at range 0 "
        f"({world.range0_att:+d} ATT each)"
        if world.range0_class
        else "not in this world (V.E.G. only)"
    )
    road = "the defender's hex is on a road: the terrain's DEF penalty is ignored, its bonus kept"
    core = world.core
    rows = result_rows(core)
    hazards = tuple(c for c in choices if _hazard_of(world, c) is not None)
    out = {
        "attack": OddsQuery(
            "attack",
            f"ATT + {core.attack_dice}d6 against DEF + {core.defence_dice}d6; "
            f"attack minus defence: {rows}, else none"
            + ("; a hazard terrain adds its own attack on the defender" if hazards else ""),
            (
                OddsKey("att", "int", 3, "attacking ATT (a combined attack: the sum)"),
                OddsKey("def", "int", 3, "the defender's DEF"),
                OddsKey("spillover", "bool", False, spill),
                OddsKey("range0_infantry", "int", 0, bonus),
                OddsKey("terrain", "choice", "clear", "the defender's terrain", choices),
                OddsKey("road", "bool", False, road),
            ),
            lambda values: attack_odds(world, values),
        )
    }
    if hazards:
        labels = ", ".join(f"{c} {_hazard_of(world, c).label}" for c in hazards)  # type: ignore[union-attr]
        out["hazard"] = OddsQuery(
            "hazard",
            f"a hazard's attack on a unit entering or staying in it ({labels}); "
            f"attack minus defence: {rows}, else none",
            (
                OddsKey("def", "int", 3, "the unit's DEF (a wounded unit's is lower)"),
                OddsKey("terrain", "choice", hazards[0], "the hazard's terrain", hazards),
                OddsKey("riders", "int", 0, "riders the unit carries: they die with it"),
                OddsKey(
                    "road",
                    "bool",
                    False,
                    "the unit's hex is on a road: a DEF penalty is ignored (the hazard stays)",
                ),
            ),
            lambda values: hazard_odds(world, values),
        )
    return out


def _pct(p: float | Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _line(chances: Mapping[ResultName, Fraction]) -> str:
    return ", ".join(f"{name} {_pct(p)} ({p})" for name, p in chances.items())


def _named(chances: Mapping[ResultName, Fraction]) -> dict[str, Fraction]:
    return {name: p for name, p in chances.items()}


def describe_attack(rules: CGME, state: State, attackers: list[Unit], ref: str) -> str:
    """ATT against DEF with modifiers, the chances, and each spillover attack's chances."""
    return assess_attack(rules, state, attackers, ref)[0]


def assess_attack(
    rules: CGME, state: State, attackers: list[Unit], ref: str
) -> tuple[str, OddsResult]:
    """The attack's result on its target (destroy, wound, none) and, in ``extra``, each
    spillover attack's on another unit in the hex (``spillover on U2 destroy``): those
    are rolled whatever the target's result. In words and as data."""
    core = state.setup.world.core
    world = state.setup.world
    where = rules.target_pos(state, ref)
    assert where is not None
    building = state.buildings.get(ref)
    base, mods = rules.attack_strength(state, attackers, where, building is None)
    att = base + combat.total(mods)
    if building is not None:
        exact = combat.chances(core, att - building.dfn)
        text = f"ATT {combat.rating(base, mods)} against DEF {building.dfn}: {_line(exact)}"
        return text, OddsResult(_named(exact))
    target = state.units[ref]
    dbase, dmods = rules.defence(state, target)
    dfn = dbase + combat.total(dmods)
    exact = combat.chances(core, att - dfn)
    text = f"ATT {combat.rating(base, mods)} against DEF {combat.rating(dbase, dmods)}: " + _line(
        exact
    )
    extra: dict[str, Fraction] = {}
    if world.spillover_att is not None:
        for other in state.stacks.get(where, ()):
            if other is target:
                continue
            firing = {u.id for u in attackers}
            if rules.spared_by_spillover(state, other, attackers[0].side, firing):
                continue
            obase, omods = rules.defence(state, other)
            odfn = obase + combat.total(omods)
            spill = att + world.spillover_att
            chances = combat.chances(core, spill - odfn)
            extra.update({f"spillover on {other.id} {n}": p for n, p in chances.items()})
            text += (
                f"; spillover on {other.id} ({other.side}), ATT {spill} against DEF {odfn}: "
                + ", ".join(f"{n} {_pct(p)}" for n, p in chances.items())
            )
    return text, OddsResult(_named(exact), extra)


def assess_action(rules: CGME, state: State, side: str, action: Action) -> Explained | None:
    """The odds of an attack, join, roll or move (through hazards) now, as data and in
    words; None if the action rolls nothing."""
    units = state.units
    if isinstance(action, Attack):
        unit = units.get(action.unit)
        if unit is None or unit.pos is None:
            return None
        problem = rules.attack_problem(state, unit, action.target)
        if problem:
            return f"{action}: not possible ({problem})", None
        text, result = assess_attack(rules, state, [unit], action.target)
        return f"{action} alone: {text}", result
    if isinstance(action, (Join, Roll)) and state.attack is not None:
        attackers = [units[u] for u in state.attack.attackers]
        if isinstance(action, Join):
            unit = units.get(action.unit)
            if unit is None or unit.pos is None:
                return None
            problem = rules.attack_problem(state, unit, state.attack.target)
            if problem:
                return f"{action}: not possible ({problem})", None
            attackers = [*attackers, unit]
        text, result = assess_attack(rules, state, attackers, state.attack.target)
        return f"{action}: {text}", result
    if isinstance(action, Move):
        movers = [units.get(u) for u in action.units]
        if any(u is None or u.pos is None for u in movers):
            return None
        return _assess_move(rules, state, [u for u in movers if u is not None], action)
    return None


Chain = dict[tuple[tuple[str, ResultName], ...], tuple[Fraction, bool]]
"""The hazard results a unit may meet along its path, in order, with their chances and
whether the unit is destroyed at the end of them."""


def _hazard_roll(
    rules: CGME, state: State, unit: Unit, i: int, hazard: Hazard
) -> tuple[int, int, Mapping[ResultName, Fraction]]:
    """ATT, DEF and chances of ``hazard`` at hex index ``i`` on ``unit`` as it is."""
    board = state.setup.board
    strength = rules.hazard_strength(state, unit, hazard)
    dfn = rules.hazard_dfn(
        state, unit, rules.dfn(state, unit) + board.dfn_mod[unit.type.move_class][i]
    )
    return strength, dfn, combat.chances(state.setup.world.core, strength - dfn)


def _chain(rules: CGME, state: State, unit: Unit, entries: list[tuple[int, Hazard]]) -> Chain:
    """Every way through the hazards the unit enters, as the rules resolve them one by
    one (rules._travel): a wound lowers its DEF for the next, a second wound destroys it
    where the core says so, and a destroyed unit goes no further."""
    core = state.setup.world.core
    board = state.setup.board
    out: Chain = {}
    going: list[tuple[tuple[tuple[str, ResultName], ...], Fraction, bool]] = [
        ((), Fraction(1), unit.wounded)
    ]
    for i, hazard in entries:
        onward = []
        for seq, p, wounded in going:
            _, _, chances = _hazard_roll(rules, state, replace(unit, wounded=wounded), i, hazard)
            for result, q in chances.items():
                if not q:
                    continue
                step = (*seq, (board.label(i), result))
                dead = result == "destroy" or (
                    result == "wound" and wounded and core.second_wound == "destroy"
                )
                if dead:
                    out[step] = (p * q, True)
                else:
                    onward.append((step, p * q, wounded or result == "wound"))
        going = onward
    for seq, p, _ in going:
        out[seq] = (p, False)
    return out


def _assess_move(rules: CGME, state: State, movers: list[Unit], action: Move) -> Explained | None:
    """A move's hazard attacks. The words give each hazard's roll on the unit as it is now;
    the data, the whole path: with one hazard entered, its results (destroy, wound, none);
    with more, every sequence of results (``V1 0604 wound, 0605 none``; several units
    joined by ``; ``); ``extra`` has each unit's chance of being destroyed on the way
    (its riders die with it)."""
    board = state.setup.board
    problem = rules.move_problem(state, movers, action.to)
    if problem:
        return f"{action}: not possible ({problem})", None
    dest = board.index[action.to]
    parts = []
    chains: list[tuple[Unit, Chain]] = []
    entered: list[list[tuple[int, Hazard]]] = []
    for unit in movers:
        path = rules.reach(state, unit).path(dest)
        entries = [(i, h) for i in path[1:] if (h := board.hazard[i]) is not None]
        for i, hazard in entries:
            strength, dfn, chances = _hazard_roll(rules, state, unit, i, hazard)
            part = (
                f"{unit.id} enters {hazard.label} at {board.label(i)} (ATT {strength} against "
                f"DEF {dfn}): " + ", ".join(f"{n} {_pct(p)}" for n, p in chances.items())
            )
            if unit.riders:
                # Transporting: riders die with their carrier (ruling 14: they are cargo).
                part += (
                    f" (its riders {', '.join(unit.riders)} are destroyed with it: "
                    f"{_pct(chances['destroy'])})"
                )
            parts.append(part)
        if entries:
            chains.append((unit, _chain(rules, state, unit, entries)))
            entered.append(entries)
    if not chains:
        return None
    extra = {
        f"{unit.id} destroyed": sum((p for p, dead in chain.values() if dead), Fraction(0))
        for unit, chain in chains
    }
    if len(chains) == 1 and len(entered[0]) == 1:
        # One hazard entered: its roll's results are the outcomes.
        (step,) = entered[0]
        _, _, chances = _hazard_roll(rules, state, chains[0][0], *step)
        outcomes = _named(chances)
    else:
        outcomes = {"": Fraction(1)}
        for unit, chain in chains:
            outcomes = {
                (f"{key}; " if key else "")
                + f"{unit.id} "
                + ", ".join(f"{label} {result}" for label, result in seq): p * q
                for key, p in outcomes.items()
                for seq, (q, _) in chain.items()
            }
    if len(chains) > 1 or len(entered[0]) > 1 or chains[0][0].wounded:
        # The whole path's chance, where it is not the one roll shown above.
        parts += [
            f"{unit.id} destroyed on the way: {_pct(extra[f'{unit.id} destroyed'])}"
            for unit, _ in chains
        ]
    return f"{action}: " + "; ".join(parts), OddsResult(outcomes, extra)
