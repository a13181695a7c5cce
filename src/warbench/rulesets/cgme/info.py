"""``info`` and ``goal`` for CGME worlds (V.E.G. and the bare core): a unit's ratings,
wounds, movement points, riders and stack, a building's structural points, a hex,
and the scenario's victory conditions.

Everything :func:`unit_info` says comes from the side's view; the only other
thing it reads is the world's public wound modifiers (the core's ``[wound]``
table), to give a wounded unit's current ratings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from warbench.rulesets.cgme.data import World
from warbench.rulesets.cgme.scenario import Setup
from warbench.rulesets.kit.hex import hex_lines, is_hex_label, refuse, status_text, where_text
from warbench.scenario.model import Scenario

RATING_WORDS = {"A": "ATT", "R": "RNG", "D": "DEF", "M": "MOV"}


STATUS = (
    ("wounded", "wounded (a second wound destroys it)"),
    ("moved", "moved this turn"),
    ("attacked", "attacked this turn"),
)
"""A unit's flags in the view and their words in its status line."""


def ratings(text: str) -> dict[str, str]:
    """``"A3 R2 D4 M3"`` as ``{"ATT": "3", ...}`` (``Ax``: ATT ``x``, no RNG)."""
    return {RATING_WORDS[word[0]]: word[1:] for word in text.split() if word[:1] in RATING_WORDS}


def ratings_text(unit: Mapping[str, Any], world: World) -> str:
    """``ATT 3, RNG 2, DEF 4, MOV 3``; a wounded unit's current ratings beside the printed ones."""
    printed = ratings(str(unit["ratings"]))
    core = world.core
    change = {"ATT": core.wound_att, "DEF": core.wound_def, "MOV": core.wound_mov}
    words = []
    for name, value in printed.items():
        if value == "x":
            words.append(f"{name} x (may not attack)")
        elif unit["wounded"] and change.get(name):
            now = max(int(value) + change[name], 0)
            words.append(f"{name} {now} (wounded; {value} printed)")
        else:
            words.append(f"{name} {value}")
    return ", ".join(words)


def _unit_lines(
    view: Mapping[str, Any],
    unit: Mapping[str, Any],
    world: World,
    units: Sequence[Mapping[str, Any]],
) -> list[str]:
    side = str(unit["side"])
    title = view.get("titles", {}).get(side, side)
    lines = [
        f"{unit['id']}: {unit['name']} ({unit['type']}), {side} ({title})",
        f"{ratings_text(unit, world)}; class {unit['class']}"
        + (f", value {unit['value']}" if "value" in unit else ""),
    ]
    if unit["at"] is None:
        lines.append("destroyed")
        return lines
    lines.append(where_text(view, unit["at"]))
    if unit["carrier"]:
        lines.append(f"rides in {unit['carrier']}")
    if unit["riders"]:
        lines.append(f"carries {', '.join(unit['riders'])}")
    stack = [
        str(u["id"])
        for u in units
        if u["at"] == unit["at"] and u["id"] != unit["id"] and not u.get("carrier")
    ]
    if stack and not unit["carrier"]:
        lines.append(f"stacked with {', '.join(stack)}")
    if view.get("phase") == "move" and view.get("player") == side:
        mp = f"MP left this movement phase: {unit['mp']}"
        if unit["bonus"]:
            mp += f" (+{unit['bonus']} road bonus)"
        lines.append(mp)
    lines.append(status_text(unit, STATUS, "unhurt, has not moved or attacked"))
    return lines


def _building_lines(view: Mapping[str, Any], building: Mapping[str, Any]) -> list[str]:
    side = str(building["side"])
    title = view.get("titles", {}).get(side, side)
    lines = [f"{building['id']}: building of {side} ({title}), DEF {building['def']}"]
    if building["standing"]:
        lines.append(f"structural points: {building['sp']} of {building['max_sp']}")
        lines.append(where_text(view, building["at"]))
    else:
        lines.append(f"destroyed (stood at {building['at']})")
    return lines


