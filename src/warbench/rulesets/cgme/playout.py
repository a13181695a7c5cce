"""A whole game of a CGME world (cgme, V.E.G.) with built-in bots, in a compiled kernel.

Simulations play thousands of bot-vs-bot games; action by action in Python a
V.E.G. scenario plays some 20 to 45 games a second on one core, where issue 3
asks for the MiniWars rates per game turn (several times that).
:func:`playout` hands the whole game to ``_playout.c`` and returns what
happened. The Python rules stay the reference: the kernel must play the very
game :func:`warbench.sim.runner.play_game` plays with the same seeds (the
same actions, hence the same dice, outcome and final state), and
``tests/rulesets/cgme/test_playout_kernel.py`` compares the two on many seeds,
every built-in scenario of both worlds and every scenario option.

How the two stay one game (details at the top of ``_playout.c``):

- randomness comes from the same Python objects, called from C: the game's
  dice are ``random.Random(seed).random`` (as in :class:`~warbench.core.dice.Dice`)
  and each bot's stream ``random.Random(bot_seed).random`` (as in
  :class:`~warbench.bots.base.SeededBot`);
- the kernel lists legal actions in the order of :mod:`.rules` (movers in unit
  order, then stacks, loads, unloads, attacks, ``end``) and finds each leg's
  path with the same search as :func:`.movement.search`;
- the numbers stay data: the core's turn sequence, dice, margin, result table
  and wound, and the world's extensions (stacking, spillover, range-0 bonus,
  road bonus, transport, buildings) are exported here from the
  :class:`~.data.World`, the :class:`~.board.Board` and the options, never
  written into the C code; the odds are floats from :func:`.combat.float_chances`
  and the greedy bot's weights the constants of :mod:`.evaluate`, so the
  kernel's arithmetic is the same double operations on the same numbers.

Where the data or a ruleset asks for something the kernel does not do (see
:func:`unsupported`), :func:`playout` returns None and the engine plays the
game in Python, as it does without the compiled kernel or for another bot.

:func:`play_from` (``Ruleset.play_from``, what a search bot's rollouts use)
plays on from any live :class:`~.state.State` instead of the start: the state
is exported (:func:`export_state`: every unit's hex, wound, MP, road bonus and
road MP, whether it moved or attacked, its carrier; each hex's stack and each
carrier's riders in their order; buildings' SP; turn, player, phase, the open
attack with its attackers; the losses), the kernel checks it holds together
and plays on, drawing the dice from the game's generator and each side's bot
choices from its stream where they stand, and leaving them advanced as the
engine would. The state is read, never changed; the kernel's caches start
afresh, as the engine's do on a copy. ``tests/rulesets/cgme/test_play_from.py``
compares kernel and engine from hundreds of positions (mid-move, open
attacks, riders aboard) with
:func:`warbench.sim.differential.continuation_difference`.
"""

from __future__ import annotations

import inspect
import random
from array import array
from collections.abc import Mapping
from functools import partial
from typing import Any

from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.playout import KernelTables, Playout, TablesCache
from warbench.core.ruleset import Ruleset
from warbench.errors import UnknownRuleset
from warbench.rulesets.cgme import combat, evaluate
from warbench.rulesets.cgme.actions import END, ROLL, Attack, Join, Load, Move, Unload
from warbench.rulesets.cgme.board import FAR
from warbench.rulesets.cgme.data import PHASE_KINDS, RESULTS
from warbench.rulesets.cgme.scenario import Setup
from warbench.rulesets.cgme.state import State
from warbench.rulesets.kit import playout as glue
from warbench.scenario.model import Scenario

_kernel = glue.load_kernel("warbench.rulesets.cgme._playout")
BOTS = glue.BOTS


_KINDS = ("move", "load", "unload", "attack", "join", "roll", "end")
_LIMIT = 1 << 16
"""Hexes and units + buildings must fit the 16-bit fields of an action code."""
_MAX_STATES = 8_000_000
"""Largest (hex, MP, bonus, road count) search space, or hexes times units, the
kernel allocates tables for."""
"""Decoded actions kept per scenario (a few hundred thousand games' worth)."""


