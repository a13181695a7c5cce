"""Dice nobody can foresee (issue 24, fair point 1): a game with a person in it has no
seed; its dice come from the operating system's source as they are rolled, and its record
logs the dice rolled so far instead of a seed that would tell every future die. A copy of
the record replays the game exactly, and says nothing of the next die."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from warbench.cli.main import main
from warbench.core.dice import SecretDice
from warbench.core.game import Game
from warbench.core.replay import replay_record
from warbench.core.saves import read_record, save_game


def _rolled(game: Game) -> list[int]:
    """Every die the game's events say was rolled, in order."""
    values: list[int] = []
    for event in game.events:
        if event.kind == "roll":
            values.extend(int(v) for v in event.data["dice"])
    return values


def _played(actions: int, seed: int = 3) -> Game:
    game = Game.start("miniwars/bridge", seed=None)
    rng = random.Random(seed)
    for _ in range(actions):
        side = game.waiting_for()[0]
        game.apply(rng.choice(list(game.legal_actions(side))), side)
    return game


def test_a_game_without_a_seed_logs_the_dice_it_rolled_and_replays_from_them() -> None:
    game = _played(40)
    assert game.seed is None and isinstance(game.dice, SecretDice)
    record = game.record()
    assert record["format"] == 3 and "seed" not in record
    assert record["dice"] == _rolled(game)  # the dice shown so far, and no other
    again = replay_record(record)
    assert again.digest() == game.digest() and again.events == game.events


def test_a_copy_of_the_record_does_not_tell_the_next_die() -> None:
    """The attack of the issue: copy the game (its record), play the next action that
    rolls on the copy, read the die, then choose in the real game. With a seed the copy
    rolled the very same die; now the copies roll dice of their own."""
    game = _played(6)
    side = game.waiting_for()[0]
    record = game.record()
    nexts = set()
    for _ in range(12):
        copy_ = replay_record(record)
        before = len(_rolled(copy_))
        while len(_rolled(copy_)) == before and not copy_.is_over:
            asked = copy_.waiting_for()[0]
            copy_.apply(copy_.legal_actions(asked)[0], asked)
        nexts.add(tuple(_rolled(copy_)[before:]))
    assert len(nexts) > 1, "every copy rolled the same next dice: they can be foreseen"
    assert side in game.waiting_for()


def test_a_refusal_tried_on_secret_dice_leaves_the_log_alone() -> None:
    game = _played(20)
    dice = copy.deepcopy(game.dice)
    assert isinstance(dice, SecretDice) and dice.log == game.dice.log
    dice.roll(5)
    assert len(dice.log) == len(game.dice.log) + 5 and game.dice.log == dice.log[:-5]


def test_a_resumed_game_goes_on_with_secret_dice(tmp_path: Path) -> None:
    game = _played(30)
    path = tmp_path / "bridge.json"
    save_game(game, path)
    resumed = replay_record(read_record(path))
    assert resumed.digest() == game.digest()
    assert isinstance(resumed.dice, SecretDice) and resumed.dice.log == game.dice.log


def test_play_with_a_person_has_secret_dice_and_a_practice_game_says_its_seed_tells(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    typed = iter(["choose A", "end", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    argv = ["play", "miniwars/bridge", "--side", "guards=human", "--side", "vanguard=greedy"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Hold the Bridge (miniwars/bridge), secret dice" in out and "seed" not in out
    record = json.loads((tmp_path / "records" / "bridge.json").read_text("utf-8"))
    assert "seed" not in record and record["dice"] == record["dice"][: len(record["dice"])]
    typed = iter(["quit"])
    assert main([*argv, "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "seed 7" in out and "practice game: seed 7 tells every die" in " ".join(out.split())


def test_a_log_of_dice_that_is_no_log_is_refused_with_the_reason() -> None:
    """A record of secret dice whose log is not dice (even with its checksum made again)
    is refused in one line: a face out of range on reading, a die that does not fit the
    roll it feeds on replay."""
    from warbench.core.record import check_record, with_checksum
    from warbench.errors import RecordError

    record = _played(20).record()
    zero = with_checksum({**record, "dice": [0, *record["dice"][1:]]})
    with pytest.raises(RecordError, match="field 'dice' must list the dice rolled"):
        check_record(zero, "bridge.json")
    seven = with_checksum({**record, "dice": [7, *record["dice"][1:]]})
    check_record(seven, "bridge.json")  # a face a d1000 may show: only the replay can tell
    with pytest.raises(RecordError, match=r"cannot be replayed|does not fit the d6"):
        replay_record(seven, "bridge.json")
