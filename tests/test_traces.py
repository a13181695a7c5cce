"""Every test a rules trace (``docs/rules/*.md``) or the architecture page cites exists.

Two checks. Every ``test_...`` name a page mentions is defined somewhere under
``tests/`` (or names a test file). And every citation with a file,
``test_combat.py::test_name`` or ``::test_name`` (the file of the citation
before it), names a test defined in that file: for ``docs/rules/<system>.md``
a bare file name is looked up in ``tests/rulesets/<system>/`` first, then
anywhere under ``tests/`` whose path ends with it. A name ending in ``_*``
cites every test with that prefix: at least one must exist.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
DOCS = sorted([*ROOT.glob("docs/rules/*.md"), ROOT / "docs" / "architecture.md"])
PLACEHOLDERS = {"test_name"}
"""Names the docs use to show the pattern, not to cite a test."""
DEFINITION = re.compile(r"^\s*(?:async\s+)?def (test_\w+)", re.M)
"""A test function, at module level or a method of a test class."""
CITATION = re.compile(r"(?:([\w./-]+\.py))?::(test_\w+\*?)")


@cache
def _by_file() -> dict[Path, frozenset[str]]:
    return {
        path: frozenset(DEFINITION.findall(path.read_text("utf-8"))) for path in TESTS.rglob("*.py")
    }


def _defined() -> set[str]:
    return set().union(*_by_file().values())


def _found(name: str, names: frozenset[str] | set[str]) -> bool:
    if name.endswith("*"):
        prefix = name.rstrip("*")
        return any(n.startswith(prefix) for n in names)
    return name in names


def _files(doc: Path, cited: str) -> list[Path]:
    """The test files a citation's file may mean (see the module docstring)."""
    rel = cited.removeprefix("tests/")
    own = TESTS / "rulesets" / doc.stem / rel
    if own.exists():
        return [own]
    return [p for p in _by_file() if p.relative_to(TESTS).as_posix().endswith(rel)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_test_a_trace_cites_exists(doc: Path) -> None:
    defined = _defined()
    cited = set(re.findall(r"\b(test_\w+\*?)", doc.read_text("utf-8"))) - PLACEHOLDERS
    missing = []
    for name in sorted(cited):
        if not _found(name, defined) and not any(TESTS.rglob(f"{name}.py")):
            missing.append(name)
    assert not missing, f"{doc.name} cites tests that do not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_test_a_trace_cites_is_in_the_file_it_names(doc: Path) -> None:
    last: str | None = None
    wrong = []
    for match in CITATION.finditer(doc.read_text("utf-8")):
        cited, name = match.group(1), match.group(2)
        if cited is not None:
            last = cited
        if name in PLACEHOLDERS or last is None:
            continue
        files = _files(doc, last)
        if not any(_found(name, _by_file()[f]) for f in files):
            wrong.append(f"{last}::{name}")
    assert not wrong, f"{doc.name} cites tests that are not in the file named: {wrong}"


def test_the_check_sees_a_test_cited_from_the_wrong_file() -> None:
    """The file-aware check: a test that exists, but not in the file cited, is reported
    (the V.E.G. trace cites tests/rulesets/veg/test_movement.py's tests this way)."""
    veg = ROOT / "docs" / "rules" / "veg.md"
    assert _files(veg, "test_movement.py") == [TESTS / "rulesets" / "veg" / "test_movement.py"]
    assert _found(
        "test_stack_members_each_pay_their_own_mp", _by_file()[_files(veg, "test_movement.py")[0]]
    )
    assert not _found(
        "test_stack_members_each_pay_their_own_mp",
        _by_file()[_files(veg, "test_combat.py")[0]],
    )
    assert _found("test_every_test_a_trace_cites_*", _defined())
    assert not _found("test_no_such_test_*", _defined())
