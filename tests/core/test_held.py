"""Held sealed choices: a secret that stays secret while public decisions follow it.

A SEALED round with ``Decision.hold`` keeps its choices when it completes: the
ruleset learns only which sides chose (``hold_sealed``), the engine keeps the
choices out of the state, and rules code reads one later with
``Resolution.open_held(side)``, which reveals it. Proved on the duel's held
variants (``toy_ruleset.py``: ann bids in secret, bob answers in public, the
bid is opened by an AUTO step, by bob's answer, or by a later sealed round of
stakes) and on a small ruleset of this file in which both sides hold at once.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.decisions import Decision, DecisionKind
from warbench.core.dice import Dice
from warbench.core.game import Game, Resolution
from warbench.core.outcome import Outcome
from warbench.core.record import check_record, make_record
from warbench.core.replay import replay_record
from warbench.core.ruleset import Ruleset, RulesetInfo
from warbench.core.saves import RecordFile, load_game, read_record, save_game, sealed_path
from warbench.errors import IllegalAction, RecordError, UndoError
from warbench.scenario.model import Scenario

ANN, BOB = "ann", "bob"
SHAPES = ("rock", "paper", "scissors")
MODES = ("proceed", "apply", "sealed")


def _game(duel: ModuleType, mode: str = "proceed", seed: int = 5, points: int = 3) -> Game:
    return Game(duel.scenario(points_to_win=points, held=mode), seed=seed)


def _bid(duel: ModuleType, mode: str, bid: str = "rock") -> Game:
    game = _game(duel, mode)
    game.apply(f"throw {bid}", ANN)
    return game


def _masked(record: dict[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(record)
    record.pop("checksum")
    for entry in record["actions"]:
        if "sealed" in entry:
            entry["sealed"] = "<commitment>"
    return record


def _seen_by(game: Game, side: str | None) -> dict[str, Any]:
    """What ``side`` (None: a spectator) can reach of the game now."""
    found: dict[str, Any] = {
        "view": game.view(side),
        "events": [(e.kind, e.text, e.data) for e in game.events],
        "digest": game.digest(),
        "record": _masked(make_record(game)),
        "waiting": game.waiting_for(),
    }
    if side is not None:
        legal = list(game.legal_actions(side))
        found["legal"] = [str(a) for a in legal]
        found["refusals"] = [game.refusal(a, side) for a in legal]
        found["refused"] = [game.refusal(a, side) for a in (*legal, *_throws(game))]
    return found


def _throws(game: Game) -> list[Action]:
    return [game.parse(f"throw {shape}") for shape in (*SHAPES, "lizard")]


# -- the decision and the hook ------------------------------------------------------------
def test_a_sealed_decision_does_not_hold_unless_told() -> None:
    plain = Decision.sealed(("a", "b"), "choose")
    held = Decision.sealed(("a",), "bid", hold=True)
    assert not plain.hold and held.hold and held.kind is DecisionKind.SEALED
    assert not Decision.choose("a", "go").hold and not Decision.auto("roll").hold
    with pytest.raises(FrozenInstanceError):
        held.hold = False  # type: ignore[misc]


def test_a_ruleset_without_held_rounds_says_so() -> None:
    ruleset = registry.get("miniwars")
    state = ruleset.initial_state(Game.start("miniwars/danville").scenario)
    with pytest.raises(NotImplementedError, match="no held sealed decisions"):
        ruleset.hold_sealed(state, ("horde",), Resolution(Dice(0)))


def test_open_held_gives_the_choice_once_recorded_and_none_for_a_side_holding_nothing(
    duel: ModuleType,
) -> None:
    rock = duel.Throw("rock")
    res = Resolution(Dice(0), {ANN: rock})
    assert res.open_held(BOB) is None
    assert res.opened == []
    assert res.open_held(ANN) == rock
    assert res.open_held(ANN) == rock
    assert res.opened == [ANN]
    assert Resolution(Dice(0)).open_held(ANN) is None


# -- holding -------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_a_held_choice_is_kept_by_the_engine_and_the_ruleset_moves_on(
    duel: ModuleType, mode: str
) -> None:
    game = _game(duel, mode)
    assert game.decision == Decision.sealed((ANN,), duel.BID_PROMPT, hold=True)
    events = game.apply("throw paper", ANN)

    assert [e.text for e in events] == ["ann has made a secret bid"]
    assert game.decision == Decision.choose(BOB, duel.ANSWER_PROMPT)
    (held,) = game.held_choices().values()
    assert (held.side, str(held.action), held.sealed, held.revealed) == (ANN, "throw paper", 1, 0)
    assert held is game.actions[0] and held.nonce
    assert game.pending_sealed() == {ANN: held}
    assert game.unrevealed() == {0: held}
    assert "paper" not in json.dumps(game.ruleset.state_json(game.state))


def test_a_side_sees_its_own_held_choice_and_nobody_else_does(duel: ModuleType) -> None:
    game = _bid(duel, "sealed", "scissors")
    mine = game.view(ANN)
    assert mine["my_sealed_choice"] == mine["my_held_choice"] == "throw scissors"
    for viewer in (BOB, None):
        view = game.view(viewer)
        assert "my_sealed_choice" not in view and "my_held_choice" not in view
        assert "scissors" not in json.dumps(view)
    game.apply("throw rock", BOB)
    game.apply("stake 2", ANN)  # a round choice while the bid is held: both shown, apart
    mine = game.view(ANN)
    assert (mine["my_sealed_choice"], mine["my_held_choice"]) == ("stake 2", "throw scissors")
    assert str(game.pending_sealed()[ANN].action) == "stake 2"
    assert [str(t.action) for t in game.unrevealed().values()] == ["throw scissors", "stake 2"]


def test_the_view_tells_that_a_round_holds_its_choices(duel: ModuleType) -> None:
    assert _game(duel, "proceed").view(BOB)["decision"]["hold"] is True
    assert "hold" not in Game(duel.scenario(), seed=1).view(BOB)["decision"]


@pytest.mark.parametrize("mode", MODES)
def test_nothing_another_side_can_reach_depends_on_the_held_choice_until_it_is_opened(
    duel: ModuleType, mode: str
) -> None:
    """Digest, views, events, legal actions, refusals and record, for bob and a spectator."""
    steps = [("throw paper", BOB), ("stake 1", BOB)] if mode == "sealed" else []
    worlds = [_bid(duel, mode, bid) for bid in SHAPES]
    for number in range(len(steps) + 1):
        if number:  # a public answer, then a stake: the bid stays held through both
            for world in worlds:
                world.apply(*steps[number - 1])
        assert all(world.held_choices() for world in worlds)
        for viewer in (BOB, None):
            seen = [_seen_by(world, viewer) for world in worlds]
            assert seen[1] == seen[0] and seen[2] == seen[0], (viewer, number)


# -- opening -------------------------------------------------------------------------
def _opened(game: Game, bid: str, answer_index: int) -> None:
    """Checks once the bid is opened: shown in clear, held no more, nothing taken back."""
    assert game.held_choices() == {}
    assert game.unrevealed() == {}
    assert game.actions[0].revealed and str(game.actions[0].action) == f"throw {bid}"
    assert game.actions[-1].revealed  # the action whose resolution opened it stands
    assert game.actions[answer_index].side == BOB
    reveal = next(e for e in game.events if e.kind == "reveal")
    assert reveal.text.startswith(f"ann bid {bid}, bob answered")
    assert "my_sealed_choice" not in game.view(ANN)
    assert make_record(game)["actions"][0] == {"side": ANN, "action": f"throw {bid}"}


def test_open_held_in_proceed_an_automatic_step_after_the_answer(duel: ModuleType) -> None:
    game = _bid(duel, "proceed", "rock")
    events = game.apply("throw scissors", BOB)  # _advance runs the AUTO step that opens
    assert [e.kind for e in events] == ["answer", "reveal", "point"]
    _opened(game, "rock", 1)
    assert game.state.points == {ANN: 1, BOB: 0}


def test_open_held_in_apply_the_answer_itself(duel: ModuleType) -> None:
    game = _bid(duel, "apply", "rock")
    events = game.apply("throw paper", BOB)
    assert [e.kind for e in events] == ["answer", "reveal", "point"]
    _opened(game, "rock", 1)
    assert game.state.points == {ANN: 0, BOB: 1}


def test_open_held_in_apply_sealed_a_later_sealed_round(duel: ModuleType) -> None:
    game = _bid(duel, "sealed", "paper")
    game.apply("throw rock", BOB)
    assert game.held_choices().keys() == {ANN} and not game.actions[1].revealed
    game.apply("stake 2", ANN)
    events = game.apply("stake 1", BOB)
    assert [e.kind for e in events] == ["stakes", "reveal", "point"]
    _opened(game, "paper", 1)
    assert game.state.points == {ANN: 2, BOB: 0}


def test_a_tie_after_opening_goes_on_to_the_tie_break_and_the_next_bid(duel: ModuleType) -> None:
    game = _bid(duel, "proceed", "rock")
    events = game.apply("throw rock", BOB)
    assert [e.kind for e in events][:3] == ["answer", "reveal", "roll"]
    assert game.held_choices() == {} and game.actions[-1].rolled
    assert game.decision is not None and game.decision.hold
    game.apply("throw paper", ANN)  # the next bid is held afresh
    assert str(game.held_choices()[ANN].action) == "throw paper"


def test_a_refusal_tried_on_a_copy_leaves_the_held_choice_held(duel: ModuleType) -> None:
    game = _bid(duel, "apply", "rock")  # bob's answer opens the bid
    before = (game.held_choices(), list(game.actions), game.digest(), len(game.events))
    assert game.refusal(duel.Throw("paper"), BOB) is None  # tried, and opened, on a copy
    assert game.refusal(duel.Throw("lizard"), BOB) == "not one of the answers offered"
    assert (game.held_choices(), list(game.actions), game.digest(), len(game.events)) == before
    game.apply("throw paper", BOB)
    _opened(game, "rock", 1)


@pytest.mark.parametrize(
    ("mode", "hook", "error"),
    [
        ("apply", "apply", RuntimeError),
        ("apply", "apply", IllegalAction),
        ("proceed", "proceed", RuntimeError),
        ("sealed", "apply_sealed", RuntimeError),
    ],
)
def test_an_action_that_fails_after_opening_opens_nothing(
    duel: ModuleType, monkeypatch: pytest.MonkeyPatch, mode: str, hook: str, error: type
) -> None:
    game = _bid(duel, mode, "rock")
    last = ("throw paper", BOB)
    if mode == "sealed":
        game.apply("throw paper", BOB)
        game.apply("stake 1", ANN)
        last = ("stake 2", BOB)
    before = (game.held_choices(), list(game.actions), game.digest(), game.view(ANN))

    def broken(state: Any, *args: Any) -> None:
        res = args[-1]
        assert res.open_held(ANN) is not None
        if error is IllegalAction:
            raise IllegalAction(args[1], "refused after opening (a ruleset bug)")
        raise error("crashed after opening")

    monkeypatch.setattr(game.ruleset, hook, broken)
    with pytest.raises(error):
        game.apply(*last)
    assert (game.held_choices(), list(game.actions), game.digest(), game.view(ANN)) == before
    assert not game.actions[0].revealed
    monkeypatch.undo()
    game.apply(*last)
    _opened(game, "rock", 1)


# -- the rules of holding ---------------------------------------------------------------
def test_a_second_hold_by_a_side_still_holding_is_a_ruleset_bug(
    duel: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _game(duel, "proceed")
    monkeypatch.setattr(game.ruleset, "hold_sealed", lambda state, sides, res: None)
    game.apply("throw rock", ANN)  # the ruleset forgets to move on: ann is asked to bid again
    assert game.decision is not None and game.decision.hold
    before = (game.held_choices(), list(game.actions), game.digest())
    with pytest.raises(RuntimeError, match="ann still holds a choice"):
        game.apply("throw paper", ANN)
    assert (game.held_choices(), list(game.actions), game.digest()) == before


def test_a_held_choice_may_be_taken_back_while_it_is_the_last_action(duel: ModuleType) -> None:
    game = _game(duel, "sealed")
    start = (game.digest(), game.view(ANN), game.decision)
    game.apply("throw rock", ANN)
    with pytest.raises(UndoError, match="only ann may take it back"):
        game.undo(BOB)
    taken = game.undo(ANN)
    assert str(taken.action) == "throw rock" and taken.sealed
    assert (game.digest(), game.view(ANN), game.decision) == start
    assert game.actions == [] and game.held_choices() == {}


def test_once_anything_followed_a_held_choice_it_stands(duel: ModuleType) -> None:
    game = _bid(duel, "sealed", "rock")
    nonce = game.actions[0].nonce
    game.apply("throw paper", BOB)
    with pytest.raises(UndoError, match=r"ann's sealed choice is held .* it stands"):
        game.undo(ANN)
    # Bob's public answer opened nothing and rolled nothing: he may take it back,
    # and ann's bid stays held as it was (the same salt, so the same commitment).
    taken = game.undo(BOB)
    assert str(taken.action) == "throw paper"
    (held,) = game.held_choices().values()
    assert str(held.action) == "throw rock" and held.nonce == nonce
    game.apply("throw scissors", BOB)
    game.apply("stake 1", ANN)  # ann's stake, withdrawn before her held bid is touched
    assert str(game.undo(ANN).action) == "stake 1"
    with pytest.raises(UndoError, match="it stands"):
        game.undo(ANN)
    assert game.held_choices().keys() == {ANN}


def test_an_action_that_opened_a_held_choice_cannot_be_taken_back(duel: ModuleType) -> None:
    game = _bid(duel, "apply", "rock")
    game.apply("throw paper", BOB)
    with pytest.raises(UndoError, match="revealed hidden information"):
        game.undo(BOB)


# -- records -----------------------------------------------------------------------------
def _mid_hold(duel: ModuleType, bid: str = "scissors") -> Game:
    """A held duel in which ann's bid is held and bob has answered in public."""
    game = _bid(duel, "sealed", bid)
    game.apply("throw rock", BOB)
    return game


