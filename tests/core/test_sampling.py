"""One action drawn from a list built only as far as the draw needs (core/sampling.py).

The draw must be exactly as uniform as an index into the whole list, and a ruleset's
groups must hold exactly its legal list: both are checked here, the second on games of
every open-table scenario."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.sampling import sample_uniform


def _counted(items: list[str], built: list[str]) -> Iterator[str]:
    for item in items:
        built.append(item)
        yield item


def test_a_draw_is_uniform_over_every_item_however_loose_the_bounds() -> None:
    # Groups of 3, 0 and 2 items under bounds of 5, 4 and 2: the loose slots are drawn
    # again, so each of the five items comes up a fifth of the time.
    rng = random.Random(7)
    counts: Counter[str] = Counter()
    draws = 50_000
    for _ in range(draws):
        got = sample_uniform([(5, iter("abc")), (4, iter(())), (2, ["d", "e"])], rng.random)
        assert got is not None
        counts[got] += 1
    assert set(counts) == set("abcde")
    for item in "abcde":
        assert abs(counts[item] / draws - 0.2) < 0.01, counts


def test_only_the_part_drawn_is_built() -> None:
    built: list[str] = []
    groups = [(3, _counted(["a", "b", "c"], built)), (3, _counted(["d", "e", "f"], built))]
    # 0.1 of 6 slots is slot 0: the first item of the first group, nothing more.
    assert sample_uniform(groups, lambda: 0.1) == "a"
    assert built == ["a"]


def test_nothing_to_draw_gives_none() -> None:
    assert sample_uniform([(4, iter(())), (0, ["x"])], random.Random(1).random) is None
    assert sample_uniform([], random.Random(1).random) is None


OPEN_TABLES = (
    "vsgmr/street",
    "vsgmr/relic",
    "mgv/clear",
    "mgv/strike",
    "invisible-enemy/company",
    "invisible-enemy/breach",
)


@pytest.mark.parametrize("scenario_id", OPEN_TABLES)
def test_a_rulesets_groups_hold_exactly_its_legal_list(scenario_id: str) -> None:
    # At every decision of two random games, the groups (where the ruleset gives any)
    # list the same actions in the same order as the legal list, each within its bound,
    # and the random bot's draw is one of them.
    scenario = load_scenario(scenario_id)
    grouped = 0
    for seed in (1, 2):
        game = Game(scenario, seed)
        bots = {s: make_bot("random", seed * 10 + i) for i, s in enumerate(scenario.sides)}
        for _ in range(120):
            waiting = game.waiting_for()
            if not waiting:
                break
            side = waiting[0]
            held = game._held_actions().get(side)
            groups = game.ruleset.action_groups(game.state, side, held)
            legal = list(game.legal_actions(side))
            if groups is not None:
                grouped += 1
                parts = [list(items) for _, items in groups]
                for (bound, _), part in zip(groups, parts, strict=True):
                    assert len(part) <= bound
                assert [a for part in parts for a in part] == legal
            action = bots[side].choose(game.seat(side), side)
            assert action in legal
            game.apply(action, side)
    assert grouped > 0
