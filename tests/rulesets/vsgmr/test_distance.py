"""II.3 Distance attacks: the Distance Attack Unit, facing and line of sight, the attack roll,
armour, automatic fire, cover, riders in cover, and the dispute rolls (an option)."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction

PAIR = [
    ("red", {"id": "A2", "type": "troop", "at": [30, 10], "facing": 90, "distance": True}),
    ("blue", {"id": "B2", "type": "troop", "at": [30, 20], "facing": 270}),
]
"""Another shooter and target far to the east, so red is still asked to shoot."""


def _shot(vs, attacker=None, target=None, features=(), dice=(), extra=(), **kw):
    """Red's A at (10, 10) facing north (with a rider if it is a mount); blue's B 10" north
    of it facing south.

    The dice given are followed by the next round's initiative (red 6, blue 1).
    """
    a = {"type": "troop", "distance": True, **(attacker or {})}
    b = {"type": "troop", **(target or {})}
    at_b = b.pop("at", (10, 20))
    facing_a = a.pop("facing", 90)
    kind = a.pop("type")
    figures = [
        vs.fig("red", "A", kind, (10, 10), facing_a, **a),
        vs.fig("blue", "B", b.pop("type"), at_b, 270, **b),
        *PAIR,
        *extra,
    ]
    if kind in ("cavalry", "vehicle"):  # ridden: a riderless mount does not attack
        figures.append(("red", {"id": "AR", "type": "troop", "riding": "A"}))
    game = vs.start(figures, dice=[*dice, 6, 1], features=list(features), **kw)
    vs.skip_to(game, "distance", "red")
    return game


def _result(vs, game):
    return vs.last(game, "attack").data["result"]


# -- who may shoot whom ------------------------------------------------------------------------


def test_a_distance_attack_reaches_one_distance_attack_unit_of_twelve_inches(vs):
    """II.3: the target may be no farther than 12" (ruling: base edge to base edge)."""
    game = _shot(vs, target={"at": (10, 23)}, dice=[5])  # 13" apart: 12" between the bases
    game.apply("shoot A B", "red")
    far = _shot(vs, target={"at": (10, 23.2)})
    with pytest.raises(IllegalAction, match="beyond the Distance Attack Unit"):
        far.apply("shoot A B", "red")


def test_range_may_be_measured_centre_to_centre_by_option(vs):
    """II.3 (option range_from = "centre"): 12" between the centres."""
    game = _shot(vs, target={"at": (10, 23)}, options={"range_from": "centre"})
    with pytest.raises(IllegalAction, match=r'13\.00" away'):
        game.apply("shoot A B", "red")


def test_the_distance_is_a_straight_line_whatever_lies_between(vs):
    """II.3: unlike movement, the Distance Attack Unit is measured in a straight line
    (rough ground between costs a move double, not a shot)."""
    bog = vs.box("bog", 5, 12, 15, 18, rough=True)
    game = _shot(vs, features=[bog], dice=[5])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"


def test_the_attacker_must_be_facing_the_target(vs):
    """II.3: the figure has to be facing the foe (stand-in: its front half)."""
    game = _shot(vs, attacker={"facing": 270})
    with pytest.raises(IllegalAction, match="not facing B"):
        game.apply("shoot A B", "red")
    side = _shot(vs, attacker={"facing": 0}, dice=[5])  # B at 90 degrees: on the limit
    side.apply("shoot A B", "red")


def test_the_attacker_must_see_the_target(vs):
    """II.3 Line of Sight: the figure has to be able to see the target."""
    wall = vs.wall("wall", (5, 15), (15, 15))
    game = _shot(vs, features=[wall])
    with pytest.raises(IllegalAction, match="cannot see B"):
        game.apply("shoot A B", "red")


def test_a_target_partly_in_view_can_be_attacked(vs):
    """II.3 (ruling): any part of the target seen is enough to attack it."""
    wall = vs.wall("wall", (5, 15), (10.2, 15))  # hides 90% of B
    game = _shot(vs, features=[wall], dice=[6])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"


def test_only_figures_with_a_distance_attack_may_shoot(vs):
    """II.3: distance attacks are for figures with a gun, bow, magic blast..."""
    game = _shot(vs, extra=[vs.fig("red", "C", "troop", (12, 10), 90)])
    with pytest.raises(IllegalAction, match="has no distance attack"):
        game.apply("shoot C B", "red")


def test_friends_cannot_be_attacked(vs):
    """II.3: the target is an opposing figure."""
    game = _shot(vs, extra=[vs.fig("red", "C", "troop", (10, 14), 90)])
    with pytest.raises(IllegalAction, match="own side"):
        game.apply("shoot A C", "red")


