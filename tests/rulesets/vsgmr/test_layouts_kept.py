"""A set-up keeps the terrains (and what is worked out per terrain) of only the layouts it
used last, so memory stays flat over long simulations (issue 13), and a forgotten
terrain's data is never found again under a reused id."""

from __future__ import annotations

import itertools

from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr.nav import nav_mesh
from warbench.rulesets.vsgmr.scenario import LAYOUTS_KEPT, Setup
from warbench.sim.runner import play_game


def _setup() -> Setup:
    spec = load_scenario("vsgmr/street").spec
    assert isinstance(spec, Setup)
    return spec


def _layouts(setup: Setup) -> list[frozenset[str]]:
    return [k[1] for k in setup.caches if isinstance(k, tuple) and k[0] == "terrain"]


def _losses(setup: Setup, count: int) -> list[frozenset[str]]:
    """``count`` different sets of destroyed features."""
    ids = sorted(setup.destructible)
    sets = itertools.chain.from_iterable(itertools.combinations(ids, n) for n in (1, 2, 3))
    return [frozenset(s) for s in itertools.islice(sets, count)]


def test_only_the_layouts_used_last_are_kept() -> None:
    setup = _setup()
    losses = _losses(setup, 3 * LAYOUTS_KEPT)
    for destroyed in losses:
        terrain = setup.terrain(destroyed)
        assert {f.id for f in terrain.active} == {
            f.id for f in setup.features if f.id not in destroyed
        }
    assert _layouts(setup) == losses[-LAYOUTS_KEPT:]


def test_a_layout_used_again_is_kept_and_the_same_object() -> None:
    setup = _setup()
    favourite = setup.terrain(frozenset())
    for destroyed in _losses(setup, 2 * LAYOUTS_KEPT):
        setup.terrain(destroyed)
        assert setup.terrain(frozenset()) is favourite  # used after every other one
    assert frozenset() in _layouts(setup)


def test_what_was_kept_per_terrain_goes_with_it() -> None:
    setup = _setup()
    first = frozenset({"car"})
    terrain = setup.terrain(first)
    mesh = nav_mesh(setup.caches, setup.table, terrain, 0.5)
    assert setup.caches[("nav", id(terrain), 0.5)] is mesh
    for destroyed in _losses(setup, 2 * LAYOUTS_KEPT)[1:]:
        setup.terrain(destroyed)
    assert first not in _layouts(setup)
    assert not [k for k in setup.caches if isinstance(k, tuple) and k[0] == "nav"]
    rebuilt = setup.terrain(first)
    assert rebuilt is not terrain
    again = nav_mesh(setup.caches, setup.table, rebuilt, 0.5)
    assert setup.caches[("nav", id(rebuilt), 0.5)] is again


def test_an_entry_under_an_id_no_kept_terrain_has_is_dropped_when_a_terrain_is_built() -> None:
    """A game still on a forgotten terrain may store under its id after it was
    forgotten; once that terrain is freed its id may come back: the entry must not."""
    setup = _setup()
    kept = setup.terrain(frozenset())
    stale = ("cover_spots", id(object()), 0.5)
    mine = ("cover_spots", id(kept), 0.5)
    setup.caches[stale] = ([(1.0, 1.0)], None)
    setup.caches[mine] = ([(2.0, 2.0)], None)
    setup.terrain(frozenset({"tree"}))
    assert stale not in setup.caches
    assert setup.caches[mine] == ([(2.0, 2.0)], None)


def test_games_play_the_same_when_layouts_are_forgotten_between_them() -> None:
    """Whole games give the same actions and outcome with a fresh set-up and with one
    that has already built and forgotten many layouts."""
    scenario = load_scenario("vsgmr/street")
    bots = dict.fromkeys(scenario.sides, "random")
    played = [play_game(scenario, seed, bots) for seed in (3, 4)]
    fresh = load_scenario("vsgmr/street")
    spec = fresh.spec
    assert isinstance(spec, Setup)
    for destroyed in _losses(spec, 2 * LAYOUTS_KEPT):  # fill and evict before playing
        terrain = spec.terrain(destroyed)
        nav_mesh(spec.caches, spec.table, terrain, 0.5)
    again = [play_game(fresh, seed, bots) for seed in (3, 4)]
    for one, two in zip(played, again, strict=True):
        assert one.actions == two.actions
        assert one.outcome == two.outcome
    assert len(_layouts(spec)) <= LAYOUTS_KEPT
