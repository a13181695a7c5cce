"""Who has won an MGV scenario: clear the field, run the gauntlet, or a surgical strike.

The text names the three missions (introduction) without victory rules; each
scenario's ``[victory]`` says which it is (docs/rules/mgv.md, rulings).
Points are the models' (stand-in) points; a side scores the points of the
enemy bases it destroyed.
"""

from __future__ import annotations

from warbench.core.outcome import Outcome
from warbench.rulesets.kit.table.victory import cleared, run_off, time_up
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
    score = scores(state)
    if victory.kind == "gauntlet":
        return run_off(
            state,
            score,
            lambda side: sum(1 for x in state.active(side) if not x.immobile),
            "ran the gauntlet",
            "the gauntlet can no longer be run",
        )
    if victory.kind == "strike":
        striker = victory.side or state.setup.sides[0]
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
    return cleared(state, score, lambda side: bool(state.active(side)))


def at_limit(state: State) -> Outcome:
    """The last turn is over: the mission failed, or the points decide."""
    return time_up(state, scores(state), ("gauntlet", "strike"), "held")
