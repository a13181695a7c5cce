"""Issue 12 through a real terminal: what a person types to learn the game and to say a
move as a miniatures player would (info, goal, rules, measure, list with reasons, table
phrases, the map once per phase, end confirmed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pexpect
import pytest
from tests.cli.test_play_pexpect import WARBENCH, spawn

pytestmark = pytest.mark.skipif(
    not WARBENCH.exists(), reason="the warbench console script is not installed"
)
LEGEND = "terrain:"
"""A line of every map's legend: counts how often a map was drawn."""


def command(child: pexpect.spawn, line: str, prompt: str) -> str:
    """Type ``line``; what was printed up to the next ``prompt``, line ends made plain."""
    child.sendline(line)
    child.expect_exact(prompt)
    return str(child.before).replace("\r\n", "\n")


def finish(child: pexpect.spawn) -> None:
    child.sendline("quit")
    child.expect_exact("warbench play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_hex_game_info_goal_rules_map_and_a_confirmed_end(tmp_path: Path) -> None:
    record = tmp_path / "bridge.json"
    child = spawn("play", "miniwars/bridge", "--seed", "1", "--record", str(record))
    child.expect_exact("Pass the keyboard to vanguard, then press Enter > ")  # hot-seat
    intro = str(child.before)
    child.sendline("")
    child.expect_exact("vanguard> ")
    start = intro + str(child.before)
    assert "Goal:" in start and "end of turn 8" in start
    assert start.count(LEGEND) == 1
    assert "choose A (fire first" in start  # the prompt says what A and B mean

    out = command(child, "info S1", "vanguard> ")
    assert "S1" in out and "1004" in out
    out = command(child, "info 0504", "vanguard> ")
    assert "G1" in out
    out = command(child, "info Z9", "vanguard> ")
    assert "Z9" in out and "Traceback" not in out
    out = command(child, "goal", "vanguard> ")
    assert "end of turn 8" in out
    out = command(child, "rules", "vanguard> ")
    assert "option fired_units" in out and "ruling 7" in out
    out = command(child, "measure S1 G1", "vanguard> ")
    assert "no measuring" in out

    out = command(child, "choose A", "Pass the keyboard to guards, then press Enter > ")
    assert "   1. vanguard: choose A" in out
    out = command(child, "", "guards> ")  # a cleared screen for the guards' person
    assert "\x1b[2J" in str(child.before) or out.count(LEGEND) == 1
    assert out.count(LEGEND) == 1  # the guards' phase begins: the map once
    out = command(child, "list", "guards> ")
    assert LEGEND not in out  # nothing changed: no map

    # end would skip the guards' shots: asked first, and "n" keeps the game as it was.
    child.sendline("end")
    child.expect_exact("End anyway? [y/N] ")
    assert "skips 3 more legal action(s) of guards" in str(child.before)
    out = command(child, "n", "guards> ")
    assert "Not ended." in out
    child.sendline("end")
    child.expect_exact("End anyway? [y/N] ")
    child.sendline("y")
    child.expect_exact("> ")
    assert "2. guards: end" in str(child.before)
    finish(child)
    actions = json.loads(record.read_text("utf-8"))["actions"]
    assert [a["action"] for a in actions] == ["choose A", "end"]


def test_an_open_table_in_a_players_words(tmp_path: Path) -> None:
    record = tmp_path / "street.json"
    argv = ["play", "vsgmr/street", "--seed", "2", "--side", "blue=greedy"]
    child = spawn(*argv, "--record", str(record))
    child.expect_exact("red> ")
    start = str(child.before)
    assert "facings in degrees: 0 east, 90 north" in start
    assert "R1 hero at 18,2 facing 90deg north" in start
    assert "Radio for help" in start  # the task is drawn and named

    out = command(child, "first red", "red> ")
    assert "1. red: first red" in out
    out = command(child, "list R1", "red> ")
    assert re.search(r"move R1 \S+ face \S+ +\((toward|to cover|face) ", out), out

    out = command(child, "info R1", "red> ")
    assert "hero" in out and "90deg north" in out
    out = command(child, "info 18,18", "red> ")
    assert "Radio for help" in out
    out = command(child, "measure R1 B1", "red> ")
    assert re.search(r'R1 to B1: [0-9.]+" edge to edge', out), out
    assert "line of sight R1 to B1" in out

    out = command(child, "move R1 toward B1 3", "red> ")
    assert "2. red: move R1 18,5" in out
    assert 'R1 moves 3.00"' in out
    out = command(child, "face R2 B2", "red> ")
    assert re.search(r"3\. red: move R2 face \d", out), out
    out = command(child, "charge R3 B3", "red> ")
    assert "R3 cannot charge B3" in out and 'only 6.00" is allowed' in out
    out = command(child, "move R4 to nowhere", "red> ")
    assert "nowhere" in out and "Traceback" not in out
    finish(child)
    actions = [a["action"] for a in json.loads(record.read_text("utf-8"))["actions"]]
    assert actions[1:3] == ["move R1 18,5", actions[2]] and actions[2].startswith("move R2 face")


def test_info_from_the_shell_and_the_goal_in_scenarios() -> None:
    child = pexpect.spawn(
        str(WARBENCH), ["info", "miniwars/bridge", "G1"], encoding="utf-8", timeout=30
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "G1" in str(child.before) and "0504" in str(child.before)
    child = pexpect.spawn(
        str(WARBENCH), ["info", "miniwars/bridge", "Q7"], encoding="utf-8", timeout=30
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2 and "Traceback" not in str(child.before)
