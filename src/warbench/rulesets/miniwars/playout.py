"""A whole MiniWars game of built-in bots in one call, played by a compiled kernel.

Simulations play thousands of bot-vs-bot games; action by action in Python
that is ~35 random games a second on one core, where issue 2 (section 9) asks
for 200 (and 50 greedy). :func:`playout` hands the whole game to ``_playout.c``
and returns what happened. The Python rules stay the reference: the kernel
must play the very game :func:`warbench.sim.runner.play_game` plays with the
same seeds (the same actions, hence the same dice, outcome and final state),
and ``tests/rulesets/miniwars/test_playout.py`` compares the two on many seeds,
both scenarios and every scenario option.

How the two stay one game (details at the top of ``_playout.c``):

- randomness comes from the same Python objects, called from C: the game's
  dice are ``random.Random(seed).random`` (as in :class:`~warbench.core.dice.Dice`)
  and each bot's stream ``random.Random(bot_seed).random`` (as in
  :class:`~warbench.bots.base.SeededBot`);
- the kernel lists legal actions in the order of :mod:`.rules` and runs the
  same reach searches in the same order;
- what never changes during a game is exported here, once per scenario, from
  the :class:`~.board.Board` and the charts by the very functions the Python
  rules and bot use (fire lanes, melee modifiers, odds as floats from
  :mod:`.combat`, the constants of :mod:`.evaluate`), so the kernel's
  arithmetic is the same double operations on the same numbers.

Table layout (the dict given to ``_playout.prepare``): hexes are indices into
``board.map.grid.hexes`` (= ``Board.index``), units indices into
``Setup.units`` (= ``State.units`` order), sides 0/1 in ``Setup.sides`` order;
rows of up to six hexes end with -1. The full list of keys and shapes is in the
comment at the top of ``_playout.c``.

:func:`play_from` (the ruleset's ``play_from`` hook, for a search bot's
rollouts) plays on from any live :class:`~.state.State` instead of the start:
the units (hex, disrupted, fired, acted) and the turn, phase, step within the
phase (including melee's attack and advance), roles, initiative, break points
and losses are exported into the kernel, which plays on with the caller's
generators (the game's dice, each side's bot stream), advancing them as the
engine would. It plays the game the engine plays on from a *copy* of the state:
a copy's caches start empty, so movement options are listed afresh, as the
kernel does. The state itself is only read.
``tests/rulesets/miniwars/test_play_from.py`` compares the two from many positions.

Without the compiled kernel (no C compiler at install time), or for a bot the
kernel does not play, :func:`playout` and :func:`play_from` return None and the
caller plays the game in Python.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from warbench.core.actions import Action
from warbench.core.playout import KernelTables, Playout, TablesCache
from warbench.geometry import fastpath
from warbench.geometry.hexgrid import Hex
from warbench.rulesets.kit import playout as glue
from warbench.rulesets.miniwars import combat, evaluate
from warbench.rulesets.miniwars.actions import (
    END,
    PASS,
    Advance,
    Attack,
    ChooseRole,
    Fire,
    Move,
    Rally,
)
from warbench.rulesets.miniwars.board import MOVE_CLASSES, Board
from warbench.rulesets.miniwars.scenario import Setup
from warbench.rulesets.miniwars.state import State
from warbench.scenario.model import Scenario

_kernel = glue.load_kernel("warbench.rulesets.miniwars._playout")
BOTS = glue.BOTS

PlayoutResult = Playout
"""What :func:`playout` returns: the actions ``(side, action)`` in order, winner, reason, turns."""


PHASES = ("initiative", "missile_a", "missile_b", "move_b", "move_a", "morale")
"""The sequence of play the kernel hard-codes; other charts are played in Python."""

_STEPS = ("roll", "choose", "fire", "select", "attack", "advance", "A", "B")
_KINDS = ("choose", "fire", "move", "attack", "advance", "rally", "pass", "end")
_NO_ROUTE = -1
_AT_LIMIT = {"units": -3, "points": -2, "draw": -1}
"""[victory] at_turn_limit for the kernel; a side name is that side's index."""
_tables = TablesCache()


