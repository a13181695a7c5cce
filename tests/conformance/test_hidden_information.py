"""Secrets stay secret: the hidden-information suite, run over every ruleset that has any.

For every ruleset declaring hidden information or sealed choices (today the
test-only duel, classic and in its held variants; MGV and Invisible Enemy join
by declaring it), random games are played, and after every action, for each
secret a side A holds (a sealed choice not yet revealed: one of the round now
asked, or one held from a round with ``Decision.hold`` while public actions
follow it), the game is replayed with that secret swapped for each other
choice A could have made. Everything another side B can reach must
then be identical in every one of those worlds (non-interference): B's view,
the events, the decision, B's legal actions, the refusal and error texts of
B's attempts (actions, garbage, undo), the odds of B's actions (texts and
data), the reasons beside its candidates, its answers to info and measure about
every piece in the state, the
choices of bots sitting in B's seat, the shared record (with the salted
commitments masked, checked separately) and B's own sealed file. A secret that
leaks anywhere makes two worlds differ for B.

A meta test proves the suite has teeth: with the old record format, which kept
pending sealed choices in clear text, it fails.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from warbench.bots import BOT_NAMES, check_bot, make_bot
from warbench.core import record as record_module
from warbench.core import registry
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, load_scenario
from warbench.core.odds import OddsResult
from warbench.core.record import make_record
from warbench.core.saves import load_game, read_sealed, save_game, sealed_choices, sealed_path
from warbench.errors import HiddenInformation, QuestionRefused, UndoError, WarbenchError
from warbench.scenario.model import Scenario

DUEL = "duel (test-only)"
HELD = {f"duel, held until {mode} (test-only)": mode for mode in ("proceed", "apply", "sealed")}
"""The duel's held variants: ann's bid outlasts bob's public answer (see toy_ruleset.py)."""
SEEDS = (1, 2, 3)
MAX_ACTIONS = 60
LONG_GAME = 2000
"""Actions of a random game played on to find a secret (more than any built-in game)."""
SECRET_TRIES = 25
MAX_NAMES = 12
"""Ids asked about with info and measure at each step (the suite plays many steps)."""
SMALL_BUDGET = {"mcts": "mcts:iterations=6,depth=3", "search": "search:rollouts=6,horizon=3"}
"""Bots that search, with a budget small enough for every state of the suite."""
GARBAGE = ("", "throw", "end", "pass", "undo", "list", "zz top", "move X 1,1")


def _hidden_scenarios() -> list[str]:
    """Built-in scenarios of rulesets with secrets, then the test-only duel."""
    ids = []
    for scenario_id in builtin_scenarios():
        info = registry.get(scenario_id.split("/")[0]).info
        if info.hidden_information or info.simultaneous_choices:
            ids.append(scenario_id)
    return [*ids, DUEL, *HELD]


@pytest.fixture(params=_hidden_scenarios())
def hidden_scenario(request: pytest.FixtureRequest) -> Iterator[Scenario]:
    if request.param == DUEL or request.param in HELD:
        duel: ModuleType = request.getfixturevalue("duel")
        yield duel.scenario(points_to_win=3, held=HELD.get(request.param, False))
    else:
        yield load_scenario(request.param)


# -- the worlds ------------------------------------------------------------------------
def _replay(game: Game, swap: dict[int, str] | None = None) -> Game:
    """``game`` rebuilt from its seed and actions, with the actions at ``swap`` replaced.

    The salts of sealed choices are kept, so that the worlds differ in the
    swapped choice alone (a side's own file holds the salts of its choices).
    """
    world = Game(game.scenario, game.seed)
    for index, taken in enumerate(game.actions):
        text = (swap or {}).get(index, str(taken.action))
        world.apply(text, taken.side)
        if taken.sealed:
            world.actions[-1] = replace(world.actions[-1], nonce=taken.nonce)
    return world


def _worlds(game: Game, index: int) -> list[Game]:
    """Games differing from ``game`` only in the secret choice at ``index`` of its actions.

    The other choices are the side's listed ones, and the choice itself with every
    number in it changed (MGV's range guesses: ``range B1>R2=12`` and ``=13.25``). A
    choice the actions after it could not follow is no world (MGV: a guess binds its
    mount to its target, which the public declaration then shows)."""
    taken = game.actions[index]
    before = Game(game.scenario, game.seed)  # the game when the choice was made
    for t in game.actions[:index]:
        before.apply(t.action, t.side)
    texts = [str(a) for a in before.legal_actions(taken.side)]
    texts.append(
        re.sub(r"=(\d+(?:\.\d+)?)", lambda m: f"={float(m[1]) + 1.25:g}", str(taken.action))
    )
    worlds = []
    for text in dict.fromkeys(texts):
        if text == str(taken.action):
            continue
        try:
            worlds.append(_replay(game, {index: text}))
        except WarbenchError:
            continue
    return worlds


