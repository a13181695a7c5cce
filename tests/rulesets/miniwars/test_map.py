"""THE MAP: the terrain chart (movement cost, melee effect, line of sight) and its footnotes.

Costs are read from the unit's reach (``reach_mp``), which includes every
adjacent hex a unit may enter at all with its true cost. Melee modifiers are
read from the rules' ``melee_situation``, the same call an attack rolls with.
"""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction
from warbench.geometry.hexgrid import Hex


def _step_cost(mw, kind: str, to_terrain: str | None = None, **kw) -> float | None:
    """MP for a unit at 0505 to step into 0506 (directly south); None if it may not.

    The unit has Move 1, so the direct step is its only way into 0506 (a longer
    unit could walk round a single hexside feature more cheaply).
    """
    kind = {"foot": "foot1", "horse": "horse1"}[kind]
    hexes = dict(kw.pop("hexes", {}))
    if to_terrain is not None and to_terrain != "open":
        hexes.setdefault(to_terrain, []).append("0506")
    game = mw.started_game(
        [("red", "U", kind, "0505"), ("blue", "E", "foot", "0910")], hexes=hexes, **kw
    )
    return mw.reach_mp(game, "U").get("0506")


# -- movement cost column ---------------------------------------------------------


@pytest.mark.parametrize(
    ("terrain", "infantry", "cavalry"),
    [
        ("open", 1, 1),
        ("forest", 2, None),
        ("rough", 2, 2),
        ("marsh", 2, None),
        ("lake", None, None),
        ("town", 2, None),
    ],
)
def test_terrain_chart_movement_cost_per_terrain(mw, terrain, infantry, cavalry):
    """THE MAP, terrain chart, Movement Cost columns: n/a means the hex cannot be entered."""
    assert _step_cost(mw, "foot", terrain) == infantry
    assert _step_cost(mw, "horse", terrain) == cavalry


def test_lake_is_impassable_to_every_unit_even_as_the_one_hex_move(mw):
    """THE MAP (Lake n/a, n/a) with MOVEMENT (one-hex minimum does not open a lake)."""
    game = mw.started_game(
        [
            ("red", "F", "foot", "0505"),
            ("red", "H", "horse", "0305"),
            ("blue", "E", "foot", "0910"),
        ],
        hexes={"lake": ["0506", "0306"]},
    )
    assert "0506" not in mw.reach_mp(game, "F")
    assert "0306" not in mw.reach_mp(game, "H")
    game = mw.skip_to(game, "move_a")
    with pytest.raises(IllegalAction, match="cannot reach 0506"):
        game.apply("move F 0506", "red")


@pytest.mark.parametrize("terrain", ["forest", "marsh", "town"])
def test_cavalry_cannot_enter_terrain_marked_n_a_for_cavalry(mw, terrain):
    """THE MAP: forest, marsh and village/town are n/a for cavalry, even one hex away."""
    game = mw.started_game(
        [("red", "H", "horse", "0505"), ("blue", "E", "foot", "0910")],
        hexes={terrain: ["0506", "0504", "0604", "0605", "0405", "0404"]},
    )
    assert set(mw.reach_mp(game, "H")) == {"0505"}


def test_river_costs_infantry_two_extra_mp_and_cavalry_one(mw):
    """THE MAP, River row: +2 infantry, +1 cavalry, on the hexside crossed."""
    river = {"river": ["0505/0506"]}
    assert _step_cost(mw, "foot", hexsides=river) == 3
    assert _step_cost(mw, "horse", hexsides=river) == 2
    assert _step_cost(mw, "horse", "rough", hexsides=river) == 3


def test_bridge_adds_nothing_to_the_crossing(mw):
    """THE MAP, Bridge row: +0 for infantry and cavalry; the hex entered still counts."""
    bridge = {"bridge": ["0505/0506"]}
    assert _step_cost(mw, "foot", hexsides=bridge) == 1
    assert _step_cost(mw, "horse", hexsides=bridge) == 1
    assert _step_cost(mw, "foot", "forest", hexsides=bridge) == 2


def test_hedgerow_as_printed_bars_infantry_and_costs_cavalry_two_extra(mw):
    """THE MAP, Hedgerow row read as printed: infantry n/a, cavalry +2 (RULES-NOTES)."""
    hedge = {"hedgerow": ["0505/0506"]}
    assert _step_cost(mw, "foot", hexsides=hedge) is None
    assert _step_cost(mw, "horse", hexsides=hedge) == 3


