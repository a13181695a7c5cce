"""Random CGME and V.E.G. scenarios: the compiled playout kernel against the engine (issue 11).

``test_playout_kernel.py`` compares kernel and engine on the built-in
scenarios, option and data variants and two brawls; two bugs planted in the
kernel went unseen there because no scenario has a live carrier in a crater.
Here hypothesis writes the scenarios, so coverage does not hang on what the
built-in ones contain:

- V.E.G.: maps of random size with terrain per hex from the world's terrain
  table (clear, open water, woods, bog, city, sand, craters, craters most
  often), streams on random hexsides, roads as random walks (through craters
  too), buildings of either side with random DEF and SP;
- unit types of the scenario's own with random ATT (or ``x``), RNG, DEF, MOV,
  class, value, stack weight and notes (``riders_attack``, ``road_only``,
  ``road_bonus``, ``move_or_shoot``), custom carriers of random capacity, and
  random picks from the catalogue; counters of several squads, wounded units;
- carriers (Hover-PCs, trucks on roads, custom carriers, some with DEF 8 or
  more so that H(8 - DEF) spares them) deployed with riders, half of them in
  a crater, the riders listed before or after their carrier; other units next
  to craters, in buildings' hexes, across streams, enemies sharing hexes;
- every V.E.G. option at random, the turn limit and ``at_turn_limit``,
  destroy and reach objectives, and now and then the core's numbers changed
  (margin, dice, turn sequence);
- the cgme ruleset's own small world too (its terrain, foot and vehicles, H3
  radiation);
- random, greedy and mixed bots.

Each scenario is played by the kernel and by ``sim.runner.play_game`` with
the same seeds and compared as ``test_playout_kernel.py`` does: the same
actions in the same order, the same winner, reason and turns, and the same
final-state digest. The examples are derandomized (``derandomize=True``), so CI
runs the same scenarios every time, and the file runs in well under a minute.

The tables the kernel receives from Python that carry the text's numbers
(``playout.export``: odds, hazards, terrain modifiers, step costs, transport
and stacking numbers) are checked against the V.E.G. text at the end.

Teeth. ``WARBENCH_TEST_CGME_KERNEL`` names a compiled ``_playout`` module to
play instead of the installed one; build it from a modified COPY of
``_playout.c`` (never edit ``src/``)::

    mkdir -p /tmp/planted && cp src/warbench/rulesets/cgme/_playout.c /tmp/planted/
    # plant a bug in /tmp/planted/_playout.c, then:
    cc -shared -fPIC -O2 -ffp-contract=off -I src/warbench/rulesets/cgme \\
        $(python3-config --includes) /tmp/planted/_playout.c -lm \\
        -o /tmp/planted/_playout$(python3-config --extension-suffix)
    WARBENCH_TEST_CGME_KERNEL=/tmp/planted/_playout.cpython-311-x86_64-linux-gnu.so \\
        .venv/bin/pytest tests/rulesets/cgme/test_playout_random.py -p no:randomly

(``-I`` the kernel's own folder, so its ``#include "../_playout_common.h"`` is
found.) Both bugs of issue 11 were planted that way and each fails
``test_kernel_plays_the_python_game_of_random_veg_scenarios``, while the
unmodified copy passes:

1. riders attacked in the hazard phase: in ``hazards()`` the test
   ``|| g->carrier[u] >= 0`` removed, so riders in a carrier standing in a
   crater are attacked by the crater as if they stood in it (the engine's
   ``_hazards`` skips them); failed at the first example with such a carrier;
2. dismounting into a crater without the hazard: in ``unload()`` the
   ``if (T->hz_has[g->pos[u]]) { ... }`` block removed, so a rider getting out
   of a carrier in a crater is not attacked (the engine's ``_unload`` attacks
   it: "dismounts into"); failed too.
"""

from __future__ import annotations

import dataclasses
import importlib.machinery
import importlib.util
import os
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import warbench.rulesets.veg  # noqa: F401  (registers the ruleset)
from warbench.core.loader import scenario_from_dict
from warbench.core.playout import TablesCache
from warbench.geometry.hexgrid import Hex, HexGrid
from warbench.rulesets.cgme import playout as kernel
from warbench.rulesets.cgme.board import Board
from warbench.rulesets.cgme.data import PHASE_KINDS, World, load_world
from warbench.scenario.hexmap import HexMapSpec, build_hexmap
from warbench.scenario.model import Scenario
from warbench.sim.differential import difference