def kernel_built() -> bool:
    """Whether the compiled kernel is there."""
    return _kernel is not None


_tables = TablesCache()
_mirrors: dict[type, bool] = {}


def _play(
    scenario: Scenario, seed: int, bots: Mapping[str, str], bot_seeds: Mapping[str, int]
) -> tuple[Playout, tuple[Any, ...]] | None:
    if _kernel is None or not isinstance(scenario.spec, Setup):
        return None
    setup: Setup = scenario.spec
    kinds = glue.bot_kinds(setup.sides, bots)
    if kinds is None or not _mirrored(scenario.ruleset):
        return None
    tables = _prepare(scenario, setup)
    if tables is None:
        return None
    played = glue.play(_kernel, tables.capsule, setup.sides, seed, bot_seeds, kinds)
    if played is None:  # the game came to something the kernel does not do
        return None
    return _result(setup, tables, played)


def _play_from(
    state: State,
    dice: random.Random,
    bots: Mapping[str, str],
    streams: Mapping[str, random.Random],
    ruleset: str | Ruleset[Any] | None,
) -> tuple[Playout, tuple[Any, ...] | None] | None:
    setup = state.setup
    if _kernel is None or not isinstance(setup, Setup) or len(setup.sides) != 2:
        return None
    kinds = glue.bot_kinds(setup.sides, bots)
    if kinds is None or any(side not in streams for side in setup.sides):
        return None
    try:
        if not _mirrored(setup.world.name if ruleset is None else ruleset):
            return None
    except UnknownRuleset:  # a world that is no registered ruleset
        return None
    outcome = state.outcome
    if outcome is not None:
        return Playout([], outcome.winner, outcome.reason, state.turn), None
    kernel = _kernel

    def make() -> KernelTables | None:
        return None if unsupported(setup) else KernelTables(kernel.prepare(export(setup)))

    tables = _tables.for_setup(setup, make)
    if tables is None:
        return None
    exported = export_state(state)
    if exported is None:
        return None
    played = glue.play_on(kernel, tables.capsule, (exported,), dice, streams, setup.sides, kinds)
    if played is None:  # the state does not hold together, or the game came to
        # something the kernel does not do
        return None
    return _result(setup, tables, played)


def _result(setup: Setup, tables: KernelTables, played: Any) -> tuple[Playout, Any]:
    """The kernel's answer (codes, winner, reason, turns, final state) as a Playout and
    the final state."""
    return glue.answer(
        played, tables, setup.sides, lambda code: _decode(setup, code), partial(_reason, setup)
    )


def export_state(state: State) -> dict[str, Any] | None:
    """``state`` as the dict ``_playout.play_from`` reads, or None if it does not export.

    Units and buildings must be the set-up's, in its order (the order the rules
    list actions in); every stack and every carrier's riders keep their order
    (spillover and the greedy bot's sums run over them). The kernel checks the
    rest (that the stacks and riders hold together, MP within its tables).
    """
    setup = state.setup
    placements = setup.units
    units = state.units
    if len(units) != len(placements) or len(state.buildings) != len(setup.buildings):
        return None
    index = setup.board.index
    refs: dict[str, int] = {}
    pos: list[int] = []
    carriers: list[str | None] = []
    for i, (p, unit) in enumerate(zip(placements, units.values(), strict=True)):
        if unit.id != p.id or unit.side != p.side:
            return None
        if unit.type is not p.type and unit.type != p.type:
            return None
        refs[p.id] = i
        if unit.pos is None:
            pos.append(-1)
        else:
            at = index.get(unit.pos)
            if at is None:
                return None
            pos.append(at)
        carriers.append(unit.carrier)
    n_units = len(placements)
    for k, (b, building) in enumerate(zip(setup.buildings, state.buildings.values(), strict=True)):
        if building.id != b.id:
            return None
        refs[b.id] = n_units + k
    try:
        carrier = [-1 if c is None else refs[c] for c in carriers]
        stacked = [refs[u.id] for stack in state.stacks.values() for u in stack]
        riders = [refs[r] for unit in units.values() for r in unit.riders]
        attack = state.attack
        target = 0 if attack is None else refs[attack.target]
        attackers = [] if attack is None else [refs[a] for a in attack.attackers]
    except KeyError:
        return None
    if any(c >= n_units for c in carrier) or any(a >= n_units for a in attackers):
        return None
    first, second = setup.sides
    ints = _ints
    values = list(units.values())
    return {
        "NS": len(stacked),
        "NR": len(riders),
        "NA": len(attackers),
        "turn": state.turn,
        "player": state.player,
        "phase": state.phase,
        "open": int(attack is not None),
        "a_target": target,
        "a_during": int(attack is not None and attack.during_move),
        "lost_0": state.lost.get(first, 0),
        "lost_1": state.lost.get(second, 0),
        "pos": ints(pos),
        "wounded": ints([int(u.wounded) for u in values]),
        "mp": ints([u.mp for u in values]),
        "bonus": ints([u.bonus for u in values]),
        "road": ints([u.road for u in values]),
        "moved": ints([int(u.moved) for u in values]),
        "attacked": ints([int(u.attacked) for u in values]),
        "carrier": ints(carrier),
        "stacked": ints(stacked),
        "riders": ints(riders),
        "sp": ints([b.sp for b in state.buildings.values()]),
        "attackers": ints(attackers),
    }