def test_hill_costs_one_extra_mp_only_going_uphill(mw):
    """THE MAP, Hill row and footnote 1: +1 MP only when the unit goes uphill."""
    for kind in ("foot", "horse"):
        up = mw.started_game(
            [("red", "U", kind, "0505"), ("blue", "E", "foot", "0910")], elevation={1: ["0506"]}
        )
        assert mw.reach_mp(up, "U")["0506"] == 2
        down = mw.started_game(
            [("red", "U", kind, "0505"), ("blue", "E", "foot", "0910")], elevation={1: ["0505"]}
        )
        assert mw.reach_mp(down, "U")["0506"] == 1
        level = mw.started_game(
            [("red", "U", kind, "0505"), ("blue", "E", "foot", "0910")],
            elevation={1: ["0505", "0506"]},
        )
        assert mw.reach_mp(level, "U")["0506"] == 1


def test_hill_uphill_cost_adds_to_the_terrain_entered(mw):
    """THE MAP, footnote 1: uphill into rough is rough's 2 MP plus 1."""
    assert _step_cost(mw, "foot", "rough", elevation={1: ["0506"]}) == 3


def test_road_costs_half_an_mp_along_the_road(mw):
    """THE MAP, Road row and footnote 4: 1/2 MP per hex along the road."""
    road = [["0501", "0502", "0503", "0504", "0505", "0506", "0507", "0508", "0509", "0510"]]
    game = mw.started_game(
        [("red", "F", "foot", "0501"), ("blue", "E", "foot", "1010")], roads=road
    )
    reach = mw.reach_mp(game, "F")
    assert reach["0507"] == 3  # six road hexes for a Move 3 unit
    assert "0508" not in reach
    assert reach["0602"] == 1.5  # half an MP along the road, then 1 off it


@pytest.mark.parametrize(
    ("kind", "terrain"),
    [
        ("foot", "forest"),
        ("horse", "forest"),
        ("horse", "marsh"),
        ("foot", "town"),
        ("foot", "lake"),
    ],
)
def test_road_ignores_the_terrain_it_runs_through(mw, kind, terrain):
    """THE MAP, footnote 4: other terrain has no effect along the road (cavalry too;
    ruling: even a lake, read literally, becomes a causeway)."""
    road = [["0505", "0506"]]
    assert _step_cost(mw, kind, terrain, roads=road) == 0.5


def test_hill_climbing_two_levels_in_one_step_costs_one_extra(mw):
    """THE MAP, footnote 1 (ruling on a map with several levels): +1 per uphill step."""
    assert _step_cost(mw, "foot", elevation={2: ["0506"]}) == 2


def test_road_ignores_a_river_it_crosses(mw):
    """THE MAP, footnote 4: the river's extra cost has no effect along the road."""
    assert (
        _step_cost(mw, "foot", roads=[["0505", "0506"]], hexsides={"river": ["0505/0506"]}) == 0.5
    )


def test_road_does_not_cancel_the_hill(mw):
    """THE MAP, footnote 4 ("except hills"): uphill along a road is 1/2 + 1 MP."""
    assert _step_cost(mw, "foot", roads=[["0505", "0506"]], elevation={1: ["0506"]}) == 1.5


def test_road_hex_entered_off_the_road_costs_its_terrain(mw):
    """THE MAP, footnote 4: only moving ALONG the road gets the road rate."""
    game = mw.started_game(
        [("red", "F", "foot", "0505"), ("blue", "E", "foot", "0910")],
        hexes={"forest": ["0506"]},
        roads=[["0406", "0506"]],
    )
    assert mw.reach_mp(game, "F")["0506"] == 2


# -- melee combat effect columns -----------------------------------------------------


def _melee_mods(mw, attacker_at: str = "0505", defender_at: str = "0506", **kw) -> dict[str, int]:
    game = mw.started_game(
        [("red", "A", "foot", attacker_at), ("blue", "D", "foot", defender_at)], **kw
    )
    state = game.state
    needed, mods = game.ruleset.melee_situation(state, state.units["A"], state.units["D"])
    assert needed == 8  # CS 3 against CS 3
    return {why: value for value, why in mods}


@pytest.mark.parametrize(
    ("terrain", "as_attacker", "as_defender"),
    [
        ("open", {}, {}),
        ("forest", {}, {"defender in forest": -1}),
        ("rough", {"attacker in rough": -1}, {}),
        ("marsh", {"attacker in marsh": -1}, {}),
        ("town", {}, {"defender in town": -1}),
    ],
)
def test_terrain_chart_melee_effect_per_terrain(mw, terrain, as_attacker, as_defender):
    """THE MAP, Melee Combat Effect: the Attacker column counts for the attacker's hex,
    the Defender column for the defender's hex."""
    hexes = {terrain: ["0505"]} if terrain != "open" else {}
    assert _melee_mods(mw, "0505", "0506", hexes=hexes) == as_attacker
    assert _melee_mods(mw, "0506", "0505", hexes=hexes) == as_defender


def test_bridge_gives_minus_one_when_attacking_across(mw):
    """THE MAP, Bridge row: -1 when attacking across the bridge."""
    assert _melee_mods(mw, hexsides={"bridge": ["0505/0506"]}) == {"attacking across bridge": -1}


