"""II.4 Hand to hand attacks: every figure may make them against a figure it touches,
4 or more hits (heroes and vehicles +1), armour as for distance attacks, no cover and
no automatic fire."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction
from warbench.rulesets.vsgmr import attacks

PAIR = [
    ("red", {"id": "A2", "type": "troop", "at": [30, 10], "facing": 90}),
    ("blue", {"id": "B2", "type": "troop", "at": [30, 11], "facing": 270}),
]
"""Another pair in contact far away, so red is still asked in the hand to hand step."""


def _melee(vs, attacker=None, target=None, dice=(), extra=(), ridden=True, **kw):
    """Red's A at (10, 10) facing north (a mount with its rider unless ``ridden`` is False),
    blue's B touching it from the north."""
    a = {"type": "troop", **(attacker or {})}
    b = {"type": "troop", **(target or {})}
    at_a = a.pop("at", (10, 10))
    at_b = b.pop("at", (10, 11))
    kind = a.pop("type")
    figures = [
        vs.fig("red", "A", kind, at_a, a.pop("facing", 90), **a),
        vs.fig("blue", "B", b.pop("type"), at_b, 270, **b),
        *PAIR,
        *extra,
    ]
    if kind in ("cavalry", "vehicle") and ridden:  # a riderless mount does not attack
        figures.append(("red", {"id": "AR", "type": "troop", "riding": "A"}))
    game = vs.start(figures, dice=[*dice, 6, 1], **kw)
    vs.skip_to(game, "hand", "red")
    return game


def _result(vs, game):
    return vs.last(game, "attack").data["result"]


@pytest.mark.parametrize(("roll", "result"), [(3, "miss"), (4, "hit")])
def test_four_or_more_hits(vs, roll, result):
    """II.4: 4 or more hits; 3 or less misses."""
    game = _melee(vs, dice=[roll])
    game.apply("fight A B", "red")
    assert _result(vs, game) == result


@pytest.mark.parametrize("kind", ["hero", "vehicle"])
def test_heroes_and_vehicles_add_one(vs, kind):
    """II.4: hero guys and vehicles add +1."""
    base = {"at": (10, 8.5)} if kind == "vehicle" else {}  # a 2" x 3" base: front edge at 10
    target = {"at": (10, 10.5)} if kind == "vehicle" else {}
    game = _melee(vs, attacker={"type": kind, **base}, target=target, dice=[3])
    game.apply("fight A B", "red")
    assert _result(vs, game) == "hit"


def test_the_target_must_touch_the_attacker(vs):
    """II.4: a hand to hand target has to be in contact with the attacker."""
    game = _melee(vs, target={"at": (10, 12.5)}, attacker={"facing": 270})
    with pytest.raises(IllegalAction, match="not touching B"):
        game.apply("fight A B", "red")


def test_a_guy_laid_flat_reaches_a_little_way_in_front(vs):
    """II.4: reach is checked by tipping the attacker forward onto its face (stand-in: a
    guy reaches 1" in front of its base; nothing behind it)."""
    game = _melee(vs, target={"at": (10, 11.9)}, dice=[4])
    game.apply("fight A B", "red")
    assert _result(vs, game) == "hit"
    behind = _melee(vs, target={"at": (10, 11.9)}, attacker={"facing": 270})
    with pytest.raises(IllegalAction, match="not touching"):
        behind.apply("fight A B", "red")


@pytest.mark.parametrize("where", [(11.9, 10), (11.3, 11.3), (8.7, 11.3)])
def test_a_guy_laid_flat_does_not_reach_to_its_sides(vs, where):
    """II.4: laid flat on its face the figure falls forward (stand-in: its base slid 1"
    ahead along its facing); a target beside it or off to the front corners is not reached."""
    game = _melee(vs, target={"at": where})
    with pytest.raises(IllegalAction, match="not touching B"):
        game.apply("fight A B", "red")


RIDER = ("red", {"id": "AR", "type": "troop", "riding": "A"})


@pytest.mark.parametrize("kind", ["troop", "hero", "cavalry", "vehicle"])
def test_all_figures_can_fight_hand_to_hand(vs, kind):
    """II.4: every kind of figure may fight hand to hand (a fist, a hoof, a tire)."""
    at = {"cavalry": (10, 9.5), "vehicle": (10, 9.0)}.get(kind, (10, 10))
    game = _melee(vs, attacker={"type": kind, "at": at}, target={"at": (10, 11)})
    assert "fight A B" in [str(a) for a in game.legal_actions("red")]


