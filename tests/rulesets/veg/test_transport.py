"""Transporting Infantry in Vehicles (V.E.G., Misc. Rules and Options) and the carriers'
unit notes (Hover-PC, Transport truck; Ranger and Hvy Weapons for capacity)."""

from __future__ import annotations

import pytest

from warbench.core.loader import scenario_from_dict
from warbench.errors import IllegalAction, ScenarioError

ENEMY = ("blue", "E", "gun", "1010")


def test_loading_costs_one_mp_of_the_carrier_and_each_infantry_unit(veg):
    """Transporting: loading costs 1 MOV for the carrier and all participating infantry."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "I", "type": "infantry", "at": "0505", "count": 2},
        ENEMY,
    ]
    game = veg.new_game(units)
    game.apply("load P Ia+Ib", "red")
    state = game.state
    assert state.units["P"].mp == 3
    assert state.units["Ia"].mp == state.units["Ib"].mp == 1
    assert state.units["P"].riders == ["Ia", "Ib"]
    assert all(state.units[u].carrier == "P" for u in ("Ia", "Ib"))


def test_infantry_and_carrier_must_share_a_hex_to_load(veg):
    """Transporting: infantry can only board a carrier that is in its own hex."""
    units = [("red", "P", "hover_pc", "0505"), ("red", "I", "infantry", "0506"), ENEMY]
    game = veg.new_game(units)
    assert not any(a.startswith("load") for a in veg.legal(game))
    with pytest.raises(IllegalAction, match="not in P's hex"):
        game.apply("load P I", "red")


def test_the_carrier_moves_on_after_loading_with_its_riders(veg):
    """Transporting: the carrier may continue its movement with the MOV it has left."""
    units = [("red", "P", "hover_pc", "0505"), ("red", "I", "infantry", "0505"), ENEMY]
    game = veg.new_game(units)
    game.apply("load P I", "red")
    game.apply("move P 0508", "red")
    assert veg.where(game, "I") == "0508"
    assert game.state.units["P"].mp == 0


def test_capacity_is_per_carrier(veg):
    """Sample Units: a Hover-PC carries 2 infantry squads, a truck 3."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "I", "type": "infantry", "at": "0505", "count": 3},
        ENEMY,
    ]
    game = veg.new_game(units)
    assert "load P Ia+Ib" in veg.legal(game)
    assert "load P Ia+Ib+Ic" not in veg.legal(game)
    with pytest.raises(IllegalAction, match="no room"):
        game.apply("load P Ia+Ib+Ic", "red")
    raw = veg.scenario_dict(
        [
            ("red", "T", "truck", "0505"),
            {"side": "red", "id": "I", "type": "infantry", "riding": "T", "count": 4},
            ENEMY,
        ],
        roads=[["0505", "0506"]],
    )
    with pytest.raises(ScenarioError, match="capacity 3 squads"):
        scenario_from_dict(raw, "test.toml", "test")


def test_rangers_count_a_third_of_a_squad_for_transport(veg):
    """Special Unit Notes, Ranger: a third of an infantry squad for transport."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "R", "type": "ranger", "at": "0505", "count": 6},
        ENEMY,
    ]
    game = veg.new_game(units)
    game.apply("load P Ra+Rb+Rc+Rd+Re+Rf", "red")  # six Rangers = two squads
    assert len(game.state.units["P"].riders) == 6


def test_riders_may_be_typed_in_any_order(veg):
    """Transporting (parsing): ``load P Rc+Ra`` is the listed ``load P Ra+Rc`` action."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "R", "type": "ranger", "at": "0505", "count": 3},
        ENEMY,
    ]
    game = veg.new_game(units)
    action = game.parse("load P Rc+Ra")
    assert str(action) == "load P Ra+Rc" and action in game.legal_actions()
    game.apply("load P Rc+Ra", "red")
    assert game.state.units["P"].riders == ["Ra", "Rc"]


