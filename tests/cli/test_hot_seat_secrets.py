"""Hot-seat play keeps sealed choices secret: nothing printed for one side, and nothing in
the shared record, shows the other side's choice before the reveal (issue 8, part 1).

Played on the test-only duel (sealed rock/paper/scissors), both sides at one keyboard.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from warbench.cli.main import main
from warbench.core.saves import sealed_path
from warbench.errors import UndoError


def _scenario(tmp_path: Path) -> Path:
    path = tmp_path / "duel.toml"
    path.write_text('ruleset = "test-duel"\nsides = ["ann", "bob"]\npoints_to_win = 1\n', "utf-8")
    return path


def _ann_throws(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shape: str) -> Path:
    """Play the duel at the prompt: ann throws ``shape`` and quits; the record's path."""
    record = tmp_path / "duel.json"
    typed = iter([f"throw {shape}", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    assert main(["play", str(_scenario(tmp_path)), "--record", str(record)]) == 0
    return record


def test_undo_at_the_other_sides_prompt_shows_nothing_and_takes_nothing_back(
    duel: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    seen_by_bob: list[str] = []
    record = tmp_path / "duel.json"

    def fake_input(prompt: str = "") -> str:
        if prompt == "bob> ":
            # What bob can read now: the screen so far and the shared record on disk.
            seen_by_bob.append(capsys.readouterr().out)
            seen_by_bob.append(record.read_text("utf-8"))
            return bob.pop(0)
        return ann.pop(0) if ann else "quit"

    ann = ["throw rock"]
    bob = ["undo", "list", "odds throw paper", "map", "help", "throw rock", "quit"]
    monkeypatch.setattr("builtins.input", fake_input)
    path = _scenario(tmp_path)
    assert main(["play", str(path), "--record", str(record)]) == 0
    out = capsys.readouterr().out

    before_reveal = "".join(seen_by_bob)
    assert "rock" not in before_reveal.replace("throw rock\n", "")
    assert "only ann may take it back" in before_reveal
    assert "ann makes a sealed choice" in before_reveal
    assert "ann throws rock, bob throws rock" in out  # the reveal, then the tie-break
    assert json.loads(record.read_text("utf-8"))["actions"][0] == {
        "side": "ann",
        "action": "throw rock",
    }


def test_the_record_on_disk_never_shows_a_pending_choice_and_resume_keeps_it(
    duel: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    record = _ann_throws(monkeypatch, tmp_path, "scissors")
    shared = record.read_text("utf-8")
    assert "scissors" not in shared
    assert "scissors" in sealed_path(record, "ann").read_text("utf-8")
    capsys.readouterr()

    typed = iter(["throw paper"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    assert main(["play", "--resume", str(record)]) == 0
    out = capsys.readouterr().out
    assert "ann throws scissors, bob throws paper" in out
    assert "ann wins" in out
    assert not sealed_path(record, "ann").exists()


def test_a_resumed_pending_choice_can_still_be_withdrawn_by_its_side_only(
    duel: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    record = _ann_throws(monkeypatch, tmp_path, "rock")
    capsys.readouterr()
    from warbench.core.saves import load_game

    game, _ = load_game(record)
    with pytest.raises(UndoError, match="only ann may take it back"):
        game.undo("bob")
    taken = game.undo("ann")
    assert str(taken.action) == "throw rock"
    assert game.waiting_for() == ("ann", "bob")


def test_a_bot_in_a_game_with_secrets_is_not_seeded_from_the_public_seed(
    duel: ModuleType, tmp_path: Path
) -> None:
    """The seed is printed and recorded: a bot seeded from it would throw predictably."""
    from warbench.cli.play import _players
    from warbench.core.game import Game

    game = Game(duel.scenario(), seed=11)
    throws = set()
    for _ in range(12):
        bot = _players(game, ["ann=random", "bob=human"], False, {})[0]["ann"]
        assert bot is not None
        throws.add(str(bot.choose(game.seat("ann"), "ann")))
    assert len(throws) > 1


def test_the_greedy_bot_is_refused_up_front_where_the_state_is_hidden(
    duel: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _scenario(tmp_path)
    argv = ["play", str(path), "--auto", "--side", "ann=greedy", "--side", "bob=random"]
    assert main(argv) == 2
    assert "greedy bot reads the whole state" in capsys.readouterr().err
    assert main(["simulate", str(path), "--games", "1", "--side", "ann=greedy"]) == 2


def test_a_bots_pending_choice_is_never_written_and_it_chooses_again_on_resume(
    duel: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """A file beside the record holding the bot's throw would be readable by its opponent."""
    record = tmp_path / "duel.json"
    seen: list[str] = []

    def fake_input(prompt: str = "") -> str:
        seen.append(record.read_text("utf-8"))
        seen.extend(p.name for p in tmp_path.iterdir())
        return "quit"

    monkeypatch.setattr("builtins.input", fake_input)
    argv = ["play", str(_scenario(tmp_path)), "--record", str(record)]
    assert main([*argv, "--side", "ann=random", "--side", "bob=human"]) == 0
    assert "ann makes a sealed choice" in capsys.readouterr().out
    assert not any("sealed" in text for text in seen)
    assert json.loads(record.read_text("utf-8"))["actions"] == []

    typed = iter(["throw rock"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    assert main(["play", "--resume", str(record)]) == 0
    assert "ann makes a sealed choice" in capsys.readouterr().out
