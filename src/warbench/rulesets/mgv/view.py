"""What a side sees of an MGV game: the table-view contract plus logs, markers and the phase.

Nothing secret lives in the state: pending sealed choices (weapon types at
set-up, missile splits) and held range guesses stay with the engine until they
are revealed. What differs between sides is precision: 5.3 forbids measuring,
so a side sees the other side's bases by eye (:mod:`warbench.rulesets.kit.eye`;
a spectator sees both sides so), unless the scenario sets ``measuring =
"free"``. While a side writes its range guesses no distance is shown at all.
"""

from __future__ import annotations

from typing import Any

from warbench.geometry.table import table_view
from warbench.geometry.table.text import compass_word
from warbench.rulesets.kit.eye import blur_figures, hides, seen_copy
from warbench.rulesets.mgv.data import rules, terrain_chart
from warbench.rulesets.mgv.hitlog import LAYERS, describe
from warbench.rulesets.mgv.state import PHASES, Base, State


def status(state: State, base: Base) -> list[str]:
    """Marker words for a base (1.2): the colours of the text's markers."""
    flags: list[str] = []
    if base.immobile:
        flags.append("immobile (black)")
    if base.beacon_turn == state.turn:
        flags.append("beacon (white)")
    if any(m.spent_turn == state.turn for m in base.mounts.values()):
        flags.append("fired (yellow)")
    if base.id in state.moved:
        flags.append("moved")
    if base.log.b_hits:
        flags.append("B hit")
    return flags


MARKERS = (("immobile (black)", "black"), ("beacon (white)", "white"), ("fired (yellow)", "yellow"))
"""Status words drawn as the text's marker pegs (1.2), with the peg's colour."""
RANGED_TARGET = "ranged fire target (red)"


def figure_extras(state: State, base: Base) -> dict[str, Any]:
    """The generic picture keys of a base's figure (see :mod:`warbench.render.svg`).

    ``log``: the hull's surface, core and heart circles as rings (ring order is
    :class:`HullLayout`'s: circle i at (i - 1) * 360 / n from the front, a lone
    heart at the centre), each "" or its mark (S, P, B). ``markers``: the 1.2
    pegs: black immobile, white beacon, yellow fired, red on the target of a
    ranged (photon) attack declared in the fire phase under way.
    """
    layout = base.layout
    rings = [[base.log.kind(cid) or "" for cid in layout.ids(layer)] for layer in LAYERS]
    flags = status(state, base)
    markers = [{"colour": c, "label": word} for word, c in MARKERS if word in flags]
    attacks = state.fire.attacks if state.kind == "fire" else []
    if any(a.weapon == "photon" and a.target == base.id for a in attacks):
        markers.append({"colour": "red", "label": RANGED_TARGET})
    return {"log": {"rings": rings}, "markers": markers}


def seen_state(state: State, viewer: str | None) -> State:
    """``state`` as ``viewer`` (None: a spectator) knows it: a copy with the bases it sees
    by eye where it sees them, or the state itself when measuring is free."""
    data, measuring = rules().data, state.setup.options.measuring
    known = seen_copy(state, data.eye, measuring, viewer)
    threshold = data.moved_threshold
    for base in known.bases.values() if known is not state else ():
        if hides(measuring, base.side, viewer) and base.moved_distance:
            # of a move seen by eye, only the verdict 5.1 asks: 2" or more
            base.moved_distance = threshold if base.moved_distance >= threshold else 0.0
    return known


def view(state: State, side: str | None) -> dict[str, Any]:
    setup = state.setup
    active = state.active()
    data = table_view(
        setup.table,
        setup.features,
        [b.geo for b in active],
        status={b.id: status(state, b) for b in active},
    )
    for fig, b in zip(data["figures"], active, strict=True):
        fig.update(figure_extras(state, b))
    eye, measuring = rules().data.eye, setup.options.measuring
    blur_figures(data["figures"], [b.side for b in active], eye, measuring, side)
    if measuring == "eye":
        data["eye"] = eye.note()
    data["terrain_kinds"] = list(terrain_chart().kinds)  # the same look in every scenario
    if state.step == "range":
        data["positions"] = "no distances while a range guess is asked (5.3)"
    bases = []
    for b in state.bases.values():
        entry: dict[str, Any] = {
            "id": b.id,
            "side": b.side,
            "model": b.model_key,
            "title": b.model.title,
            "wing": b.wing,
            "weapons": {m.slot: m.weapon for m in b.mounts.values()},
            "attack": {m.slot: m.attack for m in b.mounts.values()},
            "defence": b.defence,
            "speed": b.speed,
            "points": b.model.points,
            "log": b.log.to_json(),
            "damage": describe(b.log),
            "destroyed": b.destroyed,
            "exited": b.exited,
            "status": status(state, b) if b.active else [],
        }
        if b.active:
            by_eye = hides(measuring, b.side, side)
            entry["facing"] = eye.heading(b.geo.facing) if by_eye else b.geo.facing
            entry["facing_word"] = compass_word(entry["facing"])
        bases.append(entry)
    data.update(
        {
            "ruleset": "mgv",
            "turn": state.turn,
            "turns": setup.turns,
            "phase": PHASES[state.phase] if state.step != "arm" else "set-up",
            "step": state.step,
            "actor": state.actor,
            "kind": state.kind,
            "done": {k: list(v) for k, v in state.done.items()},
            "bases": bases,
            "fire": state.fire.to_json(),
            "options": setup.options.model_dump(),
            "victory": setup.victory.model_dump(),
            "sides": list(setup.sides),
            "titles": dict(setup.titles),
        }
    )
    return data
