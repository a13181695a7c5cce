"""Large VSGMR scenarios: time to the second decision and for one random round, by size.

A large scenario is built by tiling the built-in ``vsgmr/street`` and
``vsgmr/field`` scenarios over a big table: tiles of 48" x 36" alternate between
the two (street centred in its tile), each with its own terrain (ids suffixed
with the tile number) and figures (the scenario's own, plus a few more troops
in the deployment zones), about 24 figures per tile, so 2,000 figures stand on
84 tiles with about 800 features. Street's reds and field's greys play as
``red`` (south edge), the blues and greens as ``blue`` (north edge).

Two figures per size, measured in CPU time (``time.process_time``):

- *second decision*: ``Game(scenario, seed)`` (initiative rolled), the random
  bot names who goes first, and the random bot chooses the second action (so
  the legal movement candidates of the first side are listed);
- *random round*: random-vs-random play from there to the start of round 2
  (every figure that moves, shoots and fights in round 1).

The target is a 2,000-figure scenario at its second decision in under 3 s. It
is a measurement, not a test, so it always exits 0. Run with ``make bench`` or
``python benchmarks/bench_vsgmr_large.py [--sizes 250 500 1000 2000] [--no-round]``.

``--dense`` measures an adversarial layout instead (:func:`dense_raw`): a 200" x 200"
table, 2,000 troops with distance attacks on a 3" checkerboard (red and blue
alternating), and 1,000 small round features (24 points, 0.4" radius) in the
squares between them, each at random impassable and blocking sight, rough and
blocking sight beyond half an inch, or impassable only. It prints the time to the
second decision (target under 5 s) and the mean time per random action over
``--actions`` actions (100 by default; target well under 0.5 s).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import time
from typing import Any

from warbench.bots import make_bot
from warbench.core.game import Game
from warbench.core.loader import load_scenario
from warbench.core.registry import get
from warbench.scenario.model import Scenario

SIZES = (250, 500, 1000, 2000)
TARGET = 3.0
"""Seconds for a 2,000-figure scenario to reach its second decision."""
ACTION_TARGET = 0.5
"""Mean seconds per random action at 2,000 figures (well under it)."""
CAPPED_FROM = 1000
"""From this many figures the random round stops after ``--max-actions`` by default."""
CAP = 300
TILE_W, TILE_H = 48.0, 36.0
PER_TILE = 24
SIDE_OF = {"red": "red", "grey": "red", "blue": "blue", "green": "blue"}

# Extra troops per tile, placed in each side's deployment zone (checked once by
# building a one-tile scenario): (side in the source scenario, x, y, facing).
EXTRA: dict[str, list[tuple[str, float, float, float]]] = {
    # street sits at x + 6 in its tile; its reds stand at y 2-5, blues at y 31-34.
    "street": [
        *(("red", x, 7.5, 90.0) for x in (20.0, 23.0, 26.0)),
        *(("red", x, 2.0, 90.0) for x in (2.0, 4.0, 42.0)),
        *(("blue", x, 28.5, 270.0) for x in (20.0, 23.0, 26.0)),
        *(("blue", x, 34.0, 270.0) for x in (2.0, 4.0, 42.0)),
    ],
    # field's greys stand at x 1.5-7, greens at x 43-46.
    "field": [
        *(("grey", 1.5, y, 0.0) for y in (3.0, 33.0, 16.0)),
        *(("green", 46.5, y, 180.0) for y in (3.0, 33.0, 26.0)),
    ],
}


def _suffix(ident: str, tile: int) -> str:
    return f"{ident}_{tile}"


def _tile(raw: dict[str, Any], kind: str, tile: int, ox: float, oy: float) -> dict[str, Any]:
    """One tile's features, figures and tasks, moved to (ox, oy) and renamed."""
    dx = ox + (6.0 if kind == "street" else 0.0)

    def at(p: Any) -> list[float]:
        return [float(p[0]) + dx, float(p[1]) + oy]

    features = []
    for f in raw.get("features", []):
        g = dict(f)
        g["id"] = _suffix(f["id"], tile)
        g["points"] = [at(p) for p in f["points"]]
        features.append(g)
    figures: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    for side, figs in raw["figures"].items():
        for f in figs:
            g = dict(f)
            g["id"] = _suffix(f["id"], tile)
            if "at" in f:
                g["at"] = at(f["at"])
            if "riding" in f:
                g["riding"] = _suffix(f["riding"], tile)
            g["profile"] = f"{kind}_{f['profile']}"
            figures[SIDE_OF[side]].append(g)
    extra_profile = {"street": "gunman", "field": "rifleman"}[kind]
    for n, (side, x, y, facing) in enumerate(EXTRA[kind]):
        figures[SIDE_OF[side]].append(
            {
                "id": f"X{n}_{tile}",
                "profile": f"{kind}_{extra_profile}",
                "at": [x + ox, y + oy],
                "facing": facing,
            }
        )
    tasks = []
    for t in raw.get("tasks", []):
        g = dict(t)
        g["id"] = _suffix(t["id"], tile)
        if "at" in t:
            g["at"] = at(t["at"])
        if "feature" in t:
            g["feature"] = _suffix(t["feature"], tile)
        if "target" in t:
            g["target"] = _suffix(t["target"], tile)
        tasks.append(g)
    return {"features": features, "figures": figures, "tasks": tasks}


