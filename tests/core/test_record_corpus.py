"""Records that check themselves (issue 8, part 2): every damaged record is refused with one
clear line by ``play --resume``, ``replay`` (text and ``--json``) and ``render``.

The corpus is twofold: files under ``tests/corpus/records/`` that are not records at all,
and damaged copies of a real record built here (so they follow the rules as they change).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.cli.main import main
from warbench.core import saves as saves_module
from warbench.core.game import Game
from warbench.core.record import with_checksum
from warbench.core.saves import save_game

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "records"

FILES = {
    "empty.json": "not a JSON record",
    "cut-short.json": "not a JSON record",
    "a-list.json": "a record is a JSON object",
    "not-utf8.json": "not UTF-8 text",
    "ruleset-not-text.json": "field 'ruleset' is missing or not a string",
    "format-true.json": "unsupported record format True",
}


def _game(actions: int = 30) -> Game:
    """A game of the bridge scenario part-way through (random bots, seed 3)."""
    game = Game.start("miniwars/bridge", seed=3)
    bot = make_bot("random", 5)
    for _ in range(actions):
        side = game.waiting_for()[0]
        game.apply(bot.choose(game.seat(side), side), side)
    return game


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    game = _game()
    assert not game.is_over
    return game.record()


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        record[key] = value

    return change


def _flip_digest(record: dict[str, Any]) -> None:
    digest = record["digest"]
    record["digest"] = ("1" if digest[0] == "0" else "0") + digest[1:]


def _drop_last(n: int) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        del record["actions"][-n:]

    return change


def _entry(index: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        record["actions"][index] = value

    return change


def _sealed_in_the_middle(record: dict[str, Any]) -> None:
    record["actions"][3] = {"side": record["actions"][3]["side"], "sealed": "0" * 64}


def _old_format_with_a_sealed_entry(record: dict[str, Any]) -> None:
    record["format"] = 1
    del record["checksum"]
    record["actions"][-1] = {"side": record["actions"][-1]["side"], "sealed": "0" * 64}


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    def change(record: dict[str, Any]) -> None:
        del record[key]

    return change


CHANGED = "the record was changed after it was written (its checksum does not match)"
UNSEALED = {
    "seed edited",
    "turn limit edited",
    "checksum missing",
    "checksum not a digest",
    "sealed entry in format 1",
}
"""Damages written without a fresh checksum: the checksum must catch them."""

DAMAGES: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "seed edited": (_set("seed", 90), CHANGED),
    "turn limit edited": (lambda r: r["scenario"].update(turn_limit=1), CHANGED),
    "checksum missing": (_drop("checksum"), "field 'checksum' is missing"),
    "checksum not a digest": (_set("checksum", "x"), "field 'checksum' is missing or not"),
    "scenario id unprintable": (
        _set("scenario_id", "a" + chr(27) + "[2J"),
        "field 'scenario_id' is not a scenario id",
    ),
    "scenario id too long": (_set("scenario_id", "a" * 5000), "is not a scenario id"),
    "scenario id of another built-in": (
        _set("scenario_id", "miniwars/danville"),
        "names the built-in 'The Danville Raid', but the record holds 'Hold the Bridge'",
    ),
    "sealed entry where there are none": (
        lambda r: r["actions"].append({"side": "guards", "sealed": "0" * 64}),
        "a sealed choice in a game of miniwars, which has none",
    ),
    "last five actions dropped": (_drop_last(5), "does not match its own replay"),
    "digest flipped": (_flip_digest, "does not match its own replay (the final digest differs)"),
    "digest not a digest": (_set("digest", "abc"), "'digest' is not a SHA-256 digest"),
    "format as text": (_set("format", "2"), "unsupported record format '2'"),
    "format 1 with checksum": (_set("format", 1), "unknown field 'checksum'"),
    "format unknown": (_set("format", 7), "unsupported record format 7"),
    "version as a number": (
        _set("ruleset_version", 1),
        "field 'ruleset_version' is missing or not a string",
    ),
    "version of another release": (_set("ruleset_version", "99"), "made with miniwars version 99"),
    "ruleset of another game": (
        _set("ruleset", "vsgmr"),
        "the record says ruleset 'vsgmr' but its scenario is a game of 'miniwars'",
    ),
    "scenario id of another ruleset": (
        _set("scenario_id", "vsgmr/street"),
        "scenario id 'vsgmr/street' is not a scenario of 'miniwars'",
    ),
    "seed true": (_set("seed", True), "field 'seed' is missing or not a whole number"),
    "seed negative": (_set("seed", -1), "field 'seed' must be a whole number from 0"),
    "seed changed": (_set("seed", 4), "action 1 cannot be replayed"),
    "turn changed": (_set("turns", 9), "it says turn 9"),
    "outcome invented": (
        _set("outcome", {"winner": "guards", "reason": "x", "scores": {}}),
        "the outcome differs",
    ),
    "outcome not an object": (_set("outcome", "guards"), "'outcome' is neither null nor"),
    "unknown field": (_set("cheat", 1), "unknown field 'cheat'"),
    "players not names": (_set("players", ["human"]), "field 'players' is not an object"),
    "entry without a side": (_entry(2, {"action": "end"}), "action 3 is not {side, action}"),
    "entry not an object": (_entry(2, "end"), "action 3 is not {side, action}"),
    "entry with extra keys": (
        _entry(2, {"side": "guards", "action": "end", "x": 1}),
        "action 3 is not {side, action}",
    ),
    "action that cannot be": (
        _entry(4, {"side": "guards", "action": "fly away"}),
        "action 5 cannot be replayed",
    ),
    "sealed entry before plain ones": (_sealed_in_the_middle, "follows a sealed choice"),
    "sealed entry in format 1": (_old_format_with_a_sealed_entry, "is not {side, action}"),
    "scenario damaged": (
        lambda r: r["scenario"].update(turn_limit=0),
        "turn_limit",
    ),
}


def _one_clear_line(err: str, fragment: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("warbench: "), err
    assert fragment in lines[0], err
    assert "Traceback" not in err
    assert all(ch.isprintable() for ch in lines[0])
    assert len(lines[0]) < 500


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("name", sorted(DAMAGES))
def test_a_damaged_record_is_refused_by_resume_with_one_clear_line(
    name: str, good: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    damage, fragment = DAMAGES[name]
    record = copy.deepcopy(good)
    damage(record)
    if name not in UNSEALED:  # forged with a fresh checksum: the other checks must hold
        record = with_checksum(record)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(record), "utf-8")
    before = path.read_bytes()

    status, _, err = _run(capsys, "play", "--resume", str(path), "--auto")
    assert status == 2
    _one_clear_line(err, fragment)
    assert path.read_bytes() == before, "a refused record was rewritten"

    status, _, _ = _run(capsys, "replay", str(path), "--json")
    assert status != 0
    status, _, _ = _run(capsys, "replay", str(path))
    assert status != 0
    status, _, _ = _run(capsys, "render", str(path), "--svg", str(tmp_path / "x.svg"))
    assert status != 0


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_file_that_is_not_a_record_is_refused_with_one_clear_line(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = CORPUS / name
    for argv in (["play", "--resume", str(path)], ["replay", str(path), "--json"]):
        status, _, err = _run(capsys, *argv)
        assert status == 2
        _one_clear_line(err, FILES[name])


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"format": ' + "9" * 5000 + "}", "not a record"),
        ('{"format": 2, "seed": ' + "9" * 30 + "}", "field 'ruleset' is missing"),
        ('{"outcome": ' + "[" * 990 + "]" * 990 + "}", "nested too deeply"),
        ('{"scenario_id": "\\ud800"}', "is not Unicode (a lone surrogate)"),
    ],
    ids=["deep nesting", "5000-digit number", "huge seed", "nesting under 1000", "surrogate"],
)
def test_json_that_python_cannot_take_is_refused(
    text: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text, "utf-8")
    status, _, err = _run(capsys, "replay", str(path))
    assert status == 2
    _one_clear_line(err, fragment)


def test_a_record_over_the_size_limit_is_refused_unread(
    good: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "big.json"
    path.write_text(json.dumps(good), "utf-8")
    monkeypatch.setattr(saves_module, "MAX_RECORD_BYTES", 1000)
    status, _, err = _run(capsys, "replay", str(path))
    assert status == 2
    _one_clear_line(err, "over 1000 bytes, the most read")


def test_an_intact_record_resumes_and_the_game_goes_on(
    good: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good), "utf-8")
    status, out, err = _run(capsys, "play", "--resume", str(path), "--auto")
    assert status == 0, err
    assert "Resumed after 30 actions." in out
    assert json.loads(path.read_text("utf-8"))["outcome"] is not None


# -- writing -----------------------------------------------------------------------------
def test_a_new_record_never_replaces_a_file_written_meanwhile(tmp_path: Path) -> None:
    """simulate writes each record as new: a second run in the same folder stops."""
    from warbench.core.saves import write_record
    from warbench.errors import RecordError

    path = tmp_path / "game-00000.json"
    write_record({"a": 1}, path, new=True)
    with pytest.raises(RecordError, match="exists already"):
        write_record({"a": 2}, path, new=True)
    assert json.loads(path.read_text("utf-8")) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["game-00000.json"]


def test_temporary_files_left_by_an_interrupted_write_are_cleaned_up(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    stale = [tmp_path / ".game.json.abc123.tmp", tmp_path / ".game.json.zz9.tmp"]
    for file in stale:
        file.write_text("{half a rec", "utf-8")
    other = tmp_path / ".other.json.abc.tmp"  # another record's: not ours to remove
    other.write_text("x", "utf-8")
    save_game(_game(3), path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.json.abc.tmp", "game.json"]


def test_a_write_is_flushed_to_disk_before_it_is_acknowledged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file is fsynced before the rename and the folder after it (a power loss keeps it)."""
    import os

    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        calls.append("fsync-folder" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync-file")
        real_fsync(fd)

    def replace(a: Any, b: Any) -> None:
        calls.append("rename")
        real_replace(a, b)

    monkeypatch.setattr(saves_module.os, "fsync", fsync)
    monkeypatch.setattr(saves_module.os, "replace", replace)
    save_game(_game(2), tmp_path / "game.json")
    assert calls == ["fsync-file", "rename", "fsync-folder"]


@pytest.mark.parametrize("device", ["/dev/zero", "fifo"])
def test_a_device_or_pipe_is_refused_unread(
    device: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    path = device
    if device == "fifo":
        path = str(tmp_path / "pipe.json")
        os.mkfifo(path)
    status, _, err = _run(capsys, "replay", path)
    assert status == 2
    _one_clear_line(err, "not a regular file")


def test_a_record_with_a_key_twice_is_refused(
    good: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = json.dumps(good)
    path = tmp_path / "twice.json"
    path.write_text(text[:-1] + ', "digest": "' + "0" * 64 + '"}', "utf-8")
    status, _, err = _run(capsys, "replay", str(path))
    assert status == 2
    _one_clear_line(err, "key 'digest' appears twice")


def test_the_shared_record_is_readable_by_others_and_a_side_file_only_by_its_owner(
    duel: Any, tmp_path: Path
) -> None:
    import os
    import stat

    from warbench.core.saves import sealed_path

    game = Game(duel.scenario(), seed=1)
    game.apply("throw rock", "ann")
    path = tmp_path / "duel.json"
    save_game(game, path)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE(sealed_path(path, "ann").stat().st_mode) == 0o600


@pytest.mark.parametrize("name_length", [1, 50, 120, 200, 220])
def test_side_files_are_the_same_size_whatever_the_choice(
    duel: Any, tmp_path: Path, name_length: int
) -> None:
    """The size of a side file (which ``ls`` shows to anyone) must not tell the choice."""
    from warbench.core.saves import sealed_path

    sizes = set()
    for shape in ("rock", "paper", "scissors"):
        game = Game(duel.Duel().build_scenario({}, "t", "d" * name_length), seed=1)
        game.apply(f"throw {shape}", "ann")
        save_game(game, tmp_path / f"{shape}.json")
        sizes.add(sealed_path(tmp_path / f"{shape}.json", "ann").stat().st_size)
    assert len(sizes) == 1


def test_records_that_share_a_stem_keep_their_own_side_files(duel: Any, tmp_path: Path) -> None:
    from warbench.core.saves import load_game, record_taken, sealed_path

    game = Game(duel.scenario(), seed=1)
    game.apply("throw scissors", "ann")
    save_game(game, tmp_path / "a.json")
    assert sealed_path(tmp_path / "a.json", "ann") != sealed_path(tmp_path / "a.txt", "ann")
    other = Game(duel.scenario(), seed=2)
    save_game(other, tmp_path / "a.txt")
    resumed, _ = load_game(tmp_path / "a.json")
    assert resumed.view("ann")["my_sealed_choice"] == "throw scissors"
    assert record_taken(tmp_path / "a.json") and not record_taken(tmp_path / "b.json")
