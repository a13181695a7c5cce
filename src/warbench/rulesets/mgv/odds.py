"""``warbench odds mgv kinetic|missile|photon ...``: exact odds of one MGV attack.

Every number comes from :mod:`warbench.rulesets.mgv.combat` (the stand-in
combat chart of ``data/combat.toml``), so the odds shown are the ones the game
rolls. ``modifier`` is the total of the modifiers that apply (5.1 Modifiers:
+1 target fired last phase, +1 target moved 2" or more, +1 beacon (missile),
-1 per cover class, -1 per 3 interception points, -1 missile off-line); for
photon fire the ranging error is its own key, ``error``, in inches.

* ``kinetic``: outcomes are numbers of hits; ``range`` (inches) applies the
  close range band.
* ``missile``: with ``split=S/C/H`` and ``block=S/C/H`` (the attacker's and
  the defender's dice per colour: surface/core/heart), the outcomes are the
  hits per colour (``S2 C1 H0``). Without them the sealed split is played at
  its equilibrium with every hit counting one (payoff: total hits s+c+h): the
  outcomes are the total hits when both sides play it, whose mean is the
  game's value; the extra lines are both mixed strategies.
* ``photon``: outcomes are numbers of hits; the defence plays no part; a
  ranging error at the disaster limit shows the feedback as an extra line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from warbench.core.odds import OddsKey, OddsQuery, OddsResult
from warbench.errors import OddsError, excerpt
from warbench.rulesets.mgv import combat

MAX_RATING = 12
MAX_MODIFIER = 12
MAX_GAME_DICE = 24
"""Dice per side for the equilibrium when dice count one (325 splits); fixed splits
may have more."""
MAX_TOTALS_DICE = 8
"""Dice per side for the equilibrium when pip totals score (up to 48 hits a colour)."""
MAX_INCHES = 1000
STRATEGY_DENOMINATOR = 10_000
"""Equilibrium probabilities are shown as fractions with at most this denominator."""

_DECIMAL = re.compile(r"\d{1,4}(\.\d{1,6})?")
_FRACTION = re.compile(r"\d{1,4}/[1-9]\d{0,3}")
_SPLIT = re.compile(r"(\d{1,3})/(\d{1,3})/(\d{1,3})")


@dataclass(frozen=True, slots=True)
class InchesKey(OddsKey):
    """A distance in inches, ``1.75`` or ``7/4``, as a float (``none`` if the default is None)."""

    def parse(self, text: str) -> Any:
        text = text.strip()
        if self.default is None and text.lower() == "none":
            return None
        if _DECIMAL.fullmatch(text) or _FRACTION.fullmatch(text):
            value = Fraction(text)
            if value <= MAX_INCHES:
                return float(value)
        also = " or none" if self.default is None else ""
        raise OddsError(
            f"key '{self.name}' wants inches (1.75 or 7/4, at most {MAX_INCHES}){also}, "
            f"got '{excerpt(text)}'"
        )

    def describe(self) -> str:
        kind = "inches|none" if self.default is None else "inches"
        default = "none" if self.default is None else self.default
        return f"{self.name}=<{kind}> (default {default}): {self.help}"


@dataclass(frozen=True, slots=True)
class SplitKey(OddsKey):
    """Dice per colour, ``surface/core/heart`` (``4/2/0``, kept as that text), or ``none``."""

    def parse(self, text: str) -> Any:
        text = text.strip()
        if text.lower() == "none":
            return "none"
        match = _SPLIT.fullmatch(text)
        if match is None:
            raise OddsError(
                f"key '{self.name}' wants dice per colour as S/C/H (like 4/2/0) or none, "
                f"got '{excerpt(text)}'"
            )
        return "/".join(str(int(n)) for n in match.groups())

    def describe(self) -> str:
        return f"{self.name}=<S/C/H|none> (default {self.default}): {self.help}"


@dataclass(frozen=True, slots=True)
class GameOddsResult(OddsResult):
    """Odds of the equilibrium play of a missile split, with the game's value."""

    value: float = 0.0

    def to_json(self) -> dict[str, Any]:
        out = OddsResult.to_json(self)
        out["value"] = self.value
        return out


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _by_hits(dist: Mapping[int, Fraction]) -> dict[str, Fraction]:
    return {_hits(k): p for k, p in sorted(dist.items()) if p}


def _rating(values: Mapping[str, Any], name: str) -> int:
    value: int = values[name]
    low = 1 if name == "defence" else 0  # 5.2 Applying Damage: never below 1
    if not low <= value <= MAX_RATING:
        raise OddsError(f"{name} is a rating from {low} to {MAX_RATING}, got {value}")
    return value