def large_raw(figures: int) -> dict[str, Any]:
    """The raw scenario (a dict, as if read from TOML) with about ``figures`` figures."""
    sources = {k: dict(load_scenario(f"vsgmr/{k}").raw) for k in ("street", "field")}
    tiles = max(1, math.ceil(figures / PER_TILE))
    cols = max(1, round(math.sqrt(tiles * TILE_H / TILE_W)))
    rows = math.ceil(tiles / cols)
    out: dict[str, Any] = {
        "ruleset": "vsgmr",
        "title": f"Large battle, {figures} figures",
        "rounds": 5,
        "table": {"width": cols * TILE_W, "height": rows * TILE_H},
        "sides": [
            {"name": "red", "title": "Reds and greys", "edge": "south"},
            {"name": "blue", "title": "Blues and greens", "edge": "north"},
        ],
        "profiles": {
            f"{k}_{p}": v for k, raw in sources.items() for p, v in raw["profiles"].items()
        },
        "figures": {"red": [], "blue": []},
        "features": [],
        "tasks": [],
    }
    count = 0
    for tile in range(tiles):
        kind = "street" if (tile % cols + tile // cols) % 2 == 0 else "field"
        part = _tile(sources[kind], kind, tile, (tile % cols) * TILE_W, (tile // cols) * TILE_H)
        out["features"].extend(part["features"])
        out["tasks"].extend(part["tasks"])
        for side in ("red", "blue"):
            for f in part["figures"][side]:
                riders = [g for g in part["figures"][side] if g.get("riding") == f["id"]]
                if count >= figures or ("riding" in f):
                    continue
                if count + 1 + len(riders) > figures:
                    continue
                out["figures"][side].append(f)
                out["figures"][side].extend(riders)
                count += 1 + len(riders)
    return out


DENSE_TARGET = 5.0
"""Seconds for the dense layout to reach its second decision."""
DENSE_ACTIONS = 100


def dense_raw(seed: int = 1) -> dict[str, Any]:
    """The dense adversarial layout (see the module docstring), as if read from TOML."""
    rng = random.Random(seed)
    figures: dict[str, list[dict[str, Any]]] = {"red": [], "blue": []}
    n = 0
    for i in range(45):
        for j in range(45):
            if n >= 2000:
                break
            side = "red" if (i + j) % 2 == 0 else "blue"
            figures[side].append(
                {
                    "id": f"{side[0].upper()}{n}",
                    "type": "troop",
                    "distance": True,
                    "at": [30 + i * 3, 30 + j * 3],
                }
            )
            n += 1
    kinds: list[dict[str, Any]] = [
        {"blocks_los": "yes", "impassable": True},
        {"rough": True, "blocks_los": "beyond", "beyond_reach": 0.5},
        {"impassable": True},
    ]
    features = []
    for k in range(1000):
        cx, cy = 30 + (k % 44) * 3 + 1.5, 30 + (k // 44) * 3 + 1.5
        points = [
            [
                round(cx + 0.4 * math.cos(2 * math.pi * t / 24), 3),
                round(cy + 0.4 * math.sin(2 * math.pi * t / 24), 3),
            ]
            for t in range(24)
        ]
        features.append({"id": f"f{k}", "shape": "polygon", "points": points, **rng.choice(kinds)})
    return {
        "ruleset": "vsgmr",
        "title": "Dense",
        "rounds": 3,
        "table": {"width": 200, "height": 200},
        "sides": [{"name": "red"}, {"name": "blue"}],
        "figures": figures,
        "features": features,
    }


def dense(seed: int, actions: int) -> None:
    """Time the dense layout: second decision, then ``actions`` random actions."""
    start = time.process_time()
    scenario = get("vsgmr").build_scenario(dense_raw(), "<dense>", "vsgmr/dense")
    built = time.process_time() - start
    game, bots, second = second_decision(scenario, seed)
    verdict = "meets" if second < DENSE_TARGET else "ABOVE"
    line = (
        f"dense: {len(scenario.spec.placements)} figures, {len(scenario.spec.features)} "
        f"features: scenario {built:.2f} s, second decision {second:.2f} s - target "
        f"{DENSE_TARGET:g} s: {verdict}"
    )
    start = time.process_time()
    done = 0
    while not game.is_over and done < actions:
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game, side), side)
        done += 1
    mean = (time.process_time() - start) / max(1, done)
    verdict = "meets" if mean < ACTION_TARGET else "ABOVE"
    line += f", {mean * 1000:.1f} ms per random action ({done} actions) - target "
    line += f"{ACTION_TARGET:g} s: {verdict}"
    print(line, flush=True)


def large_scenario(figures: int) -> Scenario:
    """A built, validated scenario of about ``figures`` figures (see the module docstring)."""
    raw = large_raw(figures)
    return get("vsgmr").build_scenario(raw, f"<large-{figures}>", f"vsgmr/large-{figures}")


def second_decision(scenario: Scenario, seed: int) -> tuple[Game, dict[str, Any], float]:
    """Start a game, take the first decision, choose at the second; CPU seconds spent."""
    bots = {side: make_bot("random", seed * 10 + i) for i, side in enumerate(scenario.sides)}
    start = time.process_time()
    game = Game(scenario, seed)
    side = game.waiting_for()[0]
    game.apply(bots[side].choose(game, side), side)
    side = game.waiting_for()[0]
    bots[side].choose(game, side)
    return game, bots, time.process_time() - start


def random_round(game: Game, bots: dict[str, Any], limit: int | None = None) -> tuple[float, int]:
    """Random play to the start of the next round (or ``limit`` actions); CPU seconds
    and actions."""
    start = time.process_time()
    first = game.turn
    actions = 0
    while not game.is_over and game.turn == first and (limit is None or actions < limit):
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game, side), side)
        actions += 1
    return time.process_time() - start, actions