def test_one_attack_a_round_distance_or_hand_to_hand(vs):
    """II.3: one attack a round, either distance or hand to hand, never both."""
    game = _shot(vs, target={"at": (10, 11)}, dice=[1])  # B touches A
    game.apply("shoot A B", "red")
    with pytest.raises(IllegalAction, match="already attacked"):
        game.apply("shoot A B", "red")
    fig = vs.figure(game, "A")
    assert "already attacked" in game.ruleset.situation(game.state, fig, "B", True)


def test_a_figure_may_move_and_attack_in_the_same_round(vs):
    """II.3: moving does not stop a figure from attacking that round."""
    figures = [
        vs.fig("red", "A", "troop", (10, 4), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 20), 270),
    ]
    game = vs.start(figures, dice=[5])
    game.apply("move A 10,10", "red")
    vs.skip_to(game, "distance", "red")
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"


def test_a_touching_target_may_be_shot_instead_of_fought(vs):
    """II.4: a figure touching its target that has a distance attack may use it instead."""
    game = _shot(vs, target={"at": (10, 11)}, dice=[5])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"


# -- the attack roll ------------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "result"), [(4, "miss"), (5, "hit"), (6, "hit")])
def test_five_or_more_hits(vs, roll, result):
    """II.3: 5 or more hits; 4 or less misses and the attack is over."""
    game = _shot(vs, dice=[roll])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == result
    assert (vs.figure(game, "B").where == "defeated") == (result == "hit")


@pytest.mark.parametrize("kind", ["hero", "vehicle"])
def test_heroes_and_vehicles_add_one_to_the_attack_die(vs, kind):
    """II.3: heroes and vehicles get +1 on the attack die."""
    game = _shot(vs, attacker={"type": kind}, dice=[4])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"
    assert "4+1 against 5+" in vs.last(game, "attack").text


def test_cavalry_add_nothing(vs):
    """II.3: only heroes and vehicles add +1."""
    game = _shot(vs, attacker={"type": "cavalry"}, dice=[4])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "miss"


# -- automatic fire ---------------------------------------------------------------------------


def test_automatic_fire_rolls_two_dice_and_keeps_the_higher(vs):
    """II.3 AUTOMATIC FIRE: two dice, the higher counts."""
    game = _shot(vs, attacker={"auto": True}, dice=[2, 5])
    game.apply("shoot A B", "red")
    assert [e.data["dice"] for e in vs.events(game, "roll")[-2:]] == [(2,), (5,)]
    assert _result(vs, game) == "hit"


def test_the_log_shows_the_higher_die_kept_not_a_sum(vs):
    """II.3 AUTOMATIC FIRE (issue 11): the log names each die and the higher one kept; it
    never adds them ("4+1 = 5")."""
    game = _shot(vs, attacker={"type": "hero", "auto": True}, dice=[4, 1])
    game.apply("shoot A B", "red")
    texts = [e.text for e in game.events]
    assert not any("= 5" in t for t in texts)
    assert "A hits B (best of 4, 1: 4+1 against 5+): defeated" in texts


def test_the_hit_is_logged_before_the_armour_roll_that_answers_it(vs):
    """II.3 ARMOR (issue 11): the attack hits, then the target rolls for its armour; the
    log follows that order."""
    game = _shot(vs, target={"armour": "heavy"}, dice=[5, 4])
    game.apply("shoot A B", "red")
    kinds = [e.kind for e in game.events][-4:]
    assert kinds == ["roll", "hit", "roll", "attack"]
    assert "armour" in game.events[-2].text and _result(vs, game) == "saved"


def test_automatic_fire_keeps_the_higher_die_before_the_heros_plus_one(vs):
    """II.3 AUTOMATIC FIRE: the higher die is taken before any adjustment (4, then +1)."""
    game = _shot(vs, attacker={"type": "hero", "auto": True}, dice=[4, 3])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"
    assert "4+1 against 5+" in vs.last(game, "attack").text


# -- armour ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "armour", "save", "result"),
    [
        ("troop", "light", 6, "saved"),
        ("troop", "light", 5, "hit"),
        ("troop", "heavy", 4, "saved"),
        ("troop", "heavy", 3, "hit"),
        ("vehicle", "light", 5, "saved"),
        ("vehicle", "light", 4, "hit"),
        ("vehicle", "heavy", 3, "saved"),
        ("vehicle", "heavy", 2, "hit"),
    ],
)
def test_armour_turns_a_hit_into_a_miss(vs, kind, armour, save, result):
    """II.3 ARMOR: light armour cancels a hit on 6+, heavy on 4+; vehicles add +1."""
    game = _shot(vs, target={"type": kind, "armour": armour}, dice=[6, save])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == result
    roll = vs.last(game, "roll")
    assert roll.data["side"] == "blue"  # the target's owner rolls
    assert (vs.figure(game, "B").where == "defeated") == (result == "hit")


