"""1.5 chart note 2: fungus towers and contamination. (Interface only: being built.)"""

from __future__ import annotations

from warbench.core.game import Resolution
from warbench.rulesets.invisible_enemy.state import State


def start_turn(state: State, res: Resolution) -> None:
    """Nothing is rolled at the start of a turn; kept for the hunters' bookkeeping."""


def zombies_move(state: State, res: Resolution) -> None:
    """Contaminated bases hunt at the end of movement."""
