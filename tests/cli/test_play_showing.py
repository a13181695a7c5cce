"""What ``play`` shows a person (issue 12): numbered actions, the map once per phase and
on ``map``, the goal, ``end`` confirmed at a terminal, ``replay --step`` with the board,
``render --at N --events``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console
from tests.cli.test_play import script

from warbench.bots import GreedyBot
from warbench.cli.main import main
from warbench.cli.session import CLEAR_SCREEN, PlaySession
from warbench.core.game import Game

BRIDGE = ["play", "miniwars/bridge", "--seed", "1"]
"""Seed 1: the vanguard wins the initiative and is asked to choose A or B."""
LEGEND = "terrain:"
"""A line of every hex map's legend: counts how often the map was drawn."""


def test_actions_are_numbered_as_replay_numbers_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    script(monkeypatch, ["choose A", "end", "quit"])
    assert main([*BRIDGE, "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "   1. vanguard: choose A" in out
    assert "   2. guards: end" in out
    main(["replay", str(record)])
    replayed = capsys.readouterr().out
    assert "   1. vanguard: choose A" in replayed and "   2. guards: end" in replayed


def test_the_map_is_drawn_once_per_phase_and_on_map(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Typing list and odds in one phase draws nothing again; a new phase and map do.
    script(monkeypatch, ["list", "odds", "goal", "choose A", "list", "map", "quit"])
    assert main([*BRIDGE, "--record", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    before, _, after = out.partition("1. vanguard: choose A")
    assert before.count(LEGEND) == 1  # the vanguard's initiative phase
    shown, _, asked = after.partition("guards> map")
    assert shown.count(LEGEND) == 1  # the guards' missile phase begins: drawn once
    assert asked.count(LEGEND) == 1  # map draws it again


def test_play_starts_with_the_goal_and_goal_repeats_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script(monkeypatch, ["goal", "quit"])
    assert main([*BRIDGE, "--record", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    goal = Game.start("miniwars/bridge").ruleset.goal(Game.start("miniwars/bridge").scenario)
    assert goal and out.count(goal[0]) == 2  # at the start, and on goal


def test_rules_lists_the_options_in_force(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script(monkeypatch, ["rules", "quit"])
    assert main([*BRIDGE, "--record", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    game = Game.start("miniwars/bridge")
    lines = game.ruleset.rules_in_force(game.scenario)
    assert lines and all(line in out for line in lines)


def _at_a_terminal(game: Game, answers: list[str], tmp_path: Path) -> list[str]:
    """Play ``game`` with people on every side typing ``answers`` at a terminal (so an
    end that skips actions is confirmed); returns every prompt they were shown."""
    typed = iter(answers)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        answer = next(typed, None)
        if answer is None:
            raise EOFError  # the people have gone: the session saves and stops
        return answer

    with (tmp_path / "out.txt").open("w", encoding="utf-8") as screen:
        session = PlaySession(
            game,
            dict.fromkeys(game.scenario.sides),
            tmp_path / "g.json",
            Console(file=screen, width=120),
            read=read,
            pause=False,
            interactive=True,
        )
        session.run()
    return prompts


def test_end_skipping_actions_is_confirmed_at_a_terminal(tmp_path: Path) -> None:
    """At a terminal an ``end`` that skips legal actions asks first; "n" keeps the game."""
    game = Game.start("miniwars/bridge", seed=1)
    game.apply("choose A", "vanguard")
    prompts = _at_a_terminal(game, ["", "end", "n", "end", "y", "quit"], tmp_path)
    assert prompts[0] == "Pass the keyboard to guards, then press Enter > "  # hot-seat
    asked = [p for p in prompts if "End anyway?" in p]
    assert len(asked) == 2
    assert "end skips 3 more legal action(s) of guards (G1)" in asked[0]
    assert [str(a.action) for a in game.actions] == ["choose A", "end"]  # the "n" took nothing
    written = json.loads((tmp_path / "g.json").read_text("utf-8"))["actions"]
    assert written[-1] == {"side": "guards", "action": "end"}


def test_piped_end_is_taken_as_meant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    script(monkeypatch, ["choose A", "end", "quit"])
    assert main([*BRIDGE, "--record", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    assert "End anyway?" not in out and "2. guards: end" in out


def test_replay_step_draws_the_board_after_each_action(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    script(monkeypatch, ["choose A", "end", "quit"])
    main([*BRIDGE, "--record", str(record)])
    capsys.readouterr()
    script(monkeypatch, ["", "", "q"])
    main(["replay", str(record), "--step"])
    out = capsys.readouterr().out
    assert out.count(LEGEND) == 3  # the set-up and after each of the two actions
    assert out.index("1. vanguard: choose A") < out.index(LEGEND, out.index("choose A"))
    main(["replay", str(record)])
    assert LEGEND not in capsys.readouterr().out  # without --step: the narration only


def test_render_at_n_lists_the_events_of_action_n(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "game.json"
    script(monkeypatch, ["choose A", "end", "quit"])
    main([*BRIDGE, "--record", str(record)])
    capsys.readouterr()
    assert main(["render", str(record), "--at", "1", "--events"]) == 0
    out = capsys.readouterr().out
    assert "after action 1 of 2, vanguard: choose A" in out
    assert "  vanguard is player A" in out
    svg = tmp_path / "at1.svg"
    assert main(["render", str(record), "--at", "1", "--events", "--svg", str(svg)]) == 0
    assert "<svg" in svg.read_text("utf-8")


def test_invisible_enemys_done_is_an_end_and_confirmed_too(tmp_path: Path) -> None:
    """Invisible Enemy ends a step with ``done`` (an action that ``ends_step``, like ``end``):
    at a terminal it asks first like ``end`` does."""
    game = Game.start("invisible-enemy/company", seed=3)
    bots = {side: GreedyBot(i) for i, side in enumerate(game.scenario.sides)}
    for _ in range(200):  # greedy play until california may be done with legal moves left
        side = game.waiting_for()[0]
        legal = [str(a) for a in game.legal_actions(side)]
        if side == "california" and "done" in legal and len(legal) > 1:
            break
        game.apply(bots[side].choose(game.seat(side), side), side)
    else:
        pytest.fail("no step where california could be done early")
    taken = len(game.actions)
    prompts = _at_a_terminal(game, ["", "done", "n", "quit"], tmp_path)
    assert any("done skips" in p and "End anyway?" in p for p in prompts)
    assert len(game.actions) == taken


def test_hot_seat_hides_each_persons_screen_and_sealed_typing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two people at one terminal (issue 24, fair point 5): between seats the screen and
    its scrollback are cleared and the keyboard handed over with Enter; a sealed choice
    (MGV's weapons) is typed without echo (getpass), never through the echoing prompt."""
    game = Game.start("mgv/clear", seed=7)
    unseen: list[str] = []
    blue, red = (str(game.legal_actions(side)[0]) for side in ("blue", "red"))

    def hidden(prompt: str) -> str:
        unseen.append(prompt)
        return blue if len(unseen) == 1 else red

    monkeypatch.setattr("getpass.getpass", hidden)
    prompts = _at_a_terminal(game, ["", ""], tmp_path)
    assert prompts[:2] == [
        "Pass the keyboard to blue, then press Enter > ",
        "Pass the keyboard to red, then press Enter > ",
    ]
    assert unseen == [
        "blue (typed unseen: a sealed choice)> ",
        "red (typed unseen: a sealed choice)> ",
    ]
    screen = (tmp_path / "out.txt").read_text("utf-8")
    assert screen.count(CLEAR_SCREEN) >= 4  # before and after each hand-over
    assert blue not in screen and red not in screen  # the choices never echoed
    assert [t.sealed for t in game.actions] == [True, True]