def _units(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [u for u in view["units"] if u.get("kind") != "building"]


def _hex_lines(view: Mapping[str, Any], label: str, world: World) -> list[str] | None:
    lines = hex_lines(view, label)
    if lines is None:
        return None
    kind = next(k for k, labels in view["map"]["terrain"].items() if label in labels)
    rule = world.terrain.get(kind)
    if rule is not None and rule.hazard is not None:
        hazard = rule.hazard
        strength = f"H({hazard.base} - DEF)" if hazard.minus_def else f"H{hazard.base}"
        lines.append(f"hazard {strength}: attacks every unit entering or staying here")
    there = []
    for u in _units(view):
        if u["at"] != label or u["carrier"]:
            continue
        carried = f" carrying {', '.join(u['riders'])}" if u["riders"] else ""
        wounded = ", wounded" if u["wounded"] else ""
        there.append(f"{u['id']} {u['name']} ({u['side']}{wounded}){carried}")
    lines.append("units: " + ("; ".join(there) if there else "none"))
    for b in view.get("buildings", []):
        if b["at"] == label and b["standing"]:
            lines.append(
                f"building {b['id']} ({b['side']}): DEF {b['def']}, {b['sp']} of "
                f"{b['max_sp']} structural points"
            )
    return lines


def unit_info(view: Mapping[str, Any], ref: str, world: World) -> list[str]:
    """What the view's side may know of unit, building or hex ``ref`` (QuestionRefused if
    none of them)."""
    units = _units(view)
    key = ref.lower()
    for unit in units:
        if str(unit["id"]).lower() == key:
            return _unit_lines(view, unit, world, units)
    for building in view.get("buildings", []):
        if str(building["id"]).lower() == key:
            return _building_lines(view, building)
    if is_hex_label(ref):
        lines = _hex_lines(view, ref, world)
        if lines is not None:
            return lines
    names = [str(b["id"]) for b in view.get("buildings", []) if b["standing"]]
    names += [str(u["id"]) for u in units if u["at"]]
    refuse(view, ref, names)
    raise AssertionError("unreachable")  # pragma: no cover


def _zone_text(raw: Mapping[str, Any], columns: int, rows: int) -> str:
    within = int(raw.get("within", 0))
    if raw.get("edge"):
        edge = str(raw["edge"])
        lines = {
            "east": f"columns {columns - within:02d}-{columns:02d}",
            "west": f"columns 01-{1 + within:02d}",
            "north": f"rows 01-{1 + within:02d}",
            "south": f"rows {rows - within:02d}-{rows:02d}",
        }[edge]
        if within == 0:
            return f"on the {edge} edge ({lines.split('-')[0].replace('columns', 'column')})"
        return f"within {within} hex{'es' if within != 1 else ''} of the {edge} edge ({lines})"
    hexes = ", ".join(str(h) for h in raw.get("hexes", []))
    if within == 0:
        return f"in {hexes}"
    return f"within {within} hex{'es' if within != 1 else ''} of {hexes}"


def _target_text(setup: Setup, ref: str) -> str:
    """A destroy objective's target: a building with its DEF and SP, or a unit with its type."""
    for b in setup.buildings:
        if b.id.lower() == ref.lower():
            return f"{b.id} (a building at {b.at.label}: DEF {b.dfn}, {b.sp} structural points)"
    for p in setup.units:
        if p.id.lower() == ref.lower():
            return f"{p.id} ({p.type.name})"
    return ref


def goal(scenario: Scenario) -> list[str]:
    """The description, then each way the scenario ends (objectives, no units left, the
    turn limit and what it decides)."""
    setup = scenario.spec
    victory = scenario.raw.get("victory", {})
    columns = int(scenario.raw["map"]["columns"])
    rows = int(scenario.raw["map"]["rows"])
    lines = []
    text = scenario.raw.get("description")
    if text:
        lines.append(" ".join(str(text).split()))
    for objective in victory.get("objectives", []):
        side = str(objective["side"])
        if objective.get("destroy"):
            targets = ", ".join(_target_text(setup, str(t)) for t in objective["destroy"])
            lines.append(f"{side} wins at once when it has destroyed {targets}.")
        else:
            count = int(objective.get("count", 1))
            zone = _zone_text(objective["reach"], columns, rows)
            lines.append(
                f"{side} wins at the end of any of its player turns with {count} "
                f"unit{'s' if count != 1 else ''} {zone}; riders count."
            )
    limit, rule = setup.turn_limit, setup.at_turn_limit
    ending = f"At the end of turn {limit}, "
    if rule == "points":
        ending += (
            "the side that destroyed more enemy value wins (the value of each unit: "
            "info UNIT); equal value destroyed is a draw."
        )
    elif rule == "draw":
        ending += "the game is a draw."
    else:
        ending += f"{rule} ({setup.titles.get(rule, rule)}) wins."
    lines.append(ending)
    lines.append("A side with no unit left on the map loses at once.")
    return lines
