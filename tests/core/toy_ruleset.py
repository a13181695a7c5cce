"""A test-only ruleset, "duel": sealed rock/paper/scissors with a tie-break roll.

It exists to prove what the core must support beyond MiniWars, with nothing
else in the way:

- a SEALED decision: both sides throw rock, paper or scissors secretly; the
  engine holds the first throw until the second arrives, then the ruleset
  reveals both in one ``reveal`` event;
- an AUTO decision: a tied throw is broken by a die roll per side (``roll``
  events whose purpose is ``tie-break``), rolled again while equal;
- the winner of a throw scores a point; the first side to ``points_to_win``
  (default 2) wins. ``turn`` counts throws; at ``turn_limit`` (if any) the
  game ends, won on points or drawn.

A scenario with ``faulty = true`` breaks the ruleset contract on purpose, to
test the engine's safety net: when both throw scissors it rolls a die and then
refuses (IllegalAction); when both throw paper it rolls and then crashes
(RuntimeError), having changed its state first; when both throw rock, the
automatic tie-break step after the reveal crashes (RuntimeError).

Nothing here registers itself: importing the module has no side effect. The
fixtures in ``conftest.py`` register :data:`NAME` for one test and remove it
again, so tests that list the registered rulesets never see the toy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from warbench.core.actions import Action
from warbench.core.decisions import Decision
from warbench.core.outcome import Outcome
from warbench.core.ruleset import Ruleset, RulesetInfo
from warbench.errors import ActionSyntaxError, IllegalAction, ScenarioError
from warbench.scenario.model import Scenario

if TYPE_CHECKING:
    from warbench.core.game import Resolution

NAME = "test-duel"
ALIAS = "test-rps"
SIDES = ("ann", "bob")
SHAPES = ("rock", "paper", "scissors")
BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}
PROMPT = "make your throw"
"""Deliberately names no shape, so a view's text can be searched for a secret one."""


@dataclass(frozen=True, slots=True)
class Throw(Action):
    shape: str

    def __str__(self) -> str:
        return f"throw {self.shape}"


@dataclass(slots=True)
class DuelState:
    sides: tuple[str, str]
    points_to_win: int
    turn_limit: int | None
    points: dict[str, int]
    throws: int = 0
    tied: bool = False
    history: list[dict[str, str]] = field(default_factory=list)
    outcome: Outcome | None = None
    faulty: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "points": dict(self.points),
            "throws": self.throws,
            "tied": self.tied,
            "history": [dict(h) for h in self.history],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }


def scenario(
    sides: tuple[str, str] = SIDES,
    points_to_win: int = 2,
    turn_limit: int | None = None,
    faulty: bool = False,
) -> Scenario:
    """A duel scenario built directly, without any file."""
    raw: dict[str, Any] = {"ruleset": NAME, "sides": list(sides), "points_to_win": points_to_win}
    if turn_limit is not None:
        raw["turn_limit"] = turn_limit
    if faulty:
        raw["faulty"] = True
    return Duel().build_scenario(raw, "test", "test/duel")


