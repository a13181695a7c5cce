"""Recasting a scenario's forces: the same slots with other unit types, or fewer of them.

A calibration (``warbench calibrate``) and a fairness adjustment change which
unit types stand in a scenario's slots and keep everything else of the file:
positions, facings, ids and the rest. Every ruleset lists its pieces in the
parsed TOML alike, as a table of sides each holding a list of records with an
``id`` and a key naming the type (MiniWars ``[forces]`` with ``type``, VSGMR
``[[figures.<side>]]`` with ``profile``, MGV ``[[bases.<side>]]`` with
``model``), possibly one level deeper (Invisible Enemy's units hold their
``bases``). :func:`recast_raw` edits a copy of that table; the ruleset then
validates the result as it validates any file.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from warbench.errors import WarbenchError


def recast_raw(
    raw: Mapping[str, Any],
    table: str,
    key: str,
    changes: Mapping[str, str | None],
    nested: str | None = None,
) -> dict[str, Any]:
    """A copy of ``raw`` whose records under ``raw[table][side]`` (or, with ``nested``,
    under each record's ``nested`` list) named in ``changes`` have their ``key`` set
    to the new type, or are taken out where it is None. A record left with an empty
    ``nested`` list is taken out too (a unit of no bases).

    >>> raw = {"forces": {"a": [{"id": "A1", "type": "x"}, {"id": "A2", "type": "x"}]}}
    >>> recast_raw(raw, "forces", "type", {"A1": "y", "A2": None})["forces"]
    {'a': [{'id': 'A1', 'type': 'y'}]}
    """
    out = copy.deepcopy(dict(raw))
    sides = out.get(table)
    if not isinstance(sides, dict):
        raise WarbenchError(f"the scenario has no [{table}] table of forces to recast")
    missing = set(changes)

    def edit(records: list[Any]) -> list[Any]:
        kept = []
        for record in records:
            if not isinstance(record, dict):
                kept.append(record)
                continue
            if nested is not None and isinstance(record.get(nested), list):
                record[nested] = edit(record[nested])
                if record[nested]:
                    kept.append(record)
                continue
            ident = record.get("id")
            if isinstance(ident, str) and ident in changes:
                missing.discard(ident)
                if changes[ident] is None:
                    continue
                record[key] = changes[ident]
            kept.append(record)
        return kept

    for side, records in sides.items():
        if isinstance(records, list):
            sides[side] = edit(records)
    if missing:
        raise WarbenchError(f"no piece {', '.join(sorted(missing))} listed in [{table}]")
    return out
