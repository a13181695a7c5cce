"""V.E.G. ("Virtually Exactly like that other Game"), a game world for CGME.

Late-21st-century armoured combat on the CGME engine (:mod:`warbench.rulesets.
cgme`), with the world's own data, scenarios and options.

Importing this package registers the ruleset under ``veg``.
"""

from warbench.core.registry import register
from warbench.rulesets.veg.rules import Veg

RULESET = Veg()
register(RULESET)

__all__ = ["RULESET", "Veg"]
