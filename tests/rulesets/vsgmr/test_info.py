"""``info`` and ``goal`` for VSGMR: a figure's profile, gun, automatic fire, armour, points,
rider or mount, items and status; an item, a task, a point; refusals; each scenario's goal."""

from __future__ import annotations

import pytest

from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.registry import get
from warbench.errors import QuestionRefused


def info(game: Game, side: str | None, ref: str) -> list[str]:
    return game.ruleset.unit_info(game.view(side), ref)


def test_a_tommy_gunner_shows_gun_automatic_fire_points_move_and_facing() -> None:
    game = Game.start("vsgmr/street", seed=1)
    assert info(game, "blue", "R4") == [
        "R4: tommy gunner (troop, profile gunner), red (The Reds)",
        "gun (distance attacks), automatic fire; armour none; worth 3 points",
        'move 6" (3" in rough ground)',
        "at 13,2, facing 90deg north",
        "status: has not acted this round",
    ]


def test_a_mount_and_its_rider_name_each_other() -> None:
    game = Game.start("vsgmr/field", seed=1)
    tank = info(game, "green", "T1")
    assert tank[:3] == [
        "T1: tank (vehicle, profile tank), grey (Grey Dragoons)",
        "gun (distance attacks); armour heavy; worth 7 points",
        'move 12" (6" in rough ground)',
    ]
    assert "ridden by T1d" in tank
    driver = info(game, "green", "t1d")
    assert driver[1] == "no gun (hand-to-hand only); armour none; worth 1 point"
    assert "rides T1" in driver


def test_items_carried_and_status_come_from_the_view() -> None:
    game = Game.start("vsgmr/relic", seed=1)
    fig = game.state.figs["R4"]
    fig.items.append("relic")
    fig.moved = fig.skilled = True
    relic = game.state.items["relic"]
    relic.carrier, relic.at, relic.locked = "R4", None, False
    game.state.changed()
    lines = info(game, "blue", "R4")
    assert lines[1] == "no gun (hand-to-hand only); armour none; skills lore; worth 1 point"
    assert "carries relic" in lines
    assert lines[-1] == "status: moved this round; tried a skill roll this round"
    assert info(game, "blue", "relic") == [
        "relic: Relic, worth 6 points when carried off",
        "carried by R4",
        "unlocked",
    ]


def test_a_task_an_item_on_the_ground_and_a_point() -> None:
    game = Game.start("vsgmr/relic", seed=1)
    assert info(game, None, "seal") == [
        "seal: Break the seal, a skill roll (II.5)",
        'touch shrine (within 0.5")',
        "success unlocks relic",
    ]
    assert info(game, None, "relic")[1:] == [
        "lies at 18,18",
        "locked: a skill roll must unlock it first",
    ]
    assert info(game, None, "18,3") == [
        "point 18,3 (inches from the bottom-left corner)",
        "features here: none (open ground)",
        'figures within 3" (centre to centre): R1 (red) 1.0", R4 (red) 1.0"',
    ]
    assert info(game, None, "20,18")[1] == "features here: Shrine (shrine, building), blocks sight"


@pytest.mark.parametrize("ref", ["Z1", "18;3", "18,"])
def test_unknown_refs_are_refused(ref: str) -> None:
    game = Game.start("vsgmr/relic", seed=1)
    with pytest.raises(QuestionRefused) as refused:
        info(game, "red", ref)
    assert str(refused.value) == (
        f"no figure or item '{ref}' here; ask about a figure or item (R1, R2, R3, R4, B1, B2, "
        "B3, B4, G1, G2, G3, G4, G5, relic) or a point X,Y in inches (e.g. 10.5,4)"
    )


def goal(sid: str) -> list[str]:
    scenario = load_scenario(sid)
    return get(scenario.ruleset).goal(scenario)


def end(sid: str) -> str:
    """The closing condition, with the scenario's own number of rounds."""
    rounds = load_scenario(sid).spec.rounds
    return (
        f"The game ends after round {rounds}, or at once when a side has no figure left on "
        "the table; the side with the most points wins, and equal best scores are a draw."
    )


def test_goal_of_the_relic() -> None:
    assert goal("vsgmr/relic")[1:] == [
        "Relic (relic) lies at 18,18: a side whose figure carries it off its own table edge "
        "(red south, blue north, green west) scores 6 points. It is locked until a skill roll "
        "unlocks it.",
        "The game ends as soon as an item is carried off the table.",
        end("vsgmr/relic"),
        'Break the seal (seal): a figure touching shrine (within 0.5") may roll a skill roll '
        "(4+, +1 for a hero, +1 with the lore skill); success unlocks relic (once per game).",
        "Each side scores the points of every enemy figure it defeats (red's figures are worth "
        "10, blue's figures are worth 10, green's figures are worth 12).",
    ]


def test_goal_of_the_street() -> None:
    assert goal("vsgmr/street")[1:] == [
        end("vsgmr/street"),
        'Radio for help (radio): a figure within 0.5" of 18,18 may roll a skill roll (4+, +1 '
        "for a hero); success scores 2 points (once per game).",
        "Each side scores the points of every enemy figure it defeats (red's figures are worth "
        "16, blue's figures are worth 16).",
    ]


def test_goal_of_the_field() -> None:
    lines = goal("vsgmr/field")
    assert lines[0].startswith("Dragoons and an armoured column meet in open country.")
    assert lines[1:] == [
        end("vsgmr/field"),
        "Each side scores the points of every enemy figure it defeats (grey's figures are "
        "worth 28, green's figures are worth 26).",
    ]
