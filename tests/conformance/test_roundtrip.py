"""Actions whose text gives them back: ``parse(str(action)) == action`` for every legal
action, and a game replayed from its recorded texts reaches the same digest.

Records store actions as text and replay it, so an action holding a value its text
does not say exactly (``-0.0`` written ``0``, a float rounded by ``%g``, an angle
that equals another modulo 360, an exponent) replays to another state. Random games
of every built-in scenario check every legal action's text; on open tables (actions
holding numbers), moves with odd numbers are played too, and hypothesis throws
concrete moves and facings at them: ``-0.0``, tiny and huge values, many decimals.
Nothing here names a ruleset.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, load_scenario
from warbench.core.replay import replay_record
from warbench.errors import WarbenchError

SCENARIOS = sorted(builtin_scenarios())
SEEDS = (0, 1)
CHECKED_PER_STEP = 40
"""Legal actions whose text is parsed back at each step (all of them if fewer)."""
MAX_STEPS = 20_000
TWISTS_PER_STEP = 4

ODD_NUMBERS = [
    -0.0,
    0.0,
    360.0,
    -360.0,
    720.0,
    1e-07,
    -1e-07,
    5e-324,
    1e-300,
    1e16,
    1e308,
    -1e308,
    0.1 + 0.2,
    359.99999999999994,
    123.456789012345678,
]


def _scenario_seed_params() -> list[Any]:
    return [pytest.param(sid, seed, id=f"{sid}-seed{seed}") for sid in SCENARIOS for seed in SEEDS]


def _is_number(value: object) -> bool:
    return isinstance(value, float | int) and not isinstance(value, bool)


def _number_fields(action: Action) -> list[str]:
    """Fields of ``action`` holding numbers: a number (or an optional one left out),
    or a tuple of points."""
    if not dataclasses.is_dataclass(action):
        return []
    names = []
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        optional_number = value is None and "float" in str(f.type)
        points = isinstance(value, tuple) and all(
            isinstance(p, tuple) and len(p) == 2 and all(map(_is_number, p)) for p in value
        )
        if _is_number(value) or optional_number or points:
            names.append(f.name)
    return names


def _with_numbers(action: Action, name: str, change: Any) -> Action | None:
    """``action`` with the numbers of field ``name`` changed by ``change(number)``,
    or None if such an action cannot be built."""
    value = getattr(action, name)
    if isinstance(value, tuple):
        new: object = tuple((change(x), change(y)) for x, y in value)
    else:
        new = change(0.0 if value is None else value)
    try:
        return dataclasses.replace(action, **{name: new})
    except WarbenchError:
        return None


def _check_text(game: Game, action: Action) -> None:
    text = str(action)
    again = game.parse(text)
    assert again == action, f"'{text}' parses to {again!r}, not {action!r}"
    assert str(again) == text


def _twists(action: Action, rng: random.Random) -> list[Action]:
    """``action`` with the same meaning written other ways: a facing plus or minus
    whole turns, ``-0.0`` for zero, numbers nudged in their last decimals."""
    turns = float(rng.choice([-2, -1, 1, 3]) * 360)
    tiny = rng.random() * 1e-9
    everywhere = [
        lambda v: -0.0 if v == 0 else v,
        lambda v: math.nextafter(v, math.inf),
        lambda v: v + tiny,
        lambda v: float(f"{v:.3f}"),
    ]
    single = [lambda v: v + turns, lambda v: -0.0]
    out = []
    for name in _number_fields(action):
        is_path = isinstance(getattr(action, name), tuple)
        for change in everywhere if is_path else everywhere + single:
            twisted = _with_numbers(action, name, change)
            if twisted is not None:
                out.append(twisted)
    rng.shuffle(out)
    return out[:TWISTS_PER_STEP]


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_seed_params())
def test_every_legal_action_parses_back_and_the_record_replays_to_the_digest(
    scenario_id: str, seed: int
) -> None:
    scenario = load_scenario(scenario_id)
    game = Game(scenario, seed)
    rng = random.Random(f"roundtrip {scenario_id} {seed}")
    exhaustive = game.ruleset.info.exhaustive_actions
    twisted = 0
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        side = game.waiting_for()[0]
        legal = game.legal_actions(side)
        for i in rng.sample(range(len(legal)), min(CHECKED_PER_STEP, len(legal))):
            _check_text(game, legal[i])
        action = legal[rng.randrange(len(legal))]
        for other in _twists(action, rng):
            if game.refusal(other, side) is not None:
                continue
            assert exhaustive is False or other in legal, f"{other!r} is taken but not listed"
            _check_text(game, other)
            action = other
            twisted += 1
            break
        game.apply(action, side)
    assert game.is_over
    replayed = replay_record(game.record())
    assert replayed.digest() == game.digest()
    assert [str(t.action) for t in replayed.actions] == [str(t.action) for t in game.actions]
    if any(_number_fields(t.action) for t in game.actions):
        assert twisted, "no action with other numbers was legal: the twists test nothing"


# -- hypothesis: concrete numbers in the actions of open tables -----------------------------

TABLE_SCENARIOS = [
    sid for sid in SCENARIOS if registry.get(sid.split("/")[0]).info.geometry == "table"
]

NUMBERS = st.one_of(
    st.sampled_from(ODD_NUMBERS),
    st.floats(min_value=-720.0, max_value=720.0, allow_nan=False),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-1000, max_value=1000).map(float),
    st.decimals(min_value=-400, max_value=400, places=12).map(float),
)
NUDGES = st.one_of(
    st.sampled_from([-0.0, 0.0, 1e-9, -1e-9, 5e-324, 1e-300]),
    st.floats(min_value=-3.0, max_value=3.0, allow_nan=False),
    st.decimals(min_value=-2, max_value=2, places=15).map(float),
)


@functools.cache
def _at_a_decision_with_numbers(scenario_id: str) -> tuple[dict[str, Any], str, tuple[Action, ...]]:
    """A record of a game stopped where the side asked has legal actions holding
    numbers; the side, and those actions."""
    game = Game(load_scenario(scenario_id), 0)
    rng = random.Random(0)
    for _ in range(500):
        assert not game.is_over, f"{scenario_id}: no decision with numbers in its actions"
        side = game.waiting_for()[0]
        legal = game.legal_actions(side)
        with_numbers = tuple(a for a in legal if _number_fields(a))
        if len(with_numbers) >= 3:
            return game.record(), side, with_numbers
        game.apply(legal[rng.randrange(len(legal))], side)
    raise AssertionError(f"{scenario_id}: no decision with numbers in its actions")


def _check_concrete(scenario_id: str, pick: int, name_pick: int, change: Any) -> None:
    record, side, candidates = _at_a_decision_with_numbers(scenario_id)
    base = candidates[pick % len(candidates)]
    names = _number_fields(base)
    action = _with_numbers(base, names[name_pick % len(names)], change)
    if action is None:  # refused as it was built: nothing more to check
        return
    game = replay_record(record)
    reason = game.refusal(action, side)
    try:
        parsed = game.parse(str(action))
    except WarbenchError:
        assert reason is not None, f"{action!r} is legal but its text '{action}' does not parse"
        return
    assert parsed == action, f"'{action}' parses to {parsed!r}, not {action!r}"
    if reason is not None:
        return
    game.apply(action, side)
    by_text = replay_record(record)
    by_text.apply(str(action), side)
    assert by_text.digest() == game.digest(), f"'{action}' applied as text differs"
    assert replay_record(game.record()).digest() == game.digest()


HYPOTHESIS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("scenario_id", TABLE_SCENARIOS)
@HYPOTHESIS
@given(pick=st.integers(0, 10_000), name_pick=st.integers(0, 10), number=NUMBERS)
def test_a_number_set_anywhere_round_trips(
    scenario_id: str, pick: int, name_pick: int, number: float
) -> None:
    """Every number of a field replaced by one value (a facing, or every coordinate)."""
    _check_concrete(scenario_id, pick, name_pick, lambda _v: number)


@pytest.mark.parametrize("scenario_id", TABLE_SCENARIOS)
@HYPOTHESIS
@given(pick=st.integers(0, 10_000), name_pick=st.integers(0, 10), nudge=NUDGES)
def test_a_legal_action_nudged_round_trips(
    scenario_id: str, pick: int, name_pick: int, nudge: float
) -> None:
    """A listed action's numbers moved a little: mostly still legal, now with many
    decimals, tiny offsets or a signed zero."""
    _check_concrete(scenario_id, pick, name_pick, lambda v: v + nudge)


@pytest.mark.parametrize("scenario_id", TABLE_SCENARIOS)
@HYPOTHESIS
@given(pick=st.integers(0, 10_000), name_pick=st.integers(0, 10), turns=st.integers(-3, 3))
def test_numbers_whole_turns_away_round_trip(
    scenario_id: str, pick: int, name_pick: int, turns: int
) -> None:
    """A number plus whole turns (for a facing, the same direction, written otherwise)."""
    _check_concrete(scenario_id, pick, name_pick, lambda v: v + 360.0 * turns)
