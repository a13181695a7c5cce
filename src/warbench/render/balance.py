"""The picture of a balance run: win rates with their intervals, and the standing by turn.

Two panels side by side. Left: a bar per side (and per bot when the bots
differ) and one for draws, each with its Wilson 95% interval as a whisker
and a dashed line at the even share (1 / number of sides). Right: each
side's mean standing at the end of every turn (``Ruleset.standing``: what it
still has on the board plus its points), one line per side, with how many
games got that far under the axis. Colours are the sides' own
(:mod:`.palette`), as in the maps.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from warbench.render.palette import assign
from warbench.render.svg import SIDE_COLOURS

if TYPE_CHECKING:
    from warbench.sim.balance import BalanceReport
    from warbench.sim.stats import Share

WIDTH, HEIGHT = 960, 420
PANEL_TOP, PANEL_H = 70, 260
LEFT_X, LEFT_W = 70, 360
RIGHT_X, RIGHT_W = 540, 380
DRAW_COLOUR = "#888888"
BOT_COLOUR = "#455a64"


def _text(
    x: float, y: float, text: str, size: int = 13, anchor: str = "middle", **extra: str
) -> str:
    more = "".join(f' {k.replace("_", "-")}="{escape(v)}"' for k, v in extra.items())
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" '
        f'font-family="sans-serif"{more}>{escape(text)}</text>'
    )


def _bars(report: BalanceReport, colours: dict[str, str]) -> list[str]:
    """The left panel: shares with whiskers."""
    rows: list[tuple[str, Share, str]] = [
        (side, s, colours[side]) for side, s in report.by_side.items()
    ]
    rows.append(("draws", report.draws, DRAW_COLOUR))
    rows += [(f"bot {bot}", s, BOT_COLOUR) for bot, s in report.by_bot.items()]
    out = [_text(LEFT_X + LEFT_W / 2, PANEL_TOP - 18, "wins, with 95% intervals", 14)]
    bottom = PANEL_TOP + PANEL_H
    out.append(
        f'<line x1="{LEFT_X}" y1="{bottom}" x2="{LEFT_X + LEFT_W}" y2="{bottom}" stroke="#333"/>'
    )
    for tick in (0, 25, 50, 75, 100):
        y = bottom - PANEL_H * tick / 100
        out.append(
            f'<line x1="{LEFT_X - 4}" y1="{y:.1f}" x2="{LEFT_X + LEFT_W}" y2="{y:.1f}" '
            'stroke="#ddd"/>'
        )
        out.append(_text(LEFT_X - 8, y + 4, f"{tick}%", 11, "end"))
    even = 1 / max(1, len(report.sides))
    y_even = bottom - PANEL_H * even
    out.append(
        f'<line x1="{LEFT_X}" y1="{y_even:.1f}" x2="{LEFT_X + LEFT_W}" y2="{y_even:.1f}" '
        'stroke="#333" stroke-dasharray="5,4"/>'
    )
    slot = LEFT_W / len(rows)
    for i, (name, s, colour) in enumerate(rows):
        x = LEFT_X + slot * i + slot * 0.2
        w = slot * 0.6
        h = PANEL_H * s.rate
        out.append(
            f'<rect x="{x:.1f}" y="{bottom - h:.1f}" width="{w:.1f}" height="{h:.1f}" '
            f'fill="{colour}" fill-opacity="0.8"/>'
        )
        cx = x + w / 2
        lo, hi = bottom - PANEL_H * s.low, bottom - PANEL_H * s.high
        out.append(
            f'<line x1="{cx:.1f}" y1="{lo:.1f}" x2="{cx:.1f}" y2="{hi:.1f}" stroke="#111" '
            'stroke-width="2"/>'
        )
        for y in (lo, hi):
            out.append(
                f'<line x1="{cx - 7:.1f}" y1="{y:.1f}" x2="{cx + 7:.1f}" y2="{y:.1f}" '
                'stroke="#111" stroke-width="2"/>'
            )
        out.append(_text(cx, hi - 6, f"{100 * s.rate:.1f}%", 12))
        out.append(_text(cx, bottom + 16, name, 12))
    return out


def _score(report: BalanceReport, colours: dict[str, str]) -> list[str]:
    """The right panel: the mean standing of each side by turn."""
    out = [
        _text(RIGHT_X + RIGHT_W / 2, PANEL_TOP - 18, "mean standing at the end of each turn", 14)
    ]
    turns = report.score_by_turn
    bottom = PANEL_TOP + PANEL_H
    top = max((v for t in turns for v in t.values()), default=0.0)
    if not turns or top <= 0:
        out.append(_text(RIGHT_X + RIGHT_W / 2, PANEL_TOP + PANEL_H / 2, "no standing to show"))
        return out
    out.append(
        f'<line x1="{RIGHT_X}" y1="{bottom}" x2="{RIGHT_X + RIGHT_W}" y2="{bottom}" stroke="#333"/>'
    )
    out.append(
        f'<line x1="{RIGHT_X}" y1="{PANEL_TOP}" x2="{RIGHT_X}" y2="{bottom}" stroke="#333"/>'
    )
    for frac in (0.0, 0.5, 1.0):
        y = bottom - PANEL_H * frac
        out.append(_text(RIGHT_X - 8, y + 4, f"{top * frac:.0f}", 11, "end"))
    step = RIGHT_W / max(1, len(turns) - 1) if len(turns) > 1 else 0.0

    def x_of(t: int) -> float:
        return RIGHT_X + (step * t if len(turns) > 1 else RIGHT_W / 2)

    every = max(1, len(turns) // 12)
    for t, n in enumerate(report.reached):
        if t % every == 0 or t == len(turns) - 1:
            out.append(_text(x_of(t), bottom + 16, str(t + 1), 11))
            out.append(_text(x_of(t), bottom + 30, f"{n}", 9, fill="#777"))
    out.append(_text(RIGHT_X + RIGHT_W / 2, bottom + 46, "turn (games that got there)", 11))
    for side in report.sides:
        points = " ".join(
            f"{x_of(t):.1f},{bottom - PANEL_H * m.get(side, 0.0) / top:.1f}"
            for t, m in enumerate(turns)
        )
        out.append(
            f'<polyline points="{points}" fill="none" stroke="{colours[side]}" stroke-width="2.5"/>'
        )
    for i, side in enumerate(report.sides):
        y = PANEL_TOP + 14 + 16 * i
        x = RIGHT_X + RIGHT_W - 120
        out.append(
            f'<line x1="{x}" y1="{y - 4}" x2="{x + 18}" y2="{y - 4}" stroke="{colours[side]}" '
            'stroke-width="3"/>'
        )
        out.append(_text(x + 24, y, side, 12, "start"))
    return out


def balance_svg(report: BalanceReport) -> str:
    """The whole picture as an SVG document."""
    colours = assign(report.sides, SIDE_COLOURS)
    title = (
        f"{report.scenario}: {report.games} games, bots {', '.join(report.bots)}, "
        f"seed {report.seed}"
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        _text(WIDTH / 2, 26, title, 16, font_weight="bold"),
        *_bars(report, colours),
        *_score(report, colours),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"
