"""III Attack effects: defeated figures leave the table and drop their riders and items,
items are picked up at the end of a move, and buildings and terrain can be destroyed."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction
from warbench.rulesets.vsgmr import attacks

PAIR = [
    ("red", {"id": "A2", "type": "troop", "at": [30, 10], "facing": 90, "distance": True}),
    ("blue", {"id": "B2", "type": "troop", "at": [30, 20], "facing": 270}),
]


def _shoot_game(vs, target, extra=(), dice=(), **kw):
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("blue", "B", target, (10, 20), 270),
        *PAIR,
        *extra,
    ]
    game = vs.start(figures, dice=[*dice, 6, 1], **kw)
    vs.skip_to(game, "distance", "red")
    return game


def test_a_hit_not_saved_defeats_the_target_and_scores_its_points(vs):
    """III: the target is defeated and taken from the table; II: its points go to the attacker."""
    game = _shoot_game(vs, "troop", dice=[5])
    game.apply("shoot A B", "red")
    b = vs.figure(game, "B")
    assert b.where == "defeated"
    assert game.state.scores["red"] == b.profile.points
    assert "B" not in [f["id"] for f in game.view(None)["figures"] if f["x"] is not None]


def test_a_defeated_mount_drops_its_rider_where_it_stood(vs):
    """III: a rider or driver is dropped where its mount was; it moves as a guy from then on."""
    rider = ("blue", {"id": "R", "type": "troop", "riding": "B"})
    game = _shoot_game(vs, "cavalry", extra=[rider], dice=[5])
    game.apply("shoot A B", "red")
    r = vs.figure(game, "R")
    assert r.where == "table" and r.mount is None
    assert vs.at(game, "R") == (10, 20)
    assert "R is dropped where B stood" in [e.text for e in game.events]


def test_a_defeated_figure_drops_the_items_it_carried(vs):
    """III: an item from a scenario carried by a defeated figure is dropped where it stood."""
    items = [{"id": "gold", "at": [10, 20]}]
    game = vs.start(
        [
            vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
            vs.fig("blue", "B", "troop", (10, 20), 270),
            *PAIR,
        ],
        items=items,
        dice=[5, 6, 1],
    )
    game.apply("end", "red")
    game.apply("take B gold", "blue")
    assert game.state.items["gold"].carrier == "B"
    vs.skip_to(game, "distance", "red")
    game.apply("shoot A B", "red")
    gold = game.state.items["gold"]
    assert gold.carrier is None and gold.at == (10.0, 20.0)


def test_any_figure_picks_up_a_dropped_item_by_ending_its_move_on_it(vs):
    """III: any figure may collect a dropped item by finishing its move on it."""
    items = [{"id": "gold", "at": [10, 14]}]
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90),
        vs.fig("red", "C", "troop", (20, 10), 90),
        vs.fig("blue", "B", "troop", (30, 30)),
    ]
    game = vs.start(figures, items=items)
    with pytest.raises(IllegalAction, match="not touching"):
        game.apply("take A gold", "red")
    game.apply("move A 10,14", "red")
    game.apply("take A gold", "red")
    assert vs.figure(game, "A").items == ["gold"]
    assert game.state.items["gold"].at is None


def test_picking_up_ends_the_figures_movement(vs):
    """III: a figure that picks an item up ends its movement there."""
    items = [{"id": "gold", "at": [10, 10.3]}]
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90),
        vs.fig("red", "C", "troop", (20, 10), 90),
        vs.fig("blue", "B", "troop", (30, 30)),
    ]
    game = vs.start(figures, items=items)
    game.apply("take A gold", "red")
    with pytest.raises(IllegalAction, match="already moved"):
        game.apply("move A 10,12", "red")


def test_a_figure_can_carry_any_number_of_items(vs):
    """III: there is no limit to how many items a figure carries."""
    items = [{"id": "gold", "at": [10, 10.2]}, {"id": "gems", "at": [10.2, 10]}]
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90),
        vs.fig("red", "C", "troop", (20, 10), 90),
        vs.fig("blue", "B", "troop", (30, 30)),
    ]
    game = vs.start(figures, items=items)
    game.apply("take A gold", "red")
    game.apply("take A gems", "red")
    assert vs.figure(game, "A").items == ["gold", "gems"]


def test_a_locked_item_cannot_be_picked_up(vs):
    """II.5/III (scenario): a sealed item waits for a skill roll."""
    items = [{"id": "idol", "at": [10, 10.2], "locked": True}]
    figures = [vs.fig("red", "A", "troop", (10, 10), 90), vs.fig("blue", "B", "troop", (30, 30))]
    game = vs.start(figures, items=items)
    with pytest.raises(IllegalAction, match="locked"):
        game.apply("take A idol", "red")


def test_an_item_carried_off_its_sides_edge_scores_and_may_end_the_game(vs):
    """II.2 + scenario victory: carried off the table by the side's own edge, the item scores
    its points; with end_when_item_leaves the game ends."""
    items = [{"id": "idol", "at": [10, 2], "points": 6}]
    figures = [
        vs.fig("red", "A", "troop", (10, 2), 270),
        vs.fig("red", "C", "troop", (20, 10), 90),
        vs.fig("blue", "B", "troop", (30, 30)),
    ]
    game = vs.start(
        figures,
        items=items,
        edges={"red": "south", "blue": "north"},
        victory={"item_exit": "own_edge", "end_when_item_leaves": True},
        dice=[6, 1],
    )
    game.apply("take A idol", "red")
    vs.next_round(game)
    game.apply("move A 10,-0.5", "red")
    assert game.is_over
    assert game.outcome.winner == "red"
    assert game.outcome.scores["red"] == 6.0
    assert "carried off the table" in game.outcome.reason


def test_an_item_carried_off_another_edge_scores_nothing(vs):
    """Scenario victory (item_exit = "own_edge"): only the side's own edge scores."""
    items = [{"id": "idol", "at": [2, 10], "points": 6}]
    figures = [
        vs.fig("red", "A", "troop", (2, 10), 180),
        vs.fig("red", "C", "troop", (20, 10), 90),
        vs.fig("blue", "B", "troop", (30, 30)),
    ]
    game = vs.start(figures, items=items, edges={"red": "south"}, dice=[6, 1])
    game.apply("take A idol", "red")
    vs.next_round(game)
    game.apply("move A -0.5,10", "red")
    assert game.state.scores["red"] == 0.0
    assert game.state.items["idol"].gone


