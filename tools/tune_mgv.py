"""Check MGV's combat stand-ins (``data/combat.toml``) against the design intent of 1.5.

Run ``.venv/bin/python tools/tune_mgv.py``. For each weapon, a light, a medium
and a heavy target (``data/vehicles.toml``: L35, K817, J90) and a few ranges it
prints the expected hits of one attack and the chances of 0 and of 3 or more
hits, then one verdict per intent line of 1.5.

How each weapon is measured:

* kinetic: the exact 2D6 table, the close range band included;
* photon: the exact table folded over the stand-in range estimate model (a
  player's unaided guess at that range), so ranging errors and disasters count;
* missile: the sealed split played at equilibrium (``combat.missile_game``):
  with the odds command's default payoff (every hit counts one), and with a
  payoff of the hits a hull can actually take (:func:`hit_value`).

:func:`hit_value` is a ROUGH model of the 5.2 placement rules (no geometry, no
far side, the owner keeps hits shallow). It is the hook for the whole-damage
tuning: once ``warbench.rulesets.mgv.hitlog`` places groups on real hit logs,
replace it with a function that places the triple on a log in the given state
and scores the result (see :func:`whole_damage_tuning`).
"""

from __future__ import annotations

import math
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from importlib import resources

from warbench.rulesets.mgv import combat

Split = tuple[int, int, int]
HitValue = Callable[[Split], float]
RANGES = (3.0, 6.0, 12.0, 24.0)
ATTACKS = (3, 4, 5)
TARGETS = {"light": "L35", "medium": "K817", "heavy": "J90"}
WEIGHTS = (1.0, 2.0, 4.0)
"""Rough worth of a surface, core, heart mark (P hits slow, B hits risk sudden death)."""


@dataclass(frozen=True)
class Target:
    key: str
    title: str
    defence: int
    hull: Split


@dataclass(frozen=True)
class Line:
    """One attack's hits: the expected number, the chances of none and of 3 or more."""

    expected: float
    none: float
    three_plus: float
    note: str = ""

    def cell(self) -> str:
        return f"{self.expected:4.2f} {self.none:4.2f} {self.three_plus:4.2f}"


def targets() -> dict[str, Target]:
    text = resources.files("warbench.rulesets.mgv").joinpath("data", "vehicles.toml")
    models = tomllib.loads(text.read_text("utf-8"))["models"]
    out = {}
    for size, key in TARGETS.items():
        m = models[key]
        hull = m["hull"]
        out[size] = Target(
            key, m["title"], m["defence"], (hull["surface"], hull["core"], hull["heart"])
        )
    return out


def _line(dist: Mapping[int, float] | Mapping[int, Fraction], note: str = "") -> Line:
    expected = sum(k * float(p) for k, p in dist.items())
    three = sum(float(p) for k, p in dist.items() if k >= 3)
    return Line(expected, float(dist.get(0, 0.0)), three, note)


def kinetic_line(attack: int, target: Target, range_: float) -> Line:
    return _line(combat.kinetic_distribution(attack, target.defence, 0, range_))


def photon_line(attack: int, target: Target, range_: float) -> Line:
    shot = combat.photon_at_range(attack, range_)  # the target plays no part
    return _line(shot.hits, f"disaster {shot.disaster:.2f}")


def equilibrium_hits(att: int, dfn: int, value: HitValue) -> dict[int, float]:
    """Total hits when both sides play the equilibrium of the game with payoff ``value``."""
    game = combat.missile_game(att, dfn, value)
    out: dict[int, float] = {}
    for i, p in enumerate(game.row):
        for j, q in enumerate(game.column):
            if p * q < 1e-12:
                continue
            for hits, chance in combat.missile_distribution(
                combat.splits(att)[i], combat.splits(dfn)[j]
            ).items():
                out[sum(hits)] = out.get(sum(hits), 0.0) + p * q * float(chance)
    return out


def missile_line(attack: int, target: Target, defence: int | None = None) -> Line:
    dfn = combat.block_dice(target.defence if defence is None else defence)
    return _line(equilibrium_hits(combat.missile_dice(attack), dfn, combat.total_hits))


