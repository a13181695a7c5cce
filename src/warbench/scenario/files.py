"""Reading scenario files: the text, then its TOML, with errors that name the file.

Nothing here knows any ruleset; :mod:`warbench.core.loader` hands the parsed
table to the ruleset the file names. A file larger than :data:`MAX_FILE_BYTES`
is refused before it is read, and TOML nested too deeply for the parser is
refused with a message instead of a ``RecursionError``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Final

from warbench.errors import ScenarioError

MAX_FILE_BYTES: Final = 1024 * 1024
"""The largest scenario file read (1 MiB): hundreds of times the size of any real one."""


def _too_large(size: int) -> str:
    return (
        f"the file is {size:,} bytes; scenario files are limited to "
        f"{MAX_FILE_BYTES:,} bytes (1 MiB)"
    )


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error names the file, line and column.

    >>> parse_toml("a = " + "[" * 5000 + "]" * 5000, "deep.toml")
    Traceback (most recent call last):
    ...
    warbench.errors.ScenarioError: deep.toml: the TOML is nested too deeply (lists or tables \
inside each other)
    """
    if len(text) > MAX_FILE_BYTES:
        raise ScenarioError(source, "", _too_large(len(text.encode("utf-8", "replace"))))
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, "", f"bad TOML syntax: {exc}") from None
    except ValueError:  # tomllib reading a number of thousands of digits
        raise ScenarioError(source, "", "the TOML has a number too long to read") from None
    except (RecursionError, MemoryError):
        raise ScenarioError(
            source, "", "the TOML is nested too deeply (lists or tables inside each other)"
        ) from None


def read_scenario_file(path: Path, source: str) -> dict[str, Any]:
    """Read and parse the scenario file at ``path`` (named ``source`` in errors)."""
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                stream.seek(0, 2)
                raise ScenarioError(source, "", _too_large(max(stream.tell(), len(data))))
        # As read_text would: universal newlines; a byte-order mark is not part of the TOML.
        text = data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(source, "", f"cannot read the file: {exc}") from None
    return parse_toml(text, source)
