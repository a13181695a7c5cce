"""Events: what happened, in order, as a person reads it and a program parses it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: a kind, a narration and JSON-ready data.

    Kinds used by the core: ``roll`` (data: ``purpose``, ``dice``, ``side``),
    ``phase`` and ``turn``. Rulesets add their own (``move``, ``hit``, ...).
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "data": dict(self.data)}
