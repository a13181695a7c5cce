"""Invisible Enemy as registered: its rules plus the hooks that serve bots, odds and tools.

``rules.py`` is the rules alone and imports none of the modules that consume
them (odds, evaluation, pictures); they are assembled here.
"""

from __future__ import annotations

from collections.abc import Mapping

from warbench.core.odds import OddsQuery
from warbench.rulesets.invisible_enemy.odds import QUERIES
from warbench.rulesets.invisible_enemy.rules import InvisibleEnemyRules


class InvisibleEnemy(InvisibleEnemyRules):
    """Invisible Enemy with everything the engine, bots and tools ask of a ruleset."""

    def odds_queries(self) -> Mapping[str, OddsQuery]:
        return QUERIES
