"""Fast shallow copies of dataclass instances, for the rulesets' ``copy_state``.

``copy.copy`` of a dataclass goes through ``__reduce_ex__`` and ``setattr`` per
field, several times the cost of calling the constructor with the fields read
at once; a search bot copies states thousands of times a second (issue 13).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import Field, fields
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


def field_copier(cls: type[T]) -> Callable[[T], T]:
    """A function making a shallow copy of a ``cls`` instance: a new instance whose
    fields are the same objects (copy what is mutable inside it yourself).

    Every field of ``cls`` must be an ``init`` field, taken in order or, where it is
    keyword-only, by name; a class with a ``__post_init__`` gets it run again, as a
    constructor call does."""
    found = fields(cls)  # type: ignore[arg-type]
    if any(not f.init for f in found):
        raise TypeError(f"{cls.__name__} has fields its constructor does not take")
    if any(f.kw_only for f in found):
        return _by_name(cls, found)
    names = [f.name for f in found]
    if len(names) == 1:
        (name,) = names

        def one(obj: T) -> T:
            return cls(getattr(obj, name))  # type: ignore[call-arg]

        return one
    get: Any = attrgetter(*names)

    def copy(obj: T) -> T:
        return cls(*get(obj))

    return copy


def _by_name(cls: type[T], found: tuple[Field[Any], ...]) -> Callable[[T], T]:
    """The copier of a class with keyword-only fields: one constructor call written out,
    ``cls(obj.a, obj.b, c=obj.c)``, as ``dataclasses`` writes ``__init__`` (a dict of the
    keywords built for every copy would cost twice as much). Field names are
    identifiers, so the text is only attribute reads."""
    args = [f"obj.{f.name}" for f in found if not f.kw_only]
    args += [f"{f.name}=obj.{f.name}" for f in found if f.kw_only]
    scope: dict[str, Any] = {"cls": cls}
    exec(f"def copy(obj):\n    return cls({', '.join(args)})\n", scope)
    copy: Callable[[T], T] = scope["copy"]
    return copy
