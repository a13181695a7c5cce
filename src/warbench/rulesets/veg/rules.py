"""V.E.G. as a ruleset: the CGME engine with the V.E.G. world and its options.

Every rule of the text is either data of ``data/rules.toml`` and
``data/units.toml`` (the margin of 1, the spillover's -3 ATT, the infantry's
+1 at range 0, the terrain table, the road bonus every 3 MP, stacking in
thirds of a squad, transport costs and capacities, the sample units) or an
extension of the CGME engine that this world switches on; the trace is
``docs/rules/veg.md``.
"""

from __future__ import annotations

from typing import ClassVar

from warbench.rulesets.cgme.ruleset import CGME
from warbench.rulesets.cgme.scenario import CoreOptionsSpec
from warbench.rulesets.kit.ruleset import hex_ruleset
from warbench.rulesets.veg.options import VegOptionsSpec


class Veg(CGME):
    """V.E.G., a game world for CGME: slightly-futuristic armoured ground combat."""

    info = hex_ruleset("veg", "V.E.G. (a CGME game world)", "v.e.g.")
    world_package: ClassVar[str] = "warbench.rulesets.veg"
    options_model: ClassVar[type[CoreOptionsSpec]] = VegOptionsSpec
    arena = "veg/arena"
