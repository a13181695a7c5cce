"""``warbench odds cgme|veg attack ...``: exact odds of one attack, and of actions in play.

The keys are those of every CGME world: ``att`` (a combined attack gives its
summed ATT), ``def``, ``spillover`` and ``range0_infantry`` (worlds without
those extensions refuse ``true``) and ``terrain`` (the defender's hex; where
a terrain treats movement classes differently the choice names the class,
``city/infantry``). The outcomes are the result table's: destroy, wound, none.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.core.odds import OddsKey, OddsQuery, OddsResult
from warbench.errors import OddsError
from warbench.rulesets.cgme import combat
from warbench.rulesets.cgme.actions import Attack, Join, Move, Roll
from warbench.rulesets.cgme.data import Core, ResultName, World, load_world
from warbench.rulesets.cgme.state import State, Unit

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


def attack_odds(world: World, values: Mapping[str, Any]) -> OddsResult:
    """Chances of destroy / wound / none for the situation ``values`` in ``world``."""
    att, dfn = values["att"], values["def"]
    if att < 0 or dfn < 0:
        raise OddsError("att and def are ratings: 0 or more")
    if values["spillover"]:
        if world.spillover_att is None:
            raise OddsError(f"{world.name} has no spillover attacks (a V.E.G. rule)")
        att += world.spillover_att
    if values["range0_infantry"]:
        if world.range0_class is None:
            raise OddsError(f"{world.name} has no range-0 attack bonus (a V.E.G. rule)")
        att += world.range0_att
    dfn += terrain_choices(world)[values["terrain"]]
    exact = combat.chances(world.core, att - dfn)
    return OddsResult({name: p for name, p in exact.items()})


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
        f"the attackers include {world.range0_class} at range 0 ({world.range0_att:+d} ATT)"
        if world.range0_class
        else "not in this world (V.E.G. only)"
    )
    core = world.core
    rows = result_rows(core)
    return {
        "attack": OddsQuery(
            "attack",
            f"ATT + {core.attack_dice}d6 against DEF + {core.defence_dice}d6; "
            f"attack minus defence: {rows}, else none",
            (
                OddsKey("att", "int", 3, "attacking ATT (a combined attack: the sum)"),
                OddsKey("def", "int", 3, "the defender's DEF"),
                OddsKey("spillover", "bool", False, spill),
                OddsKey("range0_infantry", "bool", False, bonus),
                OddsKey("terrain", "choice", "clear", "the defender's terrain", choices),
            ),
            lambda values: attack_odds(world, values),
        )
    }


def _pct(p: float | Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _line(chances: Mapping[ResultName, Fraction]) -> str:
    return ", ".join(f"{name} {_pct(p)} ({p})" for name, p in chances.items())


def describe_attack(rules: CGME, state: State, attackers: list[Unit], ref: str) -> str:
    """ATT against DEF with modifiers, the chances, and each spillover attack's chances."""
    core = state.setup.world.core
    world = state.setup.world
    where = rules.target_pos(state, ref)
    assert where is not None
    building = state.buildings.get(ref)
    base, mods = rules.attack_strength(state, attackers, where, building is None)
    att = base + combat.total(mods)
    if building is not None:
        exact = combat.chances(core, att - building.dfn)
        return f"ATT {combat.rating(base, mods)} against DEF {building.dfn}: {_line(exact)}"
    target = state.units[ref]
    dbase, dmods = rules.defence(state, target)
    dfn = dbase + combat.total(dmods)
    text = (
        f"ATT {combat.rating(base, mods)} against DEF {combat.rating(dbase, dmods)}: "
        f"{_line(combat.chances(core, att - dfn))}"
    )
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
            text += (
                f"; spillover on {other.id} ({other.side}), ATT {spill} against DEF {odfn}: "
                + ", ".join(f"{n} {_pct(p)}" for n, p in chances.items())
            )
    return text


def explain_action(rules: CGME, state: State, side: str, action: Action) -> str | None:
    """The exact odds of an attack, join, roll or move (through hazards) now."""
    units = state.units
    if isinstance(action, Attack):
        unit = units.get(action.unit)
        if unit is None or unit.pos is None:
            return None
        problem = rules.attack_problem(state, unit, action.target)
        if problem:
            return f"{action}: not possible ({problem})"
        return f"{action} alone: {describe_attack(rules, state, [unit], action.target)}"
    if isinstance(action, (Join, Roll)) and state.attack is not None:
        attackers = [units[u] for u in state.attack.attackers]
        if isinstance(action, Join):
            unit = units.get(action.unit)
            if unit is None or unit.pos is None:
                return None
            problem = rules.attack_problem(state, unit, state.attack.target)
            if problem:
                return f"{action}: not possible ({problem})"
            attackers = [*attackers, unit]
        return f"{action}: {describe_attack(rules, state, attackers, state.attack.target)}"
    if isinstance(action, Move):
        movers = [units.get(u) for u in action.units]
        if any(u is None or u.pos is None for u in movers):
            return None
        return _explain_move(rules, state, [u for u in movers if u is not None], action)
    return None


def _explain_move(rules: CGME, state: State, movers: list[Unit], action: Move) -> str | None:
    board = state.setup.board
    problem = rules.move_problem(state, movers, action.to)
    if problem:
        return f"{action}: not possible ({problem})"
    dest = board.index[action.to]
    parts = []
    for unit in movers:
        path = rules.reach(state, unit).path(dest)
        for i in path[1:]:
            hazard = board.hazard[i]
            if hazard is None:
                continue
            strength = rules.hazard_strength(state, unit, hazard)
            dfn = rules.hazard_dfn(
                state, unit, rules.dfn(state, unit) + board.dfn_mod[unit.type.move_class][i]
            )
            chances = combat.chances(state.setup.world.core, strength - dfn)
            parts.append(
                f"{unit.id} enters {hazard.label} at {board.label(i)} (ATT {strength} against "
                f"DEF {dfn}): " + ", ".join(f"{n} {_pct(p)}" for n, p in chances.items())
            )
    if not parts:
        return None
    return f"{action}: " + "; ".join(parts)
