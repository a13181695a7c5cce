"""Replaying a record: the game rebuilt action by action, checked against the record.

The record's format and its checks are :mod:`warbench.core.record`, which stays
below the game (the game writes records with it); this module sits above both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from warbench.core.game import Game
from warbench.core.loader import scenario_from_dict
from warbench.core.record import record_dice, ruleset_name
from warbench.errors import RecordError, WarbenchError, excerpt


def replay_record(
    record: Mapping[str, Any],
    source: str = "record",
    sealed: Mapping[int, tuple[str, str]] | None = None,
    verify: bool = True,
) -> Game:
    """Rebuild the game of a record, applying every action in order.

    ``sealed`` supplies sealed choices not yet revealed (from
    :func:`~warbench.core.saves.read_sealed`), by index; the replay stops at
    the first one it lacks (and goes through the actions after a held choice
    it has). With ``verify``, the replay must reach the record's digest, turn
    and outcome, or RecordError says what differs (a changed record, or rules
    that changed since it was made, or a held choice it lacks, which the
    actions after it need).
    """
    scenario_id = str(record.get("scenario_id", "record"))
    scenario = scenario_from_dict(record["scenario"], f"{source} (scenario)", scenario_id)
    game = Game(scenario, *record_dice(record))
    version = record.get("ruleset_version")
    if version is not None and version != game.ruleset.info.version:
        raise RecordError(
            f"{source}: made with {game.ruleset.info.name} version {excerpt(version)}, "
            f"this is version {game.ruleset.info.version}"
        )
    if ruleset_name(record.get("ruleset", game.ruleset.info.name)) != game.ruleset.info.name:
        raise RecordError(f"{source}: not a record of {game.ruleset.info.name}")
    sealed_entries = any(isinstance(e, dict) and "sealed" in e for e in record["actions"])
    if sealed_entries and not game.ruleset.info.simultaneous_choices:
        raise RecordError(
            f"{source}: a sealed choice in a game of {game.ruleset.info.name}, which has none"
        )
    stopped: tuple[int, str] | None = None
    for index, entry in enumerate(record["actions"]):
        nonce = ""
        try:
            side = str(entry["side"])
            if "sealed" in entry:
                if sealed is None or index not in sealed:
                    stopped = (index, side)
                    break  # a choice still sealed: the replay stops before it
                text, nonce = sealed[index]
            else:
                text = str(entry["action"])
        except (KeyError, TypeError):
            raise RecordError(f"{source}: action {index + 1} is not {{side, action}}") from None
        try:
            game.apply(text, side)
        except WarbenchError as exc:
            raise RecordError(
                f"{source}: action {index + 1} cannot be replayed: {excerpt(exc, 300)}"
            ) from None
        if nonce:
            game.actions[-1] = replace(game.actions[-1], nonce=nonce)
    if verify:
        if stopped is not None and mismatches(game, record):
            index, side = stopped
            raise RecordError(
                f"{source}: the replay stops at action {index + 1}, {excerpt(side)}'s sealed "
                "choice not yet revealed, and the game went on after it (a held choice): "
                f"the rest cannot be replayed or checked without {excerpt(side)}'s "
                "sealed-choices file"
            )
        verify_replay(game, record, source)
    return game


def verify_replay(game: Game, record: Mapping[str, Any], source: str) -> None:
    """Refuse a replay that does not reach the record's digest, turn and outcome."""
    problems = mismatches(game, record)
    if problems:
        raise RecordError(
            f"{source}: the record does not match its own replay ({problems[0]}): "
            "a changed or damaged record, or rules that changed since it was made"
        )


def mismatches(game: Game, record: Mapping[str, Any]) -> list[str]:
    """What of the record the replayed ``game`` does not reach (empty: all matches)."""
    problems = []
    if record.get("digest") != game.digest():
        problems.append("the final digest differs")
    if "turns" in record and record["turns"] != game.turn:
        problems.append(f"it says turn {excerpt(record['turns'])}, the replay is at {game.turn}")
    outcome = game.outcome
    mine = _normal(outcome.to_json()) if outcome else None
    if "outcome" in record and _normal(record["outcome"]) != mine:
        problems.append("the outcome differs")
    return problems


def _normal(data: Any) -> Any:
    """JSON data with numbers compared by value (2 == 2.0) and nothing else changed."""
    if isinstance(data, bool) or data is None or isinstance(data, str):
        return data
    if isinstance(data, int | float):
        return float(data) if math.isfinite(data) else repr(data)
    if isinstance(data, Mapping):
        return {str(k): _normal(v) for k, v in data.items()}
    if isinstance(data, Sequence):
        return [_normal(v) for v in data]
    return data