def kernel_built() -> bool:
    """Whether the compiled kernel is there (and the reach search it mirrors is native)."""
    return _kernel is not None and fastpath.native_kernel()


def _play(
    scenario: Scenario, seed: int, bots: Mapping[str, str], bot_seeds: Mapping[str, int]
) -> tuple[PlayoutResult, tuple[Any, ...]] | None:
    if _kernel is None or not fastpath.native_kernel() or not isinstance(scenario.spec, Setup):
        return None
    setup: Setup = scenario.spec
    kinds = glue.bot_kinds(setup.sides, bots)
    if kinds is None:
        return None
    tables = _prepare(scenario, setup)
    if tables is None:
        return None
    played = glue.play(_kernel, tables.capsule, setup.sides, seed, bot_seeds, kinds)
    return _answer(setup, tables, played)


@dataclass(frozen=True, slots=True)
class _Continuing:
    """A set-up's tables for :func:`play_from`, and the hexes each missile code's
    fire lanes were made from (a shooter elsewhere is a state the kernel cannot take)."""

    tables: KernelTables
    standing: dict[str, set[int]]


_continuing: dict[int, tuple[Setup, _Continuing | None]] = {}
"""Per set-up (by id, the set-up kept to check it): what :func:`play_from` needs; a few kept."""


def _continuing_tables(setup: Setup) -> _Continuing | None:
    """The kernel tables of ``setup`` (found by the set-up object: a state has no
    scenario), made once; None if the kernel declines its sequence of play."""
    kept = _continuing.get(id(setup))
    if kept is not None and kept[0] is setup:
        return kept[1]
    found: _Continuing | None = None
    if _kernel is not None and setup.board.charts.phases == PHASES:
        codes = sorted({p.type.missile for p in setup.units if p.type.missile})
        standing = {code: _standing(setup.board, setup, code) for code in codes}
        found = _Continuing(KernelTables(_kernel.prepare(export(setup))), standing)
    _kept(_continuing, id(setup), (setup, found))
    return found


def _side(sides: tuple[str, ...], side: str | None) -> int:
    """A side's index, -1 for None (ValueError for a side the set-up does not have)."""
    return -1 if side is None else sides.index(side)


def _export_state(state: State, kept: _Continuing) -> tuple[array[int], tuple[int, ...]] | None:
    """``state`` as ``_playout.play_from`` takes it: per unit (hex or -1, disrupted,
    fired, acted) and the scalars in the order of ``_playout.c``; None if it is not
    a state of its set-up the kernel can play on from."""
    setup = state.setup
    index = setup.board.index
    sides = setup.sides
    placed = setup.units
    if len(state.units) != len(placed):
        return None
    units = array("i", bytes(16 * len(placed)))
    for i, (p, u) in enumerate(zip(placed, state.units.values(), strict=True)):
        if u.id != p.id or u.side != p.side or (u.type is not p.type and u.type != p.type):
            return None
        at = -1
        if u.pos is not None:
            found = index.get(u.pos)
            if found is None:
                return None
            if p.type.missile and found not in kept.standing[p.type.missile]:
                return None  # no fire lanes from there
            at = found
        units[4 * i : 4 * i + 4] = array("i", (at, u.disrupted, u.fired, u.acted))
    try:
        roles = state.roles
        role_a, role_b = (_side(sides, roles["A"]), _side(sides, roles["B"])) if roles else (-1, -1)
        if roles and len(roles) != 2:
            return None
        rolls = state.rolls
        first, second = sides
        roll_0, roll_1 = (rolls[first], rolls[second]) if rolls else (-1, -1)
        ids = [p.id for p in placed]
        active = -1 if state.active is None else ids.index(state.active)
        vacated = -1 if state.vacated is None else index[state.vacated]
        if not state.broken <= set(sides):
            return None
        scalars = (
            state.turn,
            state.phase,
            _STEPS.index(state.step),
            role_a,
            role_b,
            _side(sides, state.chooser),
            _side(sides, state.last_loser),
            active,
            vacated,
            roll_0,
            roll_1,
            int(first in state.broken),
            int(second in state.broken),
            state.start_count[first],
            state.start_count[second],
            state.lost_cost[first],
            state.lost_cost[second],
        )
    except (KeyError, ValueError):
        return None
    return units, scalars


