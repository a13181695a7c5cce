"""``info`` and ``goal`` for VSGMR: a figure's profile and status, an item, a task, a
feature, a point of the table, and the scenario's victory conditions.

Everything :func:`unit_info` says comes from the side's view (VSGMR hides
nothing, but the rule holds for every ruleset); the movement allowances it
quotes are the rules' public numbers (II.2, ``data/rules.toml``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warbench.geometry.table.text import num
from warbench.rulesets.kit.table.info import (
    description_lines,
    feature_name,
    find_row,
    info_of,
    position_text,
    sight_words,
)
from warbench.rulesets.vsgmr.data import FIGURE_TYPES, rules
from warbench.rulesets.vsgmr.scenario import Setup
from warbench.scenario.model import Scenario


def _points(count: int) -> str:
    return f"{count} point{'s' if count != 1 else ''}"


def _side_text(view: Mapping[str, Any], side: str) -> str:
    return f"{side} ({view.get('titles', {}).get(side, side)})"


def _figure_lines(view: Mapping[str, Any], fig: Mapping[str, Any]) -> list[str]:
    kind = str(fig["type"])
    name = view.get("profile_names", {}).get(fig["profile"])
    what = (
        f"{name} ({kind}, profile {fig['profile']})"
        if name
        else f"{kind}, profile {fig['profile']}"
    )
    lines = [f"{fig['id']}: {what}, {_side_text(view, str(fig['side']))}"]
    gun = "gun (distance attacks)" if fig["distance"] else "no gun (hand-to-hand only)"
    if fig["auto"]:
        gun += ", automatic fire"
    skills = f"; skills {', '.join(fig['skills'])}" if fig["skills"] else ""
    lines.append(f"{gun}; armour {fig['armour']}{skills}; worth {_points(int(fig['points']))}")
    if kind in FIGURE_TYPES:
        allowance = rules().allowance(kind, half=False)
        half = rules().allowance(kind, half=True)
        lines.append(f'move {num(allowance)}" ({num(half)}" in rough ground)')
    where = str(fig["where"])
    if where == "defeated":
        lines.append("defeated: taken off the table")
    elif where == "left":
        lines.append("has left the table")
    else:
        shown = find_row(view.get("figures", []), str(fig["id"])) or fig
        lines.append(position_text(view, shown))
    if fig["mount"]:
        lines.append(f"rides {fig['mount']}")
    if fig["rider"]:
        lines.append(f"ridden by {fig['rider']}")
    if fig["items"]:
        lines.append(f"carries {', '.join(fig['items'])}")
    status = [
        word
        for flag, word in (
            ("moved", "moved this round"),
            ("attacked", "attacked this round"),
            ("skilled", "tried a skill roll this round"),
        )
        if fig[flag]
    ]
    if where in ("table", "mounted"):
        lines.append("status: " + ("; ".join(status) if status else "has not acted this round"))
    return lines


def _item_lines(view: Mapping[str, Any], item: Mapping[str, Any]) -> list[str]:
    lines = [
        f"{item['id']}: {item['label']}, worth {_points(int(item['points']))} when carried off"
    ]
    if item["gone"]:
        scored = item["scored_by"]
        lines.append("carried off the table" + (f": scored by {scored}" if scored else ""))
    elif item["carrier"]:
        lines.append(f"carried by {item['carrier']}")
    elif item["at"] is not None:
        x, y = item["at"]
        lines.append(f"lies at {num(float(x))},{num(float(y))}")
    if not item["gone"]:
        lines.append("locked: a skill roll must unlock it first" if item["locked"] else "unlocked")
    return lines


def _task_lines(view: Mapping[str, Any], task: Mapping[str, Any]) -> list[str]:
    lines = [f"{task['id']}: {task['label']}, a skill roll (II.5)"]
    if task["feature"]:
        lines.append(f'touch {task["feature"]} (within {num(float(task["reach"]))}")')
    elif task["at"]:
        x, y = task["at"]
        lines.append(f'within {num(float(task["reach"]))}" of {num(float(x))},{num(float(y))}')
    lines.append(_effect_text(str(task["effect"]), int(task["points"]), task["target"]))
    done = view.get("tasks_done", [])
    if task["id"] in done or any(str(d).startswith(f"{task['id']}:") for d in done):
        lines.append("done" + (" (by a side)" if task.get("limit") == "once_per_side" else ""))
    return lines


def _effect_text(effect: str, points: int, target: object) -> str:
    if effect == "points":
        return f"success scores {_points(points)}"
    if effect == "remove_feature":
        return f"success removes {target}"
    return f"success unlocks {target}"


def _feature_lines(view: Mapping[str, Any], feature: Mapping[str, Any]) -> list[str]:
    lines = [f"{feature_name(feature)}, {sight_words(feature.get('blocks_los'))}"]
    if feature.get("destroyed"):
        lines.append("destroyed")
    return lines


def unit_info(view: Mapping[str, Any], ref: str) -> list[str]:
    """What the view's side may know of figure, item, task, feature or point ``ref``."""
    kinds = (
        ("figures_state", lambda fig: _figure_lines(view, fig)),
        ("items", lambda item: _item_lines(view, item)),
        ("tasks", lambda task: _task_lines(view, task)),
        ("features", lambda feature: _feature_lines(view, feature)),
    )
    return info_of(view, ref, kinds, lambda: _on_table(view), "figure or item")