def test_a_held_choice_followed_by_public_actions_is_a_commitment_in_the_record(
    duel: ModuleType, tmp_path: Path
) -> None:
    game = _mid_hold(duel)
    record = make_record(game)
    assert record["actions"][0].keys() == {"side", "sealed"}
    assert record["actions"][1] == {"side": BOB, "action": "throw rock"}
    check_record(record, "mid-hold")  # public actions after a sealed entry are fine
    path = tmp_path / "duel.json"
    save_game(game, path)
    assert "scissors" not in path.read_text("utf-8")
    own = json.loads(sealed_path(path, ANN).read_text("utf-8"))
    assert [(c["index"], c["action"]) for c in own["choices"]] == [(0, "throw scissors")]
    assert not sealed_path(path, BOB).exists()
    assert read_record(path) == record


def test_a_game_saved_mid_hold_resumes_to_the_same_game_and_plays_on(
    duel: ModuleType, tmp_path: Path
) -> None:
    game = _mid_hold(duel)
    game.apply("stake 2", ANN)  # two secrets of ann in one file: her bid and her stake
    path = tmp_path / "duel.json"
    save_game(game, path)
    own = json.loads(sealed_path(path, ANN).read_text("utf-8"))
    assert [(c["index"], c["action"]) for c in own["choices"]] == [
        (0, "throw scissors"),
        (2, "stake 2"),
    ]

    resumed, _ = load_game(path)
    assert resumed.digest() == game.digest()
    assert resumed.actions == game.actions  # the same salts, so the same commitments
    assert resumed.held_choices() == game.held_choices()
    assert resumed.view(ANN) == game.view(ANN)
    assert make_record(resumed) == make_record(game)

    resumed.apply("stake 1", BOB)
    _opened(resumed, "scissors", 1)
    save_game(resumed, path)
    assert not sealed_path(path, ANN).exists()
    assert [e["action"] for e in read_record(path)["actions"]] == [
        "throw scissors",
        "throw rock",
        "stake 2",
        "stake 1",
    ]