def _modifier(values: Mapping[str, Any]) -> int:
    value: int = values["modifier"]
    if abs(value) > MAX_MODIFIER:
        raise OddsError(f"modifier is a total from -{MAX_MODIFIER} to +{MAX_MODIFIER}")
    return value


def kinetic_odds(values: Mapping[str, Any]) -> OddsResult:
    attack, defence = _rating(values, "attack"), _rating(values, "defence")
    range_: float | None = values["range"]
    dist = combat.kinetic_distribution(attack, defence, _modifier(values), range_)
    return OddsResult(_by_hits(dist))


def _split(text: str, dice: int, who: str) -> combat.Split:
    s, c, h = (int(n) for n in text.split("/"))
    split = (s, c, h)
    if sum(split) != dice:
        raise OddsError(f"{who} split {'/'.join(map(str, split))} must use all {dice} dice")
    return split


def _rational(strategy: tuple[float, ...]) -> list[Fraction]:
    """An LP strategy as fractions that sum to exactly 1 (tiny weights dropped)."""
    rough = [Fraction(p).limit_denominator(STRATEGY_DENOMINATOR) for p in strategy]
    rough = [p if p > 0 else Fraction(0) for p in rough]
    whole = sum(rough, Fraction(0))
    return [p / whole for p in rough]


def missile_odds(values: Mapping[str, Any]) -> OddsResult:
    attack, defence = _rating(values, "attack"), _rating(values, "defence")
    scoring: combat.Scoring = values["scoring"]
    att_dice = combat.missile_dice(attack, _modifier(values), values["wing"], scoring)
    def_dice = combat.block_dice(defence, scoring)
    split, block = values["split"], values["block"]
    if split == "none" and block != "none":
        raise OddsError(
            "give split= with block= (or split= alone: against the defender's equilibrium "
            "blocks; neither: the equilibrium)"
        )
    if split != "none" and block == "none":
        return _split_against_equilibrium(
            _split(split, att_dice, "the attacker's"), def_dice, scoring
        )
    if split != "none":
        att = _split(split, att_dice, "the attacker's")
        dfn = _split(block, def_dice, "the defender's")
        dist = combat.missile_distribution(att, dfn, scoring)
        return OddsResult({f"S{s} C{c} H{h}": p for (s, c, h), p in sorted(dist.items())})
    most = MAX_GAME_DICE if scoring == "successes" else MAX_TOTALS_DICE
    if max(att_dice, def_dice) > most:
        raise OddsError(
            f"the equilibrium is computed for at most {most} dice a side "
            f"({att_dice} against {def_dice}); give split= and block="
        )
    return missile_equilibrium(att_dice, def_dice, scoring)


def _split_against_equilibrium(
    att: combat.Split, def_dice: int, scoring: combat.Scoring
) -> OddsResult:
    """One attacker split against the defender's equilibrium mix of blocks (payoff total
    hits): the chances of each outcome, and the mix as extra lines."""
    att_dice = sum(att)
    most = MAX_GAME_DICE if scoring == "successes" else MAX_TOTALS_DICE
    if max(att_dice, def_dice) > most:
        raise OddsError(
            f"the equilibrium is computed for at most {most} dice a side "
            f"({att_dice} against {def_dice}); give block= too"
        )
    game = combat.missile_game(att_dice, def_dice, combat.total_hits, scoring)
    columns = _rational(game.column)
    outcomes: dict[str, Fraction] = {}
    extra: dict[str, Fraction] = {}
    for block, q in zip(combat.splits(def_dice), columns, strict=True):
        if not q:
            continue
        extra[f"defender blocks {'/'.join(map(str, block))}"] = q
        for (s, c, h), p in combat.missile_distribution(att, block, scoring).items():
            key = f"S{s} C{c} H{h}"
            outcomes[key] = outcomes.get(key, Fraction(0)) + p * q
    return OddsResult(dict(sorted(outcomes.items(), key=lambda kv: _hits_key(kv[0]))), extra)


def _hits_key(label: str) -> tuple[int, ...]:
    return tuple(int(part[1:]) for part in label.split())


