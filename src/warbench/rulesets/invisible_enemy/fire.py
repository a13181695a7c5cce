"""5.0-5.3 Direct fire and 6.0 self-destruct. (Interface only: being built.)"""

from __future__ import annotations

from warbench.core.game import Resolution
from warbench.rulesets.invisible_enemy.actions import Destruct, Fire
from warbench.rulesets.invisible_enemy.state import Base, State


def shooters(state: State, side: str, step: str) -> list[Base]:
    """Bases of ``side`` that may still fire in ``step`` ("fire_a": K and P; "fire_b": C)."""
    weapons = ("K", "P") if step == "fire_a" else ("C",)
    return [
        b
        for b in state.active(side)
        if b.weapon in weapons and b.fired_turn != state.turn and not b.contaminated
    ]


def apply_fire(state: State, side: str, action: Fire, res: Resolution) -> None:
    raise NotImplementedError


def end_step(state: State, res: Resolution) -> None:
    raise NotImplementedError


def apply_destruct(state: State, side: str, action: Destruct, res: Resolution) -> None:
    raise NotImplementedError
