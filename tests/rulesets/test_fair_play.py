"""Fair play with the skills of the table (issue 24).

Placed is placed (fair point 4): an action the rules call irrevocable is never taken
back, by anyone, through the Python API, the terminal or the server: an Invisible Enemy
barrage marker set down by hand (3.0: never moved again) and an MGV photon range guess
once written (5.3). Before, ``undo`` took back a marker, and with it the rough view:
place, read, undo, place again. And the markers ``list`` offers while they go down by
hand are aimed from what the side sees, not from exact positions."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import pytest
from tests.cli.test_mgv_play import BLUE_ARM, RED_ARM

from warbench.cli.main import main
from warbench.core.game import Game
from warbench.core.saves import save_game
from warbench.errors import UndoError
from warbench.rulesets.invisible_enemy.data import rules


def _until(game: Game, wanted: str, rng: random.Random) -> str:
    """Play random actions (moves first, to bring bases in reach) until an action starting
    with ``wanted`` is legal; returns the side asked."""
    for _ in range(800):
        assert not game.is_over, f"the game ended before '{wanted}' was asked"
        side = game.waiting_for()[0]
        legal = [str(a) for a in game.legal_actions(side)]
        if any(a.startswith(wanted) for a in legal):
            return side
        game.apply(rng.choice(legal), side)
    raise AssertionError(f"'{wanted}' was never asked")


def test_a_barrage_marker_set_down_by_hand_is_never_moved_again() -> None:
    game = Game.start("invisible-enemy/breach", 11)
    side = _until(game, "barrage ", random.Random(5))
    marker = next(str(a) for a in game.legal_actions(side) if str(a).startswith("barrage "))
    game.apply(marker, side)
    assert game.actions[-1].stands
    with pytest.raises(UndoError, match=r"never moved again \(3.0\); it stands"):
        game.undo(side)
    assert str(game.actions[-1].action) == marker  # nothing was taken back


def test_a_written_photon_range_guess_is_never_rewritten() -> None:
    game = Game.start("mgv/clear", 7)
    rng = random.Random(3)
    for _ in range(400):
        side = game.waiting_for()[0]
        if game.state.step == "range":
            break
        legal = [str(a) for a in game.legal_actions(side)]
        photon = [a for a in legal if "photon" in a]
        game.apply(photon[0] if photon else rng.choice(legal), side)
    else:
        raise AssertionError("no photon range guess was asked")
    guess = str(game.legal_actions(side)[-1])
    game.apply(guess, side)
    with pytest.raises(UndoError, match=r"never rewritten \(5.3\); it stands"):
        game.undo(side)


def test_the_terminal_refuses_to_take_back_a_marker(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At the prompt, ``undo`` after a marker is refused with the rule, and the record
    keeps the marker."""
    for seed in range(11, 60):  # a side with a second marker to place: it is asked again
        game = Game.start("invisible-enemy/breach", seed)
        side = _until(game, "barrage ", random.Random(5))
        marker = next(str(a) for a in game.legal_actions(side) if str(a).startswith("barrage "))
        game.apply(marker, side)
        if game.waiting_for() == (side,):
            break
    else:
        raise AssertionError("no side ever had two markers to place")
    record = tmp_path / "breach.json"
    save_game(game, record, {"players": {s: "human" for s in game.scenario.sides}})
    typed = iter(["undo", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    assert main(["play", "--resume", str(record)]) == 0
    shown = capsys.readouterr()
    out = shown.out + shown.err
    assert "never moved again (3.0); it stands" in " ".join(out.split()), out
    kept = json.loads(record.read_text("utf-8"))["actions"]
    assert kept[-1]["action"] == marker


def test_listed_markers_say_nothing_finer_than_the_eye_sees_of_the_enemy() -> None:
    """A side sees enemy bases by eye (the centre of each one's 2-inch cell); the
    markers ``list`` offered were aimed at their exact places (with a scatter seeded by
    the aim), so trying aims recovered a position to 0.1" (issue 24). Moving every enemy
    base within its cell now changes nothing listed."""
    game = Game.start("invisible-enemy/breach", 11)
    eye = rules().data.eye
    rng = random.Random(5)
    for _ in range(3000):  # on to markers going down after the enemy has moved off the grid
        side = game.waiting_for()[0]
        legal = [str(a) for a in game.legal_actions(side)]
        enemies = [b for b in game.state.bases.values() if b.side != side and b.active]
        off_grid = any(b.geo.x % 1 or b.geo.y % 1 for b in enemies)
        if off_grid and any(a.startswith("barrage ") for a in legal):
            break
        moves = [a for a in legal if a.startswith("move ")]
        game.apply(rng.choice(moves or legal), side)
    else:
        raise AssertionError("no markers went down after the enemy moved")
    listed = [str(a) for a in game.legal_actions(side)]
    shifted = game.ruleset.copy_state(game.state)
    for base in shifted.bases.values():
        if base.side != side and base.active:
            centre = eye.point(base.geo.at)
            nearer = tuple(a + 0.4 * (c - a) for a, c in zip(base.geo.at, centre, strict=True))
            base.geo = base.geo.moved_to(nearer, base.geo.facing)
    moved = [str(a) for a in game.ruleset.legal_actions(shifted, side)]
    assert moved == listed


def test_measuring_to_a_point_read_off_the_view_gives_the_eye_not_the_ruler() -> None:
    """The old attack (issue 24): read an enemy base's place from ``info``, type it as a
    point into ``measure``, get the exact range. Now ``info`` gives the place by eye, and
    measuring to it tells the same whichever point of the eye's cell the base stands on."""
    game = Game.start("mgv/clear", 0)
    seat = game.seat("blue")
    place = next(line for line in seat.unit_info("R1") if line.startswith("at "))
    assert "(by eye" in place
    point = place.split()[1].rstrip(",")
    answers = []
    for at in ((33.0, 16.0), (32.3, 17.9), (33.9, 16.1)):  # all in R1's cell
        r1 = game.state.bases["R1"]
        r1.geo = r1.geo.moved_to(at, r1.geo.facing)
        game.state.touched()
        answers.append(seat.measure("B1", point))
        b1 = game.state.bases["B1"].geo.at
        assert f"{math.dist(b1, at):.2f}" not in answers[-1]
    assert answers[0] == answers[1] == answers[2]


def test_a_move_into_a_base_seen_by_eye_is_refused_without_the_point_of_contact() -> None:
    """A refused move used to say where it met the enemy base ("runs into figure 'R2' at
    30.81,10.12"): a measure of where that base stands. By eye, the verdict only."""
    game = Game.start("mgv/clear", 0)
    game.apply(BLUE_ARM, "blue")
    game.apply(RED_ARM, "red")
    game.apply("phase move", "blue")
    r2 = game.state.bases["R2"]
    r2.geo = r2.geo.moved_to((8.0, 8.0), r2.geo.facing)  # in B1's way
    game.state.touched()
    why = game.refusal(game.parse("move B1 10,8"), "blue")
    assert why is not None and "R2" in why and not re.search(r"\d+\.\d+,", why), why
    assert "moving through it is not allowed" in why
