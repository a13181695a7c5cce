"""Who has won an Invisible Enemy scenario: clear the field, or break through.

The text has no victory conditions (the set-up sheet is missing, ruling 41);
each scenario's ``[victory]`` says which mission it is. Points are the models'
(stand-in) points; a side scores the points of the enemy bases it destroyed or
lost to contamination (a contaminated base is out of its side's hands for good,
1.5 note 2, so it counts as lost and no longer holds the field).
"""

from __future__ import annotations

from warbench.core.outcome import Outcome
from warbench.rulesets.invisible_enemy.state import State
from warbench.rulesets.kit.table.victory import cleared, run_off, time_up


def lost(state: State, side: str) -> list[str]:
    """Bases ``side`` has lost: destroyed, or contaminated."""
    return [
        b.id
        for b in state.bases.values()
        if b.side == side and (b.destroyed or (b.contaminated and not b.exited))
    ]


def scores(state: State) -> dict[str, float]:
    out = dict.fromkeys(state.setup.sides, 0.0)
    for side in state.setup.sides:
        for base_id in lost(state, side):
            out[state.other(side)] += state.bases[base_id].model.points
    return out


def fighting(state: State, side: str) -> int:
    """Bases of ``side`` still on the table and in its hands."""
    return sum(1 for b in state.active(side) if not b.contaminated)


def decided(state: State) -> Outcome | None:
    """The game ends early when its mission is settled."""
    score = scores(state)
    if state.setup.victory.kind == "breach":
        return run_off(
            state,
            score,
            lambda side: fighting(state, side),
            "broke through",
            "the breach can no longer be made",
        )
    return cleared(state, score, lambda side: fighting(state, side) > 0)


def at_limit(state: State) -> Outcome:
    """The last turn is over: the breach failed, or the points decide."""
    return time_up(state, scores(state), ("breach",), "held the line")


__all__ = ["at_limit", "decided", "fighting", "lost", "scores"]
