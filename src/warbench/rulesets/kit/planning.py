"""What the planners of the hex rulesets share (MiniWars, and CGME with its worlds).

A ruleset's ``plan.py`` reads its scenario's victory conditions into a
:class:`Stakes` (through :func:`stakes`) and scores actions with its own exact
odds; this module holds only what does not depend on the rules:

* :func:`stakes`: how much a side's own losses, the enemy's losses, closing in
  and keeping away weigh, given what it must do by the turn limit (hold until
  it wins, take something before it, or be ahead on points) and the turns left;
* :func:`hit_chain`: the odds of a target after a sequence of attacks, each
  with its own chance of a hit, where the target falls after ``needed`` hits
  (MiniWars' sequential melees on one unit);
* :func:`best_combination`: Wesnoth's attack analysis in small
  (``src/ai/default/attack.cpp``): the opener fixed, every choice of up to a
  few friends that may follow it on the same target, the best by a value the
  ruleset computes with its own odds.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

Role = Literal["hold", "take", "points", "even"]
"""What the turn limit asks of a side: ``hold`` wins there if it still stands (or its
objective is not taken), ``take`` must win before it (wipe out, destroy, reach),
``points`` is judged there by a score, ``even`` ends there in a draw (or by a count
both sides share)."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """Weights a planner puts on what an action does, from the victory conditions."""

    role: Role
    own: float
    """Weight of the side's own expected losses (material evaluate counts at 1)."""
    enemy: float
    """Weight of the enemy's expected losses."""
    pull: float
    """Multiplier on the pull toward the side's goal (the enemy, the objective)."""
    safety: float
    """Worth of keeping out of the enemy's reach next turn, per point of expected loss."""
    late: float
    """Share of the game played, 0 on the first turn, 1 on the last."""
    last_turn: bool
    """Whether this is the last turn: nothing that pays later counts any more."""


def stakes(role: Role, turn: int, turn_limit: int, lead: float = 0.0, scale: float = 1.0) -> Stakes:
    """The weights of a side with ``role`` on ``turn`` of ``turn_limit``.

    ``lead`` is the side's score less the enemy's (``points``), ``scale`` the
    worth of a typical unit, so a lead counts in units whatever the ruleset's
    unit of value. A holder keeps its units: its losses count several times, it
    does not close in, and it values keeping out of reach. A taker must close
    in and pays for its losses less, the less so as its turns run out. A side on
    points plays material, and as the end nears guards a lead and gambles
    behind one.
    """
    late = (turn - 1) / max(turn_limit - 1, 1)
    last = turn >= turn_limit
    if role == "hold":
        return Stakes(role, 3.0, 0.7, 0.0, 1.0, late, last)
    if role == "take":
        return Stakes(role, 0.6 - 0.3 * late, 1.3, 1.5 + 2.0 * late, 0.0, late, last)
    if role == "points":
        ahead = lead / max(scale, 1e-9)
        if ahead > 0.25:  # ahead: keep it, more so as the end nears
            return Stakes(role, 1.0 + 1.5 * late, 1.0, 1.0 - 0.7 * late, 0.5 * late, late, last)
        if ahead < -2.0 and late < 0.5:  # far behind with time left: wait for them on
            # ground of its own choosing, as a holder does, and strike when they come
            return Stakes(role, 1.5, 1.0, 0.0, 1.0, late, last)
        if ahead < -0.25:  # behind: the lead must be taken back in time
            return Stakes(role, 1.0 - 0.5 * late, 1.0 + 0.5 * late, 1.0 + late, 0.0, late, last)
        return Stakes(role, 1.0, 1.0, 1.0, 0.0, late, last)
    return Stakes(role, 1.0, 1.0, 1.0, 0.0, late, last)


def hit_chain(chances: Sequence[float], needed: int) -> tuple[list[float], list[float]]:
    """Sequential attacks on one target that falls after ``needed`` hits.

    ``chances`` are each attack's chance of a hit, in order; an attack is made
    only while the target stands. Returns the distribution of hits the target
    ends with (index ``needed``: fallen) and, per attack, the chance it is made.
    """
    dist = [0.0] * (needed + 1)
    dist[0] = 1.0
    made: list[float] = []
    for p in chances:
        standing = sum(dist[:needed])
        made.append(standing)
        nxt = [0.0] * (needed + 1)
        nxt[needed] = dist[needed]
        for hits in range(needed):
            nxt[hits] += dist[hits] * (1.0 - p)
            nxt[hits + 1] += dist[hits] * p
        dist = nxt
    return dist, made


C = TypeVar("C")
"""What :func:`best_combination` combines (an attacker, a shot)."""


def best_combination(
    first: C,
    others: Sequence[C],
    value: Callable[[tuple[C, ...]], float | None],
    size: int = 3,
) -> tuple[float, tuple[C, ...]]:
    """The best attack on one target that ``first`` opens: ``first`` then up to
    ``size - 1`` of ``others`` (in the order given: put the likeliest first), by
    ``value`` (None: a combination that cannot be made). The opener alone is
    always a candidate."""
    best_value = value((first,))
    best: tuple[C, ...] = (first,)
    if best_value is None:
        best_value = float("-inf")
    for k in range(1, min(size - 1, len(others)) + 1):
        for extra in itertools.combinations(others, k):
            combo = (first, *extra)
            found = value(combo)
            if found is not None and found > best_value:
                best_value, best = found, combo
    return best_value, best
