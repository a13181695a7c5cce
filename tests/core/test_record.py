"""Records: scenario + seed + actions (+ digest) in JSON; reading refuses bad files clearly."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from warbench.core.game import Game
from warbench.core.record import RECORD_FORMAT, make_record
from warbench.core.replay import replay_record
from warbench.core.saves import read_record, write_record
from warbench.errors import RecordError, WarbenchError

DANVILLE = "miniwars/danville"


def _short_game(actions: int = 12, seed: int = 3) -> Game:
    game = Game.start(DANVILLE, seed=seed)
    for _ in range(actions):
        (side,) = game.waiting_for()
        game.apply(game.legal_actions(side)[0], side)
    return game


def test_a_record_holds_scenario_seed_actions_and_digest() -> None:
    game = _short_game()
    record = make_record(game)
    assert record == game.record()
    assert record["format"] == RECORD_FORMAT == 2
    assert record["ruleset"] == "miniwars"
    assert record["ruleset_version"] == game.ruleset.info.version
    assert record["scenario_id"] == DANVILLE
    assert record["scenario"] == game.scenario.raw
    assert record["seed"] == 3
    assert record["actions"] == [{"side": t.side, "action": str(t.action)} for t in game.actions]
    assert record["turns"] == game.turn
    assert record["outcome"] is None
    assert record["digest"] == game.digest()
    json.dumps(record)


def test_write_then_read_gives_the_same_record(tmp_path: Path) -> None:
    record = _short_game().record()
    path = tmp_path / "deep" / "er" / "game.json"
    write_record(record, path)
    assert read_record(path) == json.loads(json.dumps(record))
    assert [p.name for p in path.parent.iterdir()] == ["game.json"], "a temp file was left"


def test_writing_a_record_replaces_an_older_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    write_record(_short_game(2).record(), path)
    newer = _short_game(6).record()
    write_record(newer, path)
    assert len(read_record(path)["actions"]) == len(newer["actions"])


def test_a_failed_write_leaves_no_temp_file_behind(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    with pytest.raises(TypeError):
        write_record({"format": 1, "seed": object()}, path)
    assert list(tmp_path.iterdir()) == []


def test_replaying_a_record_rebuilds_the_game(tmp_path: Path) -> None:
    game = _short_game(20)
    path = tmp_path / "game.json"
    write_record(game.record(), path)
    replayed = replay_record(read_record(path), str(path))
    assert replayed.digest() == game.digest()
    assert replayed.actions == game.actions
    assert [e.to_json() for e in replayed.events] == [e.to_json() for e in game.events]


# -- reading errors -------------------------------------------------------------------------


def _write(tmp_path: Path, content: str | bytes) -> Path:
    path = tmp_path / "bad-record.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, "utf-8")
    return path


def test_reading_a_missing_file_is_a_record_error_naming_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(RecordError, match="cannot read") as caught:
        read_record(path)
    assert str(path) in str(caught.value)


def test_reading_a_folder_is_a_record_error_naming_the_path(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(tmp_path)
    assert str(tmp_path) in str(caught.value)


@pytest.mark.parametrize("content", ["", "{not json", "[1, 2", "{'format': 1}"])
def test_reading_text_that_is_not_json_is_a_record_error_naming_the_path(
    tmp_path: Path, content: str
) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(RecordError, match="not a JSON record") as caught:
        read_record(path)
    assert str(path) in str(caught.value)


def test_reading_a_binary_file_is_a_record_error_naming_the_path(tmp_path: Path) -> None:
    path = _write(tmp_path, b"\xff\xfe\x00\x01 not text")
    with pytest.raises(RecordError) as caught:
        read_record(path)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("content", ["[]", "42", '"a record"', "null"])
def test_a_record_that_is_not_a_json_object_is_refused(tmp_path: Path, content: str) -> None:
    path = _write(tmp_path, content)
    with pytest.raises(RecordError, match="JSON object") as caught:
        read_record(path)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("fmt", [None, 0, 4, "1", True])
def test_a_record_of_another_format_is_refused(tmp_path: Path, fmt: Any) -> None:
    record = _short_game(1).record()
    if fmt is None:
        del record["format"]
    else:
        record["format"] = fmt
    path = _write(tmp_path, json.dumps(record))
    with pytest.raises(RecordError, match="unsupported record format") as caught:
        read_record(path)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("scenario", None),
        ("scenario", "miniwars/danville"),
        ("seed", None),
        ("seed", "7"),
        ("actions", None),
        ("actions", {"side": "horde"}),
    ],
)
def test_a_record_with_a_missing_or_mistyped_field_is_refused_naming_it(
    tmp_path: Path, field: str, value: Any
) -> None:
    record = _short_game(1).record()
    if value is None:
        del record[field]
    else:
        record[field] = value
    path = _write(tmp_path, json.dumps(record))
    with pytest.raises(RecordError, match=f"field '{field}'") as caught:
        read_record(path)
    assert str(path) in str(caught.value)


# -- replay errors -------------------------------------------------------------------------


def test_a_record_from_another_ruleset_version_is_refused() -> None:
    record = _short_game(3).record()
    record["ruleset_version"] = "0-old"
    with pytest.raises(RecordError, match=r"version 0-old.*this is version") as caught:
        replay_record(record, "old.json")
    assert str(caught.value).startswith("old.json")


def test_a_record_without_a_ruleset_version_is_still_replayed() -> None:
    game = _short_game(3)
    record = game.record()
    del record["ruleset_version"]
    assert replay_record(record).digest() == game.digest()


@pytest.mark.parametrize(
    "entry", [{"action": "end"}, {"side": "horde"}, "end", ["horde", "end"], None]
)
def test_an_action_entry_that_is_not_side_and_action_is_refused_naming_its_number(
    entry: Any,
) -> None:
    record = _short_game(4).record()
    record["actions"][2] = entry
    with pytest.raises(RecordError, match=r"saved\.json: action 3 is not \{side, action\}"):
        replay_record(record, "saved.json")


def test_an_action_that_cannot_be_replayed_is_refused_naming_its_number() -> None:
    record = _short_game(6).record()
    record["actions"][4]["action"] = "fly away"
    with pytest.raises(RecordError, match=r"action 5 cannot be replayed: .*fly away"):
        replay_record(record, "saved.json")


def test_a_record_whose_scenario_is_invalid_is_refused() -> None:
    record = _short_game(1).record()
    record["scenario"] = {**record["scenario"], "turn_limit": 0}
    with pytest.raises(WarbenchError, match="turn_limit"):
        replay_record(record, "saved.json")


def test_a_duel_record_keeps_sealed_choices_in_order(duel: ModuleType) -> None:
    game = Game(duel.scenario(), seed=1)
    game.apply("throw rock", "bob")
    game.apply("throw paper", "ann")
    record = game.record()
    assert record["ruleset"] == duel.NAME
    assert record["actions"] == [
        {"side": "bob", "action": "throw rock"},
        {"side": "ann", "action": "throw paper"},
    ]
    assert replay_record(record).digest() == game.digest()


def test_a_sealed_entry_may_be_followed_by_public_ones_a_held_choice(
    duel: ModuleType,
) -> None:
    """The duel's held variant: ann's bid stays sealed while bob answers in public."""
    from warbench.core.record import check_record

    game = Game(duel.scenario(held="sealed"), seed=1)
    game.apply("throw rock", "ann")
    game.apply("throw paper", "bob")
    record = game.record()
    assert record["actions"][0].keys() == {"side", "sealed"}
    assert record["actions"][1] == {"side": "bob", "action": "throw paper"}
    check_record(record, "held.json")

    nonce = game.actions[0].nonce
    replayed = replay_record(record, "held.json", sealed={0: ("throw rock", nonce)})
    assert replayed.digest() == game.digest()
    assert replayed.actions == game.actions
    assert replay_record(record, "held.json", verify=False).actions == []
    with pytest.raises(RecordError, match="stops at action 1, ann's sealed choice"):
        replay_record(record, "held.json")


def test_a_bots_open_round_choice_is_left_out_but_its_held_choice_is_kept(
    duel: ModuleType,
) -> None:
    from warbench.core.record import kept_actions

    game = Game(duel.scenario(held="sealed"), seed=1)
    game.apply("throw rock", "ann")
    game.apply("throw paper", "bob")
    game.apply("stake 2", "ann")
    kept = [(str(t.action), pending) for t, pending in kept_actions(game, ("ann",))]
    assert kept == [("throw rock", True), ("throw paper", False)]
    assert len(make_record(game, withhold=("ann",))["actions"]) == 2
    assert len(make_record(game)["actions"]) == 3
