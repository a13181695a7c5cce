"""Which colour each side is drawn in, shared by every renderer.

A side named after a colour ("red", "Blue Army") is drawn in that colour, so a
picture never shows the Reds in blue; the other sides take the remaining
colours of the palette in order.

>>> assign(["red", "blue"], {"blue": "B", "red": "R", "green": "G"})
{'red': 'R', 'blue': 'B'}
>>> assign(["danville", "horde"], {"blue": "B", "red": "R"})
{'danville': 'B', 'horde': 'R'}
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping


def assign(sides: Iterable[str], palette: Mapping[str, str]) -> dict[str, str]:
    """A colour value per side from ``palette`` (colour word -> value, in order of use)."""
    names = list(dict.fromkeys(sides))
    chosen: dict[str, str] = {}
    for side in names:
        words = re.findall(r"[a-z]+", side.lower())
        for word in words:
            if word in palette and palette[word] not in chosen.values():
                chosen[side] = palette[word]
                break
    spare = [value for value in palette.values() if value not in chosen.values()]
    values = list(palette.values())
    out: dict[str, str] = {}
    for i, side in enumerate(names):
        if side in chosen:
            out[side] = chosen[side]
        elif spare:
            out[side] = spare.pop(0)
        else:
            out[side] = values[i % len(values)]
    return out
