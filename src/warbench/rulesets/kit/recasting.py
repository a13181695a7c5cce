"""``Ruleset.recast`` for every ruleset: where its scenario files list their pieces.

A ruleset class mixes in :class:`RecastHooks` and names the table of forces,
the key of a piece's type and, where pieces sit inside units, the nested list;
:func:`warbench.scenario.recast.recast_raw` edits a copy of the file's table and
the ruleset validates it as it validates any scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, cast

from warbench.scenario.recast import recast_raw

if TYPE_CHECKING:
    from warbench.core.ruleset import Ruleset
    from warbench.scenario.model import Scenario


class RecastHooks:
    """``recast`` from three names (mix in before the rules class)."""

    forces_table: ClassVar[str]
    """The top-level table of sides and their pieces (``forces``, ``figures``, ``bases``)."""
    kind_key: ClassVar[str]
    """The key of a piece's type in its record (``type``, ``profile``, ``model``)."""
    nested_key: ClassVar[str | None] = None
    """The list of pieces inside each record, where records are units (``bases``)."""

    def recast(self, scenario: Scenario, changes: Mapping[str, str | None]) -> Scenario:
        raw = recast_raw(scenario.raw, self.forces_table, self.kind_key, changes, self.nested_key)
        ruleset = cast("Ruleset[Any]", self)
        return ruleset.build_scenario(raw, scenario.source, scenario.id)
