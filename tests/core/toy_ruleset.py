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

A scenario with ``held`` set plays a round shaped like MGV's fire phase
instead, where a secret outlasts public decisions taken after it: the first
side (ann) *bids* a shape secretly in a round that holds its choice
(``Decision.sealed((ann,), ..., hold=True)``: the ruleset learns only that
ann has bid, in :meth:`Duel.hold_sealed`); then the second side (bob)
*answers* with a shape in public, knowing only that ann has bid; then the
resolution opens ann's bid with ``res.open_held(ann)``, shows both and scores
as a throw. Where it is opened is the value of ``held``:

- ``"proceed"`` (or ``true``): an AUTO step after bob's answer;
- ``"apply"``: bob's answer itself (``apply``);
- ``"sealed"``: after bob's answer both sides *stake* 1 or 2 points in an
  ordinary sealed round (ann still holding her bid, so she has two secrets
  at once), whose ``apply_sealed`` opens the bid; the winner scores its stake
  (a tie is broken by dice as in the classic duel, for one point).

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
from warbench.core.outcome import DecidedBy, Outcome
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
BID_PROMPT = "make your secret bid"
ANSWER_PROMPT = "answer the bid"
STAKE_PROMPT = "stake your points"
HELD_MODES = ("proceed", "apply", "sealed")
"""Where the held variant opens the bid: an AUTO step, bob's answer, a sealed round."""


@dataclass(frozen=True, slots=True)
class Throw(Action):
    shape: str

    def __str__(self) -> str:
        return f"throw {self.shape}"


