"""What a side sees of an Invisible Enemy game: the table-view contract plus units, networks,
markers and the turn.

Nothing secret lives in the state: the free barrages of a tied initiative are a
sealed choice the engine keeps until both are in. What differs between sides is
precision: markers go down by hand (3.0: no pre-measuring), so a side sees the
other side's bases by eye (:mod:`warbench.rulesets.kit.eye`; a spectator sees both
sides so), unless the scenario sets ``measuring = "free"``. While a side sets
markers down, no distance is shown at all. Markers are seen where they lie: they
are the placing side's own and public once down.
"""

from __future__ import annotations

from typing import Any

from warbench.geometry.table import centre_distance, table_view
from warbench.rulesets.invisible_enemy.data import rules, terrain_chart
from warbench.rulesets.invisible_enemy.state import Base, State
from warbench.rulesets.kit.eye import blur_figures, hides, seen_copy

BY_HAND_STEPS = ("mark1", "mark2", "tie")
MARKER_COLOURS = {"type1": "yellow", "type2": "red", "tie": "red"}
"""1.2: yellow Type 1, red Type 2; the free barrage of a tie is drawn red."""


def by_hand(state: State) -> bool:
    """Markers are being set down by hand: no distance is shown now (3.0)."""
    return state.step in BY_HAND_STEPS


def seen_state(state: State, viewer: str | None) -> State:
    """``state`` as ``viewer`` (None: a spectator) knows it: a copy with the bases it sees
    by eye where it sees them, or the state itself when measuring is free."""
    return seen_copy(state, rules().data.eye, state.setup.options.measuring, viewer)


def stranded_ids(state: State) -> set[str]:
    from warbench.rulesets.invisible_enemy.movement import stranded

    return {b.id for b in state.active() if stranded(state, b)}


def unit_links(state: State) -> list[dict[str, Any]]:
    """4.5: each base joined to its nearest unit-mate within the base interval (the chain
    that keeps a unit in network); a base with no link is cut off. Not drawn while
    markers go down by hand: a link's length would be a measure."""
    links: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    for unit in state.units.values():
        bases = [b for b in state.unit_bases(unit.id) if not b.contaminated]
        interval = state.setup.side_setups[unit.side].interval
        for base in bases:
            mates = [m for m in bases if m.id != base.id]
            if not mates:
                continue
            near = min(mates, key=lambda m: centre_distance(base.geo, m.geo))
            key = (min(base.id, near.id), max(base.id, near.id))
            if centre_distance(base.geo, near.geo) > interval + 1e-9 or key in seen:
                continue
            seen.add(key)
            links.append({"from": list(base.geo.at), "to": list(near.geo.at), "side": base.side})
    return links


def status(state: State, base: Base, stranded: set[str]) -> list[str]:
    """Marker words for a base (1.2 colours where the text has them)."""
    flags: list[str] = []
    if base.contaminated:
        flags.append("contaminated")
    if base.trapped:
        flags.append("trapped")
    if base.id in stranded:
        flags.append("stranded")
    unit = state.units[base.unit]
    if unit.auto_turn == state.turn:
        flags.append("automatic move (white)")
    if base.moved_turn == state.turn:
        flags.append("moved")
    if base.fired_turn == state.turn:
        flags.append("fired")
    if base.towing:
        flags.append(f"towing {base.towing}")
    if base.armed:
        flags.append("payload armed")
    return flags


