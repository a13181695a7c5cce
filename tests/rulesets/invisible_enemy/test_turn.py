"""1.6 the turn in play: the initiative roll (4.6, and 1.6's 1D6 as an option), alternating
units, the phase order, and who has won (ruling 41: scenario victory)."""

from __future__ import annotations

from typing import Any


def _forces(ie: Any) -> list[Any]:
    return [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
        ie.unit("blue", "U2", ie.base("B2", "L35", (4, 4))),
        ie.unit("red", "V1", ie.base("R1", "K817", (20, 12), 180)),
        ie.unit("red", "V2", ie.base("R2", "K817", (20, 4), 180)),
    ]


def test_4_6_initiative_is_2d6_a_side_by_default(ie: Any) -> None:
    game = ie.new_game(_forces(ie), [*ie.QUIET, 3, 4, 6, 2])  # blue 7, red 8
    assert game.state.initiative == "red" and game.decision.sides == ("red",)
    assert ie.last(game, "initiative").text == "red wins the initiative (8 against 7)"


def test_1_6_option_initiative_is_1d6_a_side(ie: Any) -> None:
    game = ie.new_game(_forces(ie), [*ie.QUIET, 2, 5], options={"initiative_dice": 1})
    assert game.state.initiative == "red"
    assert ie.last(game, "initiative").text == "red wins the initiative (5 against 2)"


def test_4_6_the_sides_alternate_one_unit_at_a_time(ie: Any) -> None:
    game = ie.start(_forces(ie))
    assert game.decision.sides == ("blue",)
    ie.act(game, "blue", "unit U1", 6)
    ie.act(game, "blue", "done")
    assert game.decision.sides == ("red",)
    ie.act(game, "red", "unit V1", 6)
    ie.act(game, "red", "done")
    assert game.decision.sides == ("blue",)
    assert ie.refused(game, "unit U1", "blue") == (
        "U1 has already tried to move this turn: one Control roll a turn, passed or failed "
        "(4.0, ruling 36)"
    )


def test_4_0_a_side_that_passes_tries_no_more_units_the_other_goes_on(ie: Any) -> None:
    game = ie.start(_forces(ie))
    ie.act(game, "blue", "pass")
    ie.act(game, "red", "unit V1", 6)
    ie.act(game, "red", "done")
    assert game.decision.sides == ("red",)  # blue passed: red tries its next unit at once
    ie.act(game, "red", "unit V2", 6)
    ie.act(game, "red", "done")
    assert game.state.step == "last"


def _turn_one_steps(game: Any) -> list[str]:
    steps = [game.state.step]
    while game.state.turn == 1 and not game.is_over:
        side = game.decision.sides[0]
        game.apply("pass" if game.state.step == "activate" else "done", side)
        if game.state.step != steps[-1]:
            steps.append(game.state.step)
    return steps


def test_1_6_the_phases_come_in_order(ie: Any) -> None:
    forces = _forces(ie)
    forces[2] = ie.unit("red", "V1", ie.base("R1", "K817", (11, 12), 180))  # 7" from B1
    game = ie.start(forces, tail=True)
    steps = _turn_one_steps(game)
    assert steps[:3] == ["activate", "last", "fire_a"]  # no C base: no step b
    kinds = [e.kind for e in game.events]
    assert kinds.index("reset") > kinds.index("initiative")


def test_1_6_phase_5_asks_no_side_that_has_no_shot(ie: Any) -> None:
    # 16" apart: no base reaches another, so phase 5 asks no one (ruling 53) and the
    # turn goes on to the barrages and the reset
    game = ie.start(_forces(ie), tail=True)
    steps = _turn_one_steps(game)
    assert steps[:2] == ["activate", "last"] and "fire_a" not in steps
    kinds = [e.kind for e in game.events]
    assert kinds.count("no_shot") == 2
    assert kinds.index("initiative") < kinds.index("no_shot") < kinds.index("reset")


def test_clear_victory_when_a_side_has_no_base_in_its_hands(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
        ie.unit("red", "V1", ie.base("R1", "K817", (5.4, 12), 180)),
    ]
    game = ie.start(units)
    # B1 blows itself up in reach of R1: attack 3+1 (speed 6) against defence 3 on the K row
    ie.act(game, "blue", "destruct B1", 6)
    assert game.is_over
    outcome = game.state.outcome
    assert outcome is not None and outcome.winner in ("red", None)


def test_a_contaminated_base_counts_as_lost(ie: Any) -> None:
    from warbench.rulesets.invisible_enemy import victory

    game = ie.start(_forces(ie))
    game.state.bases["R1"].contaminated = 1
    assert victory.scores(game.state)["blue"] == game.state.bases["R1"].model.points
    assert victory.fighting(game.state, "red") == 1


def test_breach_is_won_by_getting_the_count_off_the_edge(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "L63", (22.5, 12), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (4, 20), 0)),
    ]
    victory = {"kind": "breach", "side": "blue", "edge": "east", "count": 1}
    game = ie.start(units, victory=victory)
    ie.act(game, "blue", "unit U1", 6)
    ie.act(game, "blue", "move B1 25.5,12")
    assert game.is_over and game.state.outcome is not None
    assert game.state.outcome.winner == "blue"


def test_breach_fails_when_too_few_bases_are_left(ie: Any) -> None:
    units = [
        ie.unit("blue", "U1", ie.base("B1", "L63", (10, 12), 0)),
        ie.unit("red", "V1", ie.base("R1", "K817", (11.5, 12), 180)),
    ]
    victory = {"kind": "breach", "side": "blue", "edge": "east", "count": 1}
    game = ie.start(units, victory=victory, tail=True)
    ie.act(game, "blue", "destruct B1")
    assert game.is_over and game.state.outcome is not None
    assert game.state.outcome.winner == "red"
    assert game.state.outcome.reason == "the breach can no longer be made"


def test_time_up_points_decide(ie: Any) -> None:
    game = ie.start(_forces(ie), turns=1, tail=True)
    game.state.bases["R2"].destroyed = True
    game.state.touched()
    while not game.is_over:
        side = game.decision.sides[0]
        game.apply("pass" if game.state.step == "activate" else "done", side)
    outcome = game.state.outcome
    assert outcome is not None and outcome.winner == "blue"
    assert outcome.reason == "time is up: more points destroyed"
