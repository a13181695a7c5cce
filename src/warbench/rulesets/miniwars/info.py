"""``info`` and ``goal`` for MiniWars: a unit's factors and status, a hex, the scenario's aim.

Everything :func:`unit_info` says comes from the side's view (nothing is hidden
in MiniWars, but the rule holds for every ruleset); the missile chart it
quotes is the rules' public data (MISSILE FIRE).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warbench.rulesets.kit.hex import hex_lines, is_hex_label, refuse, status_text, where_text
from warbench.rulesets.miniwars.data import charts
from warbench.scenario.model import Scenario

MORALE_WORDS = {
    "+": "above average",
    "=": "average",
    "-": "below average",
    "!": "leader",
}
"""UNITS: the four morale symbols."""


STATUS = (
    ("disrupted", "disrupted"),
    ("fired", "fired this turn"),
    ("acted", "has moved or fought this phase"),
)
"""A unit's flags in the view and their words in its status line."""


def missile_text(code: str) -> str:
    """``missile B: hits on 3+ at 1 hex, 4+ at 2, 5+ at 3, 6 at 4`` (the MISSILE FIRE chart)."""
    if not code:
        return "no missile weapon"
    needs = charts().missile.get(code, ())
    steps = [
        f"{need}{'+' if need < 6 else ''} at {reach}" + (" hex" if reach == 1 else "")
        for reach, need in enumerate(needs, start=1)
    ]
    return f"missile {code}: hits on " + ", ".join(steps)


def _unit_lines(view: Mapping[str, Any], unit: Mapping[str, Any]) -> list[str]:
    side = str(unit["side"])
    title = view.get("titles", {}).get(side, side)
    move = f"move {unit['move']}" + (" (cavalry)" if unit["cavalry"] else "")
    morale = f"morale {unit['morale']} ({MORALE_WORDS.get(str(unit['morale']), '?')})"
    lines = [
        f"{unit['id']}: {unit['name']} ({unit['type']}), {side} ({title})",
        f"{move}, CS {unit['cs']}, {morale}, cost {unit['cost']}",
        missile_text(str(unit["missile"])),
        where_text(view, unit["at"]) if unit["at"] else "removed from the game",
    ]
    broken = ["its army has reached its break point"] if side in view.get("broken", []) else []
    lines.append(status_text(unit, STATUS, "in good order", *broken))
    return lines


def unit_info(view: Mapping[str, Any], ref: str) -> list[str]:
    """What the view's side may know of unit or hex ``ref`` (QuestionRefused if neither)."""
    units = list(view["units"])
    for unit in units:
        if str(unit["id"]).lower() == ref.lower():
            return _unit_lines(view, unit)
    if is_hex_label(ref):
        lines = hex_lines(view, ref)
        if lines is not None:
            there = [u for u in units if u["at"] == ref]
            lines.append(
                "units: "
                + (
                    ", ".join(f"{u['id']} {u['name']} ({u['side']})" for u in there)
                    if there
                    else "none"
                )
            )
            return lines
    refuse(view, ref, [str(u["id"]) for u in units if u["at"]])
    raise AssertionError("unreachable")  # pragma: no cover


def goal(scenario: Scenario) -> list[str]:
    """The description, then how the scenario is won (SAMPLE GAME, BREAK POINT, ruling 11)."""
    setup = scenario.spec
    lines = []
    text = scenario.raw.get("description")
    if text:
        lines.append(" ".join(str(text).split()))
    first, second = setup.sides
    count = {side: sum(1 for u in setup.units if u.side == side) for side in setup.sides}
    lines.append(
        "A side whose last unit is gone from the map loses at once; the other side wins "
        "(SAMPLE GAME)."
    )
    lines.append(
        "Break point: a side reduced to half its starting units or fewer has every unit "
        f"left disrupted, once ({first}: {count[first]} units at the start, "
        f"{second}: {count[second]})."
    )
    limit, rule = setup.turn_limit, setup.at_turn_limit
    if rule in setup.sides:
        ending = (
            f"{rule} ({setup.titles.get(rule, rule)}) wins if both armies still stand at the "
            f"end of turn {limit}."
        )
    else:
        ending = f"If both armies still stand at the end of turn {limit} (a safeguard, ruling 11), "
        if rule == "units":
            ending += "the side with more units on the board wins; equal numbers are a draw."
        elif rule == "points":
            ending += (
                "the side that destroyed more enemy cost wins; equal losses are a draw "
                "(costs: info UNIT)."
            )
        else:
            ending += "the game is a draw."
    if rule in setup.sides:  # a side holds out: that is the scenario's aim, say it first
        lines.insert(1 if text else 0, ending)
    else:
        lines.append(ending)
    return lines