@pytest.mark.parametrize("stake", [False, True])
def test_a_bots_held_choice_is_written_to_its_side_file_and_resumes(
    duel: ModuleType, tmp_path: Path, stake: bool
) -> None:
    """A bot's choice in the round now asked is withheld (it chooses again); its held
    choice cannot be, since bob's answer after it needs it to replay."""
    game = _mid_hold(duel, "paper")
    if stake:
        game.apply("stake 1", ANN)
    path = tmp_path / "duel.json"
    RecordFile(path, withhold=(ANN,)).save(game)
    record = read_record(path)
    assert [e.get("action", "<sealed>") for e in record["actions"]] == ["<sealed>", "throw rock"]
    own = json.loads(sealed_path(path, ANN).read_text("utf-8"))
    assert [c["action"] for c in own["choices"]] == ["throw paper"]

    resumed, _ = load_game(path)
    assert resumed.digest() == game.digest()
    assert str(resumed.held_choices()[ANN].action) == "throw paper"
    assert resumed.waiting_for() == (ANN, BOB)  # the bot stakes (again, if it had)
    resumed.apply("stake 2", ANN)
    resumed.apply("stake 2", BOB)
    RecordFile(path, withhold=(ANN,)).save(resumed)
    assert not sealed_path(path, ANN).exists()
    assert read_record(path)["actions"][0] == {"side": ANN, "action": "throw paper"}


