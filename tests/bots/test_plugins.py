"""Bots of one's own: ``--side SIDE=module:Class`` for ``play`` and ``simulate``, installed
bots by the entry-point group ``warbench.bots``, and the example bot under ``examples/``.

The example bot is imported from ``examples/`` (put on ``sys.path`` as a user's
``PYTHONPATH=examples`` would) and plays through the very commands a programmer
runs; a bad name gets one clear error naming what is wrong.
"""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import warbench.bots as bots
from warbench.bots import bot_names, make_bot
from warbench.cli.main import main
from warbench.errors import WarbenchError

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = "aggressive_bot:AggressiveBot"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def examples_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(EXAMPLES))


@pytest.mark.usefixtures("examples_on_path")
def test_the_example_bot_plays_through_simulate(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        "simulate",
        "miniwars/danville",
        "--games",
        "6",
        "--side",
        f"horde={EXAMPLE}",
        "--side",
        "danville=greedy",
        "--seed",
        "1",
        "--workers",
        "2",
        "--json",
    )
    assert status == 0, err
    data = json.loads(out)
    assert data["games"] == 6
    assert EXAMPLE in json.dumps(data)


@pytest.mark.usefixtures("examples_on_path")
def test_the_example_bot_plays_a_whole_game_through_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = run(
        capsys,
        "play",
        "vsgmr/street",
        "--side",
        f"red={EXAMPLE}",
        "--side",
        "blue=random",
        "--seed",
        "3",
        "--auto",
    )
    assert status == 0, err
    assert "Game over" in out


@pytest.mark.usefixtures("examples_on_path")
def test_the_example_bot_attacks_when_it_can() -> None:
    from aggressive_bot import ATTACK_WORDS  # type: ignore[import-not-found]

    from warbench.core.game import Game

    bot = make_bot(EXAMPLE, 1)
    assert bot.name == "aggressive"
    game = Game.start("miniwars/danville", seed=2)
    for _ in range(200):
        if game.is_over:
            break
        side = game.waiting_for()[0]
        legal = [str(a) for a in game.legal_actions(side)]
        action = bot.choose(game.seat(side), side)
        if any(t.split()[0] in ATTACK_WORDS for t in legal):
            assert str(action).split()[0] in ATTACK_WORDS
        game.apply(action, side)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("no_such_module_xyz:Bot", "cannot import no_such_module_xyz"),
        ("warbench.bots:NoSuchBot", "warbench.bots has no NoSuchBot"),
        ("warbench.bots:BOT_NAMES", "is not a class or a function of a seed"),
        ("warbench.bots.base:WarbenchError", "has no choose()"),
        ("nonsense", "unknown bot 'nonsense'"),
    ],
)
def test_a_bad_bot_name_is_one_clear_error(name: str, message: str) -> None:
    with pytest.raises(WarbenchError, match=message):
        make_bot(name, 0)


def test_a_bad_bot_on_the_command_line_exits_2_without_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = run(
        capsys,
        "simulate",
        "miniwars/danville",
        "--games",
        "1",
        "--side",
        "horde=no_such_module_xyz:Bot",
    )
    assert status == 2
    assert err.strip().startswith("warbench: ") and "cannot import" in err
    assert "Traceback" not in err


def test_installed_bots_appear_by_name(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A package's entry point in the group ``warbench.bots`` makes its bot a name."""
    found = [EntryPoint("steady", "warbench.bots.random_bot:RandomBot", bots.ENTRY_POINTS)]
    monkeypatch.setattr(
        bots, "entry_points", lambda group: found if group == bots.ENTRY_POINTS else []
    )
    bots.installed_bots.cache_clear()
    try:
        assert "steady" in bot_names()
        assert make_bot("steady", 3).name == "random"
        status, out, _ = run(capsys, "bots")
        assert status == 0
        assert "steady" in out and "installed" in out
    finally:
        bots.installed_bots.cache_clear()


SEEDLESS = '''
class FirstBot:
    """Takes the first legal action: no seed, no name (the least a bot can be)."""

    def choose(self, game, side):
        return game.legal_actions(side)[0]


class Broken:
    def __init__(self, seed, needed):
        pass
'''


@pytest.fixture
def seedless_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "seedless_bots.py").write_text(SEEDLESS, "utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))


@pytest.mark.usefixtures("seedless_on_path")
def test_a_bot_class_without_a_seed_or_a_name_plays_through_simulate_and_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A class whose constructor takes no seed is made without one (it used to be a
    traceback in ``simulate`` and ``play``), and is called by its class's name."""
    status, _, err = run(
        capsys,
        *("simulate", "miniwars/bridge", "--games", "2", "--seed", "1"),
        *("--side", "guards=seedless_bots:FirstBot", "--side", "vanguard=random"),
    )
    assert status == 0, err
    monkeypatch.chdir(tmp_path)
    status, out, err = run(
        capsys,
        *("play", "miniwars/bridge", "--seed", "1", "--auto"),
        *("--side", "guards=seedless_bots:FirstBot", "--side", "vanguard=random"),
    )
    assert status == 0, err
    assert "guards: FirstBot bot" in out and "Game over" in out


@pytest.mark.usefixtures("seedless_on_path")
def test_a_bot_that_cannot_be_made_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys,
        *("simulate", "miniwars/bridge", "--games", "2"),
        *("--side", "guards=seedless_bots:Broken"),
    )
    assert status == 2
    assert "bot 'seedless_bots:Broken' could not be made: TypeError" in err
    assert "Traceback" not in err + out
