"""Invisible Enemy (Micromachines at War, WTJ, the 2010-12 edition).

Played on a free-form table measured in inches (``warbench.geometry.table``),
with bases in units, a network fight for action points and barrages set down
by hand. Importing this package registers the ruleset under ``invisible-enemy``.
"""

from warbench.core.registry import register
from warbench.rulesets.invisible_enemy.ruleset import InvisibleEnemy

RULESET = InvisibleEnemy()
register(RULESET)

__all__ = ["RULESET", "InvisibleEnemy"]
