"""``warbench play`` in-process, with the person's lines scripted through ``input``."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from warbench.cli.main import main

# Seed 3 with a random horde: danville (the person) is asked to move first.
START = ["play", "miniwars/danville", "--side", "horde=random", "--seed", "3"]


def script(monkeypatch: pytest.MonkeyPatch, lines: Iterable[str]) -> None:
    """Make ``input`` answer ``lines`` in turn (echoing prompts), then end of input."""
    answers = iter(lines)

    def fake_input(prompt: str = "") -> str:
        print(prompt, end="")
        try:
            line = next(answers)
        except StopIteration:
            raise EOFError from None
        print(line)
        return line

    monkeypatch.setattr("builtins.input", fake_input)


def actions_in(path: Path) -> list[dict[str, str]]:
    actions: list[dict[str, str]] = json.loads(path.read_text("utf-8"))["actions"]
    return actions


def test_commands_at_the_prompt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record, copy = tmp_path / "game.json", tmp_path / "copy.json"
    lines = [
        "mvoe G1 0706",
        "7",
        "list",
        "odds move G1 0706",
        "odds",
        "1",
        "undo",
        "list",
        "1",
        f"save {copy}",
        "help",
        "map",
        "quit",
    ]
    script(monkeypatch, lines)
    assert main([*START, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "illegal action 'mvoe G1 0706': unknown action 'mvoe'" in out
    assert "type list first" in out
    assert "move G1: " in out  # a long list is grouped by unit
    assert "move G1 0706: no dice are rolled" in out
    assert "Took back your action: move" in out
    assert f"Saved to {copy}" in out
    assert "undo" in out and "move UNIT HEX" in out  # help: commands and action forms
    assert f"warbench play --resume {record}" in out
    taken = actions_in(record)
    assert taken == actions_in(copy)
    assert taken[-1]["side"] == "danville" and taken[-1]["action"].startswith("move ")
    assert [a["side"] for a in taken[:-1]] == ["horde"]  # the typo and the undo left no trace


def test_resume_continues_with_the_same_players(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    script(monkeypatch, ["move G1 0706", "quit"])
    assert main([*START, "--record", str(record)]) == 0
    first = capsys.readouterr().out
    script(monkeypatch, ["quit"])
    assert main(["play", "--resume", str(record)]) == 0
    again = capsys.readouterr().out
    assert "Resumed after 2 actions." in again
    assert "events (all are public):" in again  # where the game stood
    moved = [line for line in first.splitlines() if "G1" in line and "0706" in line]
    assert moved and moved[-1] in again
    assert "horde: random bot" in again
    status = [line for line in first.splitlines() if line.startswith("Turn ")][-1]
    assert status in again
    assert len(actions_in(record)) == 2


def test_resume_keeps_a_bots_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The record names a bot as it was given (``mcts:iterations=3,depth=2``), so a
    resumed game plays it with the same options, not the defaults."""
    record = tmp_path / "game.json"
    script(monkeypatch, ["quit"])
    start = ["play", "miniwars/bridge", "--side", "vanguard=mcts:iterations=3,depth=2"]
    assert main([*start, "--seed", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    players = json.loads(record.read_text())["players"]
    assert players == {"guards": "human", "vanguard": "mcts:iterations=3,depth=2"}
    script(monkeypatch, ["end", "quit"])
    assert main(["play", "--resume", str(record)]) == 0
    assert "Resumed" in capsys.readouterr().out
    assert json.loads(record.read_text())["players"] == players


def test_end_of_input_quits_and_keeps_the_record(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    script(monkeypatch, [])
    assert main([*START, "--record", str(record)]) == 0
    assert "--resume" in capsys.readouterr().out
    assert record.exists()


def test_resume_refuses_another_seed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    script(monkeypatch, ["quit"])
    main([*START, "--record", str(record)])
    capsys.readouterr()
    assert main(["play", "--resume", str(record), "--seed", "4"]) == 2
    assert "seed 3, not 4" in capsys.readouterr().err


def test_auto_refuses_a_human_side(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "miniwars/bridge", "--auto", "--side", "guards=human"]) == 2
    assert "--auto needs a bot on every side" in capsys.readouterr().err


def test_bots_only_game_pauses_until_told_to_play_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    script(monkeypatch, ["", "m", "a"])
    argv = ["play", "miniwars/bridge", "--seed", "5", "--record", str(record)]
    assert main([*argv, "--side", "guards=random", "--side", "vanguard=random"]) == 0
    out = capsys.readouterr().out
    assert "Game over after turn" in out
    assert json.loads(record.read_text("utf-8"))["outcome"] is not None


def test_odds_on_an_open_table_asks_the_rules_about_moves_not_listed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Table games list candidates only: odds of any typed move says if it is possible."""
    lines = ["first red", "odds move R1 18,5", "odds move R1 18,30", "move R1 18,5", "quit"]
    script(monkeypatch, lines)
    record = tmp_path / "street.json"
    args = ["play", "vsgmr/street", "--side", "blue=random", "--seed", "2", "--record", str(record)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "move R1 18,5: no dice are rolled" in out
    assert "move R1 18,30 is not possible now: the move costs" in out
    assert actions_in(record)[-1] == {"side": "red", "action": "move R1 18,5"}


MGV_ARM = "arm B1=photon B1.secondary=photon B2=missile B3=missile B4=photon B4.secondary=kinetic"


@pytest.mark.parametrize(
    ("game", "lines", "stored"),
    [
        (
            ["vsgmr/street", "--side", "blue=random", "--seed", "2"],
            ["first red", "move R1 turn left 90 reverse 1"],
            {"side": "red", "action": "move R1 19,2@180"},
        ),
        (
            ["mgv/clear", "--side", "red=random", "--seed", "0"],
            [MGV_ARM, "phase move", "move B1 turn left 40 reverse 1"],
            {"side": "blue", "action": "move B1 2.234,7.3572@40"},
        ),
        (
            ["invisible-enemy/company", "--side", "california=random", "--seed", "0"],
            ["buy none", "done", "unit AS", "move A1 turn right 40 reverse 1"],
            {"side": "australia", "action": "move A1 33.766,9.3572@140"},
        ),
    ],
)
def test_a_move_in_relative_steps_is_played_and_recorded_in_canonical_form(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    game: list[str],
    lines: list[str],
    stored: dict[str, str],
) -> None:
    """Issue 25: turn, then back up, as a person types it at the prompt; ``help`` lists the
    steps; the record holds the canonical absolute legs (``X,Y@F``)."""
    record = tmp_path / "game.json"
    script(monkeypatch, ["help", *lines, "quit"])
    assert main(["play", *game, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "forward IN, reverse|back IN, turn left|right DEG, toward X,Y" in out
    assert "illegal" not in out
    assert actions_in(record)[-1] == stored