def test_hill_melee_modifier_only_for_the_higher_unit(mw):
    """THE MAP, Hill row and footnote 2: +1 if the attacker is higher, -1 if the defender
    is; nothing when both stand at the same height (both on the hill included)."""
    assert _melee_mods(mw, elevation={1: ["0505"]}) == {"attacker higher": 1}
    assert _melee_mods(mw, elevation={1: ["0506"]}) == {"defender higher": -1}
    assert _melee_mods(mw, elevation={1: ["0505", "0506"]}) == {}


@pytest.mark.parametrize("feature", ["river", "hedgerow"])
def test_units_cannot_attack_across_a_river_or_hedgerow(mw, feature):
    """THE MAP, River and Hedgerow rows: units cannot attack across."""
    game = mw.started_game(
        [("red", "A", "horse", "0504"), ("blue", "D", "foot", "0506")],
        hexsides={feature: ["0505/0506"]},
    )
    game = mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    assert game.state.step == "select"  # no attack is offered
    assert not any(str(a).startswith("attack") for a in game.legal_actions("red"))


def test_attack_across_a_bridge_is_allowed(mw):
    """THE MAP, Bridge row: an attack across a bridge happens (at -1)."""
    game = mw.started_game(
        [("red", "A", "foot", "0504"), ("blue", "D", "foot", "0506")],
        hexsides={"bridge": ["0505/0506"]},
        dice=[4, 5],
    )
    game = mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    game.apply("attack A D", "red")
    melee = mw.last(game, "melee").data
    assert melee["modifiers"] == [-1]
    assert melee["success"] is True  # 9 - 1 = 8 against 8+


# -- block LOS column -------------------------------------------------------------------


def _los(mw, a: str = "0502", b: str = "0505", **kw) -> bool:
    game = mw.started_game([("red", "X", "foot", "0101"), ("blue", "Y", "foot", "1010")], **kw)
    return game.ruleset.line_of_sight(game.state, Hex.from_label(a), Hex.from_label(b))


@pytest.mark.parametrize(
    ("terrain", "blocks"),
    [
        ("open", False),
        ("forest", True),
        ("rough", False),
        ("marsh", False),
        ("lake", False),
        ("town", True),
    ],
)
def test_terrain_chart_block_los_per_terrain(mw, terrain, blocks):
    """THE MAP, Block LOS column, for a hex between the two units."""
    hexes = {terrain: ["0503"]} if terrain != "open" else {}
    assert _los(mw, hexes=hexes) is not blocks


@pytest.mark.parametrize(
    ("feature", "blocks"), [("river", False), ("bridge", False), ("hedgerow", True)]
)
def test_hexside_features_block_los_as_the_chart_says(mw, feature, blocks):
    """THE MAP, Block LOS column: a hedgerow blocks sight; a river or bridge does not."""
    assert _los(mw, hexsides={feature: ["0503/0504"]}) is not blocks


def test_road_does_not_block_los(mw):
    """THE MAP, Road row, Block LOS: No."""
    assert _los(mw, roads=[["0502", "0503", "0504", "0505"]]) is True


def test_hill_between_the_units_blocks_los(mw):
    """THE MAP, Hill row and footnote 3: a hill lying between the two units blocks."""
    assert _los(mw, elevation={1: ["0503"]}) is False


def test_hill_does_not_block_when_either_unit_is_atop_it(mw):
    """THE MAP, footnote 3: if either unit is atop the hill, sight is not blocked."""
    assert _los(mw, elevation={1: ["0502", "0503"]}) is True
    assert _los(mw, elevation={1: ["0503", "0504", "0505"]}) is True


def test_higher_hill_between_blocks_even_a_unit_on_a_lower_hill(mw):
    """THE MAP, footnote 3 (ruling): a rise higher than both units lies between them."""
    assert _los(mw, elevation={1: ["0502"], 2: ["0503"]}) is False


def test_a_unit_at_a_hills_height_sees_over_another_hill_of_that_height(mw):
    """THE MAP, footnote 3 (ruling, a doubt in docs/rules/miniwars.md): elevation has no
    hill identity; a unit on a level-1 hill is "atop" any level-1 hex between."""
    assert _los(mw, "0501", "0509", elevation={1: ["0501", "0505"]}) is True


def test_a_unit_may_stand_on_a_road_through_a_lake(mw):
    """THE MAP, footnote 4 (ruling): a road makes a causeway of a lake, so a unit may
    end its move there, and a scenario may set one up there too."""
    road = [["0505", "0506"]]
    game = mw.started_game(
        [("red", "F", "foot", "0506"), ("blue", "E", "foot", "0910")],
        hexes={"lake": ["0506"]},
        roads=road,
    )
    assert game.state.units["F"].pos == Hex.from_label("0506")
    assert "0505" in mw.reach_mp(game, "F")