def _mirrored(ruleset: str | Ruleset[Any]) -> bool:
    """Whether the ruleset (or the one registered as ``ruleset``) plays the CGME engine's
    own rules, which the kernel mirrors.

    A world is data (its package's ``data/``, its options model): V.E.G.'s class
    only names them. A subclass that defines methods of its own plays another
    game, so its games are played in Python.
    """
    cls = type(registry.get(ruleset) if isinstance(ruleset, str) else ruleset)
    found = _mirrors.get(cls)
    if found is None:
        from warbench.rulesets.cgme.ruleset import CGME

        found = issubclass(cls, CGME) and not any(
            inspect.isfunction(value) or isinstance(value, (staticmethod, classmethod, property))
            for klass in cls.__mro__[: cls.__mro__.index(CGME)]
            for value in vars(klass).values()
        )
        _mirrors[cls] = found
    return found


def _reason(setup: Setup, code: int, winner: int) -> str:
    """The outcome reason text of rules.py (_check_victory, _end_player_turn, ...)."""
    sides = setup.sides
    side = sides[winner] if winner >= 0 else ""
    enemy = sides[1 - winner] if winner >= 0 else ""
    return (
        "both sides are wiped out",
        f"{enemy} has no units left",
        f"{side} destroyed its objective",
        f"{side} reached its objective",
        "turn limit: equal losses",
        "turn limit: more enemy value destroyed",
        "turn limit reached",
        f"turn limit: {setup.at_turn_limit} holds",
    )[code]


def _decode(setup: Setup, code: int) -> tuple[str, Action]:
    """The (side, action) a kernel action code stands for (layout in ``_playout.c``)."""
    kind = _KINDS[code & 7]
    side = setup.sides[(code >> 3) & 1]
    a, b, mask = (code >> 4) & 0xFFFF, (code >> 20) & 0xFFFF, code >> 36
    units = setup.units
    n_units = len(units)
    group = tuple(units[i].id for i in range(n_units) if mask >> i & 1)

    def ref(i: int) -> str:
        return units[i].id if i < n_units else setup.buildings[i - n_units].id

    action: Action
    if kind == "move":
        action = Move(group, setup.board.hexes[a])
    elif kind == "load":
        action = Load(units[a].id, group)
    elif kind == "unload":
        action = Unload(units[a].id)
    elif kind == "attack":
        action = Attack(units[a].id, ref(b))
    elif kind == "join":
        action = Join(units[a].id)
    elif kind == "roll":
        action = ROLL
    else:
        action = END
    return side, action


def _prepare(scenario: Scenario, setup: Setup) -> KernelTables | None:
    """The scenario's tables in the kernel (None: it declines them), made once per scenario."""
    kernel = _kernel
    assert kernel is not None

    def make() -> KernelTables | None:
        return None if unsupported(setup) else KernelTables(kernel.prepare(export(setup)))

    # The set-up is a function of the scenario file and the world's data.
    return _tables.get(scenario, make, setup.world)


