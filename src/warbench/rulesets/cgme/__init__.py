"""CGME, the CounterMoves Generic Microgame Engine, as a documented stand-in core.

The real core rules are not available; ``data/core.toml`` holds a stand-in
(docs/rules/cgme.md). The package is also the engine of CGME game worlds:
V.E.G. (``warbench.rulesets.veg``) runs on it with its own data.

Importing this package registers the ruleset under ``cgme``.
"""

from warbench.core.registry import register
from warbench.rulesets.cgme.ruleset import CGME

RULESET = CGME()
register(RULESET)

__all__ = ["CGME", "RULESET"]