def view(state: State, side: str | None) -> dict[str, Any]:
    setup = state.setup
    active = state.active()
    eye, measuring = rules().data.eye, setup.options.measuring
    # Stranded (4.5: out of its unit's interval) is a measure among a side's own bases:
    # said of the bases the viewer sees exactly only.
    stranded = {i for i in stranded_ids(state) if not hides(measuring, state.bases[i].side, side)}
    rough = by_hand(state)
    features = state.terrain.features
    data = table_view(
        setup.table,
        [f for f in features if not f.destroyed],
        [b.geo for b in active],
        status={b.id: status(state, b, stranded) for b in active},
    )
    for feature in data["features"]:
        tower = state.towers.get(str(feature.get("id")))
        if tower is not None:  # 1.5 note 2: a tower's log and whether it still infects
            life = "live" if tower.live else "dead"
            feature["label"] = f"{tower.id} {life} tower {tower.hits}/{tower.hull}"
    radius = rules().data.barrage.radius
    for fig, b in zip(data["figures"], active, strict=True):
        hull = b.model.hull
        fig["log"] = {"rings": [["H" if i < b.hits else "" for i in range(hull)]]}
        automatic = state.units[b.unit].auto_turn == state.turn
        fig["markers"] = (
            [{"colour": "white", "label": "automatic move (white)"}] if automatic else []
        )
    blur_figures(data["figures"], [b.side for b in active], eye, measuring, side)
    if measuring == "eye":
        data["eye"] = eye.note()
    data["terrain_kinds"] = list(terrain_chart().kinds)  # the same look in every scenario
    markers: list[dict[str, Any]] = []
    for m in state.markers:
        x, y = m.at
        markers.append(
            {
                "id": m.id,
                "side": m.side,
                "kind": m.kind,
                "at": [x, y],
                "radius": radius,
                "colour": MARKER_COLOURS[m.kind],
                "deflected": bool(m.deflected),
            }
        )
    data["barrages"] = markers
    labels = {"type1": "Type 1 barrage", "type2": "Type 2 barrage", "tie": "free barrage"}
    data["zones"] = [
        {
            "id": m["id"],
            "at": m["at"],
            "radius": radius,
            "colour": m["colour"],
            "label": labels[str(m["kind"])] + (", deflected" if m["deflected"] else ""),
        }
        for m in markers
    ]
    # A link says two bases stand within the interval: a measure. A side sees its own
    # links; the other side's only when measuring is free.
    links = [] if rough else unit_links(state)
    data["links"] = [link for link in links if not hides(measuring, str(link["side"]), side)]
    data["links_label"] = "bases of one unit within its base interval (4.5)"

    if rough:
        data["positions"] = "no distances while markers are set down by hand (3.0)"
    bases = []
    for b in state.bases.values():
        entry: dict[str, Any] = {
            "id": b.id,
            "side": b.side,
            "unit": b.unit,
            "model": b.model_key,
            "title": b.model.title,
            "role": b.model.role,
            "weapon": b.model.weapon,
            "range": b.model.range,
            "attack": b.model.attack,
            "defence": b.model.defence,
            "speed": b.model.speed,
            "hull": b.model.hull,
            "points": b.model.points,
            "hits": b.hits,
            "damage": b.damage,
            "destroyed": b.destroyed,
            "exited": b.exited,
            "status": status(state, b, stranded) if b.active else [],
        }
        if b.active:
            by_eye = hides(measuring, b.side, side)
            entry["facing"] = eye.heading(b.geo.facing) if by_eye else b.geo.facing
        bases.append(entry)
    units = [
        {
            "id": u.id,
            "side": u.side,
            "formation": u.formation,
            "mission": u.mission,
            "bases": list(u.bases),
            "tried": u.attempted_turn == state.turn,
            "automatic": u.auto_turn == state.turn,
        }
        for u in state.units.values()
    ]
    data.update(
        {
            "ruleset": "invisible-enemy",
            "turn": state.turn,
            "turns": setup.turns,
            "step": state.step,
            "actor": state.actor,
            "initiative": state.initiative,
            "current": state.current,
            "passed": list(state.passed),
            "networks": {k: v.to_json() for k, v in sorted(state.networks.items())},
            "towers": [t.to_json() for t in state.towers.values()],
            "cleared": sorted(f.id for f in features if f.destroyed),
            "units": units,
            "bases": bases,
            "pending": [
                {"shooter": s.shooter, "target": s.target, "hits": s.hits} for s in state.pending
            ],
            "options": setup.options.model_dump(),
            "victory": setup.victory.model_dump(),
            "sides": list(setup.sides),
            "titles": dict(setup.titles),
            # The units as actions name them (auto=CA), for the picture's legend.
            "groups": [
                {"id": u["id"], "members": u["bases"], "label": u["formation"]} for u in units
            ],
            "groups_label": "Units (as actions name them)",
        }
    )
    return data


__all__ = ["by_hand", "seen_state", "view"]