needs_kernel = pytest.mark.skipif(
    not kernel.kernel_built(),
    reason="the playout kernel (cgme/_playout.c) is not built: no C compiler at install time",
)

SIDES = ("red", "blue")
VEG = "warbench.rulesets.veg"
CGME = "warbench.rulesets.cgme"


@pytest.fixture(scope="module", autouse=True)
def _planted_kernel() -> Iterator[None]:
    """Play another compiled kernel when WARBENCH_TEST_CGME_KERNEL names one (teeth)."""
    path = os.environ.get("WARBENCH_TEST_CGME_KERNEL")
    if not path:
        yield
        return
    loader = importlib.machinery.ExtensionFileLoader("planted_cgme._playout", path)
    spec = importlib.util.spec_from_file_location("planted_cgme._playout", path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kernel, "_kernel", module)
        mp.setattr(kernel, "_tables", TablesCache())
        yield


# -- the generator ---------------------------------------------------------------------------


@st.composite
def maps(draw: st.DrawFn, world: World, hazard: str) -> tuple[dict[str, Any], Board]:
    """A random [map] of ``world`` (hazard terrain often) and the board it makes."""
    columns, rows = draw(st.integers(3, 8)), draw(st.integers(3, 7))
    grid = HexGrid(columns, rows)
    hexes = list(grid.hexes)
    names = sorted(world.terrain)
    base = names[0] if "clear" not in names else "clear"
    pick = st.sampled_from((base, base, base, base, hazard, *names))
    by_terrain: dict[str, list[str]] = {}
    for h in hexes:
        name = draw(pick)
        if name != base:
            by_terrain.setdefault(name, []).append(h.label)
    game_map: dict[str, Any] = {"columns": columns, "rows": rows, "terrain": base}
    if by_terrain:
        game_map["hexes"] = by_terrain
    pairs = sorted({tuple(sorted((h, n))) for h in hexes for n in grid.neighbours_on_map(h)})
    if world.hexsides:
        chosen = draw(st.lists(st.sampled_from(pairs), max_size=len(pairs) // 4, unique=True))
        if chosen:
            groups: dict[str, list[str]] = {}
            for a, b in chosen:
                feature = draw(st.sampled_from(sorted(world.hexsides)))
                groups.setdefault(feature, []).append(f"{a.label}/{b.label}")
            game_map["hexsides"] = [{"feature": f, "sides": s} for f, s in groups.items()]
    roads: list[list[str]] = []
    for _ in range(draw(st.integers(0, 2))):
        chain = [draw(st.sampled_from(hexes))]
        for _ in range(draw(st.integers(1, columns + rows))):
            options = [n for n in grid.neighbours_on_map(chain[-1]) if n not in chain]
            if not options:
                break
            chain.append(draw(st.sampled_from(options)))
        if len(chain) >= 2:
            roads.append([h.label for h in chain])
    if roads:
        game_map["roads"] = roads
    hexmap = build_hexmap(HexMapSpec.model_validate(game_map), "map", world.terrain, world.hexsides)
    return game_map, Board(hexmap, world)


@st.composite
def custom_type(draw: st.DrawFn, world: World, move_class: str, carrier: bool) -> dict[str, Any]:
    """A unit type of the scenario's own: random ratings, class ``move_class``."""
    row: dict[str, Any] = {
        "att": draw(st.one_of(st.integers(0, 7), st.just("x"))),
        "rng": draw(st.integers(0, 4)),
        "def": draw(st.integers(0, 11)),
        "mov": draw(st.integers(0, 5)),
        "class": move_class,
    }
    if draw(st.booleans()):
        row["value"] = draw(st.integers(0, 30))
    if world.stacking_limit is not None and draw(st.integers(0, 3)) == 0:
        row["stack_parts"] = draw(st.integers(0, 6))
    if carrier:
        row["capacity"] = draw(st.integers(1, 3))
        row["riders_attack"] = draw(st.booleans())
    for note in ("road_bonus", "move_or_shoot"):
        if draw(st.integers(0, 3)) == 0:
            row[note] = draw(st.booleans())
    return row


@st.composite
def scenarios(draw: st.DrawFn, ruleset: str) -> dict[str, Any]:
    """A random scenario of the ``veg`` or ``cgme`` ruleset, as parsed TOML."""
    package = VEG if ruleset == "veg" else CGME
    options: dict[str, Any] = {}
    if ruleset == "veg":
        options = {
            "stacking_limit": draw(st.sampled_from((1, 2, 3, 5, 6, 6, "off"))),
            "attack_during_movement": draw(st.booleans()),
            "building_damage": draw(st.sampled_from(("att", "margin"))),
            "move_or_shoot": draw(st.booleans()),
            "spillover_hits": draw(st.sampled_from(("all", "enemies"))),
            "unstated_terrain": draw(st.sampled_from(("borrow", "no_effect", "no_entry"))),
        }
    if draw(st.booleans()):
        options["combined_attacks"] = draw(st.booleans())
    world = load_world(package, options.get("unstated_terrain", "borrow"))
    hazard = next(n for n, t in sorted(world.terrain.items()) if t.hazard is not None)
    game_map, board = draw(maps(world, hazard))
    hexes = board.hexes
    classes = sorted(world.classes)
    rider_class = world.rider_class
    carriers = [c for c in classes if c != rider_class] if rider_class else []
    limit = options.get("stacking_limit", world.stacking_limit)
    parts_limit = None if limit in (None, "off") else limit * world.parts_per_unit

    # Unit types: the catalogue and some of the scenario's own (carriers among them).
    own: dict[str, dict[str, Any]] = {}
    for k in range(draw(st.integers(0, 3))):
        own[f"t{k}"] = draw(custom_type(world, draw(st.sampled_from(classes)), False))
    for k in range(draw(st.integers(0, 2)) if carriers else 0):
        own[f"c{k}"] = draw(custom_type(world, draw(st.sampled_from(carriers)), True))
    types = {key: t for key, t in world.units.items()}
    parts = world.parts_per_unit
    from warbench.rulesets.cgme.data import unit_type

    types.update({key: unit_type(key, row, parts) for key, row in own.items()})
    fighters = sorted(k for k, t in types.items() if t.capacity == 0)
    riders = sorted(k for k in fighters if types[k].move_class == rider_class)
    carrier_keys = sorted(k for k, t in types.items() if t.capacity > 0)

    load: dict[Hex, int] = {}

    def places(key: str, count: int) -> list[Hex]:
        t = types[key]
        i_of = board.index
        return [
            h
            for h in hexes
            if board.standable[t.move_class][i_of[h]]
            and (not t.road_only or board.on_road[i_of[h]])
            and (parts_limit is None or load.get(h, 0) + t.parts * count <= parts_limit)
        ]

    def place(key: str, count: int, crater_first: bool) -> Hex | None:
        found = places(key, count)
        if not found:
            return None
        if crater_first:
            hot = [h for h in found if board.hazard[board.index[h]] is not None]
            found = hot or found
        at = draw(st.sampled_from(found))
        load[at] = load.get(at, 0) + types[key].parts * count
        return at

    forces: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    n = 0
    for side in SIDES:
        for _ in range(draw(st.integers(2, 6))):
            n += 1
            if carrier_keys and draw(st.integers(0, 2)) > 0:
                # A carrier with riders, in a crater half the time.
                key = draw(st.sampled_from(carrier_keys))
                at = place(key, 1, draw(st.booleans()))
                if at is None:
                    continue
                carrier = {"id": f"C{n}", "type": key, "at": at.label}
                group: list[dict[str, Any]] = []
                room = types[key].capacity
                for r in range(draw(st.integers(0, 3))):
                    kind = draw(st.sampled_from(riders))
                    count = draw(st.integers(1, 2))
                    if types[kind].parts * count > room:
                        continue
                    room -= types[kind].parts * count
                    rider: dict[str, Any] = {"id": f"R{n}x{r}", "type": kind, "riding": f"C{n}"}
                    if count > 1:
                        rider["count"] = count
                    if draw(st.integers(0, 4)) == 0:
                        rider["wounded"] = True
                    group.append(rider)
                before = draw(st.booleans())
                forces[side].extend([*group, carrier] if before else [carrier, *group])
                continue
            key = draw(st.sampled_from(fighters))
            count = draw(st.sampled_from((1, 1, 1, 2, 3)))
            at = place(key, count, draw(st.integers(0, 3)) == 0)
            if at is None:
                continue
            unit: dict[str, Any] = {"id": f"U{n}", "type": key, "at": at.label}
            if count > 1:
                unit["count"] = count
            if draw(st.integers(0, 4)) == 0:
                unit["wounded"] = True
            forces[side].append(unit)
    for side in SIDES:  # a side with nobody is decided at once; keep both in play
        if not forces[side]:
            key = draw(st.sampled_from(fighters))
            at = place(key, 1, False)
            if at is not None:
                forces[side].append({"id": f"Z{side}", "type": key, "at": at.label})

    buildings: list[dict[str, Any]] = []
    if world.buildings:
        for b, h in enumerate(draw(st.lists(st.sampled_from(hexes), max_size=2, unique=True))):
            building = {
                "id": f"B{b}",
                "side": draw(st.sampled_from(SIDES)),
                "at": h.label,
                "def": draw(st.integers(0, 6)),
                "sp": draw(st.integers(1, 12)),
            }
            if draw(st.booleans()):
                building["value"] = draw(st.integers(0, 20))
            buildings.append(building)

    objectives: list[dict[str, Any]] = []
    for _ in range(draw(st.sampled_from((0, 0, 1, 2)))):
        side = draw(st.sampled_from(SIDES))
        enemy = SIDES[1 - SIDES.index(side)]
        targets = [u["id"] for u in forces[enemy] if u.get("count", 1) == 1]
        targets += [b["id"] for b in buildings if b["side"] == enemy]
        if targets and draw(st.booleans()):
            chosen = draw(st.lists(st.sampled_from(targets), min_size=1, max_size=2, unique=True))
            objectives.append({"side": side, "destroy": chosen})
        else:
            zone = {
                "hexes": [draw(st.sampled_from(hexes)).label],
                "within": draw(st.integers(0, 1)),
            }
            objectives.append({"side": side, "reach": zone, "count": draw(st.integers(1, 4))})

    raw: dict[str, Any] = {
        "ruleset": ruleset,
        "title": "random",
        "turn_limit": draw(st.integers(1, 6)),
        "map": game_map,
        "sides": [{"name": s} for s in SIDES],
        "unit_types": own,
        "forces": forces,
        "options": options,
        "victory": {
            "at_turn_limit": draw(st.sampled_from(("points", "draw", *SIDES))),
            "objectives": objectives,
        },
    }
    if buildings:
        raw["buildings"] = buildings
    return raw


@st.composite
def core_changes(draw: st.DrawFn) -> dict[str, Any]:
    """Now and then the core's numbers changed (a world's [core] table could)."""
    if draw(st.integers(0, 3)) > 0:
        return {}
    changes: dict[str, Any] = {}
    if draw(st.booleans()):
        changes["margin"] = draw(st.integers(0, 3))
    if draw(st.booleans()):
        changes["attack_dice"] = draw(st.integers(1, 2))
        changes["defence_dice"] = draw(st.integers(1, 2))
    if draw(st.booleans()):
        changes["phases"] = tuple(draw(st.permutations(PHASE_KINDS)))
    return changes


def _build(raw: dict[str, Any], core: Mapping[str, Any]) -> Scenario:
    ruleset = raw["ruleset"]
    scenario = scenario_from_dict(raw, "random", f"{ruleset}/random")
    if not core:
        return scenario
    setup = scenario.spec
    world = dataclasses.replace(setup.world, core=dataclasses.replace(setup.world.core, **core))
    return dataclasses.replace(scenario, spec=dataclasses.replace(setup, world=world))


# -- the comparison (as in test_playout_kernel.py) ---------------------------------------------


def _compare(scenario: Scenario, seeds: range, bots: Mapping[str, str]) -> None:
    """The kernel's game of each seed is the Python game, action for action."""
    for seed in seeds:
        problem = difference(kernel.playout_state, scenario, seed, bots)
        if problem is not None:
            pytest.fail(problem)


def _settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        print_blob=True,
    )


def _play_all(scenario: Scenario, seed: int) -> None:
    _compare(scenario, range(seed, seed + 3), {"red": "random", "blue": "random"})
    _compare(scenario, range(seed + 3, seed + 4), {"red": "greedy", "blue": "greedy"})
    _compare(scenario, range(seed + 4, seed + 5), {"red": "random", "blue": "greedy"})


@needs_kernel
@_settings(120)
@given(raw=scenarios("veg"), core=core_changes(), seed=st.integers(0, 10_000))
def test_kernel_plays_the_python_game_of_random_veg_scenarios(
    raw: dict[str, Any], core: dict[str, Any], seed: int
) -> None:
    """Issue 11: carriers in craters, riders, streams, roads, buildings, any options."""
    _play_all(_build(raw, core), seed)


@needs_kernel
@_settings(40)
@given(raw=scenarios("cgme"), core=core_changes(), seed=st.integers(0, 10_000))
def test_kernel_plays_the_python_game_of_random_cgme_scenarios(
    raw: dict[str, Any], core: dict[str, Any], seed: int
) -> None:
    """Issue 11: the bare core's own small world, random maps and units."""
    _play_all(_build(raw, core), seed)


# -- the tables built in Python against the V.E.G. text ------------------------------------------


def test_kernel_tables_hold_the_veg_texts_numbers() -> None:
    """What export() hands the kernel is the text's: craters H(8 - DEF), the terrain
    table's DEF modifiers and MP costs, spillover -3 ATT, infantry +1 ATT at range 0,
    loading and dismounting 1 MOV, the stacking limit in thirds of a squad, and the
    odds of an attack beating the defence by the margin of 1 (one die each)."""
    raw = {
        "ruleset": "veg",
        "title": "tables",
        "map": {
            "columns": 7,
            "rows": 1,
            "terrain": "clear",
            "hexes": {
                "crater": ["0101"],
                "woods": ["0201"],
                "bog": ["0301"],
                "city": ["0401"],
                "open_water": ["0501"],
                "sand": ["0601"],
            },
        },
        "sides": [{"name": s} for s in SIDES],
        "forces": {
            "red": [{"id": "I", "type": "infantry", "at": "0701"}],
            "blue": [{"id": "T", "type": "light_tank", "at": "0701"}],
        },
        "options": {"stacking_limit": 5},
    }
    setup = scenario_from_dict(raw, "tables", "veg/tables").spec
    t = kernel.export(setup)
    crater, woods, bog, city, water, sand, clear = range(7)
    assert (t["hz_has"][crater], t["hz_base"][crater], t["hz_minus"][crater]) == (1, 8, 1)
    assert sum(t["hz_has"]) == 1
    classes = list(setup.world.classes)
    n = t["H"]

    def dfn(cls: str, i: int) -> int:
        return int(t["dfn_mod"][classes.index(cls) * n + i])

    assert [dfn("infantry", i) for i in (woods, bog, city, water, sand, clear)] == [
        2,
        2,
        4,
        -2,
        0,
        0,
    ]
    assert [dfn("vehicle", i) for i in (woods, city, sand, clear)] == [0, 2, 0, 0]
    assert list(t["att_mod"]) == [0] * len(t["att_mod"])
    # Step costs into each hex (MP): vehicles pay 2 for woods, city, sand; infantry
    # 2 for open water; open water and bog closed to vehicles.
    costs: dict[tuple[int, int], int] = {}
    for m in range(t["NMK"]):
        for i in range(n):
            for k in range(6):
                j = t["st_to"][(m * n + i) * 6 + k]
                if j >= 0:
                    costs[(m, j)] = t["st_cost"][(m * n + i) * 6 + k]
    inf, veh = t["u_mk"][0], t["u_mk"][1]
    assert [costs.get((veh, j)) for j in range(7)] == [1, 2, None, 2, None, 2, 1]
    assert [costs.get((inf, j)) for j in range(7)] == [1, 1, 1, 1, 2, 1, 1]
    assert (t["spill"], t["spill_att"], t["r0_att"], t["r0_class"]) == (
        1,
        -3,
        1,
        classes.index("infantry"),
    )
    assert (t["load_cost"], t["unload_cost"], t["every"], t["wound_divisor"]) == (1, 1, 3, 2)
    assert t["parts_limit"] == 15 and list(t["u_parts"]) == [3, 3]
    assert t["margin"] == 1
    # Equal ratings: the attack die must beat the defence die by 1 or more (15/36).
    mid = t["L"]
    assert t["p_destroy"][mid] == float(Fraction(15, 36))
    assert t["p_wound"][mid] == float(Fraction(6, 36))  # a tie falls short by one
