"""What the planner of the open tables shares (VSGMR, MGV, Invisible Enemy).

The planner (``Ruleset.plan``) starts from the greedy bot's scores and adds what the
scenario's victory conditions ask. Three things are the same in every open-table
ruleset and live here, specialised by data and small overrides in each ruleset's
``plan.py``:

* :class:`Clock` reads the game's time and score: the turns left and the lead in
  points destroyed (what the time limit weighs). :meth:`Clock.caution` says how much a
  side that is ahead near the end should prefer holding back, and :meth:`Clock.urgency`
  how much one that is behind should prefer the attack: a lead kept to the last turn
  wins, and a side behind loses unless it destroys something.
* :func:`coordinated` values one attack as the first of the best combination of the
  side's attacks on its target this phase (as Wesnoth's attack analysis): the target's
  worth times the exact chance the combination destroys it, less what the friends that
  join would have done elsewhere. Sequential attacks (each resolved before the next is
  chosen: VSGMR) are ordered by Smith's rule, the attacker with least to lose elsewhere
  per chance of the kill first, and one that finds the target already gone does its
  alternative; simultaneous ones (Invisible Enemy's fire steps) all fire.
* :class:`TablePlanner` is the pipeline: the greedy scores, then the ruleset's
  overrides for holding back, attacks and moves.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from warbench.core.actions import Action

S = TypeVar("S")

MOST_FRIENDS = 3
"""Friends weighed joining one attack (2^3 combinations of them at most)."""


@dataclass(frozen=True, slots=True)
class Clock:
    """The game's time and score as one side reads them (both public in every ruleset)."""

    turn: int
    """The current turn (round), 1-based."""
    last: int
    """The scenario's last turn."""
    lead: float
    """The side's points destroyed less the best other side's."""
    stake: float
    """The points at stake: the smaller force's points (scales the lead)."""

    @property
    def left(self) -> int:
        """Turns still to play, this one included."""
        return max(1, self.last - self.turn + 1)

    @property
    def final(self) -> bool:
        return self.turn >= self.last

    def lateness(self) -> float:
        """0 at the start, 1 in the last turn."""
        return 1.0 if self.last <= 1 else min(1.0, (self.turn - 1) / (self.last - 1))

    def caution(self) -> float:
        """How much more the side should fear losses than want gains, 0 to 1: a lead
        matters more the later it is (with a turn or two left, keeping it wins)."""
        if self.lead <= 0:
            return 0.0
        share = min(1.0, self.lead / max(self.stake, 1e-9) * 4.0)
        return share * self.lateness() ** 2

    def urgency(self) -> float:
        """How much the side behind must attack, 0 to 1, highest in the last turns."""
        if self.lead >= 0:
            return 0.0
        return self.lateness() ** 2


@dataclass(frozen=True, slots=True)
class Strike:
    """One attack that can be chosen now: who makes it, at what, with what chance."""

    index: int
    """Its place in the list of actions scored."""
    attacker: str
    target: str
    chance: float
    """The exact chance it destroys the target alone (by the ruleset's odds)."""
    gain: float
    """What it is worth alone, in the greedy bot's unit (its score)."""


def points_clock(
    turn: int,
    last: int,
    points: Mapping[str, float],
    forces: Iterable[tuple[str, float]],
    side: str,
) -> Clock:
    """The clock of a game scored in points destroyed (MGV, Invisible Enemy): ``points``
    each side's score, ``forces`` (side, points) of every base on the table."""
    theirs = max(v for s, v in points.items() if s != side)
    strength = dict.fromkeys(points, 0.0)
    for owner, worth in forces:
        strength[owner] = strength.get(owner, 0.0) + worth
    return Clock(turn, last, points[side] - theirs, min(strength.values()))


def alternatives(strikes: Sequence[Strike]) -> dict[tuple[str, str], float]:
    """For each (attacker, target), the best an attacker could gain at another target."""
    best: dict[str, list[tuple[float, str]]] = {}
    for s in strikes:
        best.setdefault(s.attacker, []).append((s.gain, s.target))
    out: dict[tuple[str, str], float] = {}
    for attacker, gains in best.items():
        ranked = sorted(gains, reverse=True)
        for _, target in ranked:
            other = next((g for g, t in ranked if t != target), 0.0)
            out[(attacker, target)] = max(0.0, other)
    return out


