"""Which colour each side is drawn in, and the colours of markers, shared by every renderer.

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
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MarkerColour:
    """How a marker of one colour is drawn: a peg in pictures, a letter in terminal maps."""

    fill: str
    """The SVG fill of the peg."""
    outline: str
    """The SVG stroke round it (dark on light pegs, so a white peg shows on a light table)."""
    letter: str
    """The letter the terminal map writes after a figure's id (K for black, B for blue)."""
    style: str
    """The rich style of that letter."""


MARKER_COLOURS: Mapping[str, MarkerColour] = {
    "white": MarkerColour("#ffffff", "#222222", "W", "bold black on white"),
    "yellow": MarkerColour("#ffd21f", "#5c4a00", "Y", "bold black on yellow"),
    "red": MarkerColour("#e0201b", "#4a0a08", "R", "bold white on red"),
    "black": MarkerColour("#151515", "#000000", "K", "bold white on black"),
    "blue": MarkerColour("#1e63d6", "#0b254f", "B", "bold white on blue"),
    "green": MarkerColour("#2e9e44", "#0f3a18", "G", "bold white on green"),
    "orange": MarkerColour("#f57c00", "#5a2d00", "O", "bold black on dark_orange"),
    "purple": MarkerColour("#8e44ad", "#32163e", "P", "bold white on purple"),
}
"""The marker colours a view may name (``markers`` of a table figure), as tabletop players
paint pegs and dart tips: each with its peg colours and its terminal letter."""


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