def _on_table(view: Mapping[str, Any]) -> list[str]:
    """The figures on the table (riders too) and the items not gone, by id."""
    names = [str(f["id"]) for f in view["figures_state"] if f["where"] in ("table", "mounted")]
    return names + [str(i["id"]) for i in view.get("items", []) if not i["gone"]]


def goal(scenario: Scenario) -> list[str]:
    """The description, then how the scenario is won (II: points of figures defeated,
    III: items and tasks as the scenario sets them)."""
    setup: Setup = scenario.spec
    lines = description_lines(scenario)
    skill = setup.rules.skill_target
    for item in setup.items:
        locked = " It is locked until a skill roll unlocks it." if item.locked else ""
        if setup.victory.item_exit == "own_edge":
            edges = ", ".join(f"{side} {setup.edges.get(side) or 'none'}" for side in setup.sides)
            where = f"off its own table edge ({edges})"
        else:
            where = "off any table edge"
        lines.append(
            f"{item.label} ({item.id}) lies at {num(item.at[0])},{num(item.at[1])}: a side "
            f"whose figure carries it {where} scores {_points(item.points)}.{locked}"
        )
    if setup.victory.end_when_item_leaves and setup.items:
        lines.append("The game ends as soon as an item is carried off the table.")
    lines.append(
        f"The game ends after round {setup.rounds}, or at once when a side has no figure "
        "left on the table; the side with the most points wins, and equal best scores are "
        "a draw."
    )
    for task in setup.tasks:
        place = (
            f'a figure touching {task.feature} (within {num(task.reach)}")'
            if task.feature
            else f'a figure within {num(task.reach)}" of {num(task.at[0])},{num(task.at[1])}'
            if task.at
            else "a figure"
        )
        bonus = f", +{setup.rules.skill_hero_bonus} for a hero"
        if task.skill and setup.options.specific_skills:
            bonus += f", +{setup.rules.skill_specific_bonus} with the {task.skill} skill"
        limit = "once per game" if task.limit == "once" else "once per side"
        lines.append(
            f"{task.label} ({task.id}): {place} may roll a skill roll ({skill}+{bonus}); "
            f"{_effect_text(task.effect, task.points, task.target)} ({limit})."
        )
    worth = {
        side: sum(p.profile.points for p in setup.placements if p.side == side)
        for side in setup.sides
    }
    lines.append(
        "Each side scores the points of every enemy figure it defeats ("
        + ", ".join(f"{side}'s figures are worth {worth[side]}" for side in setup.sides)
        + ")."
    )
    return lines
