"""Every test a rules trace (``docs/rules/*.md``) or the architecture page cites exists.

A name ending in ``_*`` cites every test with that prefix: at least one must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted([*ROOT.glob("docs/rules/*.md"), ROOT / "docs" / "architecture.md"])
PLACEHOLDERS = {"test_name"}
"""Names the docs use to show the pattern, not to cite a test."""


def _defined() -> set[str]:
    names: set[str] = set()
    for path in ROOT.glob("tests/**/*.py"):
        names.update(re.findall(r"^def (test_\w+)", path.read_text("utf-8"), re.M))
    return names


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_test_a_trace_cites_exists(doc: Path) -> None:
    defined = _defined()
    cited = set(re.findall(r"\b(test_\w+\*?)", doc.read_text("utf-8"))) - PLACEHOLDERS
    missing = []
    for name in sorted(cited):
        if name.endswith("_*") or name.endswith("*"):
            prefix = name.rstrip("*")
            if not any(n.startswith(prefix) for n in defined):
                missing.append(name)
        elif name not in defined and not any((ROOT / "tests").rglob(f"{name}.py")):
            missing.append(name)
    assert not missing, f"{doc.name} cites tests that do not exist: {missing}"
