"""Records: a game as scenario + seed + actions (+ final digest), in JSON.

A record is both the save file and the replay file. Replaying it rebuilds the
game action by action with the same seeded dice, so every event comes back and
the final state's digest must equal the one stored. Every field is checked
when a record is read, and the replay must reach the stored digest, turn and
outcome: a record that does not match is refused, never resumed silently.

Format (``format`` = 2; format 1, without sealed entries or checksum, still reads)::

    {"format": 2, "ruleset": "miniwars", "ruleset_version": "1",
     "scenario_id": "miniwars/danville", "scenario": {...the whole TOML...},
     "seed": 7, "actions": [{"side": "horde", "action": "move W1 0405"}, ...],
     "turns": 3, "outcome": null | {"winner": ..., "reason": ..., "scores": ...},
     "digest": "<sha256 of the final state's canonical JSON>",
     "players": {...} (play) or "bots": {...} (simulate), optional,
     "checksum": "<sha256 of the canonical JSON of every other field>"}

The digest proves the actions (a replay must reach it); the checksum proves
that nothing else was edited (a changed seed or scenario may leave the final
state alone). Neither is a signature: they catch damage and casual edits,
not a forger who recomputes them.

**Sealed choices.** The record is shared: every player may read it. A sealed
choice not yet revealed appears in it only as ``{"side": "ann", "sealed":
"<commitment>"}``, where the commitment is the SHA-256 of a random 128-bit
salt, the side, the action's index and its text: it tells the other sides
that ann has chosen and binds the choice, but does not tell what it is. The
choice itself and its salt are kept in that side's own file beside the record
(:func:`sealed_path`: ``danville-7.json.ann-sealed.json``), which is removed once
the round is revealed (from then on the choice is in the record in clear, as
the reveal showed it to everyone). Resuming reads the side files back and
checks each against its commitment, so nothing is lost. The threat model is
in ``docs/architecture.md``.

Writes are atomic and durable: a temporary file in the same folder, flushed
and fsynced, renamed over the record, then the folder fsynced; temporary
files left by an interrupted write are removed by the next one.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import tempfile
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warbench.errors import RecordError, WarbenchError, excerpt

if TYPE_CHECKING:
    from warbench.core.game import Game, TakenAction

RECORD_FORMAT = 2
READABLE_FORMATS = (1, 2)
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""A record larger than this is refused before it is parsed."""
MAX_SEED = 2**63 - 1
"""Seeds are whole numbers from 0 to this (what the CLI accepts, too)."""
EXTRA_FIELDS = {"players": "who played each side", "bots": "the bots of a simulation"}
"""Optional top-level fields the commands add; any other unknown field is refused."""
_HEX64 = re.compile(r"[0-9a-f]{64}")
MAX_ID = 200
"""The longest scenario id a record may name."""


# -- making a record ---------------------------------------------------------------
def commitment(nonce: str, side: str, index: int, action: str) -> str:
    """The salted hash that stands for a sealed choice in the shared record."""
    blob = "\n".join((nonce, side, str(index), action)).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()


def canonical(data: Any) -> bytes:
    """The canonical JSON of ``data`` (sorted keys, no spaces, ASCII), for hashing."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def with_checksum(record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` with its ``checksum``: the SHA-256 of every other field, canonical.

    The final-state digest proves the actions; the checksum proves that
    nothing else (seed, scenario, turn, who played) was edited since: a
    change that leaves the final state alone is caught too.
    """
    sealed = {key: value for key, value in record.items() if key != "checksum"}
    sealed["checksum"] = hashlib.sha256(canonical(sealed)).hexdigest()
    return sealed


