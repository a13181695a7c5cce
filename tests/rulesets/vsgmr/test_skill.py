"""II.5 Skill rolls: guys only (riders once they leave their mount), 4 or more succeeds,
heroes +1, effects set by the scenario; OPTIONAL RULE (Specific Skills)."""

from __future__ import annotations

import pytest

from warbench.errors import IllegalAction

FAR = ("blue", {"id": "Z", "type": "troop", "at": [34, 34], "facing": 270})
SPARE = ("red", {"id": "S", "type": "troop", "at": [30.5, 4], "facing": 90})
"""Another red guy at the radio, so red is still asked in the skill step."""
RADIO = {
    "id": "radio",
    "label": "Radio",
    "at": [30, 5],
    "reach": 1.0,
    "effect": "points",
    "points": 2,
}


def _task_game(vs, kind="troop", task=None, extra=(), dice=(), **kw):
    figures = [vs.fig("red", "A", kind, (10, 10), 90, **kw.pop("fig", {})), FAR, SPARE, *extra]
    tasks = [RADIO, *([task] if task else [])]
    game = vs.start(figures, tasks=tasks, dice=[*dice, 6, 1], **kw)
    vs.skip_to(game, "skill", "red")
    return game


NEAR = {
    "id": "safe",
    "label": "Safe",
    "at": [11.5, 10],
    "reach": 1.0,
    "effect": "points",
    "points": 3,
}


@pytest.mark.parametrize(("roll", "ok"), [(3, False), (4, True)])
def test_four_or_more_succeeds(vs, roll, ok):
    """II.5: 4 or more succeeds and the action takes effect; 3 or less fails."""
    game = _task_game(vs, task=NEAR, dice=[roll])
    game.apply("skill A safe", "red")
    assert vs.last(game, "skill").data["success"] is ok
    assert game.state.scores["red"] == (3.0 if ok else 0.0)


def test_heroes_add_one_to_skill_rolls(vs):
    """II.5: hero guys add +1."""
    game = _task_game(vs, kind="hero", task=NEAR, dice=[3])
    game.apply("skill A safe", "red")
    assert vs.last(game, "skill").data["success"] is True


def test_only_guys_make_skill_rolls(vs):
    """II.5: the figure must be a guy."""
    horse = vs.fig("red", "H", "cavalry", (11.5, 12), 90)
    game = _task_game(vs, task=NEAR, extra=[horse])
    with pytest.raises(IllegalAction, match="only guys"):
        game.apply("skill H safe", "red")


def test_riders_make_skill_rolls_only_once_off_their_mount(vs):
    """II.5: a rider or driver may roll for a skill only after getting off its mount."""
    horse = vs.fig("red", "H", "cavalry", (12, 11), 90)
    rider = vs.fig("red", "R", "troop", None, riding="H")
    game = _task_game(vs, task=NEAR, extra=[horse, rider])
    with pytest.raises(IllegalAction, match="only once they leave"):
        game.apply("skill R safe", "red")


def test_a_figure_must_be_at_the_task(vs):
    """II.5 (scenario): a task is tried within its reach of its place or feature."""
    game = _task_game(vs, task={**NEAR, "at": [14, 10]})
    with pytest.raises(IllegalAction, match="must be within 1"):
        game.apply("skill A safe", "red")


def test_a_guy_may_move_attack_and_make_a_skill_roll_in_one_round(vs):
    """II.5: a guy making a skill roll can also move and attack that round."""
    figures = [
        vs.fig("red", "A", "troop", (10, 4), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 20), 270),
        SPARE,
    ]
    game = vs.start(figures, tasks=[RADIO, NEAR], dice=[1, 4, 6, 1])
    game.apply("move A 10,10", "red")
    vs.skip_to(game, "distance", "red")
    game.apply("shoot A B", "red")
    vs.skip_to(game, "skill", "red")
    game.apply("skill A safe", "red")
    assert vs.last(game, "skill").data["success"] is True


def test_one_skill_roll_per_figure_and_round(vs):
    """II.5 (ruling): a figure makes at most one skill roll a round."""
    game = _task_game(vs, task={**NEAR, "limit": "once_per_side"}, dice=[2])
    game.apply("skill A safe", "red")
    with pytest.raises(IllegalAction, match="already made a skill roll"):
        game.apply("skill A safe", "red")


def test_a_task_done_once_is_done(vs):
    """II.5 (scenario): a task with limit "once" succeeds once in the game."""
    figures = [vs.fig("red", "A2", "troop", (12, 11), 90)]
    game = _task_game(vs, task=NEAR, extra=figures, dice=[5])
    game.apply("skill A safe", "red")
    with pytest.raises(IllegalAction, match="done already"):
        game.apply("skill A2 safe", "red")


def test_a_task_may_remove_a_feature(vs):
    """II.5: the results of a skill roll are set by the scenario: here a gate is opened."""
    gate = vs.box("gate", 14, 8, 15, 12, impassable=True, blocks_los="yes")
    task = {
        "id": "open",
        "feature": "gate",
        "reach": 1.0,
        "effect": "remove_feature",
        "target": "gate",
    }
    figures = [vs.fig("red", "A", "troop", (13, 10), 90), FAR, SPARE]
    game = vs.start(figures, tasks=[RADIO, task], features=[gate], dice=[4, 6, 1])
    vs.skip_to(game, "skill", "red")
    game.apply("skill A open", "red")
    assert "gate" in game.state.destroyed
    assert game.view(None)["features"][0]["destroyed"] is True


def test_a_task_may_unlock_an_item(vs):
    """II.5 (scenario): a sealed item can be picked up once a skill roll opens it."""
    items = [{"id": "idol", "at": [10, 10.8], "locked": True, "points": 4}]
    task = {"id": "seal", "at": [10, 11], "reach": 0.5, "effect": "unlock_item", "target": "idol"}
    game = _task_game(vs, task=task, items=items, dice=[4])
    game.apply("skill A seal", "red")
    assert game.state.items["idol"].locked is False


# -- OPTIONAL RULE (Specific Skills) ---------------------------------------------------------


def test_specific_skills_give_plus_one_to_their_own_kind_of_roll(vs):
    """II.5 OPTIONAL RULE (Specific Skills): a figure gains +1 for its own kind of skill."""
    task = {**NEAR, "skill": "tech"}
    game = _task_game(
        vs, task=task, fig={"skills": ["tech"]}, options={"specific_skills": True}, dice=[3]
    )
    game.apply("skill A safe", "red")
    assert vs.last(game, "skill").data["success"] is True


def test_without_the_option_specific_skills_count_for_nothing(vs):
    """II.5: Specific Skills is optional: off, a skill gives no bonus."""
    game = _task_game(vs, task={**NEAR, "skill": "tech"}, fig={"skills": ["tech"]}, dice=[3])
    game.apply("skill A safe", "red")
    assert vs.last(game, "skill").data["success"] is False


def test_a_skill_of_another_kind_gives_nothing(vs):
    """II.5 OPTIONAL RULE (Specific Skills): the +1 is only for that kind of roll."""
    game = _task_game(
        vs,
        task={**NEAR, "skill": "tech"},
        fig={"skills": ["muscle"]},
        options={"specific_skills": True},
        dice=[3],
    )
    game.apply("skill A safe", "red")
    assert vs.last(game, "skill").data["success"] is False
