"""Exact odds of one attack, as pure functions of a situation described by keys.

A ruleset publishes a table of :class:`OddsQuery` objects (one per kind of
attack); the ``odds`` command, the greedy bot and the interfaces all read the
same functions, so what a player is shown is what the rules compute.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from warbench.errors import OddsError, excerpt

KeyKind = Literal["int", "bool", "choice"]
MAX_DIGITS = 9
"""A whole-number key takes at most this many digits (no attack needs more)."""


@dataclass(frozen=True, slots=True)
class OddsKey:
    """One input of an odds query: its name, type, default and help text."""

    name: str
    kind: KeyKind
    default: Any
    help: str
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> Any:
        if self.kind == "int":
            text = text.strip()
            digits = text[1:] if text[:1] in "+-" else text
            if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
                raise OddsError(
                    f"key '{self.name}' wants a whole number, got '{excerpt(text)}'"
                ) from None
            return int(text)
        if self.kind == "bool":
            lowered = text.lower()
            if lowered in ("true", "yes", "1"):
                return True
            if lowered in ("false", "no", "0"):
                return False
            raise OddsError(f"key '{self.name}' wants true or false, got '{excerpt(text)}'")
        if text not in self.choices:
            raise OddsError(
                f"key '{self.name}' wants one of {', '.join(self.choices)}, got '{excerpt(text)}'"
            )
        return text

    def describe(self) -> str:
        kind = "|".join(self.choices) if self.kind == "choice" else self.kind
        return f"{self.name}=<{kind}> (default {self.default}): {self.help}"


@dataclass(frozen=True, slots=True)
class OddsResult:
    """Mutually exclusive outcomes with exact probabilities, plus side effects.

    ``outcomes`` sums to 1. ``extra`` holds probabilities of things that may
    happen alongside any outcome (MiniWars: the attacker disrupted by doubles).
    """

    outcomes: Mapping[str, Fraction]
    extra: Mapping[str, Fraction] = field(default_factory=dict)

    def __post_init__(self) -> None:
        total = sum(self.outcomes.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"outcome probabilities sum to {total}, not 1")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "outcomes": {k: float(v) for k, v in self.outcomes.items()},
            "exact": {k: str(v) for k, v in self.outcomes.items()},
        }
        for name, value in self.extra.items():
            out[name] = float(value)
            out["exact"][name] = str(value)
        return out


JOINT_OUTCOMES = 64
"""Independent rolls are given as every combination of their outcomes up to this many
combinations; beyond it, as the distribution of their total (a fire of six attacks had
thousands of combinations: a table nobody reads, seconds to work out exactly)."""


def combined(
    parts: Sequence[tuple[str, Mapping[int, Fraction]]], name: Callable[[int], str]
) -> dict[str, Fraction]:
    """The outcomes of independent rolls (``parts``: each roll's name and chances of each
    count, e.g. hits), exactly: every combination (``A: 1 hit; B: 0 hits``) while there
    are at most :data:`JOINT_OUTCOMES`, else the total (``3 hits in all``). ``name``
    words a count (``1 hit``)."""
    live = [(part, {k: p for k, p in sorted(dist.items()) if p}) for part, dist in parts]
    size = 1
    for _, dist in live:
        size *= len(dist)
    if size <= JOINT_OUTCOMES:
        joint: dict[str, Fraction] = {"": Fraction(1)}
        for part, dist in live:
            named = {f"{part}: {name(k)}": p for k, p in dist.items()}
            joint = {
                (f"{key}; " if key else "") + one: p * q
                for key, p in joint.items()
                for one, q in named.items()
            }
        return joint
    total: dict[int, Fraction] = {0: Fraction(1)}
    for _, dist in live:
        summed: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in dist.items():
                summed[a + b] = summed.get(a + b, Fraction(0)) + p * q
        total = summed
    return {f"{name(k)} in all": p for k, p in sorted(total.items())}


def odds_table(result: OddsResult, first: str = "the attack") -> dict[str, Any] | None:
    """The odds as a small table for a board to show: a column per outcome, a row for the
    attack itself (``first``), then a row for each group of side effects that has every
    outcome (``spillover on U2 destroy``, ``... wound``, ``... none``: a row ``spillover on
    U2``); other side effects as notes. Percentages to one decimal. None for a single
    outcome (nothing to tabulate)."""
    names = list(result.outcomes)
    if len(names) < 2:
        return None

    def pct(p: Fraction) -> str:
        return f"{float(p) * 100:.1f}%"

    groups: dict[str, dict[str, Fraction]] = {}
    notes: list[str] = []
    for key, value in result.extra.items():
        name = next((n for n in names if key.endswith(f" {n}")), None)
        if name is None:
            notes.append(f"{key.replace('_', ' ')}: {pct(value)}")
            continue
        groups.setdefault(key[: -len(name) - 1], {})[name] = value
    rows = [[first, *(pct(result.outcomes[n]) for n in names)]]
    for label, group in groups.items():
        if set(group) == set(names):
            rows.append([label, *(pct(group[n]) for n in names)])
        else:
            notes.extend(f"{label} {n}: {pct(p)}" for n, p in group.items())
    return {"columns": ["", *names], "rows": rows, "notes": notes}


@dataclass(frozen=True, slots=True)
class OddsQuery:
    """One kind of attack whose odds can be asked: name, keys, and the function."""

    name: str
    help: str
    keys: tuple[OddsKey, ...]
    compute: Callable[[Mapping[str, Any]], OddsResult]
    settle: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    """The situation the values describe, as a header shows it (values the rules fix,
    such as a fungus tower's defence, filled in); None: the values as given."""

    def situation(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``values`` as the header of a result shows them (:attr:`settle`)."""
        return dict(values) if self.settle is None else self.settle(values)

    def parse_args(self, pairs: Sequence[str]) -> dict[str, Any]:
        """Turn ``key=value`` strings into typed values, filling in defaults."""
        by_name = {key.name: key for key in self.keys}
        values = {key.name: key.default for key in self.keys}
        given: set[str] = set()
        for pair in pairs:
            name, sep, text = pair.partition("=")
            if not sep:
                raise OddsError(f"'{excerpt(pair)}' is not key=value")
            if name not in by_name:
                raise OddsError(
                    f"unknown key '{excerpt(name)}' for {self.name}; keys: {', '.join(by_name)}"
                )
            if name in given:
                raise OddsError(f"key '{name}' is given twice")
            given.add(name)
            values[name] = by_name[name].parse(text)
        return values

    def __call__(self, pairs: Sequence[str]) -> OddsResult:
        return self.compute(self.parse_args(pairs))
