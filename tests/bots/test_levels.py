"""Difficulty levels (issue 26, point 5): easy, normal and hard name bots, take options,
and play from the command line under the level's time limit."""

from __future__ import annotations

import pytest

from warbench.bots import LEVELS, GreedyBot, PlannerBot, SearchBot, bot_names, make_bot
from warbench.bots.timing import expected_seconds
from warbench.cli.main import main
from warbench.errors import WarbenchError


def test_levels_stand_for_bots() -> None:
    assert list(LEVELS) == ["easy", "normal", "hard"]
    assert bot_names()[:3] == ("easy", "normal", "hard")
    assert type(make_bot("easy", 1)) is GreedyBot
    assert type(make_bot("normal", 1)) is PlannerBot
    hard = make_bot("hard", 1)
    assert isinstance(hard, SearchBot) and hard.time == 1.0


def test_a_level_takes_its_bots_options_which_override_its_own() -> None:
    hard = make_bot("hard:time=0.25,width=2", 1)
    assert isinstance(hard, SearchBot) and (hard.time, hard.width) == (0.25, 2)
    with pytest.raises(WarbenchError, match="no option 'depth'"):
        make_bot("hard:depth=3", 1)
    assert expected_seconds("hard:time=0.25", "miniwars") == 0.25


def test_a_level_plays_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "play",
            "miniwars/bridge",
            "--auto",
            "--seed",
            "3",
            "--side",
            "guards=hard:time=0.02",
            "--side",
            "vanguard=easy",
        ]
    )
    assert code == 0
    assert "wins" in capsys.readouterr().out.lower()
