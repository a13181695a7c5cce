"""``warbench tune RULESET``: a ruleset's tuning tool, kept beside its rules (issue 28)."""

from __future__ import annotations

import pytest

from warbench.cli.main import main
from warbench.cli.tune import tunable


def test_mgv_has_a_tuning_tool_and_takes_its_own_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert tunable() == ["mgv"]
    with pytest.raises(SystemExit) as done:
        main(["tune", "mgv", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: warbench tune mgv")
    assert "--missile-trials" in out


def test_a_ruleset_without_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", "miniwars"]) == 2
    err = capsys.readouterr().err
    assert "miniwars has no tuning tool (rulesets with one: mgv)" in err


def test_an_unknown_ruleset_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", "chess"]) == 2
    assert "unknown ruleset 'chess'" in capsys.readouterr().err