def test_a_riderless_mount_does_not_attack_unless_the_option_says_so(vs):
    """II.2 (ruling): a cavalry or vehicle figure without its rider or driver cannot move
    at all, and does not attack either (option riderless_attacks = true lets it)."""
    game = _melee(vs, attacker={"type": "cavalry", "at": (10, 9.5)}, ridden=False)
    with pytest.raises(IllegalAction, match="no rider or driver"):
        game.apply("fight A B", "red")
    wolf = _melee(
        vs,
        attacker={"type": "cavalry", "at": (10, 9.5)},
        ridden=False,
        options={"riderless_attacks": True},
        dice=[4],
    )
    wolf.apply("fight A B", "red")
    assert _result(vs, wolf) == "hit"


def test_a_rider_who_gets_off_does_not_double_the_attacks(vs):
    """II.2-4 (ruling): a ridden mount and its rider make one attack a round between them;
    once the rider has moved off, the rider attacks and the riderless mount does not."""
    figures = [
        vs.fig("red", "A", "cavalry", (10, 9.5), 90),
        vs.fig("blue", "B", "troop", (10, 11), 270),
        RIDER,
        *PAIR,
    ]
    game = vs.start(figures, dice=[6, 1])
    game.apply("move AR 11,11 face 180", "red")
    vs.skip_to(game, "hand", "red")
    fights = [str(a) for a in game.legal_actions("red") if str(a).startswith("fight")]
    assert "fight AR B" in fights and "fight A B" not in fights


def test_hand_to_hand_ignores_cover(vs):
    """II.4: a target of a hand to hand attack cannot use the cover rule (even a rider)."""
    rider = ("blue", {"id": "R", "type": "troop", "riding": "B"})
    game = _melee(vs, target={"type": "cavalry", "at": (10, 11.5)}, extra=[rider], dice=[4])
    game.apply("fight A R", "red")
    assert _result(vs, game) == "hit"
    assert vs.figure(game, "R").where == "defeated"


def test_hand_to_hand_cannot_use_automatic_fire(vs):
    """II.4: no automatic fire in hand to hand combat: one die."""
    game = _melee(vs, attacker={"distance": True, "auto": True}, dice=[3])
    game.apply("fight A B", "red")
    assert vs.last(game, "roll").data["dice"] == (3,)
    assert _result(vs, game) == "miss"


def test_armour_works_as_for_distance_attacks(vs):
    """II.4: the rules for armour are the same as for distance attacks."""
    game = _melee(vs, target={"armour": "heavy"}, dice=[6, 4])
    game.apply("fight A B", "red")
    assert _result(vs, game) == "saved"


def test_a_figure_that_shot_cannot_also_fight(vs):
    """II.4: one attack a round, either distance or hand to hand, never both."""
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 11), 270),
        *PAIR,
    ]
    game = vs.start(figures, dice=[1, 6, 1])
    vs.skip_to(game, "distance", "red")
    game.apply("shoot A B", "red")
    vs.skip_to(game, "hand", "red")
    with pytest.raises(IllegalAction, match="already attacked"):
        game.apply("fight A B", "red")


def test_no_hand_to_hand_across_a_high_wall(vs):
    """II.4 (ruling 22): the target must touch the attacker; two figures pressed against the
    two faces of a high wall of no thickness each touch the wall, not each other. A low
    wall (one that blocks sight only beyond it) may be fought across."""
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 0),
        vs.fig("blue", "B", "troop", (11, 10), 180),
    ]
    high = vs.wall("wall", (10.5, 5), (10.5, 15))
    game = vs.start(figures, features=[high], dice=[6, 1])
    game.apply("end", "red")  # movement: nobody moves
    game.apply("end", "blue")
    assert game.state.phase != "hand" or "fight A B" not in game.legal_actions("red")
    why = attacks.hand_situation(game.state, vs.figure(game, "A"), "B")
    assert why == "A is not touching B: a wall that blocks sight parts them (ruling 22)"
    low = vs.wall("wall", (10.5, 5), (10.5, 15), blocks_los="beyond")
    other = vs.start(figures, features=[low], dice=[4, 6, 1])
    vs.skip_to(other, "hand", "red")
    other.apply("fight A B", "red")
    assert vs.last(other, "attack").data["result"] == "hit"
