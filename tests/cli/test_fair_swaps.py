"""The eye and the dice swaps at the terminal (issue 24; the Python API's are in
``tests/conformance/test_eye_and_dice.py``, the server's in
``tests/server/test_fair_swaps.py``).

(b) Two MGV games differ only in where red's bases stand within their eye cells (two
    scenario files): everything blue is shown at its prompts (the map, ``list``,
    ``info``, ``measure``, ``odds``) is the same.
(c) A game on secret dice saved mid-way is resumed twice; each resume draws its own
    future dice. Everything blue is shown before the next roll is the same, and so is
    the record on disk.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tests.cli.test_mgv_play import BLUE_ARM, RED_ARM, play

from warbench.cli.main import main
from warbench.core.dice import SecretDice
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.saves import save_game
from warbench.rulesets.mgv.data import rules

CLEAR = Path(__file__).parents[2] / "src/warbench/rulesets/mgv/scenarios/clear.toml"
SHIFTED = {
    "at = [33, 16]": "at = [32.4, 17.7]",
    "at = [33, 10]": "at = [33.6, 10.3]",
    "at = [31.5, 8]": "at = [30.2, 9.8]",
    "at = [33, 20]": "at = [32.1, 21.9]",
}
"""Red's bases of mgv/clear moved within their 2-inch cells (``rules.toml [eye]``)."""
LOOKS = ["map", "list", "info R1", "info R3", "measure B1 R1", "measure 3,8 33,17", "odds"]


def _blue_screens(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    lines: dict[str, list[str]],
) -> list[tuple[str, str]]:
    capsys.readouterr()  # what an earlier run printed after its last prompt
    keys = play(monkeypatch, capsys, argv, lines)
    return [(shown, typed) for side, shown, typed in keys.screens if side == "blue"]


def test_red_moved_within_the_eye_shows_blue_the_same_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    eye = rules().data.eye
    text = CLEAR.read_text("utf-8")
    shifted = text
    for old, new in SHIFTED.items():
        assert old in shifted
        shifted = shifted.replace(old, new)
        was = [float(v) for v in old.removeprefix("at = [").rstrip("]").split(",")]
        now = [float(v) for v in new.removeprefix("at = [").rstrip("]").split(",")]
        assert eye.point((was[0], was[1])) == eye.point((now[0], now[1])) and was != now
    screens = []
    for name, body in (("exact", text), ("shifted", shifted)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "clear.toml").write_text(body, "utf-8")
        monkeypatch.chdir(folder)
        argv = ["play", "clear.toml", "--seed", "0", "--record", "game.json"]
        lines = {"blue": [BLUE_ARM, *LOOKS], "red": [RED_ARM]}
        screens.append(_blue_screens(monkeypatch, capsys, argv, lines))
    exact, moved = screens
    assert len(exact) == len(LOOKS) + 2
    assert "R1 J90 at 33,17 (by eye)" in "".join(s for s, _ in exact)
    assert exact == moved


def test_a_game_resumed_twice_on_secret_dice_shows_the_same_until_a_die_is_rolled(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game = Game(load_scenario("mgv/clear"), None, dice=SecretDice([6, 1]))  # blue wins X
    game.apply(BLUE_ARM, "blue")
    game.apply(RED_ARM, "red")
    assert game.waiting_for() == ("blue",)
    seen = []
    for n in range(2):
        record = tmp_path / f"{n}" / "game.json"
        record.parent.mkdir()
        save_game(game, record, {"players": {"blue": "human", "red": "human"}})
        monkeypatch.chdir(record.parent)
        argv = ["play", "--resume", "game.json"]
        screens = _blue_screens(monkeypatch, capsys, argv, {"blue": LOOKS})
        seen.append((screens, record.read_text("utf-8")))
    assert seen[0] == seen[1]


def test_play_sets_an_option_the_text_leaves_to_the_players(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``--option measuring=free``: friends who measure everything see red exactly."""
    monkeypatch.chdir(tmp_path)
    argv = ["play", "mgv/clear", "--seed", "0", "--option", "measuring=free"]
    screens = _blue_screens(monkeypatch, capsys, argv, {"blue": [BLUE_ARM, "info R1"]})
    shown = "".join(s for s, _ in screens)
    assert "R1 J90 at 33,16 facing" in shown and "(by eye)" not in shown
    assert json_options(tmp_path) == {"measuring": "free"}
    for bad, why in (
        ("measuring=rough", "options.measuring: eye or free, not 'rough'"),
        ("measuring", "--option: measuring: write KEY=VALUE"),
        ("speed=3", "no option 'speed'"),
    ):
        assert main(["play", "mgv/clear", "--option", bad]) == 2
        assert why in capsys.readouterr().err
    assert main(["play", "--resume", "records/clear-0.json", "--option", "core_rule=b"]) == 2
    assert "a resumed game keeps its own" in capsys.readouterr().err


def json_options(folder: Path) -> dict[str, str]:
    record = json.loads((folder / "records" / "clear-0.json").read_text("utf-8"))
    return {k: v for k, v in record["scenario"]["options"].items() if k == "measuring"}


def test_a_bots_move_is_told_by_eye(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The terminal told other sides' moves as typed ("red: move R1 24.75,11.75"): exact
    places. Now where the move ends and faces, by eye (Ruleset.told_action); measured
    freely, as typed."""
    monkeypatch.chdir(tmp_path)
    told = re.compile(r"^ *\d+\. \w+: (move .*)$", re.M)
    argv = ["play", "mgv/clear", "--auto", "--seed", "1", "--side", "blue=greedy"]
    argv += ["--side", "red=greedy"]
    assert main([*argv, "--record", "eye.json"]) == 0
    moves = told.findall(capsys.readouterr().out)
    assert moves
    for move in moves:
        assert "about" in move, move
        for x, y in re.findall(r"(\d+(?:\.\d+)?),(\d+(?:\.\d+)?)", move):
            assert float(x) % 2 == 1 and float(y) % 2 == 1, move  # cell centres
    assert main([*argv, "--record", "free.json", "--option", "measuring=free"]) == 0
    exact = told.findall(capsys.readouterr().out)
    assert exact and not any("about" in m for m in exact)


def test_told_action_keeps_the_rulesets_own_words_and_tells_the_owner_all() -> None:
    game = Game.start("mgv/clear", 0)
    move = game.parse("move R1 24.75,11.75 face 190 beacon B1")
    ruleset = game.ruleset
    assert ruleset.told_action(game.state, "red", move, "red") == str(move)
    assert ruleset.told_action(game.state, "red", move, "blue") == (
        "move R1 to about 25,11 facing about 190 beacon B1"
    )
