"""Records: a game as scenario + seed + actions (+ final digest), in JSON.

A record is both the save file and the replay file. Replaying it rebuilds the
game action by action with the same seeded dice, so every event comes back and
the final state's digest must equal the one stored. Every field is checked
when a record is read, and the replay must reach the stored digest, turn and
outcome: a record that does not match is refused, never resumed silently.

Format (``format`` = 2; format 1, without sealed entries or checksum, still reads;
format 3 is a game of secret dice, which logs the dice rolled instead of a seed)::

    {"format": 2, "ruleset": "miniwars", "ruleset_version": "1",
     "scenario_id": "miniwars/danville", "scenario": {...the whole TOML...},
     "seed": 7, "actions": [{"side": "horde", "action": "move W1 0405"}, ...],
     (format 3: "dice": [4, 1, 6, ...] instead of "seed": the dice rolled so far)
     "turns": 3, "outcome": null | {"winner": ..., "reason": ..., "scores": ...},
     "digest": "<sha256 of the final state's canonical JSON>",
     "players": {...} (play) or "bots": {...} (simulate), optional,
     "checksum": "<sha256 of the canonical JSON of every other field>"}

The digest proves the actions (a replay must reach it); the checksum proves
that nothing else was edited (a changed seed or scenario may leave the final
state alone). Neither is a signature: they catch damage and casual edits,
not a forger who recomputes them.

**Secret dice.** A seed tells every future die, so a game with a person in it has
none: its dice are drawn from the operating system's source as they are rolled
(:class:`~warbench.core.dice.SecretDice`) and its record logs the dice rolled so far.
A copy of the record shows only dice already shown; a replay rolls the logged values
in order, then secret ones (a resumed game goes on with dice nobody could foresee).

**Sealed choices.** The record is shared: every player may read it. A sealed
choice not yet revealed appears in it only as ``{"side": "ann", "sealed":
"<commitment>"}``, where the commitment is the SHA-256 of a random 128-bit
salt, the side, the action's index and its text: it tells the other sides
that ann has chosen and binds the choice, but does not tell what it is. The
choice itself and its salt are kept in that side's own file beside the record
(``danville-7.json.ann-sealed.json``, see :mod:`warbench.core.saves`), which is removed once
the choice is revealed (from then on the choice is in the record in clear, as
the reveal showed it to everyone). Resuming reads the side files back and
checks each against its commitment, so nothing is lost. The threat model is
in ``docs/architecture.md``.

Such an entry is usually one of the last (a round still open), but a choice
*held* from a round with ``Decision.hold`` stays secret while public actions
follow it, so a commitment may stand anywhere in the list. Replaying without
a side's file stops at its first commitment: the actions after a held choice
depend on it (the rules read it when they open it), so they cannot be
replayed, nor the record checked, without that file.

**Bots.** A bot's choice still pending in the round now asked is not written
at all (``withhold``): no file beside the record holds a secret its human
opponent's account can read, and on resume the bot simply chooses again. A
bot's *held* choice cannot be dropped like that, since the actions after it
would no longer replay: it is written to the bot side's file like a person's.
That file is readable by the account that runs the game, which in a game
against a person at the same machine is that person's (see the threat model).

Replaying a record is :mod:`warbench.core.replay`; writing records and side files to
disk, reading them back and resuming a game is :mod:`warbench.core.saves`.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection, Mapping
from typing import TYPE_CHECKING, Any, Protocol

from warbench.core.dice import Dice, SecretDice
from warbench.errors import RecordError, WarbenchError, excerpt

if TYPE_CHECKING:
    from warbench.core.outcome import Outcome
    from warbench.core.resolution import TakenAction
    from warbench.core.ruleset import Ruleset, RulesetInfo
    from warbench.scenario.model import Scenario


class Recorded(Protocol):
    """What a record is made from: a :class:`~warbench.core.game.Game` (named by what it
    offers, so that this module stays below the game, which writes records with it)."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def ruleset(self) -> Ruleset[Any]: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def dice(self) -> Dice: ...
    @property
    def actions(self) -> list[TakenAction]: ...
    @property
    def turn(self) -> int: ...
    @property
    def outcome(self) -> Outcome | None: ...
    def digest(self) -> str: ...
    def unrevealed(self) -> dict[int, TakenAction]: ...
    def held_choices(self) -> dict[str, TakenAction]: ...


RECORD_FORMAT = 2
SECRET_DICE_FORMAT = 3
"""A record of secret dice (a game with a person in it) logs the dice rolled (``dice``)
instead of a seed; it is format 3, which older readers refuse rather than misread."""
READABLE_FORMATS = (1, 2, 3)
MAX_ROLL = 1000
"""The largest face a logged die may show (a d1000 is more than any rule rolls)."""
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


def kept_actions(game: Recorded, withhold: Collection[str]) -> list[tuple[TakenAction, bool]]:
    """The actions a record keeps, each with whether it is a sealed choice not yet revealed.

    A ``withhold`` side's choice in the round now asked is not kept at all:
    a bot's, which it simply makes again on resume, so that no file beside the
    record holds a secret its human opponent's account can read. Those choices
    are the last actions, so leaving them out shifts no other index. A held
    choice is always kept: the actions after it need it to replay.
    """
    secret = game.unrevealed()
    held = {id(taken) for taken in game.held_choices().values()}
    return [
        (taken, index in secret)
        for index, taken in enumerate(game.actions)
        if index not in secret or id(taken) in held or taken.side not in withhold
    ]


