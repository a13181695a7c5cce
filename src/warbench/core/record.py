"""Records: a game as scenario + seed + actions (+ final digest), in JSON.

A record is both the save file and the replay file. Replaying it rebuilds the
game action by action with the same seeded dice, so every event comes back and
the final state's digest must equal the one stored.

Format (``format`` = 1)::

    {"format": 1, "ruleset": "miniwars", "ruleset_version": "1",
     "scenario_id": "miniwars/danville", "scenario": {...the whole TOML...},
     "seed": 7, "actions": [{"side": "horde", "action": "move W1 0405"}, ...],
     "turns": 3, "outcome": null | {"winner": ..., "reason": ..., "scores": ...},
     "digest": "<sha256 of the final state's canonical JSON>"}
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warbench.errors import RecordError, WarbenchError

if TYPE_CHECKING:
    from warbench.core.game import Game

RECORD_FORMAT = 1


def make_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` as it stands."""
    outcome = game.outcome
    return {
        "format": RECORD_FORMAT,
        "ruleset": game.ruleset.info.name,
        "ruleset_version": game.ruleset.info.version,
        "scenario_id": game.scenario.id,
        "scenario": game.scenario.raw,
        "seed": game.seed,
        "actions": [{"side": t.side, "action": str(t.action)} for t in game.actions],
        "turns": game.turn,
        "outcome": outcome.to_json() if outcome else None,
        "digest": game.digest(),
    }


def write_record(record: dict[str, Any], path: str | Path) -> None:
    """Write a record atomically (temp file + rename), so a crash never leaves half a file."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=1)
            handle.write("\n")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_record(path: str | Path) -> dict[str, Any]:
    """Read and sanity-check a record file (RecordError names what is wrong)."""
    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise RecordError(f"{path}: cannot read the record: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a record (the file is not UTF-8 text)") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path}: not a JSON record: {exc}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path}: a record is a JSON object")
    if data.get("format") != RECORD_FORMAT:
        raise RecordError(f"{path}: unsupported record format {data.get('format')!r}")
    for key, kind in (("scenario", dict), ("seed", int), ("actions", list)):
        if not isinstance(data.get(key), kind):
            raise RecordError(f"{path}: field '{key}' is missing or not a {kind.__name__}")
    return data


def replay_record(record: dict[str, Any], source: str = "record") -> Game:
    """Rebuild the game of a record, applying every action in order."""
    from warbench.core.game import Game
    from warbench.core.loader import scenario_from_dict

    scenario = scenario_from_dict(
        record["scenario"], f"{source} (scenario)", str(record.get("scenario_id", "record"))
    )
    version = record.get("ruleset_version")
    game = Game(scenario, int(record["seed"]))
    if version is not None and version != game.ruleset.info.version:
        raise RecordError(
            f"{source}: made with {game.ruleset.info.name} version {version}, "
            f"this is version {game.ruleset.info.version}"
        )
    for number, entry in enumerate(record["actions"], start=1):
        try:
            game.apply(str(entry["action"]), str(entry["side"]))
        except (KeyError, TypeError):
            raise RecordError(f"{source}: action {number} is not {{side, action}}") from None
        except WarbenchError as exc:
            raise RecordError(f"{source}: action {number} cannot be replayed: {exc}") from None
    return game