# -- what a side can reach -------------------------------------------------------------
def _attempts(game: Game, side: str | None, texts: list[str]) -> list[str]:
    """Whether ``side`` typing each of ``texts`` now is refused, and why (tried on a copy).

    What an action that is taken shows is not compared: completing a sealed
    round reveals the other choices, as it should. A refused action leaves the game
    as it was (``test_rulesets.py`` holds every ruleset to that), so one copy serves
    every attempt until one is taken.
    """
    found = []
    trial: Game | None = None
    for text in texts:
        trial = trial or copy.deepcopy(game)
        try:
            trial.apply(text, side)
        except WarbenchError as exc:
            found.append(f"refused: {exc}")
            continue
        found.append("taken")
        trial = None
    return found


def _masked(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the salted commitments (and the checksum over them) masked."""
    record = copy.deepcopy(record)
    record.pop("checksum", None)
    for entry in record["actions"]:
        if "sealed" in entry:
            entry["sealed"] = "<commitment>"
    return record


def _reachable(game: Game, side: str | None, tmp: Path) -> dict[str, Any]:
    """Everything ``side`` (None: a spectator) can see, ask or be told now."""
    found: dict[str, Any] = {
        "view": game.view(side),
        "events": [(e.kind, e.text, e.data) for e in game.events],
        "waiting": game.waiting_for(),
        "record": _masked(record_module.make_record(game)),
        "digest": game.digest(),
        "turn": game.turn,
    }
    if side is None:
        return found
    seat = game.seat(side)
    if game.ruleset.info.side_states:  # what state-reading bots are given
        found["side_state"] = game.ruleset.state_json(seat.state)
    legal = seat.legal_actions()
    found["legal"] = [str(a) for a in legal]
    found["odds"] = [seat.action_odds(a) for a in legal]
    found["odds_data"] = [_odds_json(seat.odds(a)) for a in legal]
    found["reasons"] = [seat.action_reason(a) for a in legal]
    names = [*_names(game)[:MAX_NAMES], *GARBAGE[1:3], "0101", "1,1"]
    found["info"] = [_ask(seat.unit_info, name) for name in names]
    found["measure"] = [_ask(seat.measure, a, b) for a, b in itertools.pairwise(names)]
    found["goal"] = game.ruleset.goal(game.scenario)
    found["rules"] = game.ruleset.rules_in_force(game.scenario)
    found["refusals"] = [seat.refusal(a) for a in legal]
    typed = [*(str(a) for a in legal), *GARBAGE]
    for other in game.scenario.sides:  # what the others could choose, typed by this side
        if other != side:
            typed += [str(a) for a in game.ruleset.legal_actions(game.state, other)]
    found["attempts"] = _attempts(game, side, typed)
    trial = copy.deepcopy(game)
    try:
        found["undo"] = f"took back {trial.undo(side).action}"
    except UndoError as exc:
        found["undo"] = f"refused: {exc}"
    found["bots"] = [
        str(make_bot(SMALL_BUDGET.get(name, name), 11).choose(game.seat(side), side))
        for name in BOT_NAMES
        if legal and _bot_can_play(name, game)
    ]
    found["own_sealed"] = sealed_choices(game).get(side)
    save_game(game, tmp / "game.json")
    found["own_file"] = (
        json.loads(sealed_path(tmp / "game.json", side).read_text("utf-8"))
        if sealed_path(tmp / "game.json", side).exists()
        else None
    )
    found["shared_file"] = _masked(json.loads((tmp / "game.json").read_text("utf-8")))
    return found


def _odds_json(result: OddsResult | None) -> dict[str, Any] | None:
    return None if result is None else result.to_json()


def _ask(question: Callable[..., Any], *names: str) -> Any:
    """A question's answer, or the words of its refusal."""
    try:
        return question(*names)
    except QuestionRefused as exc:
        return f"refused: {exc}"


def _names(game: Game) -> list[str]:
    """Every id in the whole state (hidden pieces too): asking about each must tell a side
    nothing it could not see."""
    found: list[str] = []

    def walk(data: Any) -> None:
        if isinstance(data, dict):
            for key, value in data.items():
                if key == "id" and isinstance(value, str) and value not in found:
                    found.append(value)
                walk(value)
        elif isinstance(data, list):
            for item in data:
                walk(item)

    walk(game.ruleset.state_json(game.state))
    return found


def _bot_can_play(name: str, game: Game) -> bool:
    """Greedy, the planner and the search bot need an evaluation, which a ruleset may not
    offer, and a state of the side's own knowledge (``check_bot``)."""
    if name not in ("greedy", "planner", "search"):
        return True
    try:
        check_bot(name, game.ruleset.info)
    except WarbenchError:
        return False
    try:
        game.ruleset.evaluate(game.state, game.scenario.sides[0], [])
    except NotImplementedError:
        return False
    return True


def check_no_leak(game: Game, tmp: Path) -> int:
    """Assert that no side can tell the others' pending sealed choices apart; worlds checked.

    Every secret is swapped on its own, a side's held choice and its choice in
    the round now asked alike (a side may have both at once).
    """
    checked = 0
    for index, taken in game.unrevealed().items():
        secret_side = taken.side
        worlds = _worlds(game, index)
        for viewer in (*(s for s in game.scenario.sides if s != secret_side), None):
            here = _reachable(game, viewer, tmp)
            for world in worlds:
                there = _reachable(world, viewer, tmp)
                for key in here:
                    assert here[key] == there[key], (
                        f"{viewer or 'a spectator'} can tell {secret_side}'s sealed choice "
                        f"apart by {key}"
                    )
                checked += 1
    return checked


def _random_game(
    scenario: Scenario, seed: int, actions: int = MAX_ACTIONS, secret: bool = False
) -> Iterator[Game]:
    """A random game of ``scenario``, yielded after every action (``secret``: on secret
    dice, as a game with a person in it; the bots' choices still follow ``seed``)."""
    game = Game(scenario, None if secret else seed)
    rng = random.Random(seed)
    for _ in range(actions):
        waiting = game.waiting_for()
        if not waiting:
            return
        side = rng.choice(waiting)
        bot = make_bot("random", rng.randrange(1000))
        game.apply(bot.choose(game.seat(side), side), side)
        yield game


def _games_until_a_secret(scenario: Scenario, seed: int) -> Iterator[Game]:
    """Random games from ``seed``, yielded after every action: the first MAX_ACTIONS
    actions always; then, while no secret has been held yet (secrets that only chance
    brings, as Invisible Enemy's tied initiative or equal network points), on to the end
    of the game and into games of further seeds, up to SECRET_TRIES games."""
    held = False
    for attempt in range(SECRET_TRIES):
        for count, game in enumerate(_random_game(scenario, seed + 1000 * attempt, LONG_GAME)):
            held = held or bool(game.unrevealed())
            yield game
            if held and count + 1 >= MAX_ACTIONS:
                return
        if held:
            return


# -- the suite -------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_no_side_can_tell_another_sides_secret_apart(
    hidden_scenario: Scenario, seed: int, tmp_path: Path
) -> None:
    checked = 0
    for game in _games_until_a_secret(hidden_scenario, seed):
        checked += check_no_leak(game, tmp_path)
    assert checked > 0, "the random game never held a secret: the suite checked nothing"