# -- buildings and terrain --------------------------------------------------------------------


def _wall_game(vs, dice, **extra):
    wall = vs.wall("wall", (5, 15), (15, 15), **extra)
    return _shoot_game(vs, "troop", dice=dice, features=[wall])


def test_a_building_or_feature_hit_saves_on_three_or_more(vs):
    """III: a hit building or feature makes an armour roll: a miss on 3 or more."""
    game = _wall_game(vs, dice=[5, 3])
    game.apply("shoot A wall", "red")
    assert vs.last(game, "attack").data["result"] == "saved"
    assert "wall" not in game.state.destroyed


def test_on_a_one_or_two_the_feature_is_destroyed_and_removed(vs):
    """III: a roll of 1 or 2 wrecks the feature and takes it off the table (stand-in: the
    whole feature named; a scenario splits a building into parts)."""
    game = _wall_game(vs, dice=[5, 2])
    game.apply("shoot A wall", "red")
    assert "wall" in game.state.destroyed
    vs.next_round(game, rolls=[6, 1, 6, 1])
    vs.skip_to(game, "distance", "red")
    game.dice.extend([5])
    game.apply("shoot A B", "red")  # the wall no longer blocks sight
    assert vs.figure(game, "B").where == "defeated"


def test_buildings_and_features_are_never_in_cover(vs):
    """III: buildings and features are never in cover: 5+ hits even behind other terrain."""
    hedge = {
        "id": "hedge",
        "kind": "hedge",
        "shape": "polyline",
        "points": [[5, 14.5], [15, 14.5]],
        "blocks_los": "beyond",
        "beyond_reach": 0.6,
    }
    wall = vs.wall("wall", (5, 15), (15, 15))
    game = _shoot_game(vs, "troop", dice=[5, 1], features=[wall, hedge])
    game.apply("shoot A wall", "red")
    assert vs.last(game, "attack").data["result"] == "hit"


