"""MOVEMENT: movement points, friends and enemies, the one-hex minimum, zones of control.

Many tests run in a "corridor": column 05 with lake on both sides, so a unit
has exactly one way to go and the cost or the stop being tested cannot be
dodged by a detour.
"""

from __future__ import annotations

import heapq
import itertools
import random

import pytest

from warbench.errors import IllegalAction
from warbench.geometry.hexgrid import Hex

FOOT4 = {"foot4": {"move": 4, "cs": 3, "morale": "=", "cost": 10}}


def corridor(*open_labels: str, column: int = 5, rows: int = 10) -> list[str]:
    """Lake hexes walling column ``column`` in on both sides (``open_labels`` left dry)."""
    path = {Hex.from_offset(column, r) for r in range(1, rows + 1)}
    walls = set()
    for h in path:
        for n in h.neighbours():
            c, r = n.to_offset()
            if 1 <= c <= 10 and 1 <= r <= rows and n not in path:
                walls.add(n.label)
    return sorted(walls - set(open_labels))


# -- movement points ------------------------------------------------------------------


def test_move_is_the_number_of_hexes_entered_per_turn(mw):
    """MOVEMENT (and UNITS, Move): a Move 3 unit enters three open hexes, not four."""
    game = mw.started_game(
        [("red", "U", "foot", "0501"), ("blue", "E", "foot", "1010")], hexes={"lake": corridor()}
    )
    reach = mw.reach_mp(game, "U")
    assert reach == {"0501": 0, "0502": 1, "0503": 2, "0504": 3}


def test_unused_mp_do_not_carry_over_to_the_next_turn(mw):
    """MOVEMENT: MPs left unused in one turn are lost."""
    game = mw.started_game(
        [("red", "U", "foot", "0501"), ("blue", "E", "foot", "1010")], hexes={"lake": corridor()}
    )
    mw.skip_to(game, "move_a")
    game.apply("move U 0502", "red")  # 1 of 3 MP used
    mw.next_turn(game)
    mw.skip_to(game, "move_a")
    reach = mw.reach_mp(game, "U")
    assert max(reach.values()) == 3
    assert "0505" in reach and "0506" not in reach


def test_a_unit_moves_once_per_movement_phase(mw):
    """MOVEMENT: one move per unit and phase; after it the unit may not move again."""
    game = mw.started_game([("red", "U", "foot", "0501"), ("blue", "E", "foot", "1010")])
    mw.skip_to(game, "move_a")
    game.apply("move U 0502", "red")
    with pytest.raises(IllegalAction, match="already moved this phase"):
        game.apply("move U 0503", "red")
    assert not any(str(a).startswith("move U") for a in game.legal_actions("red"))


def test_units_have_no_facing_and_may_move_in_any_direction(mw):
    """MOVEMENT and UNITS: all six neighbours are open to a unit."""
    game = mw.started_game([("red", "U", "foot1", "0505"), ("blue", "E", "foot", "1010")])
    reach = mw.reach_mp(game, "U")
    assert set(reach) - {"0505"} == {"0504", "0604", "0605", "0506", "0405", "0404"}


def test_holding_in_place_is_the_units_move(mw):
    """MOVEMENT: ``move U <its own hex>`` holds; it counts as the unit's move."""
    game = mw.started_game([("red", "U", "foot", "0505"), ("blue", "E", "foot", "1010")])
    mw.skip_to(game, "move_a")
    game.apply("move U 0505", "red")
    assert mw.last(game, "move").data["cost"] == 0
    with pytest.raises(IllegalAction, match="already moved"):
        game.apply("move U 0506", "red")


# -- worked examples of the terrain costs --------------------------------------------------


def test_river_crossing_into_open_costs_infantry_three_mp(mw):
    """MOVEMENT (worked example) / THE MAP: river +2 into open (1) is 3 MP."""
    game = mw.started_game(
        [("red", "U", "foot4", "0505"), ("blue", "E", "foot", "1010")],
        hexes={"lake": corridor()},
        hexsides={"river": ["0505/0506"]},
        unit_types=FOOT4,
    )
    reach = mw.reach_mp(game, "U")
    assert reach["0506"] == 3
    assert reach["0507"] == 4