class Duel(Ruleset[DuelState]):
    """Sealed rock/paper/scissors, first to two points; ties broken by dice."""

    info = RulesetInfo(
        name=NAME,
        title="Duel (test-only)",
        version="1",
        geometry="table",
        aliases=(ALIAS,),
        hidden_information=True,
        simultaneous_choices=True,
    )

    def build_scenario(self, raw: Mapping[str, Any], source: str, scenario_id: str) -> Scenario:
        sides = raw.get("sides", list(SIDES))
        if (
            not isinstance(sides, list)
            or len(sides) != 2
            or not all(isinstance(s, str) and s for s in sides)
            or sides[0] == sides[1]
        ):
            raise ScenarioError(source, "sides", "a duel needs two different side names")
        points = raw.get("points_to_win", 2)
        if not isinstance(points, int) or points < 1:
            raise ScenarioError(source, "points_to_win", "a whole number of at least 1")
        limit = raw.get("turn_limit")
        if limit is not None and (not isinstance(limit, int) or limit < 1):
            raise ScenarioError(source, "turn_limit", "a whole number of at least 1")
        return Scenario(
            id=scenario_id,
            title="Duel",
            ruleset=NAME,
            source=source,
            raw=dict(raw),
            sides=(sides[0], sides[1]),
            turn_limit=limit,
            options={"faulty": bool(raw.get("faulty", False))},
            spec=points,
        )

    def initial_state(self, scenario: Scenario) -> DuelState:
        a, b = scenario.sides
        state = DuelState((a, b), int(scenario.spec), scenario.turn_limit, {a: 0, b: 0})
        state.faulty = bool(scenario.options.get("faulty"))
        return state

    def decision(self, state: DuelState) -> Decision | None:
        if state.outcome is not None:
            return None
        if state.tied:
            return Decision.auto("roll to break the tie")
        return Decision.sealed(state.sides, PROMPT)

    def legal_actions(self, state: DuelState, side: str) -> Sequence[Action]:
        if state.outcome is not None or state.tied or side not in state.sides:
            return []
        return [Throw(shape) for shape in SHAPES]

    def parse_action(self, state: DuelState, text: str) -> Action:
        words = text.split()
        if len(words) != 2 or words[0].lower() != "throw":
            raise ActionSyntaxError(text, "write it as: throw SHAPE")
        # Any word parses, so that check_sealed has something to refuse.
        return Throw(words[1].lower())

    def apply(self, state: DuelState, side: str, action: Action, res: Resolution) -> None:
        raise IllegalAction(action, "a duel has only sealed throws")

    def apply_sealed(
        self, state: DuelState, choices: Mapping[str, Action], res: Resolution
    ) -> None:
        a, b = state.sides
        shapes = {side: _shape(choices[side]) for side in (a, b)}
        if state.faulty and shapes[a] == shapes[b] and shapes[a] in ("scissors", "paper"):
            state.throws += 100
            res.roll("a roll the rules should not make", side=a)
            if shapes[a] == "scissors":
                raise IllegalAction(choices[b], "refused after rolling (a ruleset bug)")
            raise RuntimeError("the ruleset crashed half-way")
        state.throws += 1
        state.history.append(dict(shapes))
        res.emit(
            "reveal",
            f"{a} throws {shapes[a]}, {b} throws {shapes[b]}",
            choices=dict(shapes),
        )
        if shapes[a] == shapes[b]:
            state.tied = True
            return
        self._score(state, a if BEATS[shapes[a]] == shapes[b] else b, res)

    def proceed(self, state: DuelState, res: Resolution) -> None:
        a, b = state.sides
        if state.faulty and state.history[-1][a] == "rock":
            raise RuntimeError("the automatic step crashed")
        ra = res.roll("tie-break", side=a)[0]
        rb = res.roll("tie-break", side=b)[0]
        if ra == rb:
            res.emit("tie", f"the tie-break is tied too ({ra} each): roll again")
            return
        state.tied = False
        self._score(state, a if ra > rb else b, res)

    def _score(self, state: DuelState, winner: str, res: Resolution) -> None:
        state.points[winner] += 1
        res.emit("point", f"{winner} scores", side=winner, points=dict(state.points))
        if state.points[winner] >= state.points_to_win:
            self._end(state, winner, "first to the points", res)
        elif state.turn_limit is not None and state.throws >= state.turn_limit:
            a, b = state.sides
            lead = (
                None
                if state.points[a] == state.points[b]
                else max(state.points, key=state.points.__getitem__)
            )
            self._end(state, lead, "turn limit", res)

    def _end(self, state: DuelState, winner: str | None, reason: str, res: Resolution) -> None:
        scores = {side: float(p) for side, p in state.points.items()}
        state.outcome = Outcome(winner, reason, scores)
        res.emit("end", f"game over ({reason}): " + (f"{winner} wins" if winner else "a draw"))

    def outcome(self, state: DuelState) -> Outcome | None:
        return state.outcome

    def turn(self, state: DuelState) -> int:
        return min(state.throws + 1, state.turn_limit or state.throws + 1)

    def view(self, state: DuelState, side: str | None) -> dict[str, Any]:
        # The engine adds "decision" and, for the side that has thrown,
        # "my_sealed_choice"; the state itself never holds an unrevealed throw.
        return {"ruleset": NAME, "viewer": side, "sides": list(state.sides), **state.to_json()}

    def state_json(self, state: DuelState) -> dict[str, Any]:
        return state.to_json()


def _shape(action: Action) -> str:
    assert isinstance(action, Throw)
    return action.shape