def unsupported(setup: Setup) -> str | None:
    """Why the kernel does not play games of ``setup`` (then Python does), or None.

    The kernel reads every number and switch from the exported tables; these
    are the readings of the data it does not implement.
    """
    world = setup.world
    core = world.core
    board = setup.board
    if not core.phases or any(p not in PHASE_KINDS for p in core.phases):
        return f"turn sequence {core.phases}"
    if core.attack_dice < 1 or core.defence_dice < 1:
        return "an attack or defence roll of no dice"
    if core.hazard_defence != "def":
        return f"hazards rolled against '{core.hazard_defence}' (the kernel rolls them against DEF)"
    if world.buildings and world.building_wound_divisor < 1:
        return f"building wound divisor {world.building_wound_divisor}"
    if min(world.load_cost, world.unload_cost, world.road_bonus_every) < 0:
        return "a negative transport cost or road bonus step"
    for steps in (*board.steps.values(), *board.road_steps.values()):
        if any(cost < 1 for row in steps for _, cost, _ in row):
            return "a step costing less than 1 MP"
    for p in setup.units:
        t = p.type
        if t.capacity > 0 and t.move_class == world.rider_class:
            return f"{t.key}: a carrier that could ride in a carrier"
        if min(t.att or 0, t.rng, t.dfn, t.mov, t.value, t.parts) < 0:
            return f"{t.key}: a negative rating"
    if len(board.hexes) >= _LIMIT or len(setup.units) + len(setup.buildings) >= _LIMIT:
        return "too many hexes or units for the action codes"
    if len(board.hexes) * len(setup.units) > _MAX_STATES:
        return "too many hexes times units for the per-unit tables"
    maxmp = _max_mp(setup)
    every = max(world.road_bonus_every, 1)
    if len(board.hexes) * (maxmp + 1) ** 2 * every > _MAX_STATES:
        return "movement allowances too large for the leg search tables"
    return None


def _max_mp(setup: Setup) -> int:
    wound = setup.world.core.wound_mov
    return max(max(p.type.mov, p.type.mov + wound) for p in setup.units)


def _ints(values: list[int]) -> array[int]:
    return array("i", values)


