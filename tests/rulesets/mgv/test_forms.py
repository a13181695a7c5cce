"""The forms of MGV's sealed choices (``forms.py``): weapons at set-up (1.5), photon range
guesses (5.3) and missile dice splits and blocks (5.2). A form's fields filled with their
first values make a legal action; a form names only the seat's own mounts; a side not
asked gets none."""

from __future__ import annotations

import random
from typing import Any

from warbench.core.game import Game


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
    steps = set()
    for seed in range(4):
        steps |= {step for step, _ in _forms_of_a_game(seed)}
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