def missile_equilibrium(
    att_dice: int, def_dice: int, scoring: combat.Scoring | None = None
) -> GameOddsResult:
    """The sealed split of ``att_dice`` against ``def_dice`` played at its equilibrium
    (payoff: total hits): the chances of each total, both mixed strategies as extra
    lines, and the game's value. At most ``MAX_GAME_DICE`` a side."""
    game = combat.missile_game(att_dice, def_dice, combat.total_hits, scoring)
    rows, columns = _rational(game.row), _rational(game.column)
    att_splits, def_splits = combat.splits(att_dice), combat.splits(def_dice)
    totals: dict[int, Fraction] = {}
    for i, p in enumerate(rows):
        for j, q in enumerate(columns):
            if not p or not q:
                continue
            dist = combat.missile_distribution(att_splits[i], def_splits[j], scoring)
            for hits, chance in dist.items():
                totals[sum(hits)] = totals.get(sum(hits), Fraction(0)) + p * q * chance
    extra: dict[str, Fraction] = {}
    for label, splits_, strategy in (
        ("attacker splits", att_splits, rows),
        ("defender blocks", def_splits, columns),
    ):
        for split_, p in zip(splits_, strategy, strict=True):
            if p:
                extra[f"{label} {'/'.join(map(str, split_))}"] = p
    return GameOddsResult(_by_hits(totals), extra, value=game.value)


def photon_odds(values: Mapping[str, Any]) -> OddsResult:
    attack = _rating(values, "attack")
    error: float = values["error"]
    dist = combat.photon_distribution(attack, error, _modifier(values))
    extra: dict[str, Fraction] = {}
    if combat.photon_disaster(error):
        spec = combat.combat_data().photon.disaster
        feedback = f"{_hits(spec.feedback_hits)} on the firer's {spec.feedback_layer}"
        extra[f"disaster: feedback, {feedback}"] = Fraction(1)
    return OddsResult(_by_hits(dist), extra)


def _modifier_key() -> OddsKey:
    return OddsKey(
        "modifier",
        "int",
        0,
        "total of the 5.1 modifiers (+1 target fired / moved 2in+ / beacon, "
        "-1 per cover class, per 3 interception points, off-line missile)",
    )


def _queries() -> dict[str, OddsQuery]:
    data = combat.combat_data()
    bands = ", ".join(f'{b.shift:+d} within {b.up_to:g}"' for b in data.kinetic.range.bands)
    missile = data.missile
    totals, successes = missile.totals, missile.successes
    disaster = data.photon.disaster
    return {
        "kinetic": OddsQuery(
            "kinetic",
            "2D6 on the kinetic table (stand-in), column attack + modifier - defence "
            f"({bands}); outcomes: hits",
            (
                OddsKey("attack", "int", 3, "the mount's attack rating"),
                OddsKey("defence", "int", 2, "the target's current defence rating"),
                _modifier_key(),
                InchesKey("range", "choice", None, "range in inches (none: no range band)"),
            ),
            kinetic_odds,
        ),
        "missile": OddsQuery(
            "missile",
            f"scoring=totals (the default, 5.2): a die per {totals.attack_points_per_die} "
            f"attack points (part points round up) against {totals.defence_base_dice} block "
            f"die and one more per {totals.defence_points_per_die} full defence points, split "
            "among surface/core/heart; per colour hits = "
            "the attacker's pip total - the defender's; scoring=successes: "
            f"{successes.attack_dice_per_point} dice per attack point against "
            f"{successes.defence_dice_per_point} per defence point, {successes.hit_on}+ scores, "
            f"{successes.block_on}+ blocks (stand-ins). Without split/block: the equilibrium "
            "of the sealed split with payoff total hits (s+c+h); its value is the mean of "
            "the outcomes (and 'value' in --json); the extra lines are both mixed strategies. "
            "With split= alone: that split against the defender's equilibrium blocks",
            (
                OddsKey("attack", "int", 3, "the mount's missile attack rating"),
                OddsKey("defence", "int", 2, "the target's current defence rating"),
                _modifier_key(),
                OddsKey("wing", "bool", False, "a wing pair combining its dice (double)"),
                SplitKey("split", "choice", "none", "the attacker's dice per colour"),
                SplitKey("block", "choice", "none", "the defender's dice per colour"),
                OddsKey(
                    "scoring",
                    "choice",
                    missile.scoring,
                    "totals (pip totals score and block) or successes (dice of 4+ count one)",
                    ("totals", "successes"),
                ),
            ),
            missile_odds,
        ),
        "photon": OddsQuery(
            "photon",
            "2D6 on the photon table (stand-in), column attack + modifier - 1 per full "
            f'1/2" of ranging error; the defence plays no part; an error of '
            f'{disaster.from_error:g}" or more is a disaster; outcomes: hits',
            (
                OddsKey("attack", "int", 4, "the mount's attack rating"),
                _modifier_key(),
                InchesKey("error", "choice", 0.0, "ranging error in inches (1.75: -3)"),
            ),
            photon_odds,
        ),
    }


QUERIES: Mapping[str, OddsQuery] = _queries()
"""The MGV odds queries, for ``MGV.odds_queries()``."""