def _kept(game: Game, withhold: Collection[str]) -> list[tuple[TakenAction, bool]]:
    """The actions a record keeps, each with whether it is a pending sealed choice.

    A pending choice of a ``withhold`` side is not kept at all: a bot's, which
    it simply makes again on resume, so that no file beside the record holds a
    secret its human opponent's account can read.
    """
    pending = {id(t): side for side, t in game.pending_sealed().items()}
    return [
        (taken, id(taken) in pending)
        for taken in game.actions
        if pending.get(id(taken)) not in withhold or id(taken) not in pending
    ]


def make_record(
    game: Game, extra: Mapping[str, Any] | None = None, withhold: Collection[str] = ()
) -> dict[str, Any]:
    """The record of ``game`` as it stands, safe for every side to read.

    ``extra`` adds the optional fields a command keeps (``players``, ``bots``);
    pending sealed choices of ``withhold`` sides are left out (see :func:`_kept`).
    """
    outcome = game.outcome
    actions: list[dict[str, str]] = []
    for index, (taken, pending) in enumerate(_kept(game, withhold)):
        if pending:
            sealed = commitment(taken.nonce, taken.side, index, str(taken.action))
            actions.append({"side": taken.side, "sealed": sealed})
        else:
            actions.append({"side": taken.side, "action": str(taken.action)})
    record = {
        "format": RECORD_FORMAT,
        "ruleset": game.ruleset.info.name,
        "ruleset_version": game.ruleset.info.version,
        "scenario_id": game.scenario.id,
        "scenario": game.scenario.raw,
        "seed": game.seed,
        "actions": actions,
        "turns": game.turn,
        "outcome": outcome.to_json() if outcome else None,
        "digest": game.digest(),
    } | dict(extra or {})
    return with_checksum(record)


def sealed_choices(game: Game, withhold: Collection[str] = ()) -> dict[str, list[dict[str, Any]]]:
    """Each side's pending sealed choices, as its own file holds them (indices as
    in the record, which leaves out the pending choices of ``withhold`` sides)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for index, (taken, pending) in enumerate(_kept(game, withhold)):
        if pending:
            action = str(taken.action)
            found.setdefault(taken.side, []).append(
                {"index": index, "action": action, "nonce": taken.nonce, "pad": _pad(action)}
            )
    return found


CHOICE_BLOCK = 256
"""An action's text in a side file is padded to a multiple of this many characters
(as JSON writes it), so the file's size does not tell one choice from another."""


def _pad(action: str) -> str:
    return "." * (-len(json.dumps(action)) % CHOICE_BLOCK)


def sealed_path(record_path: str | Path, side: str) -> Path:
    """Where ``side``'s sealed choices are kept beside the record at ``record_path``."""
    target = Path(record_path)
    slug = re.sub(r"[^A-Za-z0-9_-]", "_", side)[:40]
    if slug != side:  # keep names of different sides apart after the clean-up
        slug += "-" + hashlib.sha256(side.encode("utf-8")).hexdigest()[:8]
    return target.with_name(f"{target.name}.{slug}-sealed.json")


# -- writing -----------------------------------------------------------------------
def write_record(
    record: Mapping[str, Any], path: str | Path, private: bool = False, new: bool = False
) -> None:
    """Write JSON atomically and durably (temp file, fsync, rename, fsync the folder).

    A record is shared: readable by others as the umask allows. A ``private``
    file (a side's sealed choices) is readable by its owner only. A ``new``
    file must not exist yet, even if another process writes it meanwhile
    (RecordError then): the rename is a hard link, which never replaces.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(target)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        if not private:
            os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        if new:
            try:
                os.link(tmp, target)
            except FileExistsError:
                raise RecordError(f"{excerpt(str(target), 200)} exists already") from None
            finally:
                Path(tmp).unlink(missing_ok=True)
        else:
            os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_folder(target.parent)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def remove_record_file(path: Path) -> None:
    """Remove a file written by :func:`write_record`, and any temporaries it left."""
    path.unlink(missing_ok=True)
    _remove_stale_temporaries(path)


def record_taken(path: Path) -> bool:
    """Whether ``path`` holds a file already, or sealed-choices files of a record there."""
    return path.exists() or any(path.parent.glob(f"{glob_escape(path.name)}.*-sealed.json"))


def _remove_stale_temporaries(target: Path) -> None:
    """Temporary files an interrupted write of ``target`` left behind."""
    for stale in target.parent.glob(f".{glob_escape(target.name)}.*.tmp"):
        stale.unlink(missing_ok=True)


def glob_escape(name: str) -> str:
    """``name`` with glob's special characters made literal."""
    return re.sub(r"([*?\[])", r"[\1]", name)