@pytest.mark.parametrize("mode", sorted(set(HELD.values())))
def test_the_suite_checks_a_held_choice_while_public_actions_follow_it(
    duel: ModuleType, mode: str, tmp_path: Path
) -> None:
    """The held variants put a secret before public actions, as MGV does; the suite
    swaps it in those states too (each count: two other bids, for bob and a spectator)."""
    game = Game(duel.scenario(points_to_win=3, held=mode), seed=1)
    game.apply("throw rock", "ann")  # the bid, held
    assert check_no_leak(game, tmp_path) == 2 * 2
    game.apply("throw paper", "bob")  # the public answer
    if mode != "sealed":
        assert game.held_choices() == {}  # opened by bob's answer or the step after it
        assert check_no_leak(game, tmp_path) == 0
        return
    assert check_no_leak(game, tmp_path) == 2 * 2  # still held after a public action
    game.apply("stake 2", "ann")  # ann has two secrets now: each is swapped on its own
    assert [t.side for t in game.unrevealed().values()] == ["ann", "ann"]
    assert check_no_leak(game, tmp_path) == 2 * 2 + 1 * 2


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seat_shows_its_side_only(hidden_scenario: Scenario, seed: int) -> None:
    for game in _random_game(hidden_scenario, seed):
        for side in game.scenario.sides:
            seat = game.seat(side)
            if game.ruleset.info.side_states:  # its own knowledge, and only that
                known = game.ruleset.side_state(game.state, side)
                assert known is not None
                assert game.ruleset.state_json(seat.state) == game.ruleset.state_json(known)
            else:
                with pytest.raises(HiddenInformation):
                    _ = seat.state
            for other in game.scenario.sides:
                if other != side:
                    with pytest.raises(HiddenInformation):
                        seat.view(other)
                    with pytest.raises(HiddenInformation):
                        seat.legal_actions(other)
                    with pytest.raises(HiddenInformation):
                        seat.sample_action(random.Random(1).random, other)


def test_the_commitments_in_the_shared_record_are_salted(duel: ModuleType) -> None:
    """Two games with the same pending choice give different commitments: no dictionary attack."""
    commitments = set()
    for _ in range(5):
        game = Game(duel.scenario(), seed=1)
        game.apply("throw rock", "ann")
        commitments.add(make_record(game)["actions"][0]["sealed"])
    assert len(commitments) == 5


