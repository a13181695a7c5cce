"""2.0 Network Command and 1.6 phase 7: network combat, purchases, Type 2 acquisition, reset.

The side with more action points declares its purchases first (2.0); on equal
points neither has the larger total, so both write their purchases at once, as
a sealed choice opened when both are in (ruling 5). Suppressions bought against one side add up,
and its status never falls below 25% (ruling 6, ``charts.toml [control] floor``).
"""

from __future__ import annotations

from warbench.core.game import Resolution
from warbench.errors import IllegalAction
from warbench.rulesets.invisible_enemy.actions import COST_KEY, SUPPRESSION, Buy
from warbench.rulesets.invisible_enemy.charts import action_costs, charts, network_combat
from warbench.rulesets.invisible_enemy.data import rules
from warbench.rulesets.invisible_enemy.state import State


def roll_network(state: State, res: Resolution) -> None:
    """2.0 a): every network die of both sides, compared highest against highest."""
    a, b = state.setup.sides
    na, nb = state.networks[a], state.networks[b]
    rolls_a = (
        tuple(sorted(res.roll("network dice (2.0)", na.dice, a), reverse=True)) if na.dice else ()
    )
    rolls_b = (
        tuple(sorted(res.roll("network dice (2.0)", nb.dice, b), reverse=True)) if nb.dice else ()
    )
    result = network_combat(rolls_a, rolls_b)
    na.rolls, nb.rolls = rolls_a, rolls_b
    na.points, nb.points = result.points
    na.spent = nb.spent = 0
    res.emit(
        "network",
        f"network combat: {a} {list(rolls_a)} against {b} {list(rolls_b)}: "
        f"{a} {na.points} action points, {b} {nb.points}",
        points={a: na.points, b: nb.points},
    )


def simultaneous(state: State) -> bool:
    """Both sides scored the same points (more than none): purchases are sealed (ruling 5)."""
    a, b = state.setup.sides
    return state.networks[a].points == state.networks[b].points > 0


def purchase_order(state: State) -> tuple[str, str]:
    """Who declares purchases first (2.0: the larger total); on equal points, for placing
    phase 2 markers, the side that lost last turn's initiative (turn 1: the first-listed
    side)."""
    a, b = state.setup.sides
    pa, pb = state.networks[a].points, state.networks[b].points
    if pa != pb:
        first = a if pa > pb else b
    elif state.initiative is not None:
        first = state.other(state.initiative)
    else:
        first = a
    return (first, state.other(first))


def buy_order(state: State) -> tuple[str, ...]:
    """The purchase order without the sides that scored no points."""
    return tuple(s for s in purchase_order(state) if state.networks[s].points > 0)


def cost(action: Buy) -> int:
    costs = action_costs()
    return sum(costs[COST_KEY[key]] for key, _ in action.items)


def check_buy(state: State, side: str, action: Buy) -> None:
    net = state.networks[side]
    total = cost(action)
    if total > net.points:
        raise IllegalAction(
            action, f"that costs {total} action points; you have {net.points} (2.0)"
        )
    seen: set[str] = set()
    for key, unit in action.items:
        if key != "auto":
            continue
        assert unit is not None
        u = state.units.get(unit)
        if u is None or u.side != side:
            raise IllegalAction(action, f"{unit} is not one of your units")
        if unit in seen or u.auto_turn == state.turn:
            raise IllegalAction(action, f"{unit} already has an automatic move marker")
        if not state.unit_bases(unit):
            raise IllegalAction(action, f"{unit} has no base left on the table")
        seen.add(unit)


def apply_buy(state: State, side: str, action: Buy, res: Resolution) -> None:
    """2.0 Tactical Actions: automatic moves, suppression and dice lost take effect now;
    Type 1 barrages and deflections are set aside for later in the turn."""
    check_buy(state, side, action)
    net = state.networks[side]
    enemy = state.networks[state.other(side)]
    floor = charts().control.floor
    bought: list[str] = []
    for key, unit in action.items:
        if key == "auto":
            assert unit is not None
            state.units[unit].auto_turn = state.turn
            bought.append(f"automatic move for {unit}")
        elif key == "type1":
            net.type1 += 1
            bought.append("a Type 1 barrage")
        elif key == "deflect":
            net.deflections += 1
            bought.append("a barrage deflection")
        elif key in SUPPRESSION:
            enemy.status = max(floor, enemy.status - SUPPRESSION[key])
            bought.append(f"{SUPPRESSION[key]}% enemy network suppression")
        elif key == "die":
            if enemy.dice > 0:
                enemy.dice -= 1
            bought.append("an enemy network die destroyed")
    net.spent = cost(action)
    other = state.other(side)
    res.emit(
        "purchase",
        f"{side} buys {', '.join(bought) if bought else 'nothing'} "
        f"({net.spent} of {net.points} points; the rest is lost)"
        + (
            f"; {other}'s network status {enemy.status}%"
            if any(k in SUPPRESSION for k, _ in action.items)
            else ""
        ),
        side=side,
        items=[str(k if u is None else f"{k}={u}") for k, u in action.items],
    )


def acquire_type2(state: State, res: Resolution) -> None:
    """2.0 Type 2 Barrage Acquisition: 1D6 gives the number of dice; each 6 (5 or 6 with
    vector superiority) is a Type 2 marker, kept until used."""
    data = rules().data.barrage
    for side in state.setup.sides:
        superiority = state.setup.side_setups[side].vector_superiority
        need = data.type2_hit_vector if superiority else data.type2_hit
        count = res.roll("Type 2 acquisition: how many dice (2.0)", data.type2_dice, side)[0]
        dice = res.roll("Type 2 acquisition dice (2.0)", count, side)
        got = sum(1 for d in dice if d >= need)
        state.networks[side].type2 += got
        res.emit(
            "type2",
            f"{side} rolls {count} fire support dice {list(dice)}: {got} Type 2 marker"
            f"{'' if got == 1 else 's'} (held: {state.networks[side].type2})",
            side=side,
            gained=got,
        )


def reset(state: State, res: Resolution) -> None:
    """1.6 phase 7: both statuses return to 100% and every side gives up a network die for good."""
    for side in state.setup.sides:
        net = state.networks[side]
        net.status = 100
        net.points = net.spent = 0
        net.type1 = 0
        net.deflections = 0
        net.dice = max(0, net.dice - 1)
    res.emit(
        "reset",
        f"end of turn {state.turn}: network status 100%; network dice left: "
        + ", ".join(f"{s} {state.networks[s].dice}" for s in state.setup.sides),
    )


__all__ = [
    "acquire_type2",
    "apply_buy",
    "buy_order",
    "check_buy",
    "cost",
    "purchase_order",
    "reset",
    "roll_network",
    "simultaneous",
]
