"""A ruleset's data files: TOML in its package's ``data/`` folder, validated by pydantic.

Numbers live in data, never in code; a stand-in table (a chart the text is
missing) says so and why. Every ruleset reads its files the same way:

>>> from pydantic import BaseModel
>>> class Probe(BaseModel):
...     speed: float
>>> load_model("warbench.rulesets.mgv", "vehicles.toml", Probe)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
RuntimeError: warbench.rulesets.mgv data/vehicles.toml: ...
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from functools import cache, partial
from importlib import resources
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

M = TypeVar("M", bound=BaseModel)


class DataModel(BaseModel):
    """Base of data-file models: no unknown key (a misspelt one is an error), frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class StandIn(DataModel):
    """A table that may stand in for a missing chart: a stand-in must say why."""

    stand_in: bool
    reason: str = ""

    @model_validator(mode="after")
    def _stand_in_says_why(self) -> StandIn:
        if self.stand_in and not self.reason.strip():
            raise ValueError("a stand-in needs a reason")
        return self


def load_model(package: str, name: str, model: type[M]) -> M:
    """``data/name`` of ``package`` validated as ``model``.

    A file that does not validate is a bug in the package (RuntimeError naming it).
    """
    text = resources.files(package).joinpath("data", name).read_text("utf-8")
    try:
        return model.model_validate(tomllib.loads(text))
    except ValidationError as exc:
        raise RuntimeError(f"{package} data/{name}: {exc}") from None


def data_file(package: str, name: str, model: type[M]) -> Callable[[], M]:
    """A function giving :func:`load_model` of ``data/name``, loaded on the first call
    and kept."""
    return cache(partial(load_model, package, name, model))


__all__ = ["DataModel", "StandIn", "data_file", "load_model"]
