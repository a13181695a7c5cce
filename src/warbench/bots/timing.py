"""How long a bot takes to decide, for people choosing one: "about 0.4 s a decision".

The figures are measured by ``benchmarks/bench_bot_decisions.py`` (``--write``) on this
project's machine and kept in ``data/decision_times.toml``: the mean seconds a decision of
``random``, ``greedy`` and ``planner`` takes on each ruleset, an ``mcts`` iteration's and a
``search`` rollout's. A search bot's decision is its iterations' (rollouts') worth, capped
by its ``time`` option; a bot the table does not know (an installed one) has no estimate.
A difficulty level (``easy``, ``normal``, ``hard``) is estimated as the bot it stands for.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any

from warbench.bots import LEVELS, bot_factory, bot_options, split_options

WHOLE = ("random", "greedy", "planner")
"""Bots timed per decision; the others per unit of their budget (``PER``)."""
PER = {"mcts": "iterations", "search": "rollouts"}
"""A searching bot's unit of budget: its option and the table's ``<bot>_per_<unit>``."""


@cache
def decision_times() -> dict[str, dict[str, float]]:
    """The measured table: ruleset -> {"greedy": s, ..., "mcts_per_iteration": s, ...}."""
    text = (resources.files("warbench.bots") / "data" / "decision_times.toml").read_text("utf-8")
    table: dict[str, dict[str, float]] = tomllib.loads(text)
    return table


def expected_seconds(bot: str, ruleset: str) -> float | None:
    """The seconds ``bot`` (a name with its options) is expected to take per decision on
    ``ruleset``, or None where nothing was measured. Raises WarbenchError for a bot name
    or option that is not one."""
    base, given = split_options(bot)
    factory = bot_factory(bot)
    measured = decision_times().get(ruleset, {})
    if base in WHOLE:
        return measured.get(base)
    unit = PER.get(base)
    if unit is None:
        return None
    offered: dict[str, Any] = {k: o.default for k, o in getattr(factory, "options", {}).items()}
    chosen = {**offered, **bot_options(base, factory, given)}
    limit = float(chosen.get("time") or 0.0)
    per_unit = measured.get(f"{base}_per_{unit[:-1]}")
    if per_unit is None or (limit > 0 and unit not in given):
        # Not measured here, or a time limit without a budget: the bot searches until
        # its time is up (mcts and search make their budget a mere cap then).
        return limit if limit > 0 else None
    seconds = float(chosen.get(unit, 1)) * per_unit
    return min(seconds, limit) if limit > 0 else seconds


def about_bots(ruleset: str | None) -> list[dict[str, Any]]:
    """Each bot a seat may name: what it is, its options, whether it takes a time limit
    per decision (a ``time`` option), and its expected seconds a decision on ``ruleset``."""
    from warbench.bots import bot_names

    out = []
    for name in bot_names():
        factory = bot_factory(name)
        doc = (factory.__doc__ or "").strip().splitlines()
        options = {k: o.about for k, o in getattr(factory, "options", {}).items()}
        level = LEVELS.get(name)
        out.append(
            {
                "name": name,
                "about": f"{level[1]} ({level[0]})" if level else (doc[0] if doc else ""),
                "level": level is not None,
                "options": options,
                "time_limit": "time" in options,
                "seconds": expected_seconds(name, ruleset) if ruleset else None,
            }
        )
    return out