def _play_from(
    state: State,
    dice: random.Random,
    bots: Mapping[str, str],
    streams: Mapping[str, random.Random],
    ruleset: object = None,
) -> tuple[PlayoutResult, tuple[Any, ...] | None] | None:
    """The kernel's game on from ``state`` (``ruleset``: MiniWars has one, not asked)."""
    if _kernel is None or not fastpath.native_kernel() or not isinstance(state, State):
        return None
    setup = state.setup
    if not isinstance(setup, Setup) or len(setup.sides) != 2:
        return None
    kinds = glue.bot_kinds(setup.sides, bots)
    if kinds is None or any(side not in streams for side in setup.sides):
        return None
    if state.outcome is not None:  # over: nothing to play
        outcome = state.outcome
        return PlayoutResult([], outcome.winner, outcome.reason, state.turn), None
    kept = _continuing_tables(setup)
    if kept is None:
        return None
    exported = _export_state(state, kept)
    if exported is None:
        return None
    played = glue.play_on(_kernel, kept.tables.capsule, exported, dice, streams, setup.sides, kinds)
    if played is None:  # a state the kernel refuses (inconsistent steps, two units in a hex)
        return None
    return _answer(setup, kept.tables, played)


def _answer(setup: Setup, tables: KernelTables, played: Any) -> tuple[PlayoutResult, Any]:
    """The kernel's answer as a Playout and the final state."""
    return glue.answer(
        played,
        tables,
        setup.sides,
        lambda code: _decode(setup, code),
        lambda code, _: _reason(setup, code),
    )


def _reason(setup: Setup, code: int) -> str:
    """The outcome reason text of rules.py (_harm, _end_at_turn_limit)."""
    return (
        "last army on the board",
        "turn limit: more enemy cost destroyed",
        "turn limit: equal losses",
        "turn limit reached",
        f"turn limit: {setup.at_turn_limit} holds",
        "turn limit: more units on the board",
        "turn limit: equal units on the board",
    )[code]


def _decode(setup: Setup, code: int) -> tuple[str, Action]:
    """The (side, action) a kernel action code stands for (layout in ``_playout.c``)."""
    side = setup.sides[code >> 35]
    make = _MAKE[(code >> 32) & 7]
    a, b = (code >> 16) & 0xFFFF, code & 0xFFFF
    return side, make([p.id for p in setup.units], setup.board.map.grid.hexes, a, b)


_MAKE: tuple[Callable[[list[str], tuple[Hex, ...], int, int], Action], ...] = (
    lambda ids, hexes, a, b: ChooseRole("AB"[a]),
    lambda ids, hexes, a, b: Fire(ids[a], ids[b]),
    lambda ids, hexes, a, b: Move(ids[a], hexes[b]),
    lambda ids, hexes, a, b: Attack(ids[a], ids[b]),
    lambda ids, hexes, a, b: Advance(ids[a]),
    lambda ids, hexes, a, b: Rally(ids[a], ids[b]),
    lambda ids, hexes, a, b: PASS,
    lambda ids, hexes, a, b: END,
)
"""The action of each kind of code (``_KINDS``, in order) from the unit ids, hexes and
the code's two fields."""


def _prepare(scenario: Scenario, setup: Setup) -> KernelTables | None:
    """The scenario's tables in the kernel, made once per scenario (a few are kept)."""

    def make() -> KernelTables | None:
        if _kernel is None or setup.board.charts.phases != PHASES:
            return None
        return KernelTables(_kernel.prepare(export(setup)))

    return _tables.get(scenario, make)


