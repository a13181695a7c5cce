"""``warbench odds miniwars ...``: exact odds of a melee, a missile attack or a rally.

Also explains the odds of a concrete action in a game, for the terminal's
``odds`` command, from the same functions the rules roll with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.core.odds import OddsKey, OddsQuery, OddsResult
from warbench.errors import OddsError
from warbench.rulesets.kit.odds import Explained
from warbench.rulesets.miniwars import combat
from warbench.rulesets.miniwars.actions import Attack, Fire, Rally
from warbench.rulesets.miniwars.data import MISSILE_CODES, MORALE_SYMBOLS, charts
from warbench.rulesets.miniwars.state import State, Unit

if TYPE_CHECKING:
    from warbench.rulesets.miniwars.rules import MiniWarsRules as MiniWars

TERRAINS = ("open", "forest", "rough", "marsh", "town")
CANNOT_OCCUR = "cannot occur"
"""The only outcome of a missile attack where the chart shows a dash."""


def _height(values: Mapping[str, Any], melee: bool) -> combat.Modifiers:
    c = charts()
    if values["attacker_higher"] and values["defender_higher"]:
        raise OddsError("attacker_higher and defender_higher cannot both be true")
    if values["attacker_higher"]:
        return [(c.hill_attacker_higher if melee else c.missile_attacker_higher, "attacker higher")]
    if values["defender_higher"]:
        return [(c.hill_defender_higher if melee else c.missile_defender_higher, "defender higher")]
    return []


def melee_odds(values: Mapping[str, Any]) -> OddsResult:
    c = charts()
    for key in ("attacker", "defender"):
        if not 1 <= values[key] <= 5:
            raise OddsError(f"{key} combat strength must be 1 to 5, got {values[key]}")
    terrain: combat.Modifiers = []
    a_rule, d_rule = c.terrain[values["attacker_terrain"]], c.terrain[values["defender_terrain"]]
    if a_rule.attacker:
        terrain.append((a_rule.attacker, "attacker terrain"))
    if d_rule.defender:
        terrain.append((d_rule.defender, "defender terrain"))
    if values["across"] == "bridge":
        terrain.append((c.hexsides["bridge"].melee_modifier, "across a bridge"))
    terrain += _height(values, melee=True)
    morale, disrupted = values["defender_morale"], values["attacker_disrupted"]
    mods = combat.roll_modifiers(c, "melee", morale, disrupted, terrain)
    chances = combat.melee_chances(
        c.melee_target(values["attacker"], values["defender"]), combat.total(mods)
    )
    doubles = Fraction(0) if values["attacker_disrupted"] else chances.doubles
    return OddsResult(
        {"hit": chances.success, "miss": 1 - chances.success},
        {"attacker_disrupted": doubles},
    )


def missile_odds(values: Mapping[str, Any]) -> OddsResult:
    """MISSILE FIRE. A range below 1 is refused; a dash on the chart is the one outcome
    "cannot occur" (the text: the attack cannot occur), not a hit of 0%."""
    c = charts()
    code, distance = values["code"], values["range"]
    if distance < 1:
        raise OddsError(f"range must be 1 or more (the target's hex counts), got {distance}")
    needed = c.missile_target(code, distance)
    if needed is None:
        return OddsResult({CANNOT_OCCUR: Fraction(1)})
    morale, disrupted = values["target_morale"], values["attacker_disrupted"]
    mods = combat.roll_modifiers(c, "missile", morale, disrupted, _height(values, melee=False))
    hit = combat.missile_hit_chance(needed, combat.total(mods), c)
    return OddsResult({"hit": hit, "miss": 1 - hit})


def rally_odds(values: Mapping[str, Any]) -> OddsResult:
    """MORALE: one die must beat the leader-unit distance; a 1 always fails; the unit's
    morale modifies it, a leader rallying a leader adds 1; a disrupted leader rallying
    itself needs anything but a 1."""
    c = charts()
    if values["self"]:
        p = combat.self_rally_chance(c)
        return OddsResult({"rallied": p, "still disrupted": 1 - p})
    distance = values["distance"]
    if distance < 1:
        raise OddsError(
            f"distance must be 1 or more (two units never share a hex), got {distance}; "
            "for a leader rallying itself give self=true"
        )
    morale = values["unit_morale"]
    modifier = c.rally_modifier[morale]
    if morale == "!":
        modifier += c.rally_leader_to_leader
    p = combat.rally_chance(distance, modifier, c)
    return OddsResult({"rallied": p, "still disrupted": 1 - p})


class _AnyCaseChoice(OddsKey):
    """A choice key whose letters may be typed in either case (missile codes)."""

    __slots__ = ()

    def parse(self, text: str) -> Any:
        return OddsKey.parse(self, text.strip().upper())


_MORALE = tuple(MORALE_SYMBOLS)
_COMMON = (
    OddsKey("attacker_disrupted", "bool", False, "the attacker is disrupted"),
    OddsKey("attacker_higher", "bool", False, "the attacker stands higher"),
    OddsKey("defender_higher", "bool", False, "the defender stands higher"),
)
QUERIES: dict[str, OddsQuery] = {
    "melee": OddsQuery(
        "melee",
        "two dice against the melee table; doubles disrupt the attacker",
        (
            OddsKey("attacker", "int", 3, "attacker's Combat Strength (1-5)"),
            OddsKey("defender", "int", 3, "defender's Combat Strength (1-5)"),
            OddsKey("defender_morale", "choice", "=", "defender's morale", _MORALE),
            *_COMMON,
            OddsKey(
                "attacker_terrain", "choice", "open", "terrain the attacker stands in", TERRAINS
            ),
            OddsKey(
                "defender_terrain", "choice", "open", "terrain the defender stands in", TERRAINS
            ),
            OddsKey(
                "across", "choice", "none", "hexside crossed by the attack", ("none", "bridge")
            ),
        ),
        melee_odds,
    ),
    "missile": OddsQuery(
        "missile",
        "one die against the missile chart; a 1 always misses",
        (
            _AnyCaseChoice("code", "choice", "B", "the firer's missile code", MISSILE_CODES),
            OddsKey("range", "int", 1, "range in hexes (1 or more; a dash cannot occur)"),
            OddsKey("target_morale", "choice", "=", "the target's morale", _MORALE),
            *_COMMON,
        ),
        missile_odds,
    ),
    "rally": OddsQuery(
        "rally",
        "one die must beat the leader-unit distance; a 1 always fails",
        (
            OddsKey("distance", "int", 1, "hexes from the leader to the disrupted unit (1+)"),
            OddsKey(
                "unit_morale", "choice", "=", "the rallied unit's morale (! a leader)", _MORALE
            ),
            OddsKey("self", "bool", False, "a disrupted leader rallying itself (2+)"),
        ),
        rally_odds,
    ),
}


def _pct(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}% ({p})"


def assess_action(rules: MiniWars, state: State, side: str, action: Action) -> Explained | None:
    """The odds of a fire, attack or rally action now, as data and in words; None if the
    action rolls nothing (or names no unit on the board)."""
    problem_of: Callable[[State, Unit, Unit], str | None]
    odds: Callable[[MiniWars, State, Action, Unit, Unit], Explained]
    if isinstance(action, Fire):
        refs, problem_of, odds = (action.unit, action.target), rules.fire_problem, _fire
    elif isinstance(action, Attack):
        refs, problem_of, odds = (action.unit, action.target), rules.melee_problem, _melee
    elif isinstance(action, Rally):
        refs, problem_of, odds = (action.leader, action.unit), rules.rally_problem, _rally
    else:
        return None
    first, second = state.units.get(refs[0]), state.units.get(refs[1])
    if first is None or second is None or first.pos is None or second.pos is None:
        return None
    problem = problem_of(state, first, second)
    if problem:
        return f"{action}: not possible ({problem})", None
    return odds(rules, state, action, first, second)


def _fire(rules: MiniWars, state: State, action: Action, unit: Unit, target: Unit) -> Explained:
    c = state.setup.board.charts
    needed, mods = rules.missile_situation(state, unit, target)
    hit = combat.missile_hit_chance(needed, combat.total(mods), c)
    result = OddsResult({"hit": hit, "miss": 1 - hit})
    effect = "removes it" if target.disrupted else "disrupts it"
    roll = _roll(needed, mods, 1, c.missile_automatic_miss) if needed else ""
    text = (
        f"{action}: needs {needed}+ on one die{_mods(mods)}{roll}; a hit {effect}: "
        f"hit {_pct(result.outcomes['hit'])}"
    )
    return text, result


def _melee(rules: MiniWars, state: State, action: Action, unit: Unit, target: Unit) -> Explained:
    needed, mods = rules.melee_situation(state, unit, target)
    ch = combat.melee_chances(needed, combat.total(mods))
    # MELEE: doubles disrupt the attacker, unless it already is.
    extra = {} if unit.disrupted else {"attacker_disrupted": ch.doubles}
    result = OddsResult({"hit": ch.success, "miss": 1 - ch.success}, extra)
    effect = "removes it" if target.disrupted else "disrupts it"
    doubles = "".join(f"; doubles disrupt {unit.id}: {_pct(p)}" for p in extra.values())
    chance = f"success {effect}: {_pct(result.outcomes['hit'])}{doubles}"
    roll = _roll(needed, mods, 2, None)
    return f"{action}: needs {needed}+ on two dice{_mods(mods)}{roll}; {chance}", result


def _rally(rules: MiniWars, state: State, action: Action, leader: Unit, unit: Unit) -> Explained:
    distance, mods = rules.rally_situation(state, leader, unit)
    p = combat.rally_chance(distance, combat.total(mods), state.setup.board.charts)
    result = OddsResult({"rallied": p, "still disrupted": 1 - p})
    text = (
        f"{action}: must beat {distance}{_mods(mods)}, a 1 always fails: "
        f"{_pct(result.outcomes['rallied'])}"
    )
    return text, result


def _roll(needed: int, mods: combat.Modifiers, dice: int, always_misses: int | None) -> str:
    """The roll that does it once the modifiers are counted (``: a roll of 6+``), named
    only where modifiers change it."""
    if not mods:
        return ""
    low, high = dice, 6 * dice
    lowest = (always_misses + 1) if always_misses is not None else low
    roll = max(needed - combat.total(mods), lowest)
    if roll > high:
        return f", so no roll of {dice} {'die' if dice == 1 else 'dice'} does it"
    if roll <= low and always_misses is None:
        return ", so any roll does it"
    return f", so a roll of {roll}+ does it"


def _mods(mods: combat.Modifiers) -> str:
    if not mods:
        return ""
    return " (" + ", ".join(f"{v:+d} {why}" for v, why in mods) + ")"
