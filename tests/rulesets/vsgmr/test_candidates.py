"""Candidate actions for bots (``legal_actions`` lists candidates on an open table): every
one is legal and parses back, they are varied, and people may still type any legal move."""

from __future__ import annotations

import random

import pytest

from warbench.bots import make_bot
from warbench.core.dice import Dice
from warbench.core.game import Game, Resolution
from warbench.core.loader import load_scenario
from warbench.rulesets.vsgmr.actions import Move
from warbench.rulesets.vsgmr.candidates import movement_candidates, smooth


@pytest.mark.parametrize("sid", ["vsgmr/street", "vsgmr/field", "vsgmr/relic"])
def test_every_candidate_is_legal_in_games_played_by_bots(sid):
    """Each candidate passes the full check of a move (the rules, trusting the candidates
    they listed, only cost them when played, with no half move where the candidates found
    the path far from rough ground): the costed move is the checked one, and a copy of the
    state takes it."""
    scenario = load_scenario(sid)
    rng = random.Random(5)
    for seed in (11, 12):
        game = Game(scenario, seed)
        bots = {
            s: make_bot("greedy" if seed % 2 else "random", seed + i)
            for i, s in enumerate(scenario.sides)
        }
        checked = 0
        while not game.is_over:
            side = game.waiting_for()[0]
            legal = list(game.legal_actions(side))
            if game.state.phase == "movement" and rng.random() < 0.3:
                for action in legal:
                    if isinstance(action, Move):
                        fig = game.state.figs[action.figure]
                        problem, full = game.ruleset.move_problem(game.state, fig, action)
                        assert problem is None, (str(action), problem)
                        costed = game.ruleset.move_problem(
                            game.state, fig, action, True, smooth(game.state, fig, action.path)
                        )[1]
                        assert costed == full  # costed only: the same end, cost, half move
                    copy = game.ruleset.copy_state(game.state)
                    game.ruleset.apply(copy, side, action, Resolution(Dice(seed)))
                    checked += 1
            game.apply(bots[side].choose(game, side), side)
        assert checked > 20


def test_candidates_are_bounded_per_figure(vs):
    """A bounded candidate set: at most nine moves per figure, then take and end."""
    game = Game.start("vsgmr/street", seed=1)
    game.apply("first red", game.waiting_for()[0])
    moves = [a for a in game.legal_actions("red") if isinstance(a, Move)]
    per_figure = {}
    for m in moves:
        per_figure[m.figure] = per_figure.get(m.figure, 0) + 1
    assert len(per_figure) == 6
    assert max(per_figure.values()) <= 9
    assert str(game.legal_actions("red")[-1]) == "end"


def test_candidates_go_for_range_cover_contact_and_turns(vs):
    """Candidates are varied: toward enemies (range, contact), to cover, away, a turn."""
    from warbench.rulesets.vsgmr.candidates import figure_candidates

    game = Game.start("vsgmr/street", seed=1)
    game.apply("first red", game.waiting_for()[0])
    state = game.state
    whys = {
        why.split()[0] for _, _, why in figure_candidates(game.ruleset, state, state.figs["R2"])
    }
    assert {"into", "charge", "to", "fall"} <= whys


def test_candidates_mount_and_dismount(vs):
    """II.2: a guy is offered its riderless mount; a rider is offered moves off its mount."""
    horse = vs.fig("red", "H", "cavalry", (10, 10), 90)
    guy = vs.fig("red", "G", "troop", (10, 6), 90)
    lancer = vs.fig("red", "L", "cavalry", (20, 10), 90)
    rider = vs.fig("red", "R", "troop", None, riding="L")
    game = vs.start([horse, guy, lancer, rider, vs.fig("blue", "Z", "troop", (30, 30))])
    texts = [str(a) for a in movement_candidates(game.ruleset, game.state, "red")]
    assert "move G 10,10" in texts
    assert any(t.startswith("move R ") for t in texts)


def test_candidates_carry_an_item_off_the_own_edge(vs):
    """Scenario objective: a figure carrying an item is offered the way off its own edge."""
    items = [{"id": "idol", "at": [10, 4], "points": 5}]
    figures = [
        vs.fig("red", "A", "troop", (10, 4), 270),
        vs.fig("red", "C", "troop", (20, 10)),
        vs.fig("blue", "Z", "troop", (30, 30)),
    ]
    game = vs.start(figures, items=items, edges={"red": "south"}, dice=[6, 1])
    game.apply("take A idol", "red")
    vs.next_round(game)
    texts = [str(a) for a in game.legal_actions("red")]
    assert any(t.startswith("move A ") and ",-0.5" in t for t in texts)