def hit_value(hull: Split, marked: Split = (0, 0, 0)) -> HitValue:
    """ROUGH worth of a missile hit triple against ``hull`` with ``marked`` circles.

    Surface hits take free surface circles; core hits need marked surface
    circles to balance them (5.2 rule (a)); heart hits need a marked core
    circle. Weighted by :data:`WEIGHTS`. The hook for the hit-log tuning.
    """
    (big_s, big_c, big_h), (ms, mc, mh) = hull, marked

    def value(hits: Split) -> float:
        s, c, h = hits
        s_eff = min(s, big_s - ms)
        c_eff = max(0, min(c, big_c - mc, ms + s_eff - mc))
        h_eff = min(h, big_h - mh) if mc + c_eff > 0 else 0
        return WEIGHTS[0] * s_eff + WEIGHTS[1] * c_eff + WEIGHTS[2] * h_eff

    return value


def damaged(target: Target) -> tuple[Split, int]:
    """A worn target: half its surface and one core circle marked, defence lowered (5.2)."""
    surface = target.hull[0] // 2
    per = 4  # vehicles.toml [meta] surface_per_defence
    return (surface, 1, 0), max(1, target.defence - surface // per)


def missile_value(attack: int, target: Target, worn: bool) -> float:
    marked, defence = damaged(target) if worn else ((0, 0, 0), target.defence)
    value = hit_value(target.hull, marked)
    return combat.missile_game(combat.missile_dice(attack), combat.block_dice(defence), value).value


def whole_damage_tuning() -> None:
    """The hook for tuning with hit logs (not yet: it needs the 5.2 placement module).

    Plan: for each weapon, attacker and target, play N attacks on a fresh hit
    log (``warbench.rulesets.mgv.hitlog``), each group placed by the default
    placement, and report shots to immobilise and to destroy; replace
    :func:`hit_value` by the log's own count of what a triple marks.
    """
    print("\n(whole-damage tuning with hit logs: not yet, see whole_damage_tuning())")


def main() -> int:
    tgt = targets()
    print("MGV combat stand-ins: expected hits, P(0), P(3+) of one attack (attacker unmodified)")
    header = "".join(f"{f'{r:g}in':>17}" for r in RANGES)
    print(f"{'weapon':8}{'att':>4} {'target':16}{header}")
    for weapon in combat.WEAPONS:
        for attack in ATTACKS:
            for size, t in tgt.items():
                cells = []
                notes = []
                for r in RANGES:
                    if weapon == "kinetic":
                        line = kinetic_line(attack, t, r)
                    elif weapon == "photon":
                        line = photon_line(attack, t, r)
                        notes.append(line.note.split()[-1])
                    else:
                        line = missile_line(attack, t)
                    cells.append(f"{line.cell():>17}")
                label = f"{size} {t.key} d{t.defence}"
                tail = f"  disaster {'/'.join(notes)}" if notes else ""
                print(f"{weapon:8}{attack:>4} {label:16}{''.join(cells)}{tail}")
        print()
    print("missile at equilibrium, payoff = the rough useful damage of hit_value()")
    print(f"{'att':>4} {'target':16}{'fresh':>8}{'worn':>8}   (worn: half surface + 1 core marked)")
    for attack in ATTACKS:
        for size, t in tgt.items():
            fresh, worn = missile_value(attack, t, False), missile_value(attack, t, True)
            print(f"{attack:>4} {size + ' ' + t.key:16}{fresh:8.2f}{worn:8.2f}")
    ok = verdicts(tgt)
    whole_damage_tuning()
    return 0 if ok else 1


def verdicts(tgt: Mapping[str, Target]) -> bool:
    light, medium, heavy = tgt["light"], tgt["medium"], tgt["heavy"]
    checks: list[tuple[str, bool, str]] = []

    def sd(dist: Mapping[int, float]) -> float:
        mean = sum(k * p for k, p in dist.items())
        return math.sqrt(sum((k - mean) ** 2 * p for k, p in dist.items()))

    # kinetic
    k_med = {k: float(p) for k, p in combat.kinetic_distribution(4, medium.defence, 0, 12).items()}
    p_med = combat.photon_at_range(4, 12).hits
    m_med = equilibrium_hits(
        combat.missile_dice(4), combat.block_dice(medium.defence), combat.total_hits
    )
    spread = {n: sd(d) for n, d in (("kinetic", k_med), ("photon", p_med), ("missile", m_med))}
    checks.append(
        (
            "kinetic: most predictable (smallest spread of hits, 4 vs medium at 12in)",
            spread["kinetic"] < min(spread["photon"], spread["missile"]),
            ", ".join(f"{n} sd {v:.2f}" for n, v in spread.items()),
        )
    )
    k4 = kinetic_line(4, medium, 12)
    checks.append(
        (
            "kinetic: relatively effective against average vehicles (4 vs medium at 12in)",
            k4.expected >= 1.0 and k4.none <= 0.35,
            f"{k4.expected:.2f} hits, P(0) {k4.none:.2f}",
        )
    )
    close, far = kinetic_line(4, medium, 3), kinetic_line(4, medium, 12)
    checks.append(
        (
            "kinetic: excellent at close range (3in vs 12in, 4 vs medium)",
            close.expected >= 1.5 * far.expected,
            f"{close.expected:.2f} vs {far.expected:.2f} hits",
        )
    )
    worst = max(
        max(combat.kinetic_distribution(a, heavy.defence, 0, r)) for a in ATTACKS for r in RANGES
    )
    room = heavy.hull[0] - 6
    checks.append(
        (
            "kinetic: no big strikes against large vehicles (most hits on a heavy, any range)",
            worst < room,
            f"at most {worst} hits; outside-in keeps the first {room} "
            f"on a fresh {heavy.key}'s surface",
        )
    )
    # missile
    fresh_h, worn_h = missile_value(4, heavy, False), missile_value(4, heavy, True)
    fresh_l, worn_l = missile_value(4, light, False), missile_value(4, light, True)
    checks.append(
        (
            "missile: devastating against damaged vehicles (worn vs fresh, useful damage)",
            worn_h >= 2 * fresh_h and worn_l >= 1.5 * fresh_l,
            f"heavy {fresh_h:.2f} -> {worn_h:.2f}, light {fresh_l:.2f} -> {worn_l:.2f}",
        )
    )
    k_heavy = sum(
        WEIGHTS[0] * k * float(p)
        for k, p in combat.kinetic_distribution(4, heavy.defence, 0, 12).items()
    )
    checks.append(
        (
            "missile: near useless against large undamaged vehicles (4 vs fresh heavy)",
            fresh_h <= k_heavy,
            f"useful damage {fresh_h:.2f} vs kinetic's {k_heavy:.2f} (all surface)",
        )
    )
    # photon
    same = {round(photon_line(4, t, 12).expected, 12) for t in tgt.values()}
    checks.append(
        (
            "photon: hits regardless of armour (same result against every target)",
            len(same) == 1,
            f"{photon_line(4, heavy, 12).expected:.2f} hits at 12in against each",
        )
    )
    big = heavy.hull[0] - 6 + 1
    p_big = sum(float(p) for k, p in combat.photon_distribution(5).items() if k >= big)
    p_big_k = sum(
        float(p) for k, p in combat.kinetic_distribution(5, heavy.defence, 0, 3).items() if k >= big
    )
    checks.append(
        (
            f"photon: sometimes the only chance of serious damage on a heavy "
            f"({big}+ hits reach a fresh {heavy.key}'s core)",
            p_big > 0 and p_big_k == 0,
            f"photon 5, well ranged: {p_big:.3f}; kinetic 5 at 3in: {p_big_k:.3f}",
        )
    )
    d12, d24 = combat.photon_at_range(4, 12).disaster, combat.photon_at_range(4, 24).disaster
    checks.append(
        (
            "photon: missing by too much is disastrous (feedback hits on the firer)",
            d12 > 0 and d24 > d12,
            f"disaster at 12in {d12:.2f}, at 24in {d24:.2f}",
        )
    )
    pl = [photon_line(3, light, r).expected for r in (6.0, 12.0)]
    kl = [kinetic_line(3, light, r).expected for r in (6.0, 12.0)]
    checks.append(
        (
            "photon: least efficient against light targets (3 vs light, 6in and 12in)",
            all(p < k for p, k in zip(pl, kl, strict=True)),
            f"photon {pl[0]:.2f}/{pl[1]:.2f} vs kinetic {kl[0]:.2f}/{kl[1]:.2f} hits",
        )
    )
    print("\nverdicts (1.5):")
    for text, passed, detail in checks:
        print(f"  [{'ok' if passed else 'CHECK'}] {text}: {detail}")
    return all(passed for _, passed, _ in checks)


if __name__ == "__main__":
    sys.exit(main())
