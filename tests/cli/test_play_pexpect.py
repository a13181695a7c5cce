"""``warbench play`` driven through a terminal, as a person would type it."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

WARBENCH = Path(sys.executable).parent / "warbench"
PROMPT = "danville> "
STATUS = re.compile(r"Turn \d+, [^.\r\n]+\. danville: [^\r\n]*")
TIMEOUT = 30


def spawn(*args: str) -> pexpect.spawn:
    """Start the console script in a pseudo-terminal without colours, 200 columns wide."""
    env = {**os.environ, "TERM": "dumb", "COLUMNS": "200", "LINES": "50", "NO_COLOR": "1"}
    return pexpect.spawn(
        str(WARBENCH), list(args), env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200)
    )


def command(child: pexpect.spawn, line: str) -> str:
    """Type ``line`` and return what was printed up to the next prompt."""
    child.sendline(line)
    child.expect_exact(PROMPT)
    return str(child.before)


def last_status(text: str) -> str:
    found = STATUS.findall(text)
    assert found, text
    return str(found[-1])


@pytest.mark.skipif(not WARBENCH.exists(), reason="the warbench console script is not installed")
def test_play_in_a_terminal_then_resume(tmp_path: Path) -> None:
    record, saved = tmp_path / "game.json", tmp_path / "saved.json"
    start = ["play", "miniwars/danville", "--side", "horde=random", "--seed", "3"]
    child = spawn(*start, "--record", str(record))
    child.expect_exact(PROMPT)
    status = last_status(str(child.before))

    out = command(child, "mvoe G1 0706")
    assert "unknown action 'mvoe'" in out

    out = command(child, "list")
    assert "move G1: " in out

    out = command(child, "odds")
    if "No legal action now involves dice" not in out:  # an attack or a fire is on offer
        assert "needs" in out

    out = command(child, "move G1 0706")
    assert "danville: move G1 0706" in out
    status = last_status(out)

    out = command(child, "undo")
    assert "Took back your action: move G1 0706" in out

    out = command(child, "move G1 0706")
    status = last_status(out)

    out = command(child, f"save {saved}")
    assert "Saved to" in out and saved.exists()

    child.sendline("quit")
    child.expect_exact("warbench play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    actions = json.loads(record.read_text("utf-8"))["actions"]
    assert actions[-1] == {"side": "danville", "action": "move G1 0706"}

    child = spawn("play", "--resume", str(record))
    child.expect_exact(PROMPT)
    shown = str(child.before)
    assert f"Resumed after {len(actions)} actions." in shown
    assert last_status(shown) == status
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