def test_a_bots_held_choice_as_the_last_action_is_written_too(
    duel: ModuleType, tmp_path: Path
) -> None:
    game = _bid(duel, "proceed", "rock")
    path = tmp_path / "duel.json"
    RecordFile(path, withhold=(ANN,)).save(game)
    assert read_record(path)["actions"][0].keys() == {"side", "sealed"}
    assert load_game(path)[0].digest() == game.digest()


def test_without_the_side_file_the_replay_stops_at_the_commitment(
    duel: ModuleType, tmp_path: Path
) -> None:
    game = _mid_hold(duel)
    path = tmp_path / "duel.json"
    save_game(game, path)
    record = read_record(path)

    stopped = replay_record(record, "duel.json", verify=False)
    assert stopped.actions == [] and stopped.decision is not None and stopped.decision.hold
    with pytest.raises(RecordError, match=r"duel.json: the replay stops at action 1, ann's"):
        replay_record(record, "duel.json")

    sealed_path(path, ANN).unlink()
    with pytest.raises(RecordError, match=r"held for a later reveal .* the file is needed"):
        load_game(path)
    with pytest.raises(RecordError, match=r"action 1 \(ann's sealed choice\) is held"):
        load_game(path, withdraw_sealed=True)


def test_a_held_choice_that_completed_its_round_cannot_be_withdrawn_even_as_the_last_action(
    duel: ModuleType, tmp_path: Path
) -> None:
    """The hold moved the game on (bob is asked to answer): dropping it would not replay."""
    path = tmp_path / "duel.json"
    save_game(_bid(duel, "proceed"), path)
    sealed_path(path, ANN).unlink()
    with pytest.raises(RecordError, match="--withdraw-sealed"):
        load_game(path)  # nothing follows it: the record alone cannot tell it was held
    with pytest.raises(RecordError, match=r"is held for a later reveal .*is needed to resume"):
        load_game(path, withdraw_sealed=True)