def test_ground_marked_indestructible_cannot_be_attacked(vs):
    """III (scenario): ground such as a road is no target (destructible = false)."""
    road = vs.box("road", 0, 12, 36, 13, destructible=False)
    game = _shoot_game(vs, "troop", features=[road])
    with pytest.raises(IllegalAction, match="cannot be attacked"):
        game.apply("shoot A road", "red")


def test_a_feature_can_be_attacked_hand_to_hand(vs):
    """III: a building or feature hit in hand to hand combat makes the same roll."""
    wall = vs.wall("wall", (5, 10.6), (15, 10.6))
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90),
        vs.fig("blue", "B", "troop", (30, 30)),
        ("red", {"id": "A2", "type": "troop", "at": [30, 10], "facing": 90}),
        ("blue", {"id": "B2", "type": "troop", "at": [30, 11], "facing": 270}),
    ]
    game = vs.start(figures, features=[wall], dice=[4, 1, 6, 1])
    vs.skip_to(game, "hand", "red")
    game.apply("fight A wall", "red")
    assert "wall" in game.state.destroyed


def test_a_building_is_aimed_at_through_any_part_in_view(vs):
    """III with ruling 16: a building is a target like a figure, so any part of it in range,
    in front and in view may be aimed at: a pillar hiding only its nearest corner does not
    make it untargetable (issue 11). A part no line reaches is still refused."""
    house = vs.box("house", 3, 16, 9, 20, kind="building", impassable=True, blocks_los="yes")
    pillar = {
        "id": "pillar",
        "kind": "pillar",
        "shape": "circle",
        "points": [[9.6, 12.4]],  # on the line to the corner (9, 16) nearest A
        "radius": 0.4,
        "impassable": True,
        "blocks_los": "yes",
    }
    game = _shoot_game(vs, "troop", dice=[5, 3], features=[house, pillar])
    game.apply("shoot A house", "red")
    assert vs.last(game, "attack").data["result"] == "saved"
    screen = vs.wall("screen", (0, 14), (12, 14))
    hidden = _shoot_game(vs, "troop", features=[house, screen])
    with pytest.raises(IllegalAction, match="cannot see house"):
        hidden.apply("shoot A house", "red")


def test_a_dropped_rider_does_not_attack_again_in_the_round_its_pair_attacked(vs):
    """III with ruling 8: the pair's attack was the rider's (it controlled the mount, II.2);
    dropped when the mount is defeated, it does not make a second attack that round."""
    figures = [
        vs.fig("red", "M", "cavalry", (10, 10), 90, distance=True),
        ("red", {"id": "R", "type": "troop", "riding": "M"}),
        vs.fig("blue", "B", "troop", (10, 20), 270, distance=True),
        vs.fig("blue", "C", "troop", (11, 10), 180),  # touching M, then R where it drops
    ]
    game = vs.start(figures, dice=[1, 5, 6, 1])
    vs.skip_to(game, "distance", "red")
    game.apply("shoot M B", "red")  # a 1: missed; red has nobody else to shoot
    game.apply("shoot B M", "blue")  # a 5: M is defeated, R dropped
    assert vs.figure(game, "R").where == "table"
    assert vs.figure(game, "R").attacked
    why = attacks.hand_situation(game.state, vs.figure(game, "R"), "C")
    assert isinstance(why, str) and "already attacked" in why


def test_a_riderless_vehicle_cannot_pick_up_an_item(vs):
    """III: picking up ends the figure's movement, and a vehicle without a driver cannot
    move at all (II.2), so it cannot pick anything up."""
    items = [{"id": "gold", "at": [10, 10]}]
    figures = [
        vs.fig("red", "V", "vehicle", (10, 10), 90),
        vs.fig("red", "A", "troop", (20, 10), 90),
        vs.fig("blue", "B", "troop", (30, 30)),
    ]
    game = vs.start(figures, items=items)
    with pytest.raises(IllegalAction, match="no rider or driver"):
        game.apply("take V gold", "red")
