"""The error tree: one root, a few specific kinds, messages that name the culprit (STYLE 7)."""

from __future__ import annotations

import pickle

import pytest

from warbench import errors
from warbench.core.dice import DiceExhausted
from warbench.errors import (
    ActionSyntaxError,
    IllegalAction,
    MoveRefused,
    NotYourDecision,
    OddsError,
    RecordError,
    ScenarioError,
    UndoError,
    UnknownRuleset,
    UnknownScenario,
    WarbenchError,
)


def test_every_error_class_of_warbench_derives_from_the_one_root() -> None:
    classes = [
        obj
        for obj in vars(errors).values()
        if isinstance(obj, type)
        and issubclass(obj, Exception)
        and obj.__module__ == errors.__name__
    ]
    assert len(classes) >= 10
    assert all(issubclass(cls, WarbenchError) for cls in classes)
    assert issubclass(DiceExhausted, WarbenchError)


@pytest.mark.parametrize(
    ("cls", "builtin"),
    [
        (UnknownRuleset, LookupError),
        (UnknownScenario, LookupError),
        (ScenarioError, ValueError),
        (IllegalAction, ValueError),
        (RecordError, ValueError),
        (OddsError, ValueError),
    ],
)
def test_errors_are_also_the_builtin_kind_they_resemble(cls: type, builtin: type) -> None:
    assert issubclass(cls, builtin)


def test_syntax_errors_and_wrong_side_errors_are_illegal_actions() -> None:
    assert issubclass(ActionSyntaxError, IllegalAction)
    assert issubclass(NotYourDecision, IllegalAction)
    assert not issubclass(UndoError, IllegalAction)


def test_an_illegal_action_carries_the_action_and_the_reason() -> None:
    err = NotYourDecision("move G1 0505", "horde is not asked to decide now")
    assert err.action == "move G1 0505"
    assert err.reason == "horde is not asked to decide now"
    assert str(err) == "illegal action 'move G1 0505': horde is not asked to decide now"


def test_a_scenario_error_names_the_file_the_field_and_the_problem() -> None:
    err = ScenarioError("a.toml", "forces.horde[2].type", "unknown unit type 'orc'")
    assert (err.file, err.path, err.problem) == (
        "a.toml",
        "forces.horde[2].type",
        "unknown unit type 'orc'",
    )
    assert str(err) == "a.toml: forces.horde[2].type: unknown unit type 'orc'"


def test_a_scenario_error_without_a_field_names_the_file_only() -> None:
    assert str(ScenarioError("a.toml", "", "bad TOML")) == "a.toml: bad TOML"


def test_one_except_clause_catches_every_deliberate_error() -> None:
    raised = [
        UnknownRuleset("x"),
        UnknownScenario("x"),
        ScenarioError("f", "p", "x"),
        IllegalAction("a", "x"),
        ActionSyntaxError("a", "x"),
        NotYourDecision("a", "x"),
        UndoError("x"),
        RecordError("x"),
        OddsError("x"),
        DiceExhausted("x"),
    ]
    for err in raised:
        with pytest.raises(WarbenchError):
            raise err


def test_a_refusal_given_as_a_function_is_told_once_when_read():
    """Issue 28: a bot listing moves makes many refusals and reads none; the message and
    the reason are written when first read, the same as if given at once."""
    asked: list[int] = []

    def why() -> str:
        asked.append(1)
        return "too far"

    lazy = MoveRefused("move B1 9,9", why, "allowance")
    assert not asked and lazy.kind == "allowance"
    plain = MoveRefused("move B1 9,9", "too far", "allowance")
    assert str(lazy) == str(plain) == "illegal action 'move B1 9,9': too far"
    assert lazy.reason == "too far" and lazy.args == plain.args and repr(lazy) == repr(plain)
    assert len(asked) == 1
    again = pickle.loads(pickle.dumps(MoveRefused("move B1 9,9", why, "allowance")))
    assert str(again) == str(plain) and again.kind == "allowance"
