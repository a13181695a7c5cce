"""The numbered rulings of each ruleset and the scenario options that select them.

Each ruleset's ``data/rulings.toml`` holds, one line each, the numbered rulings
of its trace (``docs/rules/<name>.md``, section "Rulings" or "Contradictions and
silences"): the ruling's title as the trace prints it, a short paraphrase of
what was chosen, and the option that selects another reading where there is
one. Its ``[options]`` tables say what each value of each scenario option means.

Refusals caused by a ruling name it from here (:func:`cite`), so a player
learns which house rule stopped them and how a scenario could change it, and
``rules`` at the prompt lists the options and rulings in force
(:func:`rules_in_force`). The ruling numbers and option names live in the data
file alone, never written again in code.

>>> cite("warbench.rulesets.miniwars", "fired_units", allow="free")
'ruling 7, option `fired_units` (set it to `free` to allow)'
>>> cite_ruling("warbench.rulesets.miniwars", 21)
'ruling 21'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from pydantic import Field, field_validator, model_validator

from warbench.rulesets.kit.datafiles import DataModel, load_model

FILE = "rulings.toml"


class RulingSpec(DataModel):
    """One numbered ruling: its title in the trace, what was chosen, its options."""

    title: str = Field(min_length=1)
    says: str = Field(min_length=1)
    options: tuple[str, ...] = ()


class OptionSpec(DataModel):
    """A scenario option: where it comes from, and what each value means.

    ``means`` is keyed by the value as text (``true``, ``6``, ``unset``); ``*``
    covers any other value, with ``{value}`` standing for it.
    """

    source: str = ""
    """Where the option comes from when no ruling selects it (an optional rule of the text)."""
    means: dict[str, str] = Field(min_length=1)


class RulingsFile(DataModel):
    """A ruleset's ``data/rulings.toml``."""

    rulings: dict[int, RulingSpec] = Field(default_factory=dict)
    options: dict[str, OptionSpec] = Field(default_factory=dict)

    @field_validator("rulings")
    @classmethod
    def _numbered_from_one(cls, value: dict[int, RulingSpec]) -> dict[int, RulingSpec]:
        if value and sorted(value) != list(range(1, len(value) + 1)):
            raise ValueError("rulings must be numbered 1, 2, ... without gaps, as the trace")
        return value

    @model_validator(mode="after")
    def _options_known_and_sourced(self) -> RulingsFile:
        selected: set[str] = set()
        for number, ruling in self.rulings.items():
            for name in ruling.options:
                if name not in self.options:
                    raise ValueError(f"ruling {number} names option {name!r}, not in [options]")
                selected.add(name)
        for name, option in self.options.items():
            if name not in selected and not option.source.strip():
                raise ValueError(f"option {name!r}: no ruling selects it, so it needs a source")
        return self


@cache
def rulings(package: str) -> RulingsFile:
    """The rulings file of the ruleset (or game world) package ``package``."""
    return load_model(package, FILE, RulingsFile)


def ruling_of(package: str, option: str) -> int | None:
    """The number of the ruling that ``option`` selects a reading of, if any."""
    data = rulings(package)
    if option not in data.options:
        raise KeyError(f"{package} {FILE}: no option {option!r}")
    for number, ruling in sorted(data.rulings.items()):
        if option in ruling.options:
            return number
    return None


def cite_ruling(package: str, number: int) -> str:
    """``ruling N``, for a refusal caused by a ruling that no option changes."""
    if number not in rulings(package).rulings:
        raise KeyError(f"{package} {FILE}: no ruling {number}")
    return f"ruling {number}"


def offers(package: str, option: str) -> bool:
    """Whether the package's scenarios may set ``option`` (the bare CGME core, say, has
    no attacks during movement: the rule is fixed there)."""
    return option in rulings(package).options


def cite(package: str, option: str, allow: str | None = None) -> str:
    """``ruling 7, option `fired_units` (set it to `free` to allow)``.

    For a refusal caused by the reading an option selects: the ruling (or, for
    an optional rule of the text, its source) and the option, and when
    ``allow`` is given the value under which the refused action is allowed.
    """
    data = rulings(package)
    number = ruling_of(package, option)
    head = f"ruling {number}, " if number is not None else ""
    notes = [] if number is not None else [data.options[option].source]
    if allow is not None:
        notes.append(f"set it to `{allow}` to allow")
    tail = f" ({'; '.join(notes)})" if notes else ""
    return f"{head}option `{option}`{tail}"


def value_text(value: Any) -> str:
    """An option's value as a scenario file writes it (``true``, ``6``, ``free``)."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def meaning(package: str, option: str, value: Any) -> str:
    """What ``value`` of ``option`` means, in words."""
    spec = rulings(package).options[option]
    key = value_text(value)
    if key in spec.means:
        return spec.means[key]
    if "*" in spec.means:
        return spec.means["*"].format(value=key)
    raise KeyError(f"{package} {FILE}: option {option!r} has no meaning for {key!r}")


def rules_in_force(
    package: str, options: Mapping[str, Any], defaults: Mapping[str, Any]
) -> list[str]:
    """The options in force and the rulings, one line each (``rules`` at the prompt).

    ``options`` are the scenario's values, ``defaults`` the values of a
    scenario that sets none; an option the data does not describe is a bug.
    """
    data = rulings(package)
    lines: list[str] = []
    for name in sorted(defaults):
        value = options.get(name, defaults[name])
        number = ruling_of(package, name)
        where = f"ruling {number}" if number is not None else data.options[name].source
        default = "default" if value == defaults[name] else f"default {value_text(defaults[name])}"
        lines.append(
            f"option {name} = {value_text(value)} ({default}; {where}): "
            f"{meaning(package, name, value)}"
        )
    for number, ruling in sorted(data.rulings.items()):
        chosen = ", ".join(f"option {o}" for o in ruling.options)
        tail = f" [{chosen}]" if chosen else ""
        lines.append(f"ruling {number}, {ruling.title}: {ruling.says}{tail}")
    return lines


def option_choices(
    package: str, options: Mapping[str, Any], defaults: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Each scenario option as a lobby or ``--option`` offers it: its key, the value in
    force and the default (as text), the values it takes with what each means, and
    whether another value may be written (``open``: a number, say)."""
    data = rulings(package)
    out = []
    for name in sorted(defaults):
        spec = data.options[name]
        number = ruling_of(package, name)
        out.append(
            {
                "key": name,
                "value": value_text(options.get(name, defaults[name])),
                "default": value_text(defaults[name]),
                "choices": {k: v for k, v in spec.means.items() if k != "*"},
                "open": "*" in spec.means,
                "source": f"ruling {number}" if number is not None else spec.source,
            }
        )
    return out


__all__ = [
    "OptionSpec",
    "RulingSpec",
    "RulingsFile",
    "cite",
    "cite_ruling",
    "meaning",
    "option_choices",
    "rules_in_force",
    "ruling_of",
    "rulings",
    "value_text",
]