def make_record(
    game: Recorded, extra: Mapping[str, Any] | None = None, withhold: Collection[str] = ()
) -> dict[str, Any]:
    """The record of ``game`` as it stands, safe for every side to read.

    ``extra`` adds the optional fields a command keeps (``players``, ``bots``);
    the open round's sealed choices of ``withhold`` sides are left out (see
    :func:`kept_actions`).
    """
    outcome = game.outcome
    actions: list[dict[str, str]] = []
    for index, (taken, pending) in enumerate(kept_actions(game, withhold)):
        if pending:
            sealed = commitment(taken.nonce, taken.side, index, str(taken.action))
            actions.append({"side": taken.side, "sealed": sealed})
        else:
            actions.append({"side": taken.side, "action": str(taken.action)})
    dice: dict[str, Any] = (
        {"seed": game.seed} if game.seed is not None else {"dice": list(dice_log(game))}
    )
    record = {
        "format": RECORD_FORMAT if game.seed is not None else SECRET_DICE_FORMAT,
        "ruleset": game.ruleset.info.name,
        "ruleset_version": game.ruleset.info.version,
        "scenario_id": game.scenario.id,
        "scenario": game.scenario.raw,
        **dice,
        "actions": actions,
        "turns": game.turn,
        "outcome": outcome.to_json() if outcome else None,
        "digest": game.digest(),
    } | dict(extra or {})
    return with_checksum(record)


def dice_log(game: Recorded) -> list[int]:
    """The dice a game of secret dice has rolled so far, in order (what its record keeps:
    each was shown when it was rolled; no future die is in it)."""
    dice = game.dice
    if not isinstance(dice, SecretDice):
        raise RecordError("only a game of secret dice logs its dice; this one has a seed")
    return list(dice.log)


def record_dice(record: Mapping[str, Any]) -> tuple[int | None, Dice | None]:
    """The seed and dice a record's game is rebuilt with: its seed (the dice follow), or
    no seed and secret dice that first roll the logged values."""
    if "dice" in record:
        return None, SecretDice(int(v) for v in record["dice"])
    return int(record["seed"]), None


# -- reading and checking ------------------------------------------------------------
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
        **({"dice": list} if fmt == SECRET_DICE_FORMAT else {"seed": int}),
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
    if "seed" in required and not 0 <= data["seed"] <= MAX_SEED:
        raise bad(f"field 'seed' must be a whole number from 0 to {MAX_SEED}")
    if "dice" in required and not all(type(v) is int and 1 <= v <= MAX_ROLL for v in data["dice"]):
        raise bad(f"field 'dice' must list the dice rolled, each a whole number 1 to {MAX_ROLL}")
    if not _HEX64.fullmatch(data["digest"]):
        raise bad("field 'digest' is not a SHA-256 digest (64 hex digits)")
    if ruleset_name(data["scenario"].get("ruleset")) != ruleset_name(data["ruleset"]):
        raise bad(
            f"the record says ruleset '{excerpt(data['ruleset'])}' but its scenario is "
            f"a game of '{excerpt(data['scenario'].get('ruleset'))}'"
        )
    prefix, slash, _ = data["scenario_id"].partition("/")
    if slash and _registered(prefix) and ruleset_name(prefix) != ruleset_name(data["ruleset"]):
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
    # A sealed entry may stand anywhere: a held choice is followed by public
    # actions until it is opened. Whether the entries fit the game is the replay's check.
    sealed_seen = False
    follows = 0  # the first public action after a sealed entry, if any
    for number, entry in enumerate(data["actions"], start=1):
        if not isinstance(entry, dict) or not isinstance(entry.get("side"), str):
            raise bad(f"action {number} is not {{side, action}}")
        keys = set(entry) - {"side"}
        if keys == {"sealed"} and isinstance(entry["sealed"], str) and fmt >= 2:
            if not _HEX64.fullmatch(entry["sealed"]):
                raise bad(f"action {number}: the sealed entry is not a commitment")
            sealed_seen = True
        elif keys != {"action"} or not isinstance(entry["action"], str):
            raise bad(f"action {number} is not {{side, action}}")
        elif sealed_seen and not follows:
            follows = number
    info = _registered(data["ruleset"])
    if sealed_seen and info is not None and not info.simultaneous_choices:
        where = f"action {follows} follows a sealed choice, " if follows else "a sealed choice "
        raise bad(f"{where}in a game of {excerpt(data['ruleset'])}, which has none")


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


def _registered(name: Any) -> RulesetInfo | None:
    """What the registry knows of a ruleset name or alias (None: not a registered name)."""
    from warbench.core import registry

    if not isinstance(name, str):
        return None
    try:
        return registry.get(name).info
    except WarbenchError:
        return None


def ruleset_name(name: Any) -> str | None:
    """The registered name behind a ruleset name or alias (the name itself if unknown)."""
    info = _registered(name)
    return info.name if info is not None else name if isinstance(name, str) else None


_KIND_NAMES = {str: "string", dict: "JSON object", int: "whole number", list: "list"}