def skip_to(game: Game, step: str) -> None:
    """Every side ends its steps until the game reaches ``step`` (not timed)."""
    from warbench.rulesets.vsgmr.actions import END

    while not game.is_over and game.state.phase != step:
        side = game.waiting_for()[0]
        if game.state.phase == "initiative":
            game.apply(game.legal_actions(side)[0], side)
        else:
            game.apply(END, side)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-round", action="store_true", help="skip the random round")
    parser.add_argument(
        "--max-actions",
        type=int,
        default=None,
        help=f"cap the random round (default: {CAP} from {CAPPED_FROM} figures up, else none)",
    )
    parser.add_argument(
        "--start",
        choices=("movement", "distance", "hand", "skill"),
        default="movement",
        help="end every step before this one first, untimed (default: movement)",
    )
    parser.add_argument(
        "--dense", action="store_true", help="time the dense adversarial layout instead"
    )
    parser.add_argument(
        "--actions",
        type=int,
        default=DENSE_ACTIONS,
        help=f"--dense: random actions timed after the second decision (default {DENSE_ACTIONS})",
    )
    args = parser.parse_args()
    print(f"python {platform.python_version()}, {os.cpu_count()} cores")
    if args.dense:
        dense(args.seed, args.actions)
        return
    for n in args.sizes:
        start = time.process_time()
        scenario = large_scenario(n)
        built = time.process_time() - start
        setup = scenario.spec
        game, bots, second = second_decision(scenario, args.seed)
        verdict = ""
        if n == 2000:
            verdict = f" - target {TARGET:g} s: " + ("meets" if second < TARGET else "ABOVE")
        line = (
            f"{len(setup.placements)} figures, {len(setup.features)} features: "
            f"scenario {built:.2f} s, second decision {second:.2f} s{verdict}"
        )
        if not args.no_round:
            if args.start != "movement":
                skip_to(game, args.start)
                line += f", from {args.start}"
            limit = args.max_actions
            if limit is None and n >= CAPPED_FROM:
                limit = CAP
            spent, actions = random_round(game, bots, limit)
            whole = "" if limit is None else f", capped at {limit}"
            mean = spent / max(1, actions)
            line += (
                f", random round {spent:.2f} s ({actions} actions{whole}), "
                f"{mean * 1000:.1f} ms per action"
            )
            if n == 2000:
                line += f" - target {ACTION_TARGET:g} s: " + (
                    "meets" if mean < ACTION_TARGET else "ABOVE"
                )
        print(line, flush=True)


if __name__ == "__main__":
    main()
