"""4.0-4.6 Movement: units, the Control roll, base intervals and stranding, legs and costs.

(Interface only: being built.)
"""

from __future__ import annotations

from warbench.core.game import Resolution
from warbench.rulesets.invisible_enemy.actions import Move, Unit
from warbench.rulesets.invisible_enemy.state import State


def attemptable(state: State, side: str) -> list[str]:
    """Units of ``side`` that may still try to move this turn (ids, in scenario order)."""
    return [
        u.id
        for u in state.units.values()
        if u.side == side
        and u.attempted_turn != state.turn
        and any(not b.contaminated for b in state.unit_bases(u.id))
    ]


def stranded(state: State, base: object) -> bool:
    """4.5: cut off from its unit and from every network base."""
    return False


def check_attempt(state: State, side: str, action: Unit) -> None:
    raise NotImplementedError


def control_roll(state: State, unit_id: str, res: Resolution) -> bool:
    raise NotImplementedError


def apply_move(state: State, side: str, action: Move, res: Resolution) -> None:
    raise NotImplementedError


def can_continue(state: State) -> bool:
    """Whether a base of the current unit may still move or act this activation."""
    raise NotImplementedError