def export(setup: Setup) -> dict[str, Any]:
    """Everything static the kernel needs, as the dict ``_playout.prepare`` reads."""
    world = setup.world
    core = world.core
    board = setup.board
    options = setup.options
    hexes = board.hexes
    index = board.index
    n_hex = len(hexes)
    units = setup.units
    n_units = len(units)
    buildings = setup.buildings
    sides = setup.sides
    classes = list(world.classes)
    t: dict[str, Any] = {"H": n_hex, "U": n_units, "B": len(buildings), "C": len(classes)}

    # The core: turn sequence, dice, margin, result table, wound.
    results = [(at_least, RESULTS.index(result)) for at_least, result in core.results]
    t.update(
        phases=_ints([PHASE_KINDS.index(p) for p in core.phases]),
        nphases=len(core.phases),
        attack_dice=core.attack_dice,
        defence_dice=core.defence_dice,
        margin=core.margin,
        nres=len(results),
        res_at=_ints([a for a, _ in results]),
        res_kind=_ints([r for _, r in results]),
        wound_att=core.wound_att,
        wound_def=core.wound_def,
        wound_mov=core.wound_mov,
        twice=int(core.second_wound == "destroy"),
    )
    # Exact odds as floats by ATT - DEF; beyond +-L no roll changes the result.
    spread = 6 * (core.attack_dice + core.defence_dice)
    half = spread + abs(core.margin) + max((abs(a) for a, _ in results), default=0) + 2
    deltas = range(-half, half + 1)
    t["L"] = half
    t["p_destroy"] = array("d", [combat.float_chances(core, d)[0] for d in deltas])
    t["p_wound"] = array("d", [combat.float_chances(core, d)[1] for d in deltas])

    # The world's extensions and the scenario's options.
    limit = setup.parts_limit
    t.update(
        every=world.road_bonus_every,
        spill=int(world.spillover_att is not None),
        spill_att=world.spillover_att or 0,
        r0_class=classes.index(world.range0_class) if world.range0_class in classes else -1,
        r0_att=world.range0_att,
        rider_class=classes.index(world.rider_class) if world.rider_class in classes else -1,
        load_cost=world.load_cost,
        unload_cost=world.unload_cost,
        wound_divisor=world.building_wound_divisor,
        combined=int(options.combined_attacks),
        parts_limit=-1 if limit is None else limit,
        adm=int(options.attack_during_movement),
        bdmg_margin=int(options.building_damage == "margin"),
        mos=int(options.move_or_shoot),
        spill_enemies=int(options.spillover_hits == "enemies"),
        spill_spare=int(options.spillover_hits == "not_attackers"),
        turn_limit=setup.turn_limit,
        at_limit=sides.index(setup.at_turn_limit)
        if setup.at_turn_limit in sides
        else {"points": -2, "draw": -1}[setup.at_turn_limit],
        maxmp=_max_mp(setup),
    )

    # The board: coordinates, neighbours, steps per movement kind, hazards, modifiers.
    grid = board.map.grid
    t["q"] = _ints([h.q for h in hexes])
    t["r"] = _ints([h.r for h in hexes])
    nb = array("i", [-1]) * (n_hex * 6)
    for i, h in enumerate(hexes):
        for k, n in enumerate(grid.neighbours_on_map(h)):
            nb[i * 6 + k] = index[n]
    t["nb"] = nb
    kinds: dict[tuple[str, bool], int] = {}
    for p in units:
        kinds.setdefault((p.type.move_class, p.type.road_only), len(kinds))
    st_to = array("i", [-1]) * (len(kinds) * n_hex * 6)
    st_cost = array("i", [0]) * (len(kinds) * n_hex * 6)
    st_road = array("i", [0]) * (len(kinds) * n_hex * 6)
    for (cls, road_only), m in kinds.items():
        table = board.road_steps[cls] if road_only else board.steps[cls]
        for i, row in enumerate(table):
            for k, (j, cost, road) in enumerate(row):
                slot = (m * n_hex + i) * 6 + k
                st_to[slot], st_cost[slot], st_road[slot] = j, cost, int(road)
    t.update(NMK=len(kinds), st_to=st_to, st_cost=st_cost, st_road=st_road)
    t["hz_has"] = _ints(list(board.hazard_flag))
    t["hz_base"] = _ints([hz.base if hz else 0 for hz in board.hazard])
    t["hz_minus"] = _ints([int(hz.minus_def) if hz else 0 for hz in board.hazard])
    t["hz_first"] = next((i for i, hz in enumerate(board.hazard) if hz is not None), -1)
    t["to_road"] = _ints(list(board.to_road))
    t["to_hazard"] = _ints(list(board.to_hazard))
    t["dfn_mod"] = _ints([m for cls in classes for m in board.dfn_mod[cls]])
    t["att_mod"] = _ints([m for cls in classes for m in board.att_mod[cls]])

    # Units (State.units order) and buildings.
    ids = [p.id for p in units]
    types = [p.type for p in units]
    t.update(
        u_side=_ints([sides.index(p.side) for p in units]),
        u_att=_ints([-1 if k.att is None else k.att for k in types]),
        u_rng=_ints([k.rng for k in types]),
        u_dfn=_ints([k.dfn for k in types]),
        u_mov=_ints([k.mov for k in types]),
        u_class=_ints([classes.index(k.move_class) for k in types]),
        u_value=_ints([k.value for k in types]),
        u_parts=_ints([k.parts for k in types]),
        u_cap=_ints([k.capacity for k in types]),
        u_riders_attack=_ints([int(k.riders_attack) for k in types]),
        u_road_bonus=_ints([int(k.road_bonus) for k in types]),
        u_mos=_ints([int(k.move_or_shoot) for k in types]),
        u_mk=_ints([kinds[(k.move_class, k.road_only)] for k in types]),
        u_start=_ints([index[p.at] for p in units]),
        u_wounded=_ints([int(p.wounded) for p in units]),
        u_riding=_ints([-1 if p.riding is None else ids.index(p.riding) for p in units]),
        b_side=_ints([sides.index(b.side) for b in buildings]),
        b_pos=_ints([index[b.at] for b in buildings]),
        b_dfn=_ints([b.dfn for b in buildings]),
        b_sp=_ints([b.sp for b in buildings]),
        b_value=_ints([b.value for b in buildings]),
    )

    # Objectives: targets as unit indices, or U + building index.
    refs = {uid: i for i, uid in enumerate(ids)}
    refs.update({b.id: n_units + i for i, b in enumerate(buildings)})
    objectives = setup.objectives
    offsets = [0]
    targets: list[int] = []
    zone = array("i", [0]) * (len(objectives) * n_hex)
    for o, objective in enumerate(objectives):
        targets.extend(refs[ref] for ref in objective.targets)
        offsets.append(len(targets))
        for h in objective.zone:
            zone[o * n_hex + index[h]] = 1
    t.update(
        NO=len(objectives),
        o_side=_ints([sides.index(o.side) for o in objectives]),
        o_kind=_ints([0 if o.kind == "destroy" else 1 for o in objectives]),
        o_count=_ints([o.count for o in objectives]),
        o_toff=_ints(offsets),
        o_targets=_ints(targets),
        o_zone=zone,
    )

    # The greedy bot's weights (evaluate.py).
    t.update(
        wound_share=evaluate.WOUND_SHARE,
        approach=evaluate.APPROACH,
        opportunity=evaluate.OPPORTUNITY,
        exposure=evaluate.EXPOSURE,
        cover=evaluate.COVER,
        urgency=evaluate.URGENCY,
        boldness=evaluate.BOLDNESS,
        zone_w=evaluate.ZONE,
        hold_back=evaluate.HOLD_BACK,
        deliver=evaluate.DELIVER,
        far=FAR,
    )
    return t


