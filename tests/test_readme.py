"""The README's Python example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_python_example_runs(capsys: object) -> None:
    text = README.read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "the README has a Python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    assert namespace["record"]["actions"][0]["action"] in ("choose A", "choose B")  # type: ignore[index]
    assert namespace["events"], "applying an action produced events"


def test_readme_names_the_two_commands_first() -> None:
    text = README.read_text("utf-8")
    assert text.index("make run") < text.index("warbench rulesets")
    assert "make test" in text