def _fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the platform allows opening folders)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms that cannot open a folder
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems that refuse it
        pass
    finally:
        os.close(fd)


@dataclass
class RecordFile:
    """A game's record on disk, rewritten after every action, with its side files.

    The order of writes keeps a resumable set on disk at every moment: a side
    file is first written holding both its old and new choices, then the
    record, then the side file is cut down to the new choices (or removed).
    """

    path: Path
    withhold: Collection[str] = ()
    """Sides (bots) whose pending sealed choices are not written: see :func:`_kept`."""
    _saved: dict[str, list[dict[str, Any]]] | None = None

    def save(self, game: Game, extra: Mapping[str, Any] | None = None) -> None:
        record = make_record(game, extra, self.withhold)
        current = sealed_choices(game, self.withhold)
        saved = self._saved if self._saved is not None else self._on_disk(game)
        sides = game.scenario.sides
        for side in sides:
            both = _merge(saved.get(side, []), current.get(side, []))
            if both and both != saved.get(side, []):
                write_record(_side_file(game, side, both), sealed_path(self.path, side), True)
        write_record(record, self.path)
        for side in sides:
            if not current.get(side):
                remove_record_file(sealed_path(self.path, side))
            elif current[side] != _merge(saved.get(side, []), current[side]):
                write_record(
                    _side_file(game, side, current[side]), sealed_path(self.path, side), True
                )
        self._saved = current

    def _on_disk(self, game: Game) -> dict[str, list[dict[str, Any]]]:
        """The choices the side files beside the record hold now (a resumed game's)."""
        found: dict[str, list[dict[str, Any]]] = {}
        for side in game.scenario.sides:
            try:
                data = json.loads(sealed_path(self.path, side).read_text("utf-8"))
                choices = data["choices"]
            except (OSError, ValueError, KeyError, TypeError, RecursionError):
                continue
            if isinstance(choices, list):
                found[side] = [c for c in choices if isinstance(c, dict)]
        return found


def save_game(game: Game, path: str | Path, extra: Mapping[str, Any] | None = None) -> None:
    """Write ``game``'s record and its sides' sealed files to ``path`` once."""
    RecordFile(Path(path)).save(game, extra)


