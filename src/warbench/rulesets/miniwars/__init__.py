"""MiniWars v0.2 (Majestic Twelve Games, 2000): the first ruleset of warbench.

Importing this package registers the ruleset under ``miniwars``.
"""

from warbench.core.registry import register
from warbench.rulesets.miniwars.ruleset import MiniWars

RULESET = MiniWars()
register(RULESET)

__all__ = ["RULESET", "MiniWars"]