def test_river_crossing_into_forest_costs_infantry_four_mp(mw):
    """MOVEMENT (worked example) / THE MAP: river +2 into forest (2) is 4 MP."""
    game = mw.started_game(
        [("red", "U", "foot4", "0505"), ("blue", "E", "foot", "1010")],
        hexes={"lake": corridor(), "forest": ["0506"]},
        hexsides={"river": ["0505/0506"]},
        unit_types=FOOT4,
    )
    reach = mw.reach_mp(game, "U")
    assert reach["0506"] == 4
    assert "0507" not in reach


def test_infantry_with_two_mp_may_still_cross_a_river_as_its_only_move(mw):
    """MOVEMENT (worked example): a unit may always move one hex, whatever it costs;
    a Move 2 infantry (the text's Goblin Infantry) crosses a river (3 MP)."""
    game = mw.started_game(
        [("red", "G", "goblin_infantry", "0505"), ("blue", "E", "foot", "1010")],
        hexes={"lake": corridor()},
        hexsides={"river": ["0505/0506"]},
    )
    reach = mw.reach_mp(game, "G")
    assert reach["0506"] == 3
    assert "0507" not in reach  # the crossing is the only movement it makes
    mw.skip_to(game, "move_a")
    game.apply("move G 0506", "red")
    assert mw.where(game, "G") == "0506"
    assert mw.last(game, "move").data["cost"] == 3


def test_one_hex_minimum_applies_to_any_costly_hex(mw):
    """MOVEMENT: regardless of MP cost a unit may move one hex (a Move 1 unit into forest)."""
    game = mw.started_game(
        [("red", "U", "foot1", "0505"), ("blue", "E", "foot", "1010")],
        hexes={"forest": ["0506"]},
        elevation={1: ["0506"]},
    )
    assert mw.reach_mp(game, "U")["0506"] == 3
    mw.skip_to(game, "move_a")
    game.apply("move U 0506", "red")
    assert mw.where(game, "U") == "0506"


# -- friends and enemies -----------------------------------------------------------------


def test_units_may_move_through_friendly_units(mw):
    """MOVEMENT: a unit passes through a hex holding a friend."""
    game = mw.started_game(
        [("red", "U", "foot", "0501"), ("red", "F", "foot", "0502"), ("blue", "E", "foot", "1010")],
        hexes={"lake": corridor()},
    )
    mw.skip_to(game, "move_a")
    game.apply("move U 0504", "red")
    assert mw.where(game, "U") == "0504"


def test_units_may_not_end_their_move_on_a_friendly_unit(mw):
    """MOVEMENT: ... but may not end the move there."""
    game = mw.started_game(
        [("red", "U", "foot", "0501"), ("red", "F", "foot", "0502"), ("blue", "E", "foot", "1010")],
        hexes={"lake": corridor()},
    )
    mw.skip_to(game, "move_a")
    assert Hex.from_label("0502") in game.ruleset.reach(game.state, game.state.units["U"])
    with pytest.raises(IllegalAction, match="friendly unit"):
        game.apply("move U 0502", "red")
    assert "move U 0502" not in [str(a) for a in game.legal_actions("red")]


def test_units_may_never_enter_a_hex_holding_an_enemy(mw):
    """MOVEMENT: never into an enemy's hex, not even as the one-hex move, nor through it."""
    game = mw.started_game(
        [("red", "U", "horse", "0501"), ("blue", "E", "foot", "0502")],
        hexes={"lake": corridor()},
    )
    mw.skip_to(game, "move_a")
    reach = mw.reach_mp(game, "U")
    assert "0502" not in reach and "0503" not in reach
    with pytest.raises(IllegalAction):
        game.apply("move U 0502", "red")


# -- zones of control -----------------------------------------------------------------------