def _merge(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return old + [entry for entry in new if entry not in old]


def _side_file(game: Game, side: str, choices: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": RECORD_FORMAT,
        "kind": "sealed choices",
        "note": f"{side}'s secret: the other sides must not read this file",
        "scenario_id": game.scenario.id,
        "seed": game.seed,
        "side": side,
        "choices": choices,
    }


# -- reading and checking ------------------------------------------------------------
MAX_DEPTH = 64
"""JSON in a record nests at most this deep (a scenario needs a handful of levels)."""


def _check_shape(data: Any, source: str, what: str) -> None:
    """Refuse JSON nested deeper than MAX_DEPTH, or with text that is not Unicode
    (a lone surrogate written as an escape), before anything else reads it."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"{source}: not a {what}: the JSON is nested too deeply")
        if isinstance(item, str):
            _unicode(item, source, what)
        elif isinstance(item, dict):
            for key, value in item.items():
                _unicode(key, source, what)
                stack.append((value, depth + 1))
        elif isinstance(item, list):
            stack.extend((value, depth + 1) for value in item)


def _unicode(text: str, source: str, what: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError(
            f"{source}: not a {what}: text '{excerpt(text)}' is not Unicode (a lone surrogate)"
        ) from None


class _DuplicateKey(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _DuplicateKey(key)
        found[key] = value
    return found


def _load_json(path: str | Path, what: str) -> Any:
    """Parse the JSON file at ``path``: a regular file of at most MAX_RECORD_BYTES."""
    source = excerpt(str(path), 200)
    try:
        if not Path(path).is_file():
            if Path(path).exists():
                raise RecordError(f"{source}: not a {what} (not a regular file)")
            raise RecordError(f"{source}: cannot read the {what}: no such file")
        with open(path, "rb") as handle:
            blob = handle.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"{source}: cannot read the {what}: {exc.strerror or exc}") from None
    if len(blob) > MAX_RECORD_BYTES:
        raise RecordError(f"{source}: the {what} is over {MAX_RECORD_BYTES} bytes, the most read")
    try:
        text = blob.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{source}: not a {what} (the file is not UTF-8 text)") from None
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{source}: not a JSON {what}: {exc.msg} at line {exc.lineno}") from None
    except RecursionError:
        raise RecordError(f"{source}: not a {what}: the JSON is nested too deeply") from None
    except _DuplicateKey as exc:
        raise RecordError(
            f"{source}: not a {what}: the key '{excerpt(exc)}' appears twice"
        ) from None
    except ValueError:  # a number of more digits than Python converts
        raise RecordError(f"{source}: not a {what}: a number has too many digits") from None
    _check_shape(data, source, what)
    return data


def read_record(path: str | Path) -> dict[str, Any]:
    """Read a record file and check every field (RecordError names what is wrong)."""
    data = _load_json(path, "record")
    check_record(data, excerpt(str(path), 200))
    return dict(data)


def check_record(data: Any, source: str) -> None:
    """Check that ``data`` has every field of a record, each of the right kind."""

    def bad(problem: str) -> RecordError:
        return RecordError(f"{source}: {problem}")

    if not isinstance(data, dict):
        raise bad("a record is a JSON object")
    fmt = data.get("format")
    if type(fmt) is not int or fmt not in READABLE_FORMATS:
        raise bad(f"unsupported record format {excerpt(repr(fmt))}")
    required = {
        "ruleset": str,
        "ruleset_version": str,
        "scenario_id": str,
        "scenario": dict,
        "seed": int,
        "actions": list,
        "turns": int,
        "digest": str,
    }
    for key, kind in required.items():
        value = data.get(key)
        if key not in data or type(value) is not kind:
            raise bad(f"field '{key}' is missing or not a {_KIND_NAMES[kind]}")
    known = {"format", "outcome", *(["checksum"] if fmt >= 2 else []), *EXTRA_FIELDS}
    unknown = set(data) - set(required) - known
    if unknown:
        raise bad(f"unknown field '{excerpt(sorted(unknown)[0])}' (a changed record?)")
    if fmt >= 2:
        checksum = data.get("checksum")
        if not isinstance(checksum, str) or not _HEX64.fullmatch(checksum):
            raise bad("field 'checksum' is missing or not a SHA-256 digest")
        if with_checksum(data)["checksum"] != checksum:
            raise bad(
                "the record was changed after it was written (its checksum does not match); "
                "a record is only written by warbench"
            )
    if len(data["scenario_id"]) > MAX_ID or not data["scenario_id"].isprintable():
        raise bad(f"field 'scenario_id' is not a scenario id: '{excerpt(data['scenario_id'])}'")
    if not 0 <= data["seed"] <= MAX_SEED:
        raise bad(f"field 'seed' must be a whole number from 0 to {MAX_SEED}")
    if not _HEX64.fullmatch(data["digest"]):
        raise bad("field 'digest' is not a SHA-256 digest (64 hex digits)")
    if _ruleset_name(data["scenario"].get("ruleset")) != _ruleset_name(data["ruleset"]):
        raise bad(
            f"the record says ruleset '{excerpt(data['ruleset'])}' but its scenario is "
            f"a game of '{excerpt(data['scenario'].get('ruleset'))}'"
        )
    prefix, slash, _ = data["scenario_id"].partition("/")
    if slash and _is_registered(prefix) and _ruleset_name(prefix) != _ruleset_name(data["ruleset"]):
        raise bad(
            f"scenario id '{excerpt(data['scenario_id'])}' is not a scenario of "
            f"'{excerpt(data['ruleset'])}'"
        )
    _check_builtin_id(data, bad)
    if data.get("outcome") is not None and not isinstance(data["outcome"], dict):
        raise bad("field 'outcome' is neither null nor an object")
    for key in EXTRA_FIELDS:
        value = data.get(key)
        if key in data and not (
            isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
        ):
            raise bad(f"field '{key}' is not an object of names")
    sealed_seen = False
    for number, entry in enumerate(data["actions"], start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("side"), str):
            raise bad(f"action {number} is not {{side, action}}")
        keys = set(entry) - {"side"}
        if keys == {"action"} and isinstance(entry["action"], str):
            if sealed_seen:
                raise bad(f"action {number} follows a sealed choice not yet revealed")
        elif keys == {"sealed"} and isinstance(entry["sealed"], str) and fmt >= 2:
            if not _HEX64.fullmatch(entry["sealed"]):
                raise bad(f"action {number}: the sealed entry is not a commitment")
            sealed_seen = True
        else:
            raise bad(f"action {number} is not {{side, action}}")
    if sealed_seen and not _has_sealed_choices(data["ruleset"]):
        raise bad(f"a sealed choice in a game of {excerpt(data['ruleset'])}, which has none")


def _check_builtin_id(data: Mapping[str, Any], bad: Any) -> None:
    """A record naming a built-in scenario must hold that scenario (by its title:
    the file may have been tuned since, the scenario may not have been swapped)."""
    from warbench.core.loader import builtin_scenarios
    from warbench.scenario.files import parse_toml

    entry = builtin_scenarios().get(data["scenario_id"])
    if entry is None:
        return
    title = parse_toml(entry.read_text("utf-8"), data["scenario_id"]).get("title")
    if data["scenario"].get("title") != title:
        raise bad(
            f"scenario id '{excerpt(data['scenario_id'])}' names the built-in '{title}', "
            f"but the record holds '{excerpt(data['scenario'].get('title'))}'"
        )


def _ruleset_name(name: Any) -> str | None:
    """The registered name behind a ruleset name or alias (None if unknown)."""
    from warbench.core import registry

    if not isinstance(name, str):
        return None
    try:
        return registry.get(name).info.name
    except WarbenchError:
        return name


def _has_sealed_choices(name: str) -> bool:
    from warbench.core import registry

    try:
        return registry.get(name).info.simultaneous_choices
    except WarbenchError:
        return True  # an unknown ruleset is refused elsewhere, by name


def _is_registered(name: str) -> bool:
    from warbench.core import registry

    try:
        registry.get(name)
    except WarbenchError:
        return False
    return True


_KIND_NAMES = {str: "string", dict: "JSON object", int: "whole number", list: "list"}


def read_sealed(record_path: str | Path, record: Mapping[str, Any]) -> dict[int, tuple[str, str]]:
    """The pending sealed choices of ``record`` from its sides' files: index -> (action, nonce).

    Each choice must match the commitment the record holds for it; a missing
    or unreadable side file, or one that does not match, is refused.
    """
    wanted: dict[int, tuple[str, str]] = {
        i: (entry["side"], entry["sealed"])
        for i, entry in enumerate(record["actions"])
        if "sealed" in entry
    }
    found: dict[int, tuple[str, str]] = {}
    for side in sorted({side for side, _ in wanted.values()}):
        path = sealed_path(record_path, side)
        where = excerpt(str(path), 200)
        if not path.exists():
            raise RecordError(
                f"{excerpt(str(record_path), 200)}: {side}'s sealed choice is kept in {where}, "
                "which is missing; resume with --withdraw-sealed to let them choose again"
            )
        data = _load_json(path, "sealed-choices file")
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or data.get("side") != side:
            raise RecordError(f"{where}: not {side}'s sealed-choices file")
        for item in choices:
            if not isinstance(item, dict):
                continue
            index, action, nonce = item.get("index"), item.get("action"), item.get("nonce")
            if type(index) is not int or not isinstance(action, str):
                continue
            if not isinstance(nonce, str) or index not in wanted:
                continue
            owner, sealed = wanted[index]
            if owner == side and commitment(nonce, side, index, action) == sealed:
                found[index] = (action, nonce)
    missing = sorted(set(wanted) - set(found))
    if missing:
        side = wanted[missing[0]][0]
        raise RecordError(
            f"{excerpt(str(record_path), 200)}: action {missing[0] + 1} ({side}'s sealed choice) "
            f"does not match {excerpt(str(sealed_path(record_path, side)), 200)}"
        )
    return found


# -- replaying -----------------------------------------------------------------------
def replay_record(
    record: Mapping[str, Any],
    source: str = "record",
    sealed: Mapping[int, tuple[str, str]] | None = None,
    verify: bool = True,
) -> Game:
    """Rebuild the game of a record, applying every action in order.

    ``sealed`` supplies pending sealed choices (from :func:`read_sealed`);
    without it the replay stops before them. With ``verify``, the replay must
    reach the record's digest, turn and outcome, or RecordError says what
    differs (a changed record, or rules that changed since it was made).
    """
    from warbench.core.game import Game
    from warbench.core.loader import scenario_from_dict

    scenario_id = str(record.get("scenario_id", "record"))
    scenario = scenario_from_dict(record["scenario"], f"{source} (scenario)", scenario_id)
    game = Game(scenario, int(record["seed"]))
    version = record.get("ruleset_version")
    if version is not None and version != game.ruleset.info.version:
        raise RecordError(
            f"{source}: made with {game.ruleset.info.name} version {excerpt(version)}, "
            f"this is version {game.ruleset.info.version}"
        )
    if _ruleset_name(record.get("ruleset", game.ruleset.info.name)) != game.ruleset.info.name:
        raise RecordError(f"{source}: not a record of {game.ruleset.info.name}")
    sealed_entries = any(isinstance(e, dict) and "sealed" in e for e in record["actions"])
    if sealed_entries and not game.ruleset.info.simultaneous_choices:
        raise RecordError(
            f"{source}: a sealed choice in a game of {game.ruleset.info.name}, which has none"
        )
    for index, entry in enumerate(record["actions"]):
        nonce = ""
        try:
            side = str(entry["side"])
            if "sealed" in entry:
                if sealed is None or index not in sealed:
                    break  # the rest are choices still sealed: the replay stops before them
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


def load_game(path: str | Path, withdraw_sealed: bool = False) -> tuple[Game, dict[str, Any]]:
    """Resume: read, check and replay the record at ``path`` with its sealed choices.

    Returns the game and the record. With ``withdraw_sealed``, pending sealed
    choices whose side files are gone are dropped (their sides choose again)
    instead of refusing the record.
    """
    source = excerpt(str(path), 200)
    record = read_record(path)
    pending = [i for i, entry in enumerate(record["actions"]) if "sealed" in entry]
    sealed: dict[int, tuple[str, str]] = {}
    if pending:
        try:
            sealed = read_sealed(path, record)
        except RecordError:
            if not withdraw_sealed:
                raise
            record = {**record, "actions": record["actions"][: pending[0]]}
    game = replay_record(record, source, sealed)
    return game, record
