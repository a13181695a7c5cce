"""The missions MGV and Invisible Enemy decide alike: getting bases off the table by
an edge (MGV's gauntlet, Invisible Enemy's breach), clearing the field, and the points
of destroyed enemies when time is up.

A state here has ``setup.sides``, ``setup.victory`` (a
:class:`~warbench.rulesets.kit.table.scenario.EdgeRunVictory`), ``bases`` by id (each
with ``side`` and ``exited``) and ``other(side)``; what a side still has in its
hands stays each ruleset's own (``able``, ``alive``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from warbench.core.outcome import Outcome


def run_off(
    state: Any, score: dict[str, float], able: Callable[[str], int], done: str, failed: str
) -> Outcome | None:
    """The runner has got ``victory.count`` bases off the table (``done``: what they
    did), or can no longer: those off and those still ``able`` are too few (``failed``)."""
    victory = state.setup.victory
    runner = victory.side or state.setup.sides[0]
    through = sum(1 for x in state.bases.values() if x.side == runner and x.exited)
    if through >= victory.count:
        return Outcome(runner, f"{through} {runner} base(s) {done}", score, decided_by="mission")
    if through + able(runner) < victory.count:
        return Outcome(state.other(runner), failed, score, decided_by="mission")
    return None


def cleared(state: Any, score: dict[str, float], alive: Callable[[str], bool]) -> Outcome | None:
    """Clear the field: a side none of whose bases is ``alive`` has lost (both: a draw)."""
    a, b = state.setup.sides
    living = {side: alive(side) for side in (a, b)}
    if not living[a] and not living[b]:
        return Outcome(None, "both sides are destroyed", score, decided_by="elimination")
    if not living[a] or not living[b]:
        winner = a if living[a] else b
        return Outcome(winner, f"{winner} has cleared the field", score, decided_by="elimination")
    return None


def time_up(state: Any, score: dict[str, float], missions: Collection[str], held: str) -> Outcome:
    """The last turn is over: a mission (a victory kind of ``missions``) failed and the
    other side ``held``, or the points of destroyed enemies decide."""
    victory = state.setup.victory
    if victory.kind in missions:
        holder = state.other(victory.side or state.setup.sides[0])
        return Outcome(holder, f"time is up: {holder} {held}", score, decided_by="time")
    a, b = state.setup.sides
    if score[a] == score[b]:
        return Outcome(None, "time is up with equal points destroyed", score, decided_by="points")
    winner = a if score[a] > score[b] else b
    return Outcome(winner, "time is up: more points destroyed", score, decided_by="points")


__all__ = ["cleared", "run_off", "time_up"]