def test_a_rider_named_twice_is_refused(veg):
    """Transporting: a load built in code naming a squad twice is an illegal action
    saying why, and leaves the game untouched."""
    from warbench.rulesets.cgme.actions import Load

    units = [("red", "P", "hover_pc", "0505"), ("red", "I", "infantry", "0505"), ENEMY]
    game = veg.new_game(units)
    before = game.digest()
    with pytest.raises(IllegalAction, match="I is named twice"):
        game.apply(Load("P", ("I", "I")), "red")
    assert game.digest() == before


def test_heavy_weapons_count_as_standard_infantry_for_transport(veg):
    """Special Unit Notes, Hvy Weapons: they count as standard infantry for transport."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "W", "type": "heavy_weapons", "at": "0505", "count": 3},
        ENEMY,
    ]
    game = veg.new_game(units)
    assert "load P Wa+Wb" in veg.legal(game)
    assert "load P Wa+Wb+Wc" not in veg.legal(game)


def test_only_infantry_ride(veg):
    """Transporting: carriers transport infantry, not vehicles."""
    units = [("red", "P", "hover_pc", "0505"), ("red", "G", "gun", "0505"), ENEMY]
    game = veg.new_game(units)
    with pytest.raises(IllegalAction, match="cannot ride in a carrier"):
        game.apply("load P G", "red")


def test_infantry_may_not_attack_while_riding(veg):
    """Transporting: unless stated otherwise, riding infantry may not attack."""
    units = [
        ("red", "T", "truck", "0505"),
        {"side": "red", "id": "W", "type": "heavy_weapons", "riding": "T"},
        ("red", "G", "gun", "0901"),
        ("blue", "E", "gun", "0506"),
        ("blue", "F", "gun", "0903"),
    ]
    game = veg.new_game(units, roads=[["0505", "0506"]])
    veg.skip_to(game, "red", "attack")
    assert not any(a.startswith("attack W") for a in veg.legal(game))
    with pytest.raises(IllegalAction, match="rides in T and may not attack"):
        game.apply("attack W E", "red")


def test_hover_pc_riders_may_attack_while_riding(veg):
    """Sample Units, Hover-PC: infantry may attack while riding."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "W", "type": "heavy_weapons", "riding": "P"},
        ("blue", "E", "gun", "0507"),
    ]
    game = veg.new_game(units, dice=[6, 1])
    veg.skip_to(game, "red", "attack")
    assert veg.legal(game) == ["attack W E", "end"]
    game.apply("attack W E", "red")
    assert not veg.alive(game, "E")


def test_riders_are_destroyed_with_their_carrier(veg):
    """Transporting: riding infantry are destroyed if their carrier is destroyed."""
    units = [
        ("red", "A", "gun", "0505"),
        ("blue", "P", "hover_pc", "0507"),
        {"side": "blue", "id": "I", "type": "infantry", "riding": "P", "count": 2},
        ("blue", "F", "gun", "1010"),
    ]
    game = veg.new_game(units, dice=[6, 1])
    veg.skip_to(game, "red", "attack")
    game.apply("attack A P", "red")
    assert not any(veg.alive(game, u) for u in ("P", "Ia", "Ib"))
    assert [e.data["unit"] for e in veg.events(game, "destroyed")] == ["P", "Ia", "Ib"]
    assert game.state.lost["blue"] == 5 + 5 + 5  # values of the Hover-PC and both squads


def test_riders_are_not_targets_and_take_no_spillover(veg):
    """Transporting (ruling): riders share their carrier's fate and are not attacked apart."""
    units = [
        ("red", "A", "gun", "0505"),
        ("blue", "P", "hover_pc", "0507"),
        {"side": "blue", "id": "I", "type": "infantry", "riding": "P"},
        ("blue", "F", "gun", "0507"),
    ]
    game = veg.new_game(units, dice=[1, 6, 1, 6])
    veg.skip_to(game, "red", "attack")
    assert "attack A I" not in veg.legal(game)
    with pytest.raises(IllegalAction, match="rides in a carrier"):
        game.apply("attack A I", "red")
    game.apply("attack A F", "red")
    assert [e.data["target"] for e in veg.events(game, "attack")] == ["F", "P"]


