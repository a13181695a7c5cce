"""Records on disk: written durably, side files of sealed choices, read back and checked.

:mod:`warbench.core.record` says what a record holds and how it is checked and
replayed; this module is about files. Writes are atomic and durable: a
temporary file in the same folder, flushed and fsynced, renamed over the
record, then the folder fsynced; temporary files left by an interrupted write
are removed by the next one. Reading takes only regular files of bounded
size, with no key twice, bounded nesting and text that is Unicode.

Side files hold each side's sealed choices not yet revealed: those of the
round now asked and a choice held for a later reveal (``Decision.hold``),
which public actions may follow. A bot's choice in the round now asked is
never written (it chooses again on resume), but a bot's held choice is, like
a person's: the actions after it need it to replay. Such a file is readable by
the account that runs the game, so a person playing a bot on that account can
read the bot's held secret (``docs/architecture.md``, Secrets and records).
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warbench.core.record import (
    RECORD_FORMAT,
    check_record,
    commitment,
    kept_actions,
    make_record,
)
from warbench.core.replay import replay_record, verify_replay
from warbench.errors import RecordError, excerpt

if TYPE_CHECKING:
    from warbench.core.game import Game

MAX_RECORD_BYTES = 64 * 1024 * 1024
"""A record larger than this is refused before it is parsed."""


def sealed_choices(game: Game, withhold: Collection[str] = ()) -> dict[str, list[dict[str, Any]]]:
    """Each side's sealed choices not yet revealed, as its own file holds them (indices
    as in the record, which leaves out the open round's choices of ``withhold`` sides)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for index, (taken, pending) in enumerate(kept_actions(game, withhold)):
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
    return path.exists() or any(path.parent.glob(f"{glob.escape(path.name)}.*-sealed.json"))


def _remove_stale_temporaries(target: Path) -> None:
    """Temporary files an interrupted write of ``target`` left behind."""
    for stale in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
        stale.unlink(missing_ok=True)


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
    """Sides (bots) whose choices in the round now asked are not written (their held
    choices are): see :func:`~warbench.core.record.kept_actions`."""
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
        "seed": game.seed,  # None for secret dice (the record logs the dice rolled)
        "side": side,
        "choices": choices,
    }


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


def read_sealed(
    record_path: str | Path, record: Mapping[str, Any], partial: bool = False
) -> dict[int, tuple[str, str]]:
    """The sealed choices of ``record`` from its sides' files: index -> (action, nonce).

    Each choice must match the commitment the record holds for it; a missing
    or unreadable side file, or one that does not match, is refused, unless
    ``partial``: then the choices that can be read and match are returned.
    """
    actions = record["actions"]
    wanted: dict[int, tuple[str, str]] = {
        i: (entry["side"], entry["sealed"]) for i, entry in enumerate(actions) if "sealed" in entry
    }
    found: dict[int, tuple[str, str]] = {}
    for side in sorted({side for side, _ in wanted.values()}):
        path = sealed_path(record_path, side)
        where = excerpt(str(path), 200)
        if not path.exists():
            if partial:
                continue
            mine = [i for i, (owner, _) in wanted.items() if owner == side]
            if any(_went_on(actions, i) for i in mine):
                raise RecordError(
                    f"{excerpt(str(record_path), 200)}: {side}'s sealed choice is kept in "
                    f"{where}, which is missing; the choice is held for a later reveal and the "
                    "game went on after it, so it cannot be withdrawn: the file is needed"
                )
            raise RecordError(
                f"{excerpt(str(record_path), 200)}: {side}'s sealed choice is kept in {where}, "
                "which is missing; resume with --withdraw-sealed to let them choose again"
            )
        try:
            data = _load_json(path, "sealed-choices file")
        except RecordError:
            if partial:
                continue
            raise
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list) or data.get("side") != side:
            if partial:
                continue
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
    if missing and not partial:
        side = wanted[missing[0]][0]
        raise RecordError(
            f"{excerpt(str(record_path), 200)}: action {missing[0] + 1} ({side}'s sealed choice) "
            f"does not match {excerpt(str(sealed_path(record_path, side)), 200)}"
        )
    return found


def _went_on(actions: list[Any], index: int) -> bool:
    """Whether a public action follows the sealed entry at ``index``: then it was held."""
    return any(isinstance(entry, dict) and "action" in entry for entry in actions[index + 1 :])


def load_game(path: str | Path, withdraw_sealed: bool = False) -> tuple[Game, dict[str, Any]]:
    """Resume: read, check and replay the record at ``path`` with its sealed choices.

    Returns the game and the record. With ``withdraw_sealed``, sealed choices
    of the round now asked whose side files are gone (or do not match) are
    dropped, with any choice after them (their sides choose again), instead of
    refusing the record. A held choice cannot be withdrawn once its round was
    complete: the game went on after it (the ruleset moved on, public actions
    may follow, dice may have been rolled), and choosing again would undo that
    knowing what came next; such a record is refused, naming the file needed.
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
            sealed = read_sealed(path, record, partial=True)
            first = min((i for i in pending if i not in sealed), default=None)
            if first is not None:
                kept = {**record, "actions": record["actions"][:first]}
                game = replay_record(kept, source, sealed, verify=False)
                _check_withdrawable(game, record["actions"][first:], first, path)
                verify_replay(game, record, source)
                return game, kept
    game = replay_record(record, source, sealed)
    return game, record


def _check_withdrawable(game: Game, dropped: list[Any], first: int, path: str | Path) -> None:
    """Refuse to drop ``dropped`` (the record's entries from ``first`` on) unless they
    are only choices of the sealed round ``game`` asks now, which they do not complete.

    A round whose every choice was made is complete: an entry of it still sealed
    in the record was held (a round that reveals shows its choices in clear).
    """
    from warbench.core.decisions import DecisionKind

    sides = [entry.get("side") for entry in dropped]
    decision = game.decision
    open_round = (
        decision is not None
        and decision.kind is DecisionKind.SEALED
        and all("sealed" in entry for entry in dropped)
        and len(set(sides)) == len(sides)
        and set(sides) < set(game.waiting_for())
    )
    if not open_round:
        side = str(dropped[0].get("side"))
        raise RecordError(
            f"{excerpt(str(path), 200)}: action {first + 1} ({excerpt(side)}'s sealed choice) "
            "is held for a later reveal and the game went on after it: it cannot be withdrawn; "
            f"{excerpt(str(sealed_path(path, side)), 200)} is needed to resume"
        )
