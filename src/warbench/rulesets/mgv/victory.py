"""Who has won an MGV scenario: clear the field, run the gauntlet, or a surgical strike.

The text names the three missions (introduction) without victory rules; each
scenario's ``[victory]`` says which it is (docs/rules/mgv.md, rulings).
Points are the models' (stand-in) points; a side scores the points of the
enemy bases it destroyed.
"""

from __future__ import annotations

from warbench.core.outcome import Outcome
from warbench.rulesets.mgv.state import State


def scores(state: State) -> dict[str, float]:
    out = dict.fromkeys(state.setup.sides, 0.0)
    for base in state.bases.values():
        if base.destroyed:
            out[state.other(base.side)] += base.model.points
    return out


def decided(state: State) -> Outcome | None:
    """The game ends early when its mission is settled."""
    victory = state.setup.victory
    a, b = state.setup.sides
    score = scores(state)
    if victory.kind == "gauntlet":
        runner = victory.side or a
        through = sum(1 for x in state.bases.values() if x.side == runner and x.exited)
        if through >= victory.count:
            return Outcome(
                runner,
                f"{through} {runner} base(s) ran the gauntlet",
                score,
                decided_by="mission",
            )
        able = sum(1 for x in state.active(runner) if not x.immobile)
        if through + able < victory.count:
            return Outcome(
                state.other(runner),
                "the gauntlet can no longer be run",
                score,
                decided_by="mission",
            )
        return None
    if victory.kind == "strike":
        striker = victory.side or a
        target = state.bases[victory.target or ""]
        if target.destroyed:
            return Outcome(
                striker,
                f"{target.id} is destroyed: the strike succeeds",
                score,
                decided_by="mission",
            )
        if not state.active(striker):
            return Outcome(
                state.other(striker),
                "the strike force is destroyed",
                score,
                decided_by="elimination",
            )
        return None
    alive = {side: bool(state.active(side)) for side in (a, b)}
    if not alive[a] and not alive[b]:
        return Outcome(None, "both sides are destroyed", score, decided_by="elimination")
    if not alive[a] or not alive[b]:
        winner = a if alive[a] else b
        return Outcome(winner, f"{winner} has cleared the field", score, decided_by="elimination")
    return None


def at_limit(state: State) -> Outcome:
    """The last turn is over: the mission failed, or the points decide."""
    victory = state.setup.victory
    score = scores(state)
    if victory.kind in ("gauntlet", "strike"):
        holder = state.other(victory.side or state.setup.sides[0])
        return Outcome(holder, f"time is up: {holder} held", score, decided_by="time")
    a, b = state.setup.sides
    if score[a] == score[b]:
        return Outcome(None, "time is up with equal points destroyed", score, decided_by="points")
    winner = a if score[a] > score[b] else b
    return Outcome(winner, "time is up: more points destroyed", score, decided_by="points")