def test_any_legal_move_is_accepted_not_only_candidates(vs):
    """People may type any legal move, a path of points and a facing (II.2)."""
    figures = [vs.fig("red", "A", "troop", (10, 10), 90), vs.fig("blue", "Z", "troop", (30, 30))]
    game = vs.start(figures)
    action = game.parse("move A 10.123,11 11.5,12.25 face 33.3")
    assert action not in game.legal_actions("red")
    game.apply(action, "red")
    assert vs.at(game, "A") == (11.5, 12.25)
    assert str(vs.last(game, "move").data["facing"]) == "33.3"


@pytest.mark.parametrize(
    "text",
    [
        "move A 10,11",
        "move A 10.5,11 12,12.25 face 90",
        "move A face 271.5",
        "move A -0.5,3",
        "shoot A Z",
        "fight A Z",
        "take A gold",
        "skill A radio",
        "first blue",
        "end",
    ],
)
def test_text_forms_parse_back_to_the_same_action(vs, text):
    """Every action's text form parses to an action whose text is the same."""
    figures = [vs.fig("red", "A", "troop", (10, 10), 90), vs.fig("blue", "Z", "troop", (30, 30))]
    items = [{"id": "gold", "at": [5, 5]}]
    tasks = [{"id": "radio", "at": [6, 6], "effect": "points", "points": 1}]
    game = vs.start(figures, items=items, tasks=tasks)
    action = game.parse(text)
    assert str(action) == text
    assert game.parse(str(action)) == action


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("move A", "give the points"),
        ("move A 10;11", "not a point"),
        ("move A face", "goes last"),
        ("move A 1,2 face 90 3,4", "goes last"),
        ("move A nan,2", "finite"),
        ("move A 1e308,2", "far off the table"),
        ("move Q 1,2", "no figure 'Q'"),
        ("shoot A nothing", "no figure or feature"),
        ("first purple", "no side"),
        ("fly A", "unknown action"),
    ],
)
def test_bad_text_is_refused_with_the_reason(vs, text, why):
    figures = [vs.fig("red", "A", "troop", (10, 10), 90), vs.fig("blue", "Z", "troop", (30, 30))]
    game = vs.start(figures)
    from warbench.errors import ActionSyntaxError

    with pytest.raises(ActionSyntaxError, match=why):
        game.parse(text)


def test_an_attack_on_a_very_large_base_in_range_is_offered(vs):
    """II.3 (issue 11): range is edge to edge, so a dragon on a 12" base whose centre is 17"
    away is in reach; the offered attacks must include it and red must not be passed over."""
    big = {"shape": "round", "diameter": 12.0}
    game = vs.start(
        [
            vs.fig("red", "A", "troop", (5, 10), 0, distance=True),
            vs.fig("blue", "D", "vehicle", (22, 10), 180, base=big),  # edge 11" from A's
        ],
        dice=[5, 6, 1],
    )
    vs.skip_to(game, "distance", "red")
    assert "shoot A D" in [str(a) for a in game.legal_actions("red")]
    game.apply("shoot A D", "red")
    assert vs.last(game, "attack").data["result"] == "hit"
    hand = vs.start(
        [
            vs.fig("red", "A", "troop", (5, 10), 0),
            vs.fig("blue", "D", "vehicle", (11.5, 10), 180, base=big),  # touching
        ]
    )
    vs.skip_to(hand, "hand", "red")
    assert "fight A D" in [str(a) for a in hand.legal_actions("red")]


def test_a_mount_left_by_its_rider_is_offered_to_a_guy_at_once(vs):
    """II.2: once R moves off L, L is a riderless mount: a guy near it is
    offered it at once, though neither the guy nor any enemy has moved (a figure's kept
    candidates depend on its side's riderless mounts too)."""
    guy = vs.fig("red", "G", "troop", (10, 6), 90)
    lancer = vs.fig("red", "L", "cavalry", (14, 6), 90)
    rider = vs.fig("red", "R", "troop", None, riding="L")
    game = vs.start([guy, lancer, rider, vs.fig("blue", "Z", "troop", (30, 30))])
    before = [str(a) for a in movement_candidates(game.ruleset, game.state, "red")]
    assert not any(t.startswith("move G 14,6") for t in before)
    off = next(t for t in before if t.startswith("move R "))
    game.apply(off, "red")
    assert game.state.figs["L"].rider is None
    after = [str(a) for a in movement_candidates(game.ruleset, game.state, "red")]
    assert any(t.startswith("move G 14,6") for t in after), after
