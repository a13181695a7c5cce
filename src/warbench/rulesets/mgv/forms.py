"""Forms for MGV's sealed choices (:meth:`~warbench.core.ruleset.Ruleset.choice_form`).

The legal actions of a sealed step are a sample (``candidates.py``): a split of
nine missile dice has 55 forms per attack. A form lets a person write any of them:

- ``arm`` (1.5): the weapon type of each of the side's open mounts;
- ``range`` (5.3): the range guess of each photon mount that may fire, in inches
  or ``estimate`` (no distance is shown: the rule forbids measuring first);
- ``split`` / ``block`` (5.2): the side's missile dice of each missile attack,
  per colour (surface, core, heart), with the number it has to place.

Built from the side's own state, so it holds only what that side may know: its own
mounts, and the dice counts, which both sides read off the ratings.
"""

from __future__ import annotations

from typing import Any

from warbench.rulesets.mgv import fire
from warbench.rulesets.mgv.actions import mount
from warbench.rulesets.mgv.data import WEAPON_TYPES
from warbench.rulesets.mgv.state import State

COLOURS = ("surface", "core", "heart")


def choice_form(state: State, side: str) -> dict[str, Any] | None:
    if state.step == "arm":
        return _arm(state, side)
    if state.step == "range":
        return _range(state, side)
    if state.step == "split":
        return _split(state, side)
    return None


def _arm(state: State, side: str) -> dict[str, Any] | None:
    from warbench.rulesets.mgv.rules import open_mounts

    mounts = open_mounts(state, side)
    if not mounts:
        return None
    fields = [
        {
            "key": f"m{k}",
            "label": mount(base, slot),
            "group": "weapon of each open mount (1.5)",
            "kind": "choice",
            "options": list(WEAPON_TYPES),
            "value": WEAPON_TYPES[0],
        }
        for k, (base, slot) in enumerate(mounts)
    ]
    template = "arm " + " ".join(f"{mount(b, s)}={{m{k}}}" for k, (b, s) in enumerate(mounts))
    return {"title": "Arm your mounts (sealed)", "template": template, "fields": fields}


def _range(state: State, side: str) -> dict[str, Any] | None:
    """A target (among those in sight) and a guess for each photon mount that can fire;
    the guess is bound to the target named (5.3)."""
    ready = [(b, s, fire.targets(state, b, "photon")) for b, s in fire.photon_ready(state, side)]
    ready = [(b, s, aims) for b, s, aims in ready if aims]
    if not ready:
        return None
    fields: list[dict[str, Any]] = []
    for k, (base, slot, aims) in enumerate(ready):
        fields.append(
            {
                "key": f"t{k}",
                "label": f"{mount(base.id, slot)} at",
                "group": "target of each guess (5.3)",
                "kind": "choice",
                "options": [t.id for t in aims],
                "value": aims[0].id,
            }
        )
        fields.append(
            {
                "key": f"g{k}",
                "label": f"{mount(base.id, slot)} range",
                "group": "range guess in inches, or estimate (5.3)",
                "kind": "text",
                "value": "estimate",
            }
        )
    template = "range " + " ".join(
        f"{mount(b.id, s)}>{{t{k}}}={{g{k}}}" for k, (b, s, _) in enumerate(ready)
    )
    return {"title": "Write your range guesses (sealed)", "template": template, "fields": fields}


def _split(state: State, side: str) -> dict[str, Any] | None:
    attacker = side == state.actor
    verb = "split" if attacker else "block"
    fields: list[dict[str, Any]] = []
    parts = []
    for attack in (a for a in state.fire.attacks if a.weapon == "missile"):
        own, theirs = fire.missile_dice(state, attack)
        dice = own if attacker else theirs
        n = attack.number
        group = (
            f"attack {n}: {own} dice to split against {theirs} block dice"
            if attacker
            else f"attack {n}: {theirs} block dice against {own} attacking dice"
        )
        first = (dice, 0, 0)
        for colour, value in zip(COLOURS, first, strict=True):
            fields.append(
                {
                    "key": f"a{n}{colour[0]}",
                    "label": colour,
                    "group": group,
                    "kind": "number",
                    "min": 0,
                    "max": dice,
                    "step": 1,
                    "value": value,
                }
            )
        parts.append(f"{n}={{a{n}s}}/{{a{n}c}}/{{a{n}h}}")
    if not parts:
        return None
    title = "Split your missile dice (sealed)" if attacker else "Place your block dice (sealed)"
    return {"title": title, "template": f"{verb} " + " ".join(parts), "fields": fields}
