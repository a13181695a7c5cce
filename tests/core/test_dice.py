"""Dice: seeded dice are reproducible and in range; scripted dice replay a script exactly."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from warbench.core.dice import Dice, DiceExhausted, ScriptedDice
from warbench.core.game import Resolution
from warbench.errors import WarbenchError

seeds = st.integers(min_value=-(2**63), max_value=2**63)
counts = st.integers(min_value=1, max_value=50)
faces = st.integers(min_value=2, max_value=100)


@given(seed=seeds, n=counts, sides=faces)
def test_seeded_dice_give_n_results_in_one_to_sides(seed: int, n: int, sides: int) -> None:
    dice = Dice(seed)
    rolls = dice.roll(n, sides)
    assert len(rolls) == n
    assert all(isinstance(r, int) and 1 <= r <= sides for r in rolls)
    assert dice.rolled == n


@given(seed=seeds, plan=st.lists(st.tuples(counts, faces), min_size=1, max_size=10))
def test_the_same_seed_gives_the_same_sequence_of_rolls(
    seed: int, plan: list[tuple[int, int]]
) -> None:
    first, second = Dice(seed), Dice(seed)
    assert [first.roll(n, s) for n, s in plan] == [second.roll(n, s) for n, s in plan]
    assert first.rolled == second.rolled == sum(n for n, _ in plan)


def test_different_seeds_give_different_rolls() -> None:
    assert Dice(1).roll(30) != Dice(2).roll(30)


def test_a_d6_shows_every_face_over_many_rolls() -> None:
    assert set(Dice(0).roll(600)) == {1, 2, 3, 4, 5, 6}


def test_the_default_roll_is_one_d6() -> None:
    (value,) = Dice(3).roll()
    assert 1 <= value <= 6


@pytest.mark.parametrize(("n", "sides"), [(0, 6), (-1, 6), (1, 1), (1, 0)])
def test_impossible_rolls_are_refused(n: int, sides: int) -> None:
    dice = Dice(0)
    with pytest.raises(ValueError, match=f"{n}d{sides}"):
        dice.roll(n, sides)
    assert dice.rolled == 0


def test_scripted_dice_return_the_script_in_order() -> None:
    dice = ScriptedDice([3, 1, 6, 2])
    assert dice.roll() == (3,)
    assert dice.roll(2) == (1, 6)
    assert dice.remaining == 1
    dice.extend([5])
    assert dice.roll(2) == (2, 5)
    assert dice.remaining == 0
    assert dice.rolled == 5


def test_scripted_dice_asked_for_more_than_the_script_raise_dice_exhausted() -> None:
    dice = ScriptedDice([4])
    with pytest.raises(DiceExhausted, match="2 more roll"):
        dice.roll(2)
    assert dice.remaining == 1, "a refused roll takes nothing from the script"
    assert dice.rolled == 0
    assert dice.roll() == (4,)
    with pytest.raises(DiceExhausted):
        dice.roll()
    assert issubclass(DiceExhausted, WarbenchError)


@pytest.mark.parametrize(("value", "sides"), [(7, 6), (0, 6), (-1, 6), (5, 4)])
def test_a_scripted_value_that_does_not_fit_the_die_is_refused(value: int, sides: int) -> None:
    dice = ScriptedDice([value])
    with pytest.raises(ValueError, match=f"{value} does not fit a d{sides}"):
        dice.roll(1, sides)
    assert dice.rolled == 0


@given(values=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=20))
def test_scripted_dice_give_back_exactly_their_script(values: list[int]) -> None:
    dice = ScriptedDice(values)
    got: list[int] = []
    while dice.remaining:
        got.extend(dice.roll(min(3, dice.remaining)))
    assert got == values
    assert dice.rolled == len(values)


def test_every_roll_through_a_resolution_is_an_event_with_its_purpose() -> None:
    res = Resolution(ScriptedDice([4, 2, 5]))
    assert res.roll("initiative", side="red") == (4,)
    assert res.roll("melee G1 against W3, needs 7+", 2) == (2, 5)
    assert res.rolls == 3
    first, second = res.events
    assert first.kind == second.kind == "roll"
    assert first.data == {"purpose": "initiative", "dice": (4,), "side": "red"}
    assert first.text == "red rolls 4 (initiative)"
    assert second.data["purpose"] == "melee G1 against W3, needs 7+"
    assert second.data["side"] is None
    assert second.text == "rolled 2+5 = 7 (melee G1 against W3, needs 7+)"


def test_a_resolution_logs_other_events_with_their_data() -> None:
    res = Resolution(Dice(0))
    res.emit("move", "G1 moves 0505 -> 0506", unit="G1", cost=1)
    (event,) = res.events
    assert event.to_json() == {
        "kind": "move",
        "text": "G1 moves 0505 -> 0506",
        "data": {"unit": "G1", "cost": 1},
    }
