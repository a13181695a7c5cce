"""A side that has seen a secret can never take back the action that showed it (issue 8).

The duel proves it for sealed rounds; here a tiny test-only ruleset, "coin", proves it
for an ordinary action that rules code marks with ``Resolution.reveal()``: a coin is
tossed face down; ann may ``peek`` (which shows her the face) and then ``guess``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.decisions import Decision
from warbench.core.game import Game, Resolution
from warbench.core.outcome import Outcome
from warbench.core.ruleset import Ruleset, RulesetInfo
from warbench.errors import ActionSyntaxError, IllegalAction, UndoError
from warbench.scenario.model import Scenario


@dataclass(frozen=True, slots=True)
class Say(Action):
    word: str

    def __str__(self) -> str:
        return self.word


@dataclass(slots=True)
class CoinState:
    face: str = ""
    peeked: bool = False
    waved: int = 0
    outcome: Outcome | None = None


class Coin(Ruleset[CoinState]):
    info = RulesetInfo(
        name="test-coin", title="Coin (test-only)", version="1", geometry="table",
        hidden_information=True,
    )  # fmt: skip

    def build_scenario(self, raw: Mapping[str, Any], source: str, scenario_id: str) -> Scenario:
        return Scenario(scenario_id, "Coin", "test-coin", source, dict(raw), ("ann", "bob"), None)

    def initial_state(self, scenario: Scenario) -> CoinState:
        return CoinState()

    def decision(self, state: CoinState) -> Decision | None:
        if state.outcome is not None:
            return None
        if not state.face:
            return Decision.auto("toss the coin")
        return Decision.choose("ann", "wave, peek, or guess heads / tails")

    def proceed(self, state: CoinState, res: Resolution) -> None:
        state.face = "heads" if res.roll("the coin", sides=2)[0] == 1 else "tails"

    def legal_actions(self, state: CoinState, side: str) -> Sequence[Action]:
        words = ["wave", "heads", "tails"] + ([] if state.peeked else ["peek"])
        return [Say(w) for w in words] if side == "ann" and state.outcome is None else []

    def parse_action(self, state: CoinState, text: str) -> Action:
        if not text:
            raise ActionSyntaxError(text, "say something")
        return Say(text.lower())

    def apply(self, state: CoinState, side: str, action: Action, res: Resolution) -> None:
        if action not in self.legal_actions(state, side):
            raise IllegalAction(action, "not now")
        assert isinstance(action, Say)
        if action.word == "wave":
            state.waved += 1
        elif action.word == "peek":
            state.peeked = True
            res.reveal()
            res.emit("peek", "ann peeks at the coin")
        else:
            winner = "ann" if action.word == state.face else "bob"
            state.outcome = Outcome(winner, "the guess", {}, decided_by="mission")

    def outcome(self, state: CoinState) -> Outcome | None:
        return state.outcome

    def turn(self, state: CoinState) -> int:
        return 1

    def view(self, state: CoinState, side: str | None) -> dict[str, Any]:
        shown = state.face if (side == "ann" and state.peeked) or state.outcome else "hidden"
        return {"face": shown, "waved": state.waved}

    def state_json(self, state: CoinState) -> dict[str, Any]:
        return {"face": state.face, "peeked": state.peeked, "waved": state.waved}


@pytest.fixture
def coin() -> Iterator[Game]:
    registry.all_rulesets()
    ruleset = registry.register(Coin())
    try:
        yield Game(ruleset.build_scenario({}, "test", "test/coin"), seed=1)
    finally:
        registry._rulesets.pop("test-coin", None)
        registry._aliases.pop("test-coin", None)


def test_an_action_that_revealed_nothing_and_rolled_nothing_may_be_taken_back(
    coin: Game,
) -> None:
    coin.apply("wave", "ann")
    assert not coin.actions[-1].revealed
    coin.undo("ann")
    assert coin.view("ann")["waved"] == 0


def test_peeking_reveals_the_coin_and_can_never_be_taken_back(coin: Game) -> None:
    assert coin.view("ann")["face"] == "hidden"
    coin.apply("peek", "ann")
    assert coin.view("ann")["face"] in ("heads", "tails")
    assert coin.view("bob")["face"] == "hidden"
    assert coin.actions[-1].revealed and not coin.actions[-1].rolled
    with pytest.raises(UndoError, match="revealed hidden information; it stands"):
        coin.undo("ann")
    assert coin.view("ann")["face"] != "hidden"
    coin.apply("wave", "ann")  # later actions may go back, but never past the peek
    coin.undo("ann")
    with pytest.raises(UndoError, match="revealed"):
        coin.undo("ann")


def test_refusal_on_a_copy_does_not_reveal_or_change_anything(coin: Game) -> None:
    assert coin.refusal(Say("peek"), "ann") is None
    assert coin.view("ann")["face"] == "hidden"
    assert coin.actions == []