def test_a_pending_choice_resumes_from_its_sides_file_and_nothing_is_lost(
    duel: ModuleType, tmp_path: Path
) -> None:
    game = Game(duel.scenario(points_to_win=3), seed=4)
    for a, b in (("rock", "paper"), ("paper", "paper")):
        game.apply(f"throw {a}", "ann")
        game.apply(f"throw {b}", "bob")
    game.apply("throw scissors", "bob")
    path = tmp_path / "duel.json"
    save_game(game, path)

    shared = path.read_text("utf-8")
    assert "scissors" not in shared  # bob's pending choice; the revealed ones are in clear
    own = sealed_path(path, "bob").read_text("utf-8")
    assert "throw scissors" in own
    assert not sealed_path(path, "ann").exists()

    resumed, _ = load_game(path)
    assert resumed.view("bob")["my_sealed_choice"] == "throw scissors"
    assert resumed.waiting_for() == ("ann",)
    resumed.apply("throw paper", "ann")
    assert "ann throws paper, bob throws scissors" in [e.text for e in resumed.events]
    # Once revealed, the choice is in the shared record in clear and the side file is gone.
    save_game(resumed, path)
    assert not sealed_path(path, "bob").exists()
    assert "throw scissors" in path.read_text("utf-8")


def _ann_threw_rock(duel: ModuleType, tmp_path: Path) -> tuple[Game, Path]:
    """A duel in which ann's throw of rock is pending, saved to ``duel.json``."""
    game = Game(duel.scenario(), seed=4)
    game.apply("throw rock", "ann")
    path = tmp_path / "duel.json"
    save_game(game, path)
    return game, path


def test_a_side_file_that_does_not_match_its_commitment_is_refused(
    duel: ModuleType, tmp_path: Path
) -> None:
    _, path = _ann_threw_rock(duel, tmp_path)
    side_file = sealed_path(path, "ann")
    data = json.loads(side_file.read_text("utf-8"))
    data["choices"][0]["action"] = "throw paper"  # bob edits ann's file
    side_file.write_text(json.dumps(data), "utf-8")
    with pytest.raises(WarbenchError, match=r"action 1 \(ann's sealed choice\) does not match"):
        load_game(path)


def test_a_lost_side_file_is_refused_unless_the_choice_is_withdrawn(
    duel: ModuleType, tmp_path: Path
) -> None:
    _, path = _ann_threw_rock(duel, tmp_path)
    sealed_path(path, "ann").unlink()
    with pytest.raises(WarbenchError, match=r"which is missing.*--withdraw-sealed"):
        load_game(path)
    resumed, _ = load_game(path, withdraw_sealed=True)
    assert resumed.waiting_for() == ("ann", "bob")
    assert resumed.actions == []


def test_read_sealed_ignores_choices_of_other_indices(duel: ModuleType, tmp_path: Path) -> None:
    game, path = _ann_threw_rock(duel, tmp_path)
    record = json.loads(path.read_text("utf-8"))
    assert read_sealed(path, record) == {0: ("throw rock", game.actions[0].nonce)}


def test_the_suite_catches_a_record_that_keeps_pending_choices_in_clear(
    duel: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old record format wrote pending sealed choices as plain actions: a leak."""
    honest = record_module.make_record

    def leaky(game: Game, extra: Any = None, withhold: Any = ()) -> dict[str, Any]:
        record = honest(game, extra, withhold)
        record["actions"] = [{"side": t.side, "action": str(t.action)} for t in game.actions]
        return record

    monkeypatch.setattr(record_module, "make_record", leaky)
    game = Game(duel.scenario(), seed=1)
    game.apply("throw rock", "ann")
    with pytest.raises(AssertionError, match="can tell ann's sealed choice apart by record"):
        check_no_leak(game, tmp_path)


def test_the_suite_catches_a_record_that_shows_a_held_choice_in_clear(
    duel: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A held choice in the middle of the record, written in clear, is a leak too."""
    honest = record_module.make_record

    def leaky(game: Game, extra: Any = None, withhold: Any = ()) -> dict[str, Any]:
        record = honest(game, extra, withhold)
        for entry, taken in zip(record["actions"], game.actions, strict=True):
            entry.pop("sealed", None)
            entry["action"] = str(taken.action)
        return record

    game = Game(duel.scenario(held="sealed"), seed=1)
    game.apply("throw rock", "ann")
    game.apply("throw paper", "bob")
    assert make_record(game)["actions"][1] == {"side": "bob", "action": "throw paper"}
    monkeypatch.setattr(record_module, "make_record", leaky)
    with pytest.raises(AssertionError, match="can tell ann's sealed choice apart by record"):
        check_no_leak(game, tmp_path)