@dataclass(frozen=True, slots=True)
class Stake(Action):
    points: int

    def __str__(self) -> str:
        return f"stake {self.points}"


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
    held: str | None = None
    """The held variant's mode (one of HELD_MODES), or None for the classic duel."""
    phase: str = "bid"
    """Held variant: bid (ann, held), answer (bob, public), resolve (AUTO) or stake (sealed)."""
    answer: str | None = None
    """Held variant: bob's public answer in the round now played."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "points": dict(self.points),
            "throws": self.throws,
            "tied": self.tied,
            "history": [dict(h) for h in self.history],
            "outcome": self.outcome.to_json() if self.outcome else None,
        }
        if self.held is not None:  # the classic duel's digests stay as they were
            data.update(held=self.held, phase=self.phase, answer=self.answer)
        return data


def scenario(
    sides: tuple[str, str] = SIDES,
    points_to_win: int = 2,
    turn_limit: int | None = None,
    faulty: bool = False,
    held: bool | str = False,
) -> Scenario:
    """A duel scenario built directly, without any file (``held``: see the module)."""
    raw: dict[str, Any] = {"ruleset": NAME, "sides": list(sides), "points_to_win": points_to_win}
    if turn_limit is not None:
        raw["turn_limit"] = turn_limit
    if faulty:
        raw["faulty"] = True
    if held:
        raw["held"] = held
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
        held = raw.get("held", False)
        if held is True:
            held = "proceed"
        if held is not False and held not in HELD_MODES:
            raise ScenarioError(source, "held", f"true, false or one of {', '.join(HELD_MODES)}")
        return Scenario(
            id=scenario_id,
            title="Duel",
            ruleset=NAME,
            source=source,
            raw=dict(raw),
            sides=(sides[0], sides[1]),
            turn_limit=limit,
            options={"faulty": bool(raw.get("faulty", False)), "held": held or None},
            spec=points,
        )

    def initial_state(self, scenario: Scenario) -> DuelState:
        a, b = scenario.sides
        state = DuelState((a, b), int(scenario.spec), scenario.turn_limit, {a: 0, b: 0})
        state.faulty = bool(scenario.options.get("faulty"))
        state.held = scenario.options.get("held")
        return state

    def decision(self, state: DuelState) -> Decision | None:
        if state.outcome is not None:
            return None
        if state.tied:
            return Decision.auto("roll to break the tie")
        if state.held is None:
            return Decision.sealed(state.sides, PROMPT)
        a, b = state.sides
        if state.phase == "bid":
            return Decision.sealed((a,), BID_PROMPT, hold=True)
        if state.phase == "answer":
            return Decision.choose(b, ANSWER_PROMPT)
        if state.phase == "stake":
            return Decision.sealed(state.sides, STAKE_PROMPT)
        return Decision.auto("open the bid")

    def legal_actions(self, state: DuelState, side: str) -> Sequence[Action]:
        if state.outcome is not None or state.tied or side not in state.sides:
            return []
        if state.held is None:
            return [Throw(shape) for shape in SHAPES]
        a, b = state.sides
        if (state.phase, side) in (("bid", a), ("answer", b)):
            return [Throw(shape) for shape in SHAPES]
        if state.phase == "stake":
            return [Stake(1), Stake(2)]
        return []

    def parse_action(self, state: DuelState, text: str) -> Action:
        words = text.split()
        if len(words) == 2 and words[0].lower() == "stake" and words[1] in ("1", "2"):
            return Stake(int(words[1]))
        if len(words) != 2 or words[0].lower() != "throw":
            raise ActionSyntaxError(text, "write it as: throw SHAPE")
        # Any word parses, so that check_sealed has something to refuse.
        return Throw(words[1].lower())

    def apply(self, state: DuelState, side: str, action: Action, res: Resolution) -> None:
        if state.held is None:
            raise IllegalAction(action, "a duel has only sealed throws")
        if action not in self.legal_actions(state, side) or state.phase != "answer":
            raise IllegalAction(action, "not one of the answers offered")
        # Everything is checked: only now may the bid be opened (a refusal must
        # never depend on it).
        a, b = state.sides
        state.answer = _shape(action)
        res.emit("answer", f"{b} answers {state.answer}", side=b, shape=state.answer)
        if state.held == "apply":
            self._resolve(state, res.open_held(a), res)
        else:
            state.phase = "resolve" if state.held == "proceed" else "stake"

    def hold_sealed(self, state: DuelState, sides: tuple[str, ...], res: Resolution) -> None:
        # Only who bid is known here, never the bid: the state moves on without it.
        assert state.held is not None and state.phase == "bid" and sides == state.sides[:1]
        state.phase = "answer"
        res.emit("bid", f"{sides[0]} has made a secret bid", side=sides[0])

    def _resolve(
        self,
        state: DuelState,
        bid: Action | None,
        res: Resolution,
        stakes: Mapping[str, int] | None = None,
    ) -> None:
        """The held variant's reveal: ann's bid, now opened, against bob's answer."""
        assert bid is not None and state.answer is not None, "the bid was not held"
        a, b = state.sides
        shapes = {a: _shape(bid), b: state.answer}
        state.phase, state.answer = "bid", None
        state.throws += 1
        state.history.append(dict(shapes))
        res.emit("reveal", f"{a} bid {shapes[a]}, {b} answered {shapes[b]}", choices=dict(shapes))
        if shapes[a] == shapes[b]:
            state.tied = True
            return
        winner = a if BEATS[shapes[a]] == shapes[b] else b
        self._score(state, winner, res, (stakes or {}).get(winner, 1))

    def apply_sealed(
        self, state: DuelState, choices: Mapping[str, Action], res: Resolution
    ) -> None:
        a, b = state.sides
        if state.held is not None:  # the stakes, after which the bid is opened
            stakes = {side: _points(choices[side]) for side in (a, b)}
            res.emit("stakes", f"{a} stakes {stakes[a]}, {b} stakes {stakes[b]}", stakes=stakes)
            self._resolve(state, res.open_held(a), res, stakes)
            return
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
        if state.held is not None and not state.tied:
            self._resolve(state, res.open_held(a), res)
            return
        if state.faulty and state.history[-1][a] == "rock":
            raise RuntimeError("the automatic step crashed")
        ra = res.roll("tie-break", side=a)[0]
        rb = res.roll("tie-break", side=b)[0]
        if ra == rb:
            res.emit("tie", f"the tie-break is tied too ({ra} each): roll again")
            return
        state.tied = False
        self._score(state, a if ra > rb else b, res)

    def _score(self, state: DuelState, winner: str, res: Resolution, points: int = 1) -> None:
        state.points[winner] += points
        res.emit("point", f"{winner} scores", side=winner, points=dict(state.points))
        if state.points[winner] >= state.points_to_win:
            self._end(state, winner, "first to the points", res, "mission")
        elif state.turn_limit is not None and state.throws >= state.turn_limit:
            a, b = state.sides
            lead = (
                None
                if state.points[a] == state.points[b]
                else max(state.points, key=state.points.__getitem__)
            )
            self._end(state, lead, "turn limit", res, "points")

    def _end(
        self,
        state: DuelState,
        winner: str | None,
        reason: str,
        res: Resolution,
        decided_by: DecidedBy,
    ) -> None:
        scores = {side: float(p) for side, p in state.points.items()}
        state.outcome = Outcome(winner, reason, scores, decided_by=decided_by)
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


def _points(action: Action) -> int:
    assert isinstance(action, Stake)
    return action.points