def _state_json(setup: Setup, result: Playout, final: tuple[Any, ...]) -> dict[str, Any]:
    """The kernel's final state as :meth:`State.to_json` writes it (for digests)."""
    units, sps, turn, player, phase, attack, lost_0, lost_1, over = final
    sides = setup.sides
    hexes = setup.board.hexes
    ids = [p.id for p in setup.units]
    n_units = len(ids)
    first, second = sides

    def ref(i: int) -> str:
        return ids[i] if i < n_units else setup.buildings[i - n_units].id

    outcome = glue.final_outcome(result, over, sides, (lost_0, lost_1))
    return {
        "turn": turn,
        "player": sides[player],
        "phase": setup.world.core.phases[phase],
        "attack": None
        if attack is None
        else {
            "target": ref(attack[0]),
            "attackers": [ids[u] for u in attack[1]],
            "during_move": bool(attack[2]),
        },
        "lost": {first: lost_0, second: lost_1},
        "outcome": outcome,
        "units": [
            {
                **glue.placed_json(p, hexes, pos),
                "wounded": bool(wounded),
                "mp": mp,
                "bonus": bonus,
                "road": road,
                "moved": bool(moved),
                "attacked": bool(attacked),
                "carrier": ids[carrier] if carrier >= 0 else None,
                "riders": [ids[r] for r in riders],
                "ratings": p.type.ratings(),
                "class": p.type.move_class,
            }
            for p, (pos, wounded, mp, bonus, road, moved, attacked, carrier, riders) in zip(
                setup.units, units, strict=True
            )
        ],
        "buildings": [
            {
                "id": b.id,
                "side": b.side,
                "at": b.at.label,
                "def": b.dfn,
                "sp": sp,
                "max_sp": b.sp,
                "standing": sp > 0,
            }
            for b, sp in zip(setup.buildings, sps, strict=True)
        ],
    }


playout, playout_state, play_from, play_from_state = glue.entries(_play, _play_from, _state_json)
"""The kernel's entry points (:func:`warbench.rulesets.kit.playout.entries`); ``play_from``'s
``ruleset`` is the ruleset whose game it is, or its registered name (default: the
world's, ``cgme`` or ``veg``)."""
