"""The odds of a concrete action, as the rulesets' ``odds.py`` give them."""

from __future__ import annotations

from warbench.core.odds import OddsResult

Explained = tuple[str, OddsResult | None]
"""An action's odds in words and as data, from one computation; the data is None
when the action cannot be taken now (the words say why). A ruleset's
``odds.assess_action`` gives it (or None: the action rolls nothing), and
:class:`~warbench.rulesets.kit.ruleset.ServedHooks` answers ``action_odds`` with the
words and ``odds_result`` with the data."""