def test_dismounting_costs_the_infantry_one_mp_into_the_carriers_hex(veg):
    """Transporting: unloading costs the infantry 1 MOV; it unloads into the carrier's hex."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "I", "type": "infantry", "riding": "P"},
        ENEMY,
    ]
    game = veg.new_game(units)
    game.apply("move P 0508", "red")
    game.apply("unload I", "red")
    unit = game.state.units["I"]
    assert unit.carrier is None and veg.where(game, "I") == "0508"
    assert unit.mp == 1
    assert game.state.units["P"].mp == 1  # no cost for the carrier
    assert "I" in [u.id for u in game.state.stacks[unit.pos]]


def test_unloading_is_done_in_the_movement_phase_only(veg):
    """Transporting: dismounting is done during the movement phase."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "W", "type": "heavy_weapons", "riding": "P"},
        ("blue", "E", "gun", "0507"),
    ]
    game = veg.new_game(units)
    veg.skip_to(game, "red", "attack")
    with pytest.raises(IllegalAction, match="in the attack phase you may attack or end"):
        game.apply("unload W", "red")


def test_mounted_infantry_do_not_count_for_stacking(veg):
    """Transporting: mounted infantry do not count for unit stacking purposes."""
    units = [
        *[("red", f"S{i}", "gun", "0505") for i in range(4)],
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "I", "type": "infantry", "riding": "P", "count": 2},
        ENEMY,
    ]
    game = veg.new_game(units)  # 5 units and 2 riders in a hex of the limit 5
    assert game.state.parts[game.state.units["P"].pos] == 5 * 3


def test_riders_may_not_dismount_into_a_full_hex(veg):
    """Transporting: riders cannot get off into a hex that is already full."""
    units = [
        *[("red", f"S{i}", "gun", "0505") for i in range(4)],
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "I", "type": "infantry", "riding": "P"},
        ENEMY,
    ]
    game = veg.new_game(units)
    assert "unload I" not in veg.legal(game)
    with pytest.raises(IllegalAction, match="0505 is full; I may not dismount"):
        game.apply("unload I", "red")
    game.apply("move S0 0506", "red")
    game.apply("unload I", "red")
    assert game.state.units["I"].carrier is None


def test_dismounting_into_a_crater_is_entering_it(veg):
    """Hazards and transport (ruling): riders are cargo, but dismounting into a crater enters it."""
    armoured = {"apc": {"att": "x", "def": 5, "mov": 4, "class": "hover", "capacity": 1}}
    units = [
        ("red", "P", "apc", "0505"),
        {"side": "red", "id": "I", "type": "infantry", "riding": "P"},
        ENEMY,
    ]
    game = veg.new_game(units, hexes={"crater": ["0506"]}, dice=[1, 6, 1, 6], unit_types=armoured)
    game.apply("move P 0506", "red")  # H3 against DEF 5: 3+1 against 5+6, nothing
    assert [e.data["target"] for e in veg.events(game, "attack")] == ["P"]
    game.apply("unload I", "red")  # H7 against DEF 1: 7+1 against 1+6 destroys
    assert [e.data["target"] for e in veg.events(game, "attack")] == ["P", "I"]
    assert not veg.alive(game, "I")


def test_a_scenario_may_start_infantry_aboard(veg):
    """Scenario files: ``riding = "P"`` starts infantry aboard carrier P."""
    units = [
        ("red", "P", "hover_pc", "0505"),
        {"side": "red", "id": "I", "type": "infantry", "riding": "P", "count": 2},
        ENEMY,
    ]
    game = veg.new_game(units)
    assert game.state.units["P"].riders == ["Ia", "Ib"]
    assert veg.where(game, "Ia") == "0505"
