"""The forms of MGV's sealed choices (``forms.py``): weapons at set-up (1.5), photon range
guesses (5.3) and missile dice splits and blocks (5.2). A form's fields filled with their
first values make a legal action; a form names only the seat's own mounts; a side not
asked gets none."""

from __future__ import annotations

import random
from typing import Any

from warbench.core.game import Game
from warbench.rulesets.mgv import fire


def _text(form: dict[str, Any], **changed: Any) -> str:
    values = {f["key"]: f["value"] for f in form["fields"]} | changed
    return str(form["template"]).format(**values)


def _forms_of_a_game(seed: int) -> dict[tuple[str, str], tuple[dict[str, Any], str | None]]:
    """Play a random game of ``mgv/clear``; check each form met on the way. Returns each
    (step, side)'s first form with the rules' refusal of its first field raised by one."""
    game = Game.start("mgv/clear", seed)
    rng = random.Random(seed)
    met: dict[tuple[str, str], tuple[dict[str, Any], str | None]] = {}
    for _ in range(800):
        if game.is_over:
            break
        waiting = game.waiting_for()
        for side in game.scenario.sides:
            form = game.seat(side).choice_form()
            if side not in waiting:
                assert form is None
            elif form is not None:
                seat = game.seat(side)
                assert seat.refusal(seat.parse(_text(form))) is None, _text(form)
                first = form["fields"][0]
                if first["kind"] == "number":
                    more = _text(form, **{first["key"]: first["value"] + 1})
                    refusal = seat.refusal(seat.parse(more))
                else:
                    refusal = None
                met.setdefault((game.state.step, side), (form, refusal))
        side = waiting[0]
        game.apply(rng.choice(list(game.legal_actions(side))), side)
    return met


def test_every_form_filled_as_given_is_a_legal_action() -> None:
    steps: set[str] = set()
    for seed in range(12):  # random games until each kind of form has been met
        steps |= {step for step, _ in _forms_of_a_game(seed)}
        if {"arm", "range", "split"} <= steps:
            break
    assert {"arm", "range", "split"} <= steps


def test_1_5_the_weapons_form_names_the_seats_own_open_mounts_only() -> None:
    game = Game.start("mgv/clear", 1)
    for side, prefix in (("blue", "B"), ("red", "R")):
        form = game.seat(side).choice_form()
        assert form is not None and form["template"].startswith("arm ")
        assert all(f["label"].startswith(prefix) for f in form["fields"])
        assert all(f["options"] == ["kinetic", "missile", "photon"] for f in form["fields"])
        chosen = _text(form, m0="photon")
        seat = game.seat(side)
        assert seat.refusal(seat.parse(chosen)) is None


def test_5_2_the_split_form_gives_each_attacks_dice_and_the_rules_judge_the_sum() -> None:
    for seed in range(8):
        met = _forms_of_a_game(seed)
        found = [v for (step, _), v in met.items() if step == "split"]
        if found:
            break
    else:
        raise AssertionError("no missile split in eight games")
    form, refusal = found[0]
    first = form["fields"][0]
    assert [f["label"] for f in form["fields"][:3]] == ["surface", "core", "heart"]
    assert first["max"] == first["value"]  # every die on the surface at first
    assert f"{first['max']} " in first["group"]
    assert refusal is not None and f"has {first['max']} dice" in refusal


def test_the_split_says_both_sides_dice_in_the_prompt_and_the_form(mgv) -> None:
    """5.2: each side's dice come from the ratings, so both counts are known to both; the
    prompt and each side's form give them (the guessing game is about the split only)."""
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="missile"),
        mgv.base("red", "R1", "L35", (16, 12), 180),
    ]
    game = mgv.start(bases, "blue", "fire", (), tail=True)
    game.apply("fire B1>R1", "blue")
    assert game.state.step == "split"
    own, theirs = fire.missile_dice(game.state, game.state.fire.attacks[0])
    said = f"attack 1 (B1 at R1): {own} dice against {theirs} block dice"
    assert said in game.decision.prompt
    blue = game.seat("blue").choice_form()
    red = game.seat("red").choice_form()
    assert (
        blue["fields"][0]["group"] == f"attack 1: {own} dice to split against {theirs} block dice"
    )
    assert (
        red["fields"][0]["group"] == f"attack 1: {theirs} block dice against {own} attacking dice"
    )