def _zoc_game(mw, start: str, **kw):
    """Corridor column 05; enemy E at 0605 exerts its ZOC into 0505 and 0506."""
    return mw.started_game(
        [("red", "U", "horse", start), ("blue", "E", "foot", "0605")],
        hexes={"lake": corridor("0605")},
        **kw,
    )


def test_entering_an_enemy_zoc_ends_the_move(mw):
    """MOVEMENT, zone of control: a unit entering an enemy's ZOC stops at once."""
    game = _zoc_game(mw, "0501")
    reach = mw.reach_mp(game, "U")
    assert reach["0505"] == 4  # it may enter the ZOC ...
    assert "0506" not in reach and "0507" not in reach  # ... and must stop there (6 MP)


def test_zoc_is_the_six_hexes_around_the_unit(mw):
    """MOVEMENT: the six surrounding hexes are the ZOC (and only those)."""
    game = mw.started_game([("red", "U", "foot", "0101"), ("blue", "E", "foot", "0505")])
    blocked, stops, _, _ = game.ruleset.zones(game.state, "red")
    assert stops == mw.hexes("0504", "0604", "0605", "0506", "0405", "0404")
    assert blocked == mw.hexes("0505")


def test_a_unit_starting_in_an_enemy_zoc_may_move_off(mw):
    """MOVEMENT: a unit beginning its move in an enemy ZOC may move away freely."""
    game = _zoc_game(mw, "0505")
    reach = mw.reach_mp(game, "U")
    assert {"0504", "0503", "0502", "0501"} <= set(reach)


def test_a_unit_starting_in_zoc_stops_on_entering_another_zoc_hex(mw):
    """MOVEMENT: ... but it stops if it enters another hex in an opposing ZOC."""
    game = _zoc_game(mw, "0505")
    reach = mw.reach_mp(game, "U")
    assert reach["0506"] == 1
    assert "0507" not in reach


def test_disrupted_units_still_exert_a_zoc(mw):
    """MOVEMENT (ruling): the text takes no ZOC away from a disrupted unit."""
    game = _zoc_game(mw, "0501")
    mw.disrupt(game, "E")
    assert "0506" not in mw.reach_mp(game, "U")


@pytest.mark.parametrize("feature", ["river", "hedgerow", "bridge"])
def test_no_zoc_across_a_river_or_hedgerow_even_with_a_bridge(mw, feature):
    """MOVEMENT: no ZOC across a hedgerow or river, even where a bridge crosses it."""
    game = _zoc_game(mw, "0501", hexsides={feature: ["0505/0605", "0506/0605"]})
    reach = mw.reach_mp(game, "U")
    assert reach["0507"] == 6  # straight past the enemy


def test_move_to_an_unreachable_hex_is_refused_with_the_reason(mw):
    """MOVEMENT: a destination beyond the unit's MP is refused, and nothing changes."""
    game = mw.started_game([("red", "U", "foot", "0501"), ("blue", "E", "foot", "1010")])
    mw.skip_to(game, "move_a")
    with pytest.raises(IllegalAction, match="cannot reach 0505"):
        game.apply("move U 0505", "red")
    assert mw.where(game, "U") == "0501"
    assert game.state.units["U"].acted is False


# -- cross-check against an independent reading of the text --------------------------------

# Terrain chart in MP (None = n/a), written out again from the text.
TEXT_COST = {
    "open": (1, 1),
    "forest": (2, None),
    "rough": (2, 2),
    "marsh": (2, None),
    "lake": (None, None),
    "town": (2, None),
}
TEXT_SIDE = {"river": (2, 1), "bridge": (0, 0), "hedgerow": (None, 2)}