def test_a_round_choice_after_a_held_one_may_still_be_withdrawn(
    duel: ModuleType, tmp_path: Path
) -> None:
    game = _mid_hold(duel, "rock")
    game.apply("stake 2", BOB)
    path = tmp_path / "duel.json"
    save_game(game, path)
    sealed_path(path, BOB).unlink()
    with pytest.raises(RecordError, match=r"bob's sealed choice .* --withdraw-sealed"):
        load_game(path)
    resumed, kept = load_game(path, withdraw_sealed=True)
    assert len(kept["actions"]) == 2
    assert resumed.digest() == game.digest()
    assert str(resumed.held_choices()[ANN].action) == "throw rock"
    assert resumed.waiting_for() == (ANN, BOB)


# -- both sides holding at once ----------------------------------------------------------
PLEDGES = "test-pledges"


@dataclass(frozen=True, slots=True)
class Pledge(Action):
    amount: int

    def __str__(self) -> str:
        return f"pledge {self.amount}" if self.amount else "open"


@dataclass(slots=True)
class PledgeState:
    phase: str = "pledge"
    opened: list[dict[str, int]] | None = None


class Pledges(Ruleset[PledgeState]):
    """Both sides pledge 1-3 in one held round; ann then opens both in public."""

    info = RulesetInfo(
        name=PLEDGES,
        title="Pledges (test-only)",
        version="1",
        geometry="table",
        hidden_information=True,
        simultaneous_choices=True,
    )

    def build_scenario(self, raw: Mapping[str, Any], source: str, scenario_id: str) -> Scenario:
        return Scenario(scenario_id, "Pledges", PLEDGES, source, dict(raw), (ANN, BOB), None)

    def initial_state(self, scenario: Scenario) -> PledgeState:
        return PledgeState(opened=[])

    def decision(self, state: PledgeState) -> Decision | None:
        if state.phase == "pledge":
            return Decision.sealed((ANN, BOB), "pledge", hold=True)
        return Decision.choose(ANN, "open the pledges")

    def legal_actions(self, state: PledgeState, side: str) -> Sequence[Action]:
        if state.phase == "pledge":
            return [Pledge(n) for n in (1, 2, 3)]
        return [Pledge(0)] if side == ANN else []

    def parse_action(self, state: PledgeState, text: str) -> Action:
        return Pledge(0) if text == "open" else Pledge(int(text.split()[1]))

    def hold_sealed(self, state: PledgeState, sides: tuple[str, ...], res: Resolution) -> None:
        assert sides == (ANN, BOB)
        state.phase = "open"

    def apply(self, state: PledgeState, side: str, action: Action, res: Resolution) -> None:
        if action != Pledge(0) or side != ANN:
            raise IllegalAction(action, "only ann opens")
        pledges = {s: res.open_held(s) for s in (ANN, BOB)}
        assert state.opened is not None
        state.opened.append({s: a.amount for s, a in pledges.items() if isinstance(a, Pledge)})
        state.phase = "pledge"

    def outcome(self, state: PledgeState) -> Outcome | None:
        return None

    def turn(self, state: PledgeState) -> int:
        return 1 + len(state.opened or [])

    def view(self, state: PledgeState, side: str | None) -> dict[str, Any]:
        return self.state_json(state)

    def state_json(self, state: PledgeState) -> dict[str, Any]:
        return {"phase": state.phase, "opened": state.opened}


