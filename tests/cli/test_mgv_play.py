"""``warbench play`` with MGV: sealed and held prompts end to end, hot-seat and against a bot.

In an MGV fire phase the firing side writes its photon range guesses (a sealed
choice *held* by the engine: it stays secret while the declaration, the
defender's screens and the sealed missile splits follow), then the dice open
it. These tests play it at the prompt: the held prompt says the choice stays
secret until the dice; nothing printed and nothing in the shared record shows
the guess before the reveal; ``odds`` during the range step names no distance
and the map shows the other side's bases by eye only; a game saved mid-fire
(after the guess, before the splits) resumes and plays on, whichever side holds
the guess. In-process with scripted ``input`` (as ``test_hot_seat_secrets.py``),
and once through a terminal (as ``test_play_pexpect.py``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pexpect
import pytest

from warbench.cli.main import main
from warbench.cli.session import HELD_NOTE, SEALED_NOTE
from warbench.core.saves import sealed_path

SEED = "0"
"""mgv/clear with seed 0: blue wins the X roll and may fire first."""
BLUE_ARM = "arm B1=photon B1.secondary=photon B2=missile B3=missile B4=photon B4.secondary=kinetic"
RED_ARM = "arm R1=photon R1.secondary=kinetic R2=missile R3=missile R4=kinetic R4.secondary=kinetic"
GUESS = "33.75"
"""blue's guess for B4 (a quarter-inch step): written nowhere shared before the dice."""
DECLARE = "fire B4>R4 B2>R1 B3>R4"
"""B4's photon at R4, B2's and B3's missiles: missile attacks 2 and 3, so a split round."""
SPLIT = "split 2=1/0/0 3=1/0/0"
BLOCK = "block 2=2/1/0 3=1/1/0"
DISTANCE = re.compile(r"\d+(?:\.\d+)?\s*(?:in\b|inch|\"|'')")
"""A length in the text: what the prompt must never show while a range guess is asked."""


class Keyboard:
    """People at one keyboard: each side's lines in turn (then end of input), and what
    was printed before each prompt, tagged with the side asked."""

    def __init__(self, capsys: pytest.CaptureFixture[str], lines: Mapping[str, Iterable[str]]):
        self.capsys = capsys
        self.lines = {side: list(typed) for side, typed in lines.items()}
        self.screens: list[tuple[str, str, str]] = []
        """(side asked, what was printed before its prompt, what it typed)."""
        self.records: list[str] = []
        """The shared record on disk at each prompt (when given a path to read)."""
        self.record: Path | None = None

    def __call__(self, prompt: str = "") -> str:
        side = prompt.removesuffix("> ")
        shown = self.capsys.readouterr().out
        if self.record is not None and self.record.exists():
            self.records.append(self.record.read_text("utf-8"))
        waiting = self.lines.get(side, [])
        if not waiting:
            self.screens.append((side, shown, ""))
            raise EOFError
        typed = waiting.pop(0)
        self.screens.append((side, shown, typed))
        return typed

    def after(self, typed: str, side: str | None = None) -> str:
        """What was printed in answer to the first line ``typed`` (by ``side``), up to the
        next prompt."""
        pairs = zip(self.screens, self.screens[1:], strict=False)
        for (asked, _, line), (_, shown, _) in pairs:
            if line == typed and side in (None, asked):
                return shown
        raise AssertionError(f"{typed!r} was not typed, or nothing followed it")

    def text(self) -> str:
        return "".join(shown for _, shown, _ in self.screens) + self.capsys.readouterr().out


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    lines: Mapping[str, Iterable[str]],
    record: Path | None = None,
) -> Keyboard:
    keyboard = Keyboard(capsys, lines)
    keyboard.record = record
    monkeypatch.setattr("builtins.input", keyboard)
    assert main(argv) == 0
    return keyboard


