"""MGV (Miniature Ground Vehicles, WTJ): hunter-killer micro-vehicle combat.

Played on a free-form table measured in inches (``warbench.geometry.table``).
Importing this package registers the ruleset under ``mgv``.
"""

from warbench.core.registry import register
from warbench.rulesets.mgv.ruleset import MGV

RULESET = MGV()
register(RULESET)

__all__ = ["MGV", "RULESET"]
