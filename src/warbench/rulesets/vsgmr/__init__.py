"""Very Simple Generic Miniatures Rules v7 (Andrew Domino, 2013), sections I-III.

Played on a free-form table measured in inches (``warbench.geometry.table``).
Importing this package registers the ruleset under ``vsgmr``.
"""

from warbench.core.registry import register
from warbench.rulesets.vsgmr.ruleset import VSGMR

RULESET = VSGMR()
register(RULESET)

__all__ = ["RULESET", "VSGMR"]