def fixed_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seed the bots from a constant instead of a private random number (reproducible)."""
    monkeypatch.setattr("warbench.cli.play.secrets.randbits", lambda bits: 1234)


def other_side_by_eye(screen: str, other: str = "R") -> None:
    """Every place of the other side's bases shown is a cell centre of the eye model
    (2-inch cells: odd whole numbers), marked as seen by eye."""
    flat = " ".join(screen.split())
    found = re.findall(
        rf"\b{other}\d \w+ at (-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)( \(by eye\))?", flat
    )
    assert found, screen
    for x, y, marked in found:
        assert marked, f"{x},{y} is not said to be by eye"
        assert float(x) % 2 == 1 and float(y) % 2 == 1, f"finer than the eye: {x},{y}"


# -- hot-seat ------------------------------------------------------------------------------
def test_hot_seat_fire_phase_keeps_the_held_guess_secret_and_resumes_mid_fire(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "clear.json"
    blue = [BLUE_ARM, "phase fire", "odds", "odds fire B4>R4", "odds range B4>R4=5", "map"]
    blue += [f"range B4>R4={GUESS}", DECLARE]
    red = [RED_ARM, "undo", "list", "odds", "map", "screen none"]
    argv = ["play", "mgv/clear", "--seed", SEED, "--record", str(record)]
    keys = play(monkeypatch, capsys, argv, {"blue": blue, "red": red}, record)

    # The arm round: an ordinary sealed round, said so at the prompt.
    assert keys.screens[0][0] == "blue" and SEALED_NOTE in keys.screens[0][1]
    # The range step: the held prompt, red by eye, no distance anywhere.
    asked = keys.after("phase fire")
    assert "write your photon range guesses" in asked
    assert HELD_NOTE in asked and "until it is resolved at the dice" in HELD_NOTE
    other_side_by_eye(asked)
    other_side_by_eye(keys.after("map"))
    for typed in ("odds", "odds fire B4>R4", "odds range B4>R4=5"):
        assert not DISTANCE.search(keys.after(typed)), keys.after(typed)
    assert "No legal action now involves dice." in keys.after("odds")
    assert "range B4>R4=5: no dice are rolled" in keys.after("odds range B4>R4=5")
    taken = keys.after(f"range B4>R4={GUESS}")
    assert "blue makes a sealed choice, held secret until it is resolved" in taken
    assert "declare the target of every mount" in taken

    # red never sees the guess: not on screen, not in the record on disk.
    assert all(GUESS not in text for text in keys.records)
    seen_by_red = "".join(shown for side, shown, _ in keys.screens if side == "red")
    assert GUESS not in seen_by_red
    assert "only blue may take it back" in keys.after("undo", "red")
    # The split round is asked (blue first) and blue quits there: mid-fire, guess held.
    assert keys.screens[-1][0] == "blue" and "split your missile dice" in keys.screens[-1][1]
    actions = json.loads(record.read_text("utf-8"))["actions"]
    assert [e.get("action", "<sealed>") for e in actions][2:] == [
        "phase fire",
        "<sealed>",
        DECLARE,
        "screen none",
    ]
    assert GUESS not in record.read_text("utf-8")
    assert GUESS in sealed_path(record, "blue").read_text("utf-8")
    assert not sealed_path(record, "red").exists()

    # Resume: both sides play on; the dice open the guess.
    lines = {"blue": [SPLIT], "red": ["undo", BLOCK, "mark auto", "mark auto"]}
    keys = play(monkeypatch, capsys, ["play", "--resume", str(record)], lines, record)
    start = keys.screens[0][1]
    assert "Resumed after 6 actions." in start
    assert "Sealed choices not yet revealed: blue (held until it is resolved)." in start
    assert SEALED_NOTE in start and "split your missile dice" in start
    assert "cannot undo: the last action was blue's" in keys.after("undo", "red")
    before_reveal, _, after = keys.text().partition("range guesses revealed")
    assert GUESS not in before_reveal.replace(SPLIT, "")
    assert after.startswith(f": B4 at R4 {GUESS}in"), after[:80]
    assert "missile dice revealed: attack 2: 1/0/0 against 2/1/0" in before_reveal
    assert not sealed_path(record, "blue").exists()
    assert json.loads(record.read_text("utf-8"))["actions"][3] == {
        "side": "blue",
        "action": f"range B4>R4={GUESS}",
    }


def test_resume_tells_who_holds_a_secret_and_of_which_kind(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """blue holds its guess and has split (red's block to come): two secrets, both told."""
    from warbench.core.game import Game
    from warbench.core.saves import save_game

    game = Game.start("mgv/clear", seed=int(SEED))
    for side, line in [
        ("blue", BLUE_ARM),
        ("red", RED_ARM),
        ("blue", "phase fire"),
        ("blue", f"range B4>R4={GUESS}"),
        ("blue", DECLARE),
        ("red", "screen none"),
        ("blue", SPLIT),
    ]:
        game.apply(line, side)
    record = tmp_path / "clear.json"
    save_game(game, record, {"players": {"blue": "human", "red": "human"}})
    keys = play(monkeypatch, capsys, ["play", "--resume", str(record)], {"red": ["list"]})
    start = keys.screens[0][1]
    assert keys.screens[0][0] == "red"
    assert (
        "Sealed choices not yet revealed: blue (one held until it is resolved, one in the "
        "round now asked)." in start
    )
    assert GUESS not in keys.text() and SPLIT not in keys.text()


# -- against a bot -------------------------------------------------------------------------
def test_against_a_bot_that_holds_its_guess_the_game_resumes_mid_fire(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Seed 1: red (the greedy bot) wins the X roll and fires, holding a range guess; blue
    (the person) quits at the screen prompt. The bot's held guess is in red's file (the
    actions after it need it), the record holds only its commitment; resume plays on."""
    fixed_bots(monkeypatch)
    record = tmp_path / "clear.json"
    argv = ["play", "mgv/clear", "--seed", "1", "--side", "red=greedy", "--record", str(record)]
    keys = play(monkeypatch, capsys, argv, {"blue": [BLUE_ARM, "odds", "undo"]}, record)
    shown = keys.text()
    assert "red makes a sealed choice, held secret until it is resolved" in shown
    assert "screen declared attacks" in keys.after(BLUE_ARM)
    actions = json.loads(record.read_text("utf-8"))["actions"]
    held = [i for i, e in enumerate(actions) if "sealed" in e]
    assert len(held) == 1 and actions[held[0]]["side"] == "red"
    assert actions[held[0] + 1]["side"] == "red" and actions[held[0] + 1]["action"][:5] == "fire "
    assert sealed_path(record, "red").exists()
    assert "range guesses revealed" not in shown
    assert "cannot undo: the last action was red's" in keys.after("undo")

    lines = {"blue": ["screen none", "list", "1", "mark auto", "mark auto", "mark auto"]}
    keys = play(monkeypatch, capsys, ["play", "--resume", str(record)], lines, record)
    text = keys.text()
    assert "Sealed choices not yet revealed: red (held until it is resolved)." in text
    assert "red's range guesses revealed" in text
    assert not sealed_path(record, "red").exists()


def test_a_person_firing_against_a_bot_resumes_before_the_splits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fixed_bots(monkeypatch)
    record = tmp_path / "clear.json"
    argv = ["play", "mgv/clear", "--seed", SEED, "--side", "red=greedy", "--record", str(record)]
    lines = {"blue": [BLUE_ARM, "phase fire", f"range B4>R4={GUESS}", DECLARE]}
    keys = play(monkeypatch, capsys, argv, lines, record)
    assert "split your missile dice" in keys.screens[-1][1]
    assert GUESS not in record.read_text("utf-8")
    assert not sealed_path(record, "red").exists()  # the bot's split: never written

    keys = play(monkeypatch, capsys, ["play", "--resume", str(record)], {"blue": [SPLIT]}, record)
    text = keys.text()
    assert "Sealed choices not yet revealed: blue (held until it is resolved)." in text
    assert "red makes a sealed choice" in text
    assert f"blue's range guesses revealed: B4 at R4 {GUESS}in" in text


# -- through a terminal ---------------------------------------------------------------------
WARBENCH = Path(sys.executable).parent / "warbench"
TIMEOUT = 60


def spawn(*args: str, cwd: Path) -> pexpect.spawn:
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "200", "LINES": "50", "NO_COLOR": "1"}
    return pexpect.spawn(
        str(WARBENCH),
        list(args),
        env=env,
        encoding="utf-8",
        timeout=TIMEOUT,
        dimensions=(50, 200),
        cwd=str(cwd),
    )


def command(child: pexpect.spawn, line: str, prompt: str = "blue> ") -> str:
    child.sendline(line)
    child.expect_exact(prompt)
    return str(child.before)


@pytest.mark.skipif(not WARBENCH.exists(), reason="the warbench console script is not installed")
def test_mgv_against_a_bot_in_a_terminal_then_resume_mid_fire(tmp_path: Path) -> None:
    record = tmp_path / "clear.json"
    child = spawn(
        "play", "mgv/clear", "--side", "red=greedy", "--seed", SEED, "--record", str(record),
        cwd=tmp_path,
    )  # fmt: skip
    child.expect_exact("blue> ")
    assert "choose the weapon type" in str(child.before)
    command(child, BLUE_ARM)
    out = command(child, "phase fire")
    assert "write your photon range guesses" in out
    assert "it stays secret from the other side until it is resolved at the dice" in out
    other_side_by_eye(out)
    other_side_by_eye(command(child, "map"))
    odds = command(child, "odds") + command(child, "odds fire B4>R4")
    assert not DISTANCE.search(odds), odds
    out = command(child, f"range B4>R4={GUESS}")
    assert "blue makes a sealed choice, held secret until it is resolved" in out
    out = command(child, DECLARE)
    assert "split your missile dice" in out
    child.sendline("quit")
    child.expect_exact("warbench play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert GUESS not in record.read_text("utf-8")

    child = spawn("play", "--resume", str(record), cwd=tmp_path)
    child.expect_exact("blue> ")
    shown = str(child.before)
    assert "Sealed choices not yet revealed: blue (held until it is resolved)." in shown
    assert "split your missile dice" in shown
    child.sendline(SPLIT)
    child.expect_exact("range guesses revealed")
    child.expect_exact("> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
