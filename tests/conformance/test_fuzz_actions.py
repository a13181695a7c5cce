"""Garbage in, clean refusal: random and malformed actions thrown at every ruleset.

Random games of every built-in scenario where, before each real action, a batch
of junk is tried: random verbs and names taken from the view, legal action texts
with words dropped, added or swapped and numbers replaced by look-alikes
(superscripts, other scripts' digits, fractions, thousands of digits, ``nan``,
``inf``, ``-0``, ``1e308``), control characters, invalid surrogates, very long
lines; then real actions of another side and earlier actions of the right side
that are no longer legal. Every refusal must be a :class:`WarbenchError` with a
short, printable message, ``refusal`` must answer without raising, and the game
must be exactly as it was. Nothing here names a ruleset: a new one is fuzzed too.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.core import registry
from warbench.core.actions import Action
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, load_scenario
from warbench.errors import WarbenchError
from warbench.geometry.hexgrid import Hex

SCENARIOS = sorted(builtin_scenarios())
SEEDS = (0, 1)
BATCH = 10
"""Junk texts tried before each fuzzed action."""
EVERY_STEP_UNTIL = 12
"""Fuzz before each of the first actions of a game, then before every FUZZ_EVERY-th."""
FUZZ_EVERY = 6
MAX_STEPS = 20_000
LINE_LIMIT = 400
"""No line of a refusal may be longer (a person reads it on a terminal)."""

HUGE_NUMBER = "9" * 5000
HEX_LABEL_DIGITS = 8600
"""A hex label this long has halves at Python's 4,300-digit limit of ``int``; the
test at the end also tries longer ones."""

LOOKALIKES = [
    "\u00b2",  # superscript two: str.isdigit() says yes, int() says no
    "\u0661\u0662",  # Arabic-Indic twelve: int() and float() read it as 12
    "\u00bd",  # one half: isnumeric
    "\uff11\uff12",  # full-width 12
    HUGE_NUMBER,
    "1" * HEX_LABEL_DIGITS,
    "nan",
    "NaN",
    "inf",
    "-inf",
    "infinity",
    "-0",
    "-0.0",
    "+0",
    "1e308",
    "1e309",
    "-1e308",
    "1e-308",
    "5e-324",
    "1_000",
    "0x10",
    "1,2,3",
    ",",
    "",
]
JUNK = [
    "",
    " ",
    "\t \n ",
    "\x00",
    "\x1b[2J\x1b[31mred",
    "\x07\x08\x7f",
    "move\x00",
    "\udcff",
    "move \udcff \udcff",
    "\u202eend",
    "end\u2028end",
    "x" * 100_000,
    "move " + "A" * 10_000,
    "move " + "+".join(["A"] * 2_000) + " 0101",
    " ".join(["end"] * 5_000),
    "\u0661\u0662",
    "\u00b2",
    HUGE_NUMBER,
    "1" * HEX_LABEL_DIGITS,
    "move 1 " + "1" * HEX_LABEL_DIGITS,
    "nan",
    "face nan",
]

_NUMBERS = re.compile(r"[0-9]+(?:\.[0-9]+)?")


def _scenario_params() -> list[Any]:
    return [pytest.param(sid, seed, id=f"{sid}-seed{seed}") for sid in SCENARIOS for seed in SEEDS]


def _names(view: Any, out: set[str]) -> None:
    """Short words in a view (ids of units, figures, sides, hexes, features)."""
    if isinstance(view, dict):
        for key, value in view.items():
            _names(key, out)
            _names(value, out)
    elif isinstance(view, list | tuple):
        for value in view:
            _names(value, out)
    elif isinstance(view, str) and 0 < len(view) <= 20 and " " not in view:
        out.add(view)


def _mutations(text: str, vocabulary: list[str], rng: random.Random) -> Iterator[str]:
    """``text`` (a legal action's) damaged in one or two ways."""
    words = text.split()
    yield " ".join(words[:-1])
    yield " ".join([*words, rng.choice(vocabulary)])
    yield " ".join([*words, *words])
    if len(words) > 1:
        i = rng.randrange(len(words))
        yield " ".join(words[:i] + words[i + 1 :])
        i, j = rng.sample(range(len(words)), 2)
        swapped = list(words)
        swapped[i], swapped[j] = swapped[j], swapped[i]
        yield " ".join(swapped)
        i = rng.randrange(1, len(words))
        yield " ".join([*words[:i], rng.choice(LOOKALIKES), *words[i + 1 :]])
    if _NUMBERS.search(text):
        for token in rng.sample(LOOKALIKES, 4):
            yield _NUMBERS.sub(lambda _m, t=token: t, text, count=1)  # type: ignore[misc]
            yield _NUMBERS.sub(lambda _m, t=token: t, text)  # type: ignore[misc]
    yield text.upper()
    yield text.replace(" ", "\t")
    yield text + "\x00"
    yield "\x1b[1m" + text


def _junk(game: Game, side: str, rng: random.Random) -> list[str]:
    """A batch of texts, most of which should not parse (or not be legal)."""
    names: set[str] = set()
    _names(game.view(side), names)
    vocabulary = sorted(names)
    legal = game.legal_actions(side)
    texts = [str(legal[i]) for i in rng.sample(range(len(legal)), min(3, len(legal)))]
    verbs = sorted({t.split()[0] for t in texts} | {"move", "end", "pass", "attack", "list"})
    batch: list[str] = []
    batch += rng.sample(JUNK, 3)
    for _ in range(2):
        size = rng.randrange(1, 5)
        batch.append(" ".join([rng.choice(verbs), *rng.sample(vocabulary, size)]))
    for text in texts:
        mutated = list(_mutations(text, vocabulary, rng))
        batch += rng.sample(mutated, min(len(mutated), 3))
    rng.shuffle(batch)
    return [*batch[:BATCH], rng.choice(LOOKALIKES)]


def _snapshot(game: Game) -> tuple[Any, ...]:
    sides = game.scenario.sides
    views = tuple(json.dumps(game.view(s), sort_keys=True) for s in (None, *sides))
    return (game.digest(), len(game.actions), game.decision, len(game.events), views)


def _check_message(message: str, what: object) -> None:
    for line in message.split("\n"):
        assert len(line) <= LINE_LIMIT, f"{len(line)}-character line refusing {what!r:.80}"
        bad = [ch for ch in line if not ch.isprintable()]
        assert not bad, f"control characters {bad!r} in the refusal of {what!r:.80}: {line!r:.200}"


def _refused(game: Game, attempt: Action | str, side: str | None) -> None:
    """``attempt`` must be refused with a WarbenchError, leaving the game as it was."""
    before = _snapshot(game)
    try:
        game.apply(attempt, side)
    except WarbenchError as exc:
        _check_message(str(exc), attempt)
    else:
        raise AssertionError(f"{attempt!r:.200} by {side} was taken")
    assert _snapshot(game) == before, f"refusing {attempt!r:.200} changed the game"


def _try_text(game: Game, text: str, side: str) -> Action | None:
    """Parse ``text``; a refusal must be clean (and ``apply`` must refuse it too)."""
    try:
        action = game.parse(text)
    except WarbenchError as exc:
        _check_message(str(exc), text)
        _refused(game, text, side)
        return None
    # What parses must print as text that parses back to it.
    assert game.parse(str(action)) == action, f"{text!r:.200} parsed to {action}, which does not"
    return action


def _try_action(game: Game, action: Action, side: str) -> None:
    """A parsed action: refused (cleanly) if refusal() says so; legal ones are not taken."""
    reason = game.refusal(action, side)
    if reason is None:
        if game.ruleset.info.exhaustive_actions:
            assert action in game.legal_actions(side), f"refusal() lets unlisted {action} pass"
        return
    _check_message(reason, action)
    _refused(game, action, side)


@functools.cache
def _actions_by_ruleset() -> dict[str, tuple[Action, ...]]:
    """A sample of real actions of every ruleset (from the start of each scenario)."""
    found: dict[str, list[Action]] = {}
    for sid in SCENARIOS:
        game = Game(load_scenario(sid), 0)
        bots = {side: make_bot("random", i) for i, side in enumerate(game.scenario.sides)}
        sample = found.setdefault(game.ruleset.info.name, [])
        for _ in range(30):
            if game.is_over:
                break
            side = game.waiting_for()[0]
            legal = game.legal_actions(side)
            sample += [legal[i] for i in range(0, len(legal), max(1, len(legal) // 3))]
            game.apply(bots[side].choose(game, side), side)
    return {name: tuple(actions) for name, actions in found.items()}


def _foreign(game: Game, rng: random.Random, n: int) -> list[Action]:
    """``n`` actions of other rulesets (the shared ``end`` and ``pass`` may be legal)."""
    pool = [
        action
        for name, actions in _actions_by_ruleset().items()
        if name != game.ruleset.info.name
        for action in actions
    ]
    return rng.sample(pool, min(n, len(pool)))


NAN = math.nan
ODD_STRINGS = ["Qz9nothing", "", "x" * 5000, "\x1b[2J", "\udcff", "a b", "+", ","]
ODD_FLOATS = [NAN, math.inf, -math.inf, -0.0, 1e308, -1e308, 5e-324, -720.0, 359.99999999999994]
ODD_HEXES = [Hex(-3, -3), Hex(-1, 0), Hex(0, -1), Hex(10**30, -(10**30))]
"""Hexes no label names (left of column 1 or above row 1). Hexes with a label but off
the map are the separate test at the end."""


def _odd_values(value: object) -> list[object]:
    """Values for a field that no text form of the action can give."""
    if isinstance(value, Hex):
        return list(ODD_HEXES)
    if isinstance(value, str):
        return [*ODD_STRINGS, value.lower() + "\x00", value * 2]
    if isinstance(value, float) and not isinstance(value, bool):
        return list(ODD_FLOATS)
    if isinstance(value, tuple):
        odd: list[object] = [(), value * 70]
        if value and all(isinstance(v, str) for v in value):
            odd += [(*value, value[0]), (*value, "Qz9nothing"), ("",)]
        if value and all(isinstance(v, tuple) for v in value):  # points
            odd += [((x, x),) for x in ODD_FLOATS]
        return odd
    return []


def _built_in_code(action: Action, rng: random.Random, n: int) -> Iterator[Action | WarbenchError]:
    """``action`` with a field replaced by an odd value (or the refusal to build it)."""
    if not dataclasses.is_dataclass(action):
        return
    variants = [
        (f.name, odd)
        for f in dataclasses.fields(action)
        for odd in _odd_values(getattr(action, f.name))
    ]
    for name, odd in rng.sample(variants, min(n, len(variants))):
        try:
            yield dataclasses.replace(action, **{name: odd})
        except WarbenchError as exc:  # refusing to build such an action is fine
            yield exc


def _try_built(game: Game, action: Action | WarbenchError, side: str) -> None:
    """An action built in code: refused cleanly, or legal and its text gives it back."""
    if isinstance(action, WarbenchError):
        _check_message(str(action), "an action built in code")
        return
    if game.refusal(action, side) is None:
        assert game.parse(str(action)) == action, f"{action!r:.200} is legal, its text is not"
    _try_action(game, action, side)


def _fuzz_step(game: Game, earlier: list[tuple[str, Action]], rng: random.Random) -> None:
    side = game.waiting_for()[0]
    for text in _junk(game, side, rng):
        action = _try_text(game, text, side)
        if action is not None:
            _try_action(game, action, side)
    for action in _foreign(game, rng, 3):
        _try_action(game, action, side)
    legal = game.legal_actions(side)
    for i in rng.sample(range(len(legal)), min(2, len(legal))):
        for built in _built_in_code(legal[i], rng, 4):
            _try_built(game, built, side)
    others = [s for s in game.scenario.sides if s not in game.waiting_for()]
    for other in others:  # a legal action of the asked side, tried by another
        legal = game.legal_actions(side)
        action = legal[rng.randrange(len(legal))]
        assert game.refusal(action, other) is not None
        _refused(game, action, other)
    for who, action in rng.sample(earlier, min(4, len(earlier))):
        _try_action(game, action, who if who in game.waiting_for() else side)
        if who not in game.waiting_for():
            assert game.refusal(action, who) is not None
            _refused(game, action, who)


@pytest.mark.parametrize(("scenario_id", "seed"), _scenario_params())
def test_junk_is_refused_cleanly_and_changes_nothing(scenario_id: str, seed: int) -> None:
    scenario = load_scenario(scenario_id)
    game = Game(scenario, seed)
    bots = {side: make_bot("random", seed * 100 + i) for i, side in enumerate(scenario.sides)}
    rng = random.Random(f"fuzz {scenario_id} {seed}")
    earlier: list[tuple[str, Action]] = []
    for step in range(MAX_STEPS):
        if game.is_over:
            break
        if step < EVERY_STEP_UNTIL or step % FUZZ_EVERY == 0:
            _fuzz_step(game, earlier, rng)
        side = game.waiting_for()[0]
        action = bots[side].choose(game, side)
        game.apply(action, side)
        earlier.append((side, action))
    assert game.is_over
    # Over: everything is refused, by everyone.
    for side in scenario.sides:
        for text in rng.sample(JUNK, 4):
            _refused(game, text, side)
        for _, action in rng.sample(earlier, min(4, len(earlier))):
            assert game.refusal(action, side) is not None
            _refused(game, action, side)


HEX_RULESETS = [r.info.name for r in registry.all_rulesets() if r.info.geometry == "hex"]


def _hex_move_text(game: Game) -> tuple[str, str] | None:
    """A side and a legal action text that ends with a hex label, if any."""
    for _ in range(200):
        if game.is_over:
            return None
        side = game.waiting_for()[0]
        legal = game.legal_actions(side)
        for action in legal:
            words = str(action).split()
            if len(words) > 2 and words[-1].isdigit():
                return side, str(action)
        game.apply(legal[-1], side)
    return None


@pytest.mark.parametrize("name", HEX_RULESETS)
@pytest.mark.parametrize("digits", [HEX_LABEL_DIGITS, HEX_LABEL_DIGITS + 2, 100_000])
def test_an_absurdly_long_hex_label_is_refused_cleanly(name: str, digits: int) -> None:
    scenario = next(s for s in SCENARIOS if registry.get(s.split("/")[0]).info.name == name)
    game = Game(load_scenario(scenario), 0)
    found = _hex_move_text(game)
    assert found is not None, f"{scenario}: no action with a hex label"
    side, text = found
    words = text.split()
    junk = " ".join([*words[:-1], "1" * digits])
    _try_text(game, junk, side)


def _move_to_off_map_hex(game: Game) -> tuple[str, Action] | None:
    """A legal action with a hex field, of the side asked, found by playing on."""
    for _ in range(300):
        if game.is_over:
            return None
        side = game.waiting_for()[0]
        legal = game.legal_actions(side)
        for action in legal:
            if dataclasses.is_dataclass(action) and any(
                isinstance(getattr(action, f.name), Hex) for f in dataclasses.fields(action)
            ):
                return side, action
        game.apply(legal[-1], side)
    return None


def _off_map_params() -> list[Any]:
    params = []
    for sid in SCENARIOS:
        ruleset = registry.get(sid.split("/")[0])
        if ruleset.info.geometry != "hex":
            continue
        params.append(pytest.param(sid, id=sid))
    return params


@pytest.mark.parametrize("scenario_id", _off_map_params())
def test_an_action_built_in_code_naming_a_hex_off_the_map_is_refused(scenario_id: str) -> None:
    """The parser only gives hexes on the map; code may build any hex with a label."""
    game = Game(load_scenario(scenario_id), 0)
    found = _move_to_off_map_hex(game)
    assert found is not None, f"{scenario_id}: no action names a hex"
    side, action = found
    assert dataclasses.is_dataclass(action)
    name = next(
        f.name for f in dataclasses.fields(action) if isinstance(getattr(action, f.name), Hex)
    )
    for far in (Hex(999, 999), Hex(0, 500), Hex(10**30, 0)):
        off = dataclasses.replace(action, **{name: far})
        assert game.refusal(off, side) is not None
        _refused(game, off, side)