def test_no_armour_no_armour_roll(vs):
    """II.3 ARMOR: only figures wearing armour roll."""
    game = _shot(vs, dice=[6])
    game.apply("shoot A B", "red")
    assert not any("armour" in e.text for e in game.events if e.kind == "roll")
    assert _result(vs, game) == "hit"


# -- cover --------------------------------------------------------------------------------


LOW_WALL = {
    "id": "low",
    "kind": "wall",
    "shape": "polyline",
    "points": [[5, 19.4], [15, 19.4]],
    "barrier": True,
    "blocks_los": "beyond",
    "beyond_reach": 0.6,
}


def test_a_target_at_least_half_blocked_by_terrain_needs_six(vs):
    """II.3 COVER: at least half blocked by terrain: 6 or more instead of 5."""
    game = _shot(vs, features=[LOW_WALL], dice=[5])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "miss"
    assert "in cover" in vs.last(game, "attack").text
    again = _shot(vs, features=[LOW_WALL], dice=[6])
    again.apply("shoot A B", "red")
    assert _result(vs, again) == "hit"


def test_exactly_half_hidden_is_cover_and_less_is_not(vs):
    """II.3 COVER: "at least half" blocked."""
    half = _shot(vs, features=[vs.wall("w", (5, 15), (10, 15))], dice=[5])
    half.apply("shoot A B", "red")
    assert _result(vs, half) == "miss"
    less = _shot(vs, features=[vs.wall("w", (5, 15), (9.9, 15))], dice=[5])
    less.apply("shoot A B", "red")
    assert _result(vs, less) == "hit"


def test_heroes_and_vehicles_still_add_one_against_cover(vs):
    """II.3 COVER: hero guys and vehicles still add +1."""
    game = _shot(vs, attacker={"type": "hero"}, features=[LOW_WALL], dice=[5])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"


def test_other_figures_are_not_cover(vs):
    """II.3 COVER (ruling): cover is terrain; figures in between neither block nor cover
    (option figures_block_sight turns blocking on)."""
    screen = vs.fig("blue", "C", "troop", (10, 15), 270)
    game = _shot(vs, extra=[screen], dice=[5])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"
    blocked = _shot(
        vs,
        extra=[vs.fig("blue", "C", "cavalry", (10, 15), 0)],
        options={"figures_block_sight": True},
    )
    with pytest.raises(IllegalAction, match="cannot see B"):
        blocked.apply("shoot A B", "red")


HEDGE = {
    "id": "hedge",
    "kind": "hedge",
    "shape": "polyline",
    "points": [[5, 10.5], [15, 10.5]],
    "blocks_los": "beyond",
    "beyond_reach": 1.5,
}
"""A hedge in front of A at (10, 10): cover for a target up to 1.5" beyond it."""


def test_a_target_the_attacker_touches_is_not_in_cover(vs):
    """II.4: a target close enough to be fought hand to hand never counts as in cover:
    a touching figure that shoots instead needs only 5, even across a hedge."""
    across = _shot(vs, target={"at": (10, 11.0)}, features=[HEDGE])
    sit = across.ruleset.situation(across.state, vs.figure(across, "A"), "B", False)
    assert not sit.cover
    game = _shot(vs, target={"at": (10, 11.0)}, features=[HEDGE], dice=[5])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"
    apart = _shot(vs, target={"at": (10, 12.2)}, features=[HEDGE], dice=[5])  # out of reach
    apart.apply("shoot A B", "red")
    assert _result(vs, apart) == "miss"  # in cover: 6 needed


def test_a_rider_the_attacker_touches_is_not_in_cover(vs):
    """II.4 over II.3 COVER: a rider is covered on its mount, but not against a figure
    touching the mount (it could fight it hand to hand)."""
    rider = ("blue", {"id": "R", "type": "troop", "riding": "B"})
    game = _shot(vs, target={"type": "cavalry", "at": (10, 11.5)}, extra=[rider], dice=[5])
    game.apply("shoot A R", "red")
    assert _result(vs, game) == "hit"


def test_a_rider_on_its_mount_is_always_in_cover(vs):
    """II.3 COVER: a cavalry rider or vehicle driver is covered while on its mount."""
    rider = ("blue", {"id": "R", "type": "troop", "riding": "B"})
    game = _shot(vs, target={"type": "cavalry"}, extra=[rider], dice=[5])
    game.apply("shoot A R", "red")
    assert _result(vs, game) == "miss"
    again = _shot(vs, target={"type": "cavalry"}, extra=[rider], dice=[6])
    again.apply("shoot A R", "red")
    assert _result(vs, again) == "hit"
    assert vs.figure(again, "R").where == "defeated"
    assert vs.figure(again, "B").rider is None