def _text_reach(raw, unit_at, cavalry, move, enemies):
    """Least MP to every hex a unit may end in, straight from the text (friends ignored)."""
    m = raw["map"]
    terrain = {h: t for t, hs in m.get("hexes", {}).items() for h in hs}
    height = {h: int(level) for level, hs in m.get("elevation", {}).items() for h in hs}
    sides = {
        frozenset(s.split("/")): g["feature"] for g in m.get("hexsides", []) for s in g["sides"]
    }
    roads = {frozenset((a, b)) for r in m.get("roads", []) for a, b in itertools.pairwise(r)}
    k = 1 if cavalry else 0

    def neighbours(label):
        for n in Hex.from_label(label).neighbours():
            c, r = n.to_offset()
            if 1 <= c <= m["columns"] and 1 <= r <= m["rows"]:
                yield n.label

    def cost(a, b):
        up = 1 if height.get(b, 0) > height.get(a, 0) else 0
        if frozenset((a, b)) in roads:
            return 0.5 + up
        base = TEXT_COST[terrain.get(b, "open")][k]
        feature = sides.get(frozenset((a, b)))
        extra = TEXT_SIDE[feature][k] if feature else 0
        if base is None or extra is None:
            return None
        return base + extra + up

    zoc = set()
    for e in enemies:
        for n in neighbours(e):
            if sides.get(frozenset((e, n))) is None:
                zoc.add(n)
    best = {unit_at: 0.0}
    heap = [(0.0, unit_at)]
    while heap:
        spent, here = heapq.heappop(heap)
        if spent > best[here] or (here != unit_at and here in zoc):
            continue
        for n in neighbours(here):
            step = cost(here, n)
            if step is None or n in enemies or spent + step > move:
                continue
            if spent + step < best.get(n, 99):
                best[n] = spent + step
                heapq.heappush(heap, (spent + step, n))
    for n in neighbours(unit_at):  # always one hex
        step = cost(unit_at, n)
        if step is not None and n not in enemies:
            best.setdefault(n, step)
    return best


@pytest.mark.parametrize("seed", range(12))
def test_reach_agrees_with_an_independent_reading_of_the_movement_rules(mw, seed):
    """MOVEMENT and THE MAP together, on random 8x8 maps: terrain, hexsides, hills, roads,
    enemies and their zones of control give the same reach as the text read afresh."""
    rng = random.Random(seed)
    labels = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]
    start = "0404"
    others = [h for h in labels if h != start]
    rng.shuffle(others)
    hexes = {}
    for t in ("forest", "rough", "marsh", "lake", "town"):
        hexes[t] = [others.pop() for _ in range(rng.randint(0, 6))]
    elevation = {1: [h for h in labels if rng.random() < 0.2]}
    sides, seen = {"river": [], "bridge": [], "hedgerow": []}, set()
    for _ in range(12):
        a = Hex.from_label(rng.choice(labels))
        b = rng.choice(a.neighbours())
        c, r = b.to_offset()
        if not (1 <= c <= 8 and 1 <= r <= 8):
            continue
        key = frozenset((a.label, b.label))
        if key not in seen:
            seen.add(key)
            sides[rng.choice(list(sides))].append(f"{a.label}/{b.label}")
    road, here = [start], Hex.from_label(start)
    for _ in range(5):
        n = rng.choice(here.neighbours())
        c, r = n.to_offset()
        if 1 <= c <= 8 and 1 <= r <= 8 and n.label not in road:
            road.append(n.label)
            here = n
    dry = [h for h in others if not any(h in v for v in hexes.values())]
    enemies = [dry.pop() for _ in range(2)]
    kind = rng.choice(["foot", "foot2", "horse"])
    units = [("red", "U", kind, start)] + [
        ("blue", f"E{i}", "foot", e) for i, e in enumerate(enemies)
    ]
    kw = {
        "columns": 8,
        "rows": 8,
        "hexes": {k: v for k, v in hexes.items() if v},
        "elevation": elevation if elevation[1] else None,
        "hexsides": {k: v for k, v in sides.items() if v},
        "roads": [road] if len(road) > 1 else None,
    }
    raw = mw.scenario_dict(units, **kw)
    game = mw.started_game(units, **kw)
    t = mw.TEST_TYPES[kind]
    expected = _text_reach(raw, start, t.get("cavalry", False), t["move"], set(enemies))
    assert mw.reach_mp(game, "U") == expected