def coordinated(
    strikes: Sequence[Strike],
    worth: Callable[[str], float],
    *,
    sequential: bool,
    kill: Callable[[Sequence[Strike]], float] | None = None,
    most: int = MOST_FRIENDS,
) -> dict[int, float]:
    """Each strike's score as the first attack of the best combination on its target.

    A score is the combination's gain over the friends' alternatives (what each would
    gain at another target), so a lone strike scores ``gain`` less its own alternative,
    and comparing two strikes compares what the side gets from all its attackers.
    ``worth(target)`` is what destroying the target is worth; ``kill(members)`` the
    chance a simultaneous combination destroys it (sequential: one minus the product
    of the misses). Sequential strikes add the kill's worth alone (their ``gain`` is
    the kill); simultaneous ones add it to their own gains (hits short of a kill).
    """
    alt = alternatives(strikes)
    by_target: dict[str, list[Strike]] = {}
    for s in strikes:
        by_target.setdefault(s.target, []).append(s)
    out: dict[int, float] = {}
    for target, group in by_target.items():
        w = worth(target)
        for first in group:
            friends = [s for s in group if s.attacker != first.attacker]
            # One strike per friend: its best at this target.
            best_of: dict[str, Strike] = {}
            for s in friends:
                if s.attacker not in best_of or s.chance > best_of[s.attacker].chance:
                    best_of[s.attacker] = s
            pool = sorted(best_of.values(), key=lambda s: -s.chance)[: most + 2]
            best = -float("inf")
            for size in range(0, min(most, len(pool)) + 1):
                for combo in itertools.combinations(pool, size):
                    if sequential:
                        value = _sequential(first, combo, w, alt)
                    else:
                        assert kill is not None
                        value = _simultaneous(first, combo, w, alt, kill)
                    best = max(best, value)
            out[first.index] = best
    return out


def _sequential(
    first: Strike, friends: Sequence[Strike], worth: float, alt: dict[tuple[str, str], float]
) -> float:
    """The gain of ``first`` then ``friends`` in Smith's order, each attacking only while
    the target stands (one that finds it gone gains its alternative after all)."""
    order = sorted(
        friends,
        key=lambda s: alt[(s.attacker, s.target)] / max(s.chance, 1e-9),
    )
    total = 0.0
    standing = 1.0
    for s in (first, *order):
        total += standing * (s.chance * worth - alt[(s.attacker, s.target)])
        standing *= 1.0 - s.chance
    return total


def _simultaneous(
    first: Strike,
    friends: Sequence[Strike],
    worth: float,
    alt: dict[tuple[str, str], float],
    kill: Callable[[Sequence[Strike]], float],
) -> float:
    members = (first, *friends)
    together = kill(members) * worth
    alone = sum(kill((s,)) * worth for s in members)
    return together - alone + sum(s.gain - alt[(s.attacker, s.target)] for s in members)


class TablePlanner(Generic[S]):
    """The planner's pipeline for one decision: greedy's scores, then the overrides.

    A ruleset's ``plan.py`` subclasses it and fills in :meth:`clock`, :meth:`strikes`
    (its attacks among the actions), :meth:`is_hold` (ending or passing: keeping every
    piece where it is) and :meth:`adjust` (its own objective terms, per action).
    """

    sequential = True
    """Whether the ruleset's attacks are resolved one by one (else simultaneously)."""
    hold_worth = 1.0
    """What holding back is worth, in the greedy unit, to a side at full caution."""
    strike_share = 1.0
    """How much of the coordinated score replaces greedy's (1: all of it)."""

    def __init__(self, state: S, side: str, actions: Sequence[Action], base: list[float]):
        self.state = state
        self.side = side
        self.actions = actions
        self.base = base

    # -- what each ruleset says --------------------------------------------------
    def clock(self) -> Clock:
        raise NotImplementedError

    def strikes(self) -> list[Strike]:
        """The attacks among the actions, with their chances and gains."""
        return []

    def worth(self, target: str) -> float:
        """What destroying ``target`` is worth, in the greedy unit."""
        return 0.0

    def kill(self, members: Sequence[Strike]) -> float:
        """The chance simultaneous ``members`` destroy their target together."""
        miss = 1.0
        for s in members:
            miss *= 1.0 - s.chance
        return 1.0 - miss

    def is_hold(self, action: Action) -> bool:
        return False

    def adjust(self, index: int, action: Action, score: float, clock: Clock) -> float:
        """The ruleset's own objective terms for one action (default: none)."""
        return score

    # -- the pipeline ----------------------------------------------------------------
    def scores(self) -> list[float]:
        clock = self.clock()
        out = list(self.base)
        strikes = self.strikes()
        if strikes:
            joint = coordinated(strikes, self.worth, sequential=self.sequential, kill=self.kill)
            for index, value in joint.items():
                out[index] = (1.0 - self.strike_share) * out[index] + self.strike_share * value
            # Scores are net of what each attacker could do elsewhere, so ending the
            # step (which forgoes every attack) is counted down by all of them.
            forgone: dict[str, float] = {}
            for s in strikes:
                forgone[s.attacker] = max(forgone.get(s.attacker, 0.0), s.gain)
            for i, action in enumerate(self.actions):
                if self.is_hold(action):
                    out[i] -= sum(forgone.values())
        for i, action in enumerate(self.actions):
            out[i] = self.adjust(i, action, out[i], clock)
        return out

    def hold_bonus(self, clock: Clock) -> float:
        """What holding back is worth now: a lead late in the game."""
        return self.hold_worth * clock.caution()