@pytest.fixture
def pledges() -> Iterator[Scenario]:
    registry.all_rulesets()
    registry.register(Pledges())
    try:
        yield Pledges().build_scenario({"ruleset": PLEDGES}, "test", "test/pledges")
    finally:
        registry._rulesets.pop(PLEDGES, None)
        registry._aliases.pop(PLEDGES, None)


def test_a_round_held_by_both_sides_keeps_each_choice_at_its_own_place(
    pledges: Scenario, tmp_path: Path
) -> None:
    game = Game(pledges, seed=1)
    game.apply("pledge 3", BOB)
    assert game.held_choices() == {}  # the round is still open: bob may withdraw it
    game.apply("pledge 1", ANN)
    held = game.held_choices()
    assert {s: (str(t.action), game.actions.index(t)) for s, t in held.items()} == {
        BOB: ("pledge 3", 0),
        ANN: ("pledge 1", 1),
    }
    assert not any(t.revealed for t in game.actions)  # a held round reveals nothing
    assert game.view(BOB)["my_held_choice"] == "pledge 3"
    with pytest.raises(UndoError, match="bob's sealed choice is held"):
        game.undo(BOB)  # ann's pledge came after it
    path = tmp_path / "pledges.json"
    save_game(game, path)
    resumed, _ = load_game(path)
    assert resumed.actions == game.actions

    # Ann may take hers back (the last action): bob's is then a round choice again.
    assert str(game.undo(ANN).action) == "pledge 1"
    assert game.held_choices() == {} and game.waiting_for() == (ANN,)
    game.apply("pledge 2", ANN)
    game.apply("open", ANN)
    assert game.state.opened == [{ANN: 2, BOB: 3}]
    assert game.held_choices() == {} and all(t.revealed for t in game.actions[:2])
    resumed.apply("open", ANN)
    assert resumed.state.opened == [{ANN: 1, BOB: 3}]
    assert [e["action"] for e in make_record(resumed)["actions"]] == [
        "pledge 3",
        "pledge 1",
        "open",
    ]