def _ints(values: list[int]) -> array[int]:
    return array("i", values)


def _rows(board: Board, rows: Mapping[Hex, tuple[Hex, ...]]) -> array[int]:
    """Rows of up to six hex indices per hex, -1 after the last."""
    out = array("i", [-1]) * (len(board.index) * 6)
    for h, i in board.index.items():
        for k, n in enumerate(rows[h]):
            out[i * 6 + k] = board.index[n]
    return out


def _standing(board: Board, setup: Setup, code: str) -> set[int]:
    """Hexes a missile unit of ``code`` could ever stand in: reachable from its start.

    Searched per movement class: a hex one class already reached must not stop
    the other's search (infantry walks into forest where cavalry cannot).
    """
    standing: set[int] = set()
    for move_class in MOVE_CLASSES:
        seen: set[int] = set()
        steps = board.adjacency[move_class].steps
        for p in setup.units:
            if p.type.missile != code or p.type.move_class != move_class:
                continue
            todo = [board.index[p.at]]
            while todo:
                i = todo.pop()
                if i in seen:
                    continue
                seen.add(i)
                todo.extend(j for j, _ in steps[i] if j not in seen)
        standing |= seen
    return standing


_KEPT_BOARDS = 8
_board_cache: dict[int, tuple[Board, dict[str, Any]]] = {}
_lane_cache: dict[
    tuple[int, tuple[str, ...], tuple[frozenset[int], ...]], tuple[Board, dict[str, Any]]
] = {}


