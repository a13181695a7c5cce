"""7.0 Engineering. (Interface only: being built.)"""

from __future__ import annotations

from warbench.core.game import Resolution
from warbench.rulesets.invisible_enemy.actions import Engineer
from warbench.rulesets.invisible_enemy.state import State


def apply_engineer(state: State, side: str, action: Engineer, res: Resolution) -> None:
    raise NotImplementedError