# -- the dispute rolls (option) -----------------------------------------------------------------


def test_a_borderline_line_of_sight_is_settled_by_a_die(vs):
    """II.3 Line of Sight: if you're not sure, roll: 1-3 can't see, 4-6 attack
    (option dispute_rolls: only when less than a tenth of the target shows, or it sits
    within 5 degrees of the facing limit)."""
    wall = vs.wall("w", (5, 15), (10.22, 15))
    unseen = _shot(vs, features=[wall], options={"dispute_rolls": True}, dice=[3])
    unseen.apply("shoot A B", "red")
    assert _result(vs, unseen) == "unseen"
    assert vs.last(unseen, "attack").data["clear"] is False
    assert vs.figure(unseen, "A").attacked  # the attack is spent (ruling)
    seen = _shot(vs, features=[wall], options={"dispute_rolls": True}, dice=[4, 6])
    seen.apply("shoot A B", "red")
    assert _result(vs, seen) == "hit"


def test_without_the_option_the_measure_decides(vs):
    """RULES-NOTES: the software measures; no dispute roll unless the option is on."""
    wall = vs.wall("w", (5, 15), (10.22, 15))
    game = _shot(vs, features=[wall], dice=[6])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"
    assert not any("dispute" in e.text for e in game.events if e.kind == "roll")


def test_borderline_cover_is_settled_by_a_die(vs):
    """II.3 COVER: if players cannot agree, roll: 1-3 in the open, 4-6 covered
    (option dispute_rolls: when the hidden share is within a tenth of one half)."""
    wall = vs.wall("w", (5, 15), (10, 15))
    opened = _shot(vs, features=[wall], options={"dispute_rolls": True}, dice=[3, 5])
    opened.apply("shoot A B", "red")
    assert _result(vs, opened) == "hit"  # in the open: 5 hits
    covered = _shot(vs, features=[wall], options={"dispute_rolls": True}, dice=[4, 5])
    covered.apply("shoot A B", "red")
    assert _result(vs, covered) == "miss"  # covered: 5 misses


# -- sight through woods, ruins and rubble (ruling 10: see_depth) -----------------------------


def test_touching_rubble_gives_no_view_through_it(vs):
    """II.3 (ruling 10): sight through an area figures stand in depends on how much of it the
    line crosses, the same from either end. Against one side of 5" of rubble a figure sees
    no more through it than 0.1" back, and the figure beyond cannot shoot back either."""
    rubble = vs.box("rubble", 5, 10.5, 15, 15.5, rough=True, blocks_los="beyond")
    for at_b in ((10, 20), (10, 16)):  # beyond it; against its far side
        game = _shot(vs, features=[rubble], target={"at": at_b})
        with pytest.raises(IllegalAction, match="cannot see B"):
            game.apply("shoot A B", "red")
    back = vs.box("rubble", 5, 10.6, 15, 15.6, rough=True, blocks_los="beyond")  # 0.1" away
    game = _shot(vs, features=[back])
    with pytest.raises(IllegalAction, match="cannot see B"):
        game.apply("shoot A B", "red")


def test_a_figure_a_little_way_into_rubble_is_seen_and_in_cover(vs):
    """II.3 COVER with ruling 10: less than see_depth (2") of rubble between the bases: the
    target is seen and covered, so a 5 misses and a 6 hits."""
    rubble = vs.box("rubble", 5, 18, 15, 23, rough=True, blocks_los="beyond")
    game = _shot(vs, features=[rubble], target={"at": (10, 20)}, dice=[5])  # 1.5" in
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "miss"
    hit = _shot(vs, features=[rubble], target={"at": (10, 20)}, dice=[6])
    hit.apply("shoot A B", "red")
    assert _result(vs, hit) == "hit"


def test_a_scenario_may_set_how_deep_sight_goes(vs):
    """Ruling 10: see_depth is a stand-in (rules.toml [sight]); a feature may set its own,
    and a wall or a solid wreck keeps the reach rule."""
    rubble = vs.box("rubble", 5, 10.5, 15, 15.5, rough=True, blocks_los="beyond", see_depth=6)
    game = _shot(vs, features=[rubble], dice=[6])
    game.apply("shoot A B", "red")
    assert _result(vs, game) == "hit"
    terrain = game.state.setup.terrain(frozenset())
    assert terrain.feature("rubble").see_depth == 6
    wreck = vs.box("wreck", 5, 12, 15, 14, impassable=True, blocks_los="beyond")
    other = _shot(vs, features=[wreck])
    assert other.state.setup.terrain(frozenset()).feature("wreck").see_depth is None
