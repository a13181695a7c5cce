"""The play prompt under junk: digits that are not ASCII, numbers too long for ``int``,
``odds`` of garbage, ``save`` to odd paths, control characters, very long lines.

One built-in scenario of every registered ruleset, every side played by a person,
driven through ``warbench.cli.play.run`` with a scripted reader. A few real
actions are taken first (``list`` then ``1``), then the junk, then ``quit``. No
exception may escape, the exit status is 0, nothing printed carries a raw
control character, and the record on disk is just as the junk found it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from warbench.cli.main import parse
from warbench.cli.play import run
from warbench.core import registry
from warbench.core.loader import builtin_scenarios, load_scenario

HUGE_NUMBER = "9" * 5000
REAL_PICKS = 3
"""Actions taken (``list``, ``1``) before the junk, so the record holds some."""

JUNK_LINES = [
    "\u00b2",  # superscript two: isdigit() is True, int() refuses it
    "\u0661\u0662",  # Arabic-Indic twelve: int() reads it as 12
    "\u00bd",
    "\uff11",
    HUGE_NUMBER,
    "list",
    "99999999999999999999",
    "0",
    "-1",
    "list \u00b2",
    "list " + HUGE_NUMBER,
    "odds",
    "odds \u00b2",
    "odds \u0661\u0662",
    "odds " + HUGE_NUMBER,
    "odds move",
    "odds move \x00 \x1b[2J",
    "odds end end",
    "odds " + "x" * 20_000,
    "odds \udcff",
    "move \u00b2 \u0661\u0662",
    "move " + "1" * 8600,
    "nan",
    "inf",
    "-0",
    "1e308",
    "\x00",
    "\x1b[2J\x1b[31mred",
    "\x07\x08\x7f\x9b",
    "\udcff",
    "\u202e\u2028\u2029",
    "x" * 100_000,
    " ".join(["end"] * 3_000),
    "save",
    "save \x00",
    "save nul\x00byte.json",
    "save \x1b[2Jescape.json",
    "save \u00b2.json",
    "save " + "a" * 5000,
    "save " + "/".join(["d"] * 300) + "/x.json",
    "save .",
    "save ..",
    "save /",
    "save /dev/null",
    "save /proc/self/no/such/dir/x.json",
    "save \udcff.json",
    "save sub/dir/\u0661.json",
    "map \x1b",
    "help \udcff",
    "quit\x00",
]


def _one_scenario_per_ruleset() -> list[Any]:
    chosen: dict[str, str] = {}
    for sid in sorted(builtin_scenarios()):
        name = registry.get(sid.split("/")[0]).info.name
        chosen.setdefault(name, sid)
    return [pytest.param(sid, id=sid) for sid in chosen.values()]


def _reader(lines: list[str], on_junk: Callable[[], None]) -> Callable[[str], str]:
    """Answer ``lines`` in turn; call ``on_junk`` just before the first junk line."""
    answers: Iterator[tuple[int, str]] = enumerate(lines)
    start = 2 * REAL_PICKS

    def read(prompt: str = "") -> str:
        try:
            n, line = next(answers)
        except StopIteration:
            raise EOFError from None
        if n == start:
            on_junk()
        return line

    return read


def _raw_controls(text: str) -> list[str]:
    return sorted({ch for ch in text if not ch.isprintable() and ch != "\n"})


def _record(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


@pytest.mark.parametrize("scenario_id", _one_scenario_per_ruleset())
def test_junk_at_the_prompt_changes_nothing_and_prints_no_control_characters(
    scenario_id: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)  # relative odd paths of `save` stay in here
    record = tmp_path / "game.json"
    sides = load_scenario(scenario_id).sides
    argv = ["play", scenario_id, "--seed", "1", "--record", str(record)]
    for side in sides:
        argv += ["--side", f"{side}=human"]
    seen: list[Any] = []
    lines = ["list", "1"] * REAL_PICKS + JUNK_LINES + ["quit"]
    read = _reader(lines, lambda: seen.append(_record(record)))

    status = run(parse(argv), read=read)

    out, err = capsys.readouterr()
    assert status == 0
    assert seen, "the junk was never typed"
    before = seen[0]
    assert len(before["actions"]) == REAL_PICKS, "the real actions were not all taken"
    assert _record(record) == before, "the junk changed the record"
    for name, text in (("stdout", out), ("stderr", err)):
        assert not _raw_controls(text), f"raw control characters on {name}"
    assert "Traceback" not in out + err
