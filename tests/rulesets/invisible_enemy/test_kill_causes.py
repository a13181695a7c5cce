"""What a balance run reads from Invisible Enemy's events (issue 25): every removal names
its cause (a blast and the base that blew itself up, 6.0; an engineer's payload, 7.0;
fungus contamination, 1.5 note 2), a contaminated base counts as removed, and the
tallies count the turns a side's network combat gave it no action points (2.0)."""

from __future__ import annotations

from typing import Any

from warbench.core.events import Event
from warbench.core.ruleset import CAUSE
from warbench.rulesets.invisible_enemy.ruleset import CONTAMINATED, LANES

RED = ("red", {"id": "R1", "bases": [{"id": "R1a", "model": "K817", "at": [20, 2], "facing": 180}]})


def test_a_blast_names_its_cause_and_the_base_that_blew_itself_up_its_own(ie: Any) -> None:
    """B1 (J90) blows itself up beside B2 (1.3" off) and R1: B2 is destroyed by the
    blast, credited to B1; B1 is gone by self-destruct, credited to nobody."""
    game = ie.start(
        [
            ie.unit("blue", "U1", ie.base("B1", "J90", (6, 12), 0)),
            ie.unit("blue", "U2", ie.base("B2", "L35", (6, 13.3), 0)),
            ie.unit("red", "V1", ie.base("R1", "K817", (7.45, 12), 180)),
            ie.unit("red", "V2", ie.base("R2", "K817", (9, 12), 180)),
        ],
        first="blue",
    )
    ie.act(game, "blue", "destruct B1", 6, 2)
    gone = {e.data["base"]: e.data for e in ie.events(game, "destroyed")}
    assert gone["B2"]["credit"] == "B1" and gone["B2"][CAUSE] == "blast"
    assert gone["B1"].get("credit") is None and gone["B1"][CAUSE] == "self-destruct"
    assert {d[CAUSE] for d in gone.values()} <= set(game.ruleset.kill_causes)


def test_a_payload_names_its_cause_and_credits_the_engineer(ie: Any) -> None:
    enemy = ("red", {"id": "R1", "bases": [{"id": "R1a", "model": "K817", "at": [6, 12]}]})
    game = ie.start(
        [
            ie.unit(
                "blue",
                "E",
                ie.base("E1", "E7", (4, 12)),
                ie.base("B3", "L35", (4, 13.5)),
                mission="strike",
            ),
            enemy,
        ]
    )
    ie.act(game, "blue", "unit E", 2)
    ie.the(game, "E1").armed = True
    ie.act(game, "blue", "engineer E1 deliver-payload R1a", 4)
    destroyed = ie.last(game, "destroyed").data
    assert (destroyed["base"], destroyed["credit"], destroyed[CAUSE]) == ("R1a", "E1", "payload")


def test_contamination_is_a_removal_with_its_own_cause(ie: Any) -> None:
    tower = ie.circle("T1", "fungus", (12, 12), 0.5, hull=6, live=True)
    game = ie.start(
        [ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12)), ie.base("B2", "L35", (4, 14))), RED],
        features=[tower],
    )
    ie.act(game, "blue", "unit U1", 2)
    ie.act(game, "blue", "move B1 10,12", 4)  # within 3" of the tower: 4 contaminates
    contaminated = ie.last(game, "contaminated")
    assert contaminated.data[CAUSE] == "contamination"
    assert "contaminated" in game.ruleset.removal_kinds
    assert "contamination" in game.ruleset.kill_causes


def test_the_tallies_count_turns_without_action_points_per_side(ie: Any) -> None:
    """Test scenarios give no network dice: network combat scores none for either side
    in the first turn."""
    game = ie.start([ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))), RED])
    network = ie.events(game, "network")
    assert network and all(set(e.data["points"].values()) == {0} for e in network)
    tallies = game.ruleset.tallies(game.scenario, game.events)
    expected = float(len(network))
    assert tallies == {
        "blue: turns without action points": expected,
        "red: turns without action points": expected,
        CONTAMINATED: 0.0,
        LANES: 0.0,
    }


def test_the_tallies_say_whether_a_base_was_contaminated_and_count_engineer_lanes(
    ie: Any,
) -> None:
    """A contaminated event makes the game count as one with a contamination (1.5 note 2);
    each lane an engineer clears or ploughs counts once (7.0, 4.4), a barrage's does not."""
    game = ie.start([ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))), RED])
    extra = [
        Event("contaminated", "B1 is contaminated", {"base": "B1"}),
        Event("cleared", "E1 ploughs", {"base": "E1", "features": ["f1"]}),
        Event("cleared", "E1 clears", {"base": "E1", "features": ["f2"]}),
        Event("cleared", "barrage M1 clears", {"marker": "M1", "features": ["f3"]}),
    ]
    tallies = game.ruleset.tallies(game.scenario, [*game.events, *extra])
    assert tallies[CONTAMINATED] == 1.0
    assert tallies[LANES] == 2.0
