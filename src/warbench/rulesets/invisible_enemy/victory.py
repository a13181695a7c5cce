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
    victory = state.setup.victory
    a, b = state.setup.sides
    score = scores(state)
    if victory.kind == "breach":
        runner = victory.side or a
        through = sum(1 for x in state.bases.values() if x.side == runner and x.exited)
        if through >= victory.count:
            return Outcome(
                runner, f"{through} {runner} base(s) broke through", score, decided_by="mission"
            )
        if through + fighting(state, runner) < victory.count:
            return Outcome(
                state.other(runner),
                "the breach can no longer be made",
                score,
                decided_by="mission",
            )
        return None
    alive = {side: fighting(state, side) > 0 for side in (a, b)}
    if not alive[a] and not alive[b]:
        return Outcome(None, "both sides are destroyed", score, decided_by="elimination")
    if not alive[a] or not alive[b]:
        winner = a if alive[a] else b
        return Outcome(winner, f"{winner} has cleared the field", score, decided_by="elimination")
    return None


def at_limit(state: State) -> Outcome:
    """The last turn is over: the breach failed, or the points decide."""
    victory = state.setup.victory
    score = scores(state)
    if victory.kind == "breach":
        holder = state.other(victory.side or state.setup.sides[0])
        return Outcome(holder, f"time is up: {holder} held the line", score, decided_by="time")
    a, b = state.setup.sides
    if score[a] == score[b]:
        return Outcome(None, "time is up with equal points destroyed", score, decided_by="points")
    winner = a if score[a] > score[b] else b
    return Outcome(winner, "time is up: more points destroyed", score, decided_by="points")


__all__ = ["at_limit", "decided", "fighting", "lost", "scores"]
