"""``field_copier``: a shallow copy of a dataclass instance through its constructor."""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field

import pytest

from warbench.core.copying import field_copier


@dataclass(slots=True)
class Piece:
    name: str
    hits: int = 0
    marks: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Flagged:
    name: str
    _: KW_ONLY
    gone: bool = False


@dataclass(slots=True)
class Tagged(Flagged):
    tag: str
    marks: list[str] = field(default_factory=list)


@dataclass(kw_only=True)
class Named:
    value: int


@dataclass
class One:
    value: int


@dataclass
class Hidden:
    value: int
    derived: int = field(init=False, default=0)


def test_a_copy_is_a_new_instance_with_the_same_field_objects() -> None:
    piece = Piece("B1", 2, ["a"])
    copied = field_copier(Piece)(piece)
    assert copied == piece and copied is not piece
    assert copied.marks is piece.marks  # shallow: the caller copies what it changes
    copied.hits = 5
    assert piece.hits == 2


def test_one_field_and_refusals() -> None:
    assert field_copier(One)(One(3)) == One(3)
    with pytest.raises(TypeError, match="constructor does not take"):
        field_copier(Hidden)


def test_keyword_only_fields_are_copied_by_name() -> None:
    tagged = Tagged("B1", "x", ["a"], gone=True)
    copied = field_copier(Tagged)(tagged)
    assert copied == tagged and copied is not tagged and copied.marks is tagged.marks
    assert field_copier(Named)(Named(value=4)) == Named(value=4)
