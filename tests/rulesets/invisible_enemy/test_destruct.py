"""6.0 MGV self-destruct in play: a direct fire attack on everything within the blast.

Stand-in Self Destruct table (``charts.toml [self_destruct]``): attack = defence +
0/1/2 by speed (up to 4", up to 6", faster), range 1", 1.5", 2"; the K row.
J90: speed 5, defence 4: attack 5 within 1.5". L63: speed 7, defence 2: attack 4
within 2".
"""

from __future__ import annotations

from typing import Any

import pytest

from warbench.errors import IllegalAction


def reserve(ie: Any) -> list[Any]:
    return [
        ie.unit("blue", "UZ", ie.base("BZ", "L63", (1, 22), 180)),
        ie.unit("red", "VZ", ie.base("RZ", "L12", (23, 22), 0)),
    ]


def crowd(ie: Any, **kw: Any) -> Any:
    """Blue's J90 B1 with a friend 1.3" off and a foe 1.45" off; another foe 3" off."""
    units = [
        ie.unit("blue", "U1", ie.base("B1", "J90", (6, 12), 0)),
        ie.unit("blue", "U2", ie.base("B2", "L35", (6, 13.3), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (7.45, 12), 180)),
        ie.unit("red", "V2", ie.base("R2", "K817", (9, 12), 180)),
        *reserve(ie),
    ]
    return ie.start(units, first="blue", **kw)


def test_a_blast_attacks_friend_and_foe_in_range_and_removes_the_base(ie: Any) -> None:
    game = crowd(ie)
    assert "destruct B1" in {str(a) for a in game.legal_actions("blue")}
    ie.act(game, "blue", "destruct B1", 6, 2)  # B2 first (nearer), then R1
    blast = ie.last(game, "destruct").data
    assert (blast["attack"], blast["range"], blast["targets"]) == (5, 1.5, ["B2", "R1"])
    # K row, attack 5 against defence 3: +1 (hits land at once: no fire step)
    assert [(e.data["target"], e.data["hits"]) for e in ie.events(game, "blast")] == [
        ("B2", 7),
        ("R1", 3),
    ]
    assert ie.the(game, "B2").destroyed and ie.the(game, "B2").hits == 6
    assert ie.the(game, "R1").hits == 3 and ie.the(game, "R1").active
    assert ie.the(game, "R2").hits == 0  # 3" away: out of the blast
    assert ie.the(game, "B1").destroyed


def test_a_blast_with_nothing_in_range_still_removes_the_base(ie: Any) -> None:
    game = crowd(ie)
    rolled = game.dice.rolled
    ie.act(game, "blue", "destruct BZ")
    assert ie.the(game, "BZ").destroyed and game.dice.rolled == rolled
    assert ie.last(game, "destruct").data["targets"] == []


def test_the_targets_cover_counts_against_the_blast(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("L1", "L63", (6, 12), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (7.95, 12), 180)),  # 1.95": in 2"
        *reserve(ie),
    ]
    sand = [ie.box("F1", "fine_sand", 6.7, 11, 7.1, 13)]  # 0.2" in front of R1
    game = ie.start(units, first="blue", features=sand)
    ie.act(game, "blue", "destruct L1", 6)
    hit = ie.last(game, "blast").data
    # K row, attack 4 against 3: 0; cover -3 (ruling 39)
    assert hit["cover"] is True and hit["hits"] == 3


def test_a_blast_hits_a_fungus_tower(ie: Any) -> None:
    tower = ie.circle("T1", "fungus", (6, 10.6), 0.4, hull=6, live=False)
    game = crowd(ie, features=[tower])
    ie.act(game, "blue", "destruct B1", 1, 6, 1)  # B2 at 1.3", T1 at 1.4", R1 at 1.45"
    hits = {e.data["target"]: e.data["hits"] for e in ie.events(game, "blast")}
    assert hits == {"B2": 2, "T1": 6, "R1": 2}  # T1: K 5 against defence 4: 0
    assert game.state.towers["T1"].destroyed
    assert game.state.terrain.feature("T1").destroyed  # cleared from the table


def test_self_destruct_after_movement_in_the_last_step(ie: Any) -> None:
    game = crowd(ie)
    ie.act(game, "blue", "pass")
    ie.act(game, "red", "pass")
    assert game.state.step == "last"
    ie.act(game, "blue", "destruct B1", 1, 1)
    assert ie.the(game, "B1").destroyed


def test_self_destruct_refusals_change_nothing(ie: Any) -> None:
    game = crowd(ie)
    assert "R1 is not yours" in ie.refused(game, "destruct R1", "blue")
    ie.the(game, "B2").contaminated = 1
    assert "B2 is contaminated" in ie.refused(game, "destruct B2", "blue")
    assert "destruct B2" not in {str(a) for a in game.legal_actions("blue")}
    ie.act(game, "blue", "pass")
    ie.act(game, "red", "pass")
    ie.act(game, "blue", "done")
    ie.act(game, "red", "done")
    assert game.state.step == "fire_a"  # 6.0: the movement phase only
    before = game.state.to_json()
    with pytest.raises(IllegalAction):
        game.apply("destruct B1", "blue")
    assert game.state.to_json() == before