def _kept(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= _KEPT_BOARDS:
        del cache[next(iter(cache))]
    cache[key] = value


def _board_tables(board: Board) -> dict[str, Any]:
    """The board's part of the export (neighbours, movement, zones of control, melee),
    made once per board: scenarios on one map share their board (a calibration
    recasts one map's forces thousands of times)."""
    found = _board_cache.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    hexes = board.map.grid.hexes
    index = board.index
    n_hex = len(hexes)
    t: dict[str, Any] = {"q": _ints([h.q for h in hexes]), "r": _ints([h.r for h in hexes])}
    nb = array("i", [-1]) * (n_hex * 6)
    melee_mod = array("i", [0]) * (n_hex * 6)
    for i, h in enumerate(hexes):
        for d, n in enumerate(h.neighbours()):
            j = index.get(n)
            if j is not None:
                nb[i * 6 + d] = j
                melee_mod[i * 6 + d] = combat.total(board.melee_modifier(h, n))
    t["nb"], t["melee_mod"] = nb, melee_mod
    for c, move_class in enumerate(MOVE_CLASSES):
        to = array("i", [-1]) * (n_hex * 6)
        cost = array("i", [0]) * (n_hex * 6)
        for i, steps in enumerate(board.adjacency[move_class].steps):
            for k, (j, step) in enumerate(steps):
                to[i * 6 + k], cost[i * 6 + k] = j, step
        t[f"step_to_{c}"], t[f"step_cost_{c}"] = to, cost
    t["zoc"] = _rows(board, board.zoc_into)
    t["melee"] = _rows(board, board.melee_into)
    _kept(_board_cache, id(board), (board, t))
    return t


def _lane_tables(
    board: Board, codes: tuple[str, ...], standing: tuple[frozenset[int], ...]
) -> dict[str, Any]:
    """The fire lanes of each missile code from every hex its shooters may stand in,
    made once per board, codes and standing hexes."""
    key = (id(board), codes, standing)
    found = _lane_cache.get(key)
    if found is not None and found[0] is board:
        return found[1]
    charts = board.charts
    hexes = board.map.grid.hexes
    index = board.index
    n_hex = len(hexes)
    reach = max((charts.max_range(c) for c in codes), default=0)
    width = 2 * reach + 1
    lanes = len(codes) * n_hex * width * width
    lane = array("i", [_NO_ROUTE]) * lanes
    lane_need = array("i", [0]) * lanes
    lane_mod = array("i", [0]) * lanes
    routes: list[int] = []
    offsets: dict[tuple[tuple[Hex, ...], ...], int] = {}
    for c, code in enumerate(codes):
        for i in sorted(standing[c]):
            at = hexes[i]
            for target, open_routes in board.fire_lanes(code, at).items():
                slot = ((c * n_hex + i) * width + target.q - at.q + reach) * width
                slot += target.r - at.r + reach
                offset = offsets.get(open_routes)
                if offset is None:
                    offset = offsets[open_routes] = len(routes)
                    routes.append(len(open_routes))
                    for route in open_routes:
                        routes.append(len(route))
                        routes.extend(index.get(h, -1) for h in route)  # off the map: -1
                needed = charts.missile_target(code, at.distance(target))
                assert needed is not None  # a fire lane is within range
                lane[slot], lane_need[slot] = offset, needed
                lane_mod[slot] = combat.total(board.height_modifiers(at, target, melee=False))
    t: dict[str, Any] = dict(ncodes=len(codes), R=reach, lane=lane, lane_need=lane_need)
    t["lane_mod"] = lane_mod
    t["routes"], t["nroutes"] = _ints(routes), len(routes)
    _kept(_lane_cache, key, (board, t))
    return t


def export(setup: Setup) -> dict[str, Any]:
    """Everything static the kernel needs, as the dict ``_playout.prepare`` reads."""
    board = setup.board
    charts = board.charts
    grid = board.map.grid
    hexes = grid.hexes
    index = board.index
    n_hex = len(hexes)
    units = setup.units
    n_units = len(units)
    options = setup.options
    t: dict[str, Any] = {"H": n_hex, "U": n_units}

    t.update(_board_tables(board))
    melee_mod = t["melee_mod"]

    # Missile fire: per code used, the fire lanes of every hex a shooter may reach.
    codes = sorted({p.type.missile for p in units if p.type.missile})
    standing = tuple(frozenset(_standing(board, setup, code)) for code in codes)
    t.update(_lane_tables(board, tuple(codes), standing))

    # Units and their movement kinds (class, budget): one open reach table each.
    half = charts.half_mp_per_mp
    kinds: dict[tuple[int, int], int] = {}
    for p in units:
        kinds.setdefault((MOVE_CLASSES.index(p.type.move_class), p.type.move * half), len(kinds))
    t["nkinds"] = len(kinds)
    t["kind_class"] = _ints([c for c, _ in kinds])
    t["kind_budget"] = _ints([b for _, b in kinds])
    sides = setup.sides
    t["u_side"] = _ints([sides.index(p.side) for p in units])
    t["u_start"] = _ints([index[p.at] for p in units])
    t["u_kind"] = _ints(
        [kinds[(MOVE_CLASSES.index(p.type.move_class), p.type.move * half)] for p in units]
    )
    t["u_code"] = _ints([codes.index(p.type.missile) if p.type.missile else -1 for p in units])
    t["u_morale_mod"] = _ints([charts.morale_modifier[p.type.morale] for p in units])
    t["u_rally_mod"] = _ints([charts.rally_modifier[p.type.morale] for p in units])
    t["u_leader"] = _ints([int(p.type.is_leader) for p in units])
    t["u_cost"] = _ints([p.type.cost for p in units])
    t["melee_need"] = _ints(
        [charts.melee_target(a.type.cs, b.type.cs) for a in units for b in units]
    )

    # Rules constants and options.
    t.update(
        missile_miss=charts.missile_automatic_miss,
        missile_att_dis=charts.missile_attacker_disrupted,
        melee_att_dis=charts.melee_attacker_disrupted,
        rally_fail=charts.rally_automatic_failure,
        rally_self_min=charts.rally_self_min,
        rally_leader=charts.rally_leader_to_leader,
        fired_units=("no_melee", "free", "hold").index(options.fired_units),
        hold_and_melee=int(options.hold_and_melee),
        tie_first_side=int(options.first_initiative_tie == "first_side"),
        los_either=int(board.los_along_edge == "either"),
        turn_limit=setup.turn_limit,
        at_limit=_AT_LIMIT[setup.at_turn_limit]
        if setup.at_turn_limit in _AT_LIMIT
        else sides.index(setup.at_turn_limit),
    )

    # Odds as floats from the functions the rules and the greedy bot use, over
    # every modifier total and target number that can occur.
    morale = max(abs(v) for v in charts.morale_modifier.values())
    height = max(abs(charts.missile_attacker_higher), abs(charts.missile_defender_higher))
    rally = max(abs(v) for v in charts.rally_modifier.values()) + abs(charts.rally_leader_to_leader)
    modr = max(
        morale + abs(charts.missile_attacker_disrupted) + height,
        morale + abs(charts.melee_attacker_disrupted) + max(abs(v) for v in melee_mod),
        rally,
    )
    mods = range(-modr, modr + 1)
    need_missile = max((max(charts.missile[c]) for c in codes), default=0)
    need_melee = max(t["melee_need"], default=0)
    dmax = grid.columns + grid.rows
    t.update(modr=modr, need_missile_max=need_missile, need_melee_max=need_melee, dmax=dmax)
    t["p_missile"] = array(
        "d",
        [
            float(combat.missile_hit_chance(n, m, charts))
            for n in range(need_missile + 1)
            for m in mods
        ],
    )
    t["p_melee"] = array(
        "d",
        [float(combat.melee_chances(n, m).success) for n in range(need_melee + 1) for m in mods],
    )
    t["p_rally"] = array(
        "d", [float(combat.rally_chance(d, m, charts)) for d in range(dmax + 1) for m in mods]
    )
    t["p_doubles"] = float(combat.melee_chances(0, 0).doubles)
    t["p_self_rally"] = float(combat.self_rally_chance(charts))
    t["share"] = evaluate.DISRUPT_SHARE
    t["approach"] = evaluate.APPROACH
    t["exposure"] = evaluate.EXPOSURE
    t["advance"] = evaluate.ADVANCE
    return t


def _state_json(setup: Setup, result: PlayoutResult, final: tuple[Any, ...]) -> dict[str, Any]:
    """The kernel's final state as :meth:`State.to_json` writes it (for digests)."""
    (units, turn, phase, step, role_a, role_b, chooser, last_loser, active, vacated, roll_0,
     roll_1, broken_0, broken_1, lost_0, lost_1, over) = final  # fmt: skip
    sides = setup.sides
    hexes = setup.board.map.grid.hexes
    first, second = sides
    roles = {"A": sides[role_a], "B": sides[role_b]} if role_a >= 0 else {}
    outcome = glue.final_outcome(result, over, sides, (lost_0, lost_1))
    return {
        "turn": turn,
        "phase": PHASES[phase],
        "step": _STEPS[step],
        "roles": roles,
        "initiative_rolls": {first: roll_0, second: roll_1} if roll_0 >= 0 else {},
        "chooser": sides[chooser] if chooser >= 0 else None,
        "last_loser": sides[last_loser] if last_loser >= 0 else None,
        "active": setup.units[active].id if active >= 0 else None,
        "vacated": hexes[vacated].label if vacated >= 0 else None,
        "broken": sorted(s for s, b in zip(sides, (broken_0, broken_1), strict=True) if b),
        "lost_cost": {first: lost_0, second: lost_1},
        "outcome": outcome,
        "units": [
            {
                **glue.placed_json(p, hexes, at),
                "disrupted": bool(disrupted),
                "fired": bool(fired),
                "acted": bool(acted),
                "move": p.type.move,
                "cavalry": p.type.cavalry,
                "cs": p.type.cs,
                "missile": p.type.missile,
                "morale": p.type.morale,
                "cost": p.type.cost,
            }
            for p, (at, disrupted, fired, acted) in zip(setup.units, units, strict=True)
        ],
    }


playout, playout_state, play_from, play_from_state = glue.entries(_play, _play_from, _state_json)
"""The kernel's entry points (:func:`warbench.rulesets.kit.playout.entries`)."""
