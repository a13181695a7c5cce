"""``warbench odds invisible-enemy network|direct|barrage|control|self-destruct``.

Every number comes from :mod:`warbench.rulesets.invisible_enemy.charts` (the
text's tables and the stand-ins of ``data/charts.toml``), so the odds shown are
the ones the game rolls.

* ``network``: the exact joint distribution of both sides' action points
  (2.0), outcome keys ``"A{a} B{b}"``;
* ``direct``: hull hits of one direct fire roll (5.0, 5.1, 5.3 massed battery);
* ``barrage``: one target within 3" of a barrage marker (3.0 Phase 6);
* ``control``: a unit's move roll (4.0);
* ``self-destruct``: the hits of a self-destructing base on one base within
  its range (6.0); the attack and range are an extra line.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from warbench.core.odds import OddsKey, OddsQuery, OddsResult
from warbench.errors import OddsError
from warbench.rulesets.invisible_enemy import charts

MAX_RATING = 12
MAX_SPEED = 24


def _hits(dist: Mapping[int, Fraction]) -> dict[str, Fraction]:
    return {(f"{k} hit" if k == 1 else f"{k} hits"): p for k, p in sorted(dist.items()) if p}


def _int(values: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value: int = values[name]
    if not low <= value <= high:
        raise OddsError(f"{name} is from {low} to {high}, got {value}")
    return value


def _yes_no(chance: Fraction, yes: str, no: str) -> dict[str, Fraction]:
    return {k: p for k, p in ((yes, chance), (no, 1 - chance)) if p}


def network_odds(values: Mapping[str, Any]) -> OddsResult:
    cap = charts.charts().network.max_dice
    n_a = _int(values, "dice_a", 0, cap)
    n_b = _int(values, "dice_b", 0, cap)
    dist = charts.network_distribution(n_a, n_b)
    return OddsResult({f"A{a} B{b}": p for (a, b), p in dist.items()})


def direct_odds(values: Mapping[str, Any]) -> OddsResult:
    attack = _int(values, "attack", 0, MAX_RATING)
    defence = _int(values, "defence", 1, MAX_RATING)
    weapon, massed = values["weapon"], values["massed"]
    if massed and weapon != "C":
        raise OddsError("only Type C bases fire as a massed battery (5.3): weapon=C")
    dist = charts.direct_distribution(
        attack, defence, weapon, values["damage"], values["cover"], massed
    )
    return OddsResult(_hits(dist))


def _barrage_situation(values: Mapping[str, Any]) -> dict[str, Any]:
    """A fungus tower's defence and flanks are the rules', not the asker's (1.5 note 2)."""
    if values["target"] != "fungus-tower":
        return dict(values)
    return {**values, "defence": charts.charts().area.fungus_tower_defence, "no_flank": True}


def barrage_odds(values: Mapping[str, Any]) -> OddsResult:
    if values["target"] == "fungus-tower":
        target: charts.Target = charts.FUNGUS_TOWER
        if values["no_flank"]:
            raise OddsError("a fungus tower has no flanks: no_flank applies to bases only")
    else:
        target = _int(values, "defence", 1, MAX_RATING)
    chance = charts.area_chance(target, values["no_flank"], values["deflected"])
    return OddsResult(_yes_no(chance, "destroyed", "no effect"))


def control_odds(values: Mapping[str, Any]) -> OddsResult:
    status: int = values["status"]
    if status not in charts.STATUSES:
        raise OddsError(f"status is one of {', '.join(map(str, charts.STATUSES))}, got {status}")
    chance = charts.control_chance(status, values["network_mgv"], values["automatic"])
    return OddsResult(_yes_no(chance, "moves", "may not move"))


def self_destruct_odds(values: Mapping[str, Any]) -> OddsResult:
    speed = _int(values, "speed", 0, MAX_SPEED)
    defence = _int(values, "defence", 1, MAX_RATING)
    target = _int(values, "target_defence", 1, MAX_RATING)
    blast = charts.self_destruct(speed, defence)
    dist = charts.self_destruct_distribution(speed, defence, target, values["cover"])
    extra = {f'attack {blast.attack} on every base within {blast.range:g}"': Fraction(1)}
    return OddsResult(_hits(dist), extra)


def _queries() -> dict[str, OddsQuery]:
    cap = charts.charts().network.max_dice
    return {
        "network": OddsQuery(
            "network",
            "network combat (2.0): both pools sorted, highest against highest, ties and "
            "losers disqualified, unopposed dice survive, one action point per survivor; "
            f"outcomes: A{{a}} B{{b}} (at most {cap} dice a side)",
            (
                OddsKey("dice_a", "int", 8, "side A's network dice"),
                OddsKey("dice_b", "int", 7, "side B's network dice"),
            ),
            network_odds,
        ),
        "direct": OddsQuery(
            "direct",
            "1D6 + the K or C/P row modifier of attack vs defence (stand-in chart) - 2 firer "
            "1/3 damaged, -4 2/3 damaged, -3 target in 50% cover (5.1); outcomes: hull hits",
            (
                OddsKey("attack", "int", 4, "the firer's attack rating"),
                OddsKey("defence", "int", 4, "the target's defence rating"),
                OddsKey("weapon", "choice", "K", "weapon class", charts.WEAPONS),
                OddsKey("damage", "choice", "none", "the firer's damage", charts.DAMAGES),
                OddsKey("cover", "bool", False, "the target is behind 50% cover"),
                OddsKey("massed", "bool", False, "three or more C bases: the K row (5.3)"),
            ),
            direct_odds,
        ),
        "barrage": OddsQuery(
            "barrage",
            "2D6 on the Area Weapons table (stand-in: 8 + defence; a fungus tower is "
            "defence 4 with no flank support), +1 no flank support, -1 deflected (3.0); "
            "outcomes: destroyed or not",
            (
                OddsKey(
                    "target",
                    "choice",
                    "base",
                    "an MGV base or a fungus tower",
                    ("base", "fungus-tower"),
                ),
                OddsKey("defence", "int", 3, "the base's defence rating"),
                OddsKey("no_flank", "bool", False, 'no friendly base within 1" to a flank'),
                OddsKey("deflected", "bool", False, "the barrage is deflected"),
            ),
            barrage_odds,
            settle=_barrage_situation,
        ),
        "control": OddsQuery(
            "control",
            "1D6 on the Control table (stand-in: 100% 2+, 75% 3+, 50% 4+, 25% 5+; +1 with a "
            "network MGV in range; a 1 always fails); an automatic move marker needs no roll",
            (
                OddsKey("status", "int", 100, "network status: 100, 75, 50 or 25"),
                OddsKey("network_mgv", "bool", False, "a network MGV within support range"),
                OddsKey("automatic", "bool", False, "an automatic move marker on the unit"),
            ),
            control_odds,
        ),
        "self-destruct": OddsQuery(
            "self-destruct",
            "the Self Destruct table (stand-in) gives an attack and a range from speed and "
            "defence; resolved as K direct fire on each base in range (6.0); outcomes: hull "
            "hits on one base",
            (
                OddsKey("speed", "int", 5, "the self-destructing base's speed rating"),
                OddsKey("defence", "int", 3, "the self-destructing base's defence"),
                OddsKey("target_defence", "int", 3, "the defence of a base in range"),
                OddsKey("cover", "bool", False, "the target is behind 50% cover"),
            ),
            self_destruct_odds,
        ),
    }


QUERIES: Mapping[str, OddsQuery] = _queries()
"""The Invisible Enemy odds queries (for the ruleset's ``odds_queries()`` once it is built)."""
