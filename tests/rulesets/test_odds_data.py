"""The odds of an action as data (``Ruleset.odds_result``, ``Seat.odds``) are the very
numbers ``action_odds`` prints: for every built-in scenario, after some random play,
every legal action has data exactly when it has words, the outcomes sum to 1, and the
percentages in the words are those of the data."""

from __future__ import annotations

import importlib.util
import random
from fractions import Fraction
from pathlib import Path

import pytest

from warbench.core.actions import Action
from warbench.core.decisions import DecisionKind
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, scenario_from_dict
from warbench.core.odds import OddsResult

MAX_ACTIONS = 80
"""Legal actions looked at per position (open tables offer many candidates)."""


def _pct1(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _dist0(named: dict[str, Fraction]) -> str:
    """``0: 17%, 1: 33%`` from outcomes named ``0 hits``, ``1 hit``."""
    by_hits = sorted((int(k.split()[0]), p) for k, p in named.items())
    return ", ".join(f"{k}: {float(p):.0%}" for k, p in by_hits)


def _parts(named: dict[str, Fraction]) -> dict[str, dict[str, Fraction]]:
    """``extra`` lines ``PART: N hits`` grouped by part."""
    out: dict[str, dict[str, Fraction]] = {}
    for key, p in named.items():
        part, sep, hits = key.rpartition(": ")
        if sep and hits.split()[-1] in ("hit", "hits"):
            out.setdefault(part, {})[hits] = p
    return out


def check_words(ruleset: str, action: Action, text: str, data: OddsResult) -> None:
    """The percentages printed in ``text`` are those of ``data`` (a formatting of it)."""
    o, extra = dict(data.outcomes), dict(data.extra)
    if ruleset == "miniwars":
        key = "rallied" if "rallied" in o else "hit"
        assert f"{_pct1(o[key])} ({o[key]})" in text
        for p in extra.values():
            assert f"doubles disrupt {action.unit}: {_pct1(p)} ({p})" in text  # type: ignore[attr-defined]
    elif ruleset == "vsgmr":
        if "success" in o:
            assert f"success {_pct1(o['success'])} ({o['success']})" in text
        else:
            assert f"miss {_pct1(o['miss'])} ({o['miss']}), saved {_pct1(o['saved'])}" in text
            assert f" {_pct1(o['hit'])} ({o['hit']})" in text
    elif ruleset in ("cgme", "veg"):
        if set(o) == {"destroy", "wound", "none"}:
            for name, p in o.items():
                assert f"{name} {_pct1(p)}" in text
        for key, p in extra.items():
            if key.startswith("spillover on "):
                assert key.split()[2] in text and f"{key.split()[-1]} {_pct1(p)}" in text
            elif set(o) != {"destroy", "wound", "none"}:
                unit = key.removesuffix(" destroyed")
                assert f"{unit} destroyed on the way: {_pct1(p)}" in text
    elif ruleset == "mgv":
        parts = _parts(extra) if extra else {"": o}
        for named in parts.values():
            assert f"({_dist0(named)})" in text
    elif ruleset == "invisible-enemy":
        if "moves" in o:
            assert f"moves with chance {float(o['moves']):.0%}" in text or o["moves"] == 1
        elif "no base caught" in o:
            assert "no base is caught in it" in text
        else:
            parts = _parts(extra)
            shown = parts.values() if str(action).startswith("destruct") else [o]
            for named in shown:
                assert f"({_dist0(named)})" in text
            for key, p in extra.items():
                if key.endswith(" destroyed"):
                    assert f"destroyed {float(p):.0%}" in text
    else:  # pragma: no cover - a new ruleset must say how its words show its data
        raise AssertionError(f"no check of the words for {ruleset}")


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        sides = game.waiting_for()
        if not sides:
            return
        if game.decision is not None and game.decision.kind is DecisionKind.SEALED:
            for side in sides:
                game.apply(rng.choice(list(game.legal_actions(side))), side)
        else:
            game.apply(rng.choice(list(game.legal_actions(sides[0]))), sides[0])


@pytest.mark.parametrize("scenario_id", sorted(builtin_scenarios()))
def test_every_legal_action_has_data_exactly_when_it_has_words(scenario_id: str) -> None:
    rng = random.Random(7)
    ruleset = scenario_id.split("/")[0]
    with_odds = 0
    for seed in (5, 6, 7):  # games until one reaches an action with odds
        game = Game.start(scenario_id, seed=seed)
        for _ in range(30):
            _play(game, rng, rng.randrange(1, 8))
            if game.is_over:
                break
            for side in game.waiting_for():
                seat = game.seat(side)
                legal = list(seat.legal_actions())
                for action in rng.sample(legal, min(len(legal), MAX_ACTIONS)):
                    text, data = seat.action_odds(action), seat.odds(action)
                    assert (text is None) == (data is None), (action, text)
                    if data is None:
                        continue
                    with_odds += 1
                    assert text is not None
                    chances = data.outcomes.values()
                    assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in chances)
                    assert sum(chances, Fraction(0)) == 1
                    check_words(ruleset, action, text, data)
        if with_odds:
            break
    assert with_odds > 0, "the random play reached no action with odds: nothing was checked"


# -- worked examples ----------------------------------------------------------------------
def _veg_game() -> Game:
    raw = {
        "ruleset": "veg",
        "title": "worked example",
        "turn_limit": 5,
        "map": {
            "columns": 10,
            "rows": 10,
            "terrain": "clear",
            "hexes": {"crater": ["0506", "0507"]},
        },
        "sides": [{"name": "red"}, {"name": "blue"}],
        "forces": {
            "red": [
                {"id": "M", "type": "medium_tank", "at": "0505"},
                {"id": "A", "type": "heavy_tank", "at": "0305"},
            ],
            "blue": [
                {"id": "T", "type": "light_tank", "at": "0307"},
                {"id": "U", "type": "infantry", "at": "0307"},
            ],
        },
    }
    return Game(scenario_from_dict(raw, "worked", "worked"), seed=0)


def test_veg_a_move_through_two_craters_chains_them_as_the_rules_do() -> None:
    """H(8 - DEF) on the medium tank: ATT 4 against DEF 4, two dice each, 2+ destroys,
    1 wounds: 5/12, 1/6, 5/12. Wounded, its DEF drops and the crater hits harder:
    13/18 destroy, 1/9 wound (a second wound: destroyed), 1/6 none. A destroyed tank
    goes no further."""
    game = _veg_game()
    seat = game.seat("red")
    one = seat.odds(game.parse("move M 0506"))
    assert one is not None
    third, sixth = Fraction(5, 12), Fraction(1, 6)
    assert dict(one.outcomes) == {"destroy": third, "wound": sixth, "none": third}
    two = seat.odds(game.parse("move M 0508"))
    assert two is not None
    assert dict(two.outcomes) == {
        "M 0506 destroy": third,
        "M 0506 wound, 0507 destroy": sixth * Fraction(13, 18),
        "M 0506 wound, 0507 wound": sixth * Fraction(1, 9),
        "M 0506 wound, 0507 none": sixth * sixth,
        "M 0506 none, 0507 destroy": third * third,
        "M 0506 none, 0507 wound": third * sixth,
        "M 0506 none, 0507 none": third * third,
    }
    survives = sixth * sixth + third * sixth + third * third
    assert two.extra == {"M destroyed": 1 - survives} == {"M destroyed": Fraction(35, 48)}
    text = seat.action_odds(game.parse("move M 0508"))
    assert text is not None and text.endswith("M destroyed on the way: 72.9%")


def test_veg_an_attack_gives_its_spillover_beside_its_result() -> None:
    """Heavy tank ATT 5 against the light tank's DEF 2: 5/6 destroy; the infantry in the
    hex takes the spillover, ATT 5 - 3 against its DEF 1."""
    game = _veg_game()
    while game.state.phase_name != "attack":
        game.apply("end", "red")
    odds = game.seat("red").odds(game.parse("attack A T"))
    assert odds is not None
    assert dict(odds.outcomes) == {
        "destroy": Fraction(5, 6),
        "wound": Fraction(1, 12),
        "none": Fraction(1, 12),
    }
    assert dict(odds.extra) == {
        "spillover on U destroy": Fraction(7, 12),
        "spillover on U wound": Fraction(5, 36),
        "spillover on U none": Fraction(5, 18),
    }


def _first(
    scenario_id: str, word: str, seed: int = 5, plain: bool = False
) -> tuple[Game, str, Action]:
    """Random play of ``scenario_id`` to the first legal action starting with ``word``
    that has odds (``plain``: whose words list no modifier)."""
    rng = random.Random(seed)
    game = Game.start(scenario_id, seed=seed)
    for _ in range(400):
        for side in game.waiting_for():
            for action in game.legal_actions(side):
                if str(action).split()[0] != word:
                    continue
                text = game.seat(side).action_odds(action)
                if text is not None and not (plain and "(" in text.split("+ on")[1].split(";")[0]):
                    return game, side, action
        _play(game, rng, 1)
    raise AssertionError(f"no {word} action reached in {scenario_id}")


def test_miniwars_a_shot_hits_on_the_die_it_needs() -> None:
    """MISSILE FIRE: with no modifier, one die must reach the number needed, a 1 always
    misses: the hit chance is (7 - needed) / 6, and nothing else is rolled."""
    game, side, action = _first("miniwars/danville", "fire", plain=True)
    odds = game.seat(side).odds(action)
    text = game.seat(side).action_odds(action)
    assert odds is not None and text is not None
    needed = int(text.split("needs ")[1].split("+")[0])
    assert dict(odds.outcomes) == {
        "hit": Fraction(7 - max(needed, 2), 6),
        "miss": Fraction(max(needed, 2) - 1, 6),
    }
    assert not odds.extra


def test_vsgmr_an_attack_splits_into_miss_saved_and_hit() -> None:
    """II.3 and III: the attack roll misses or hits, then the armour roll saves or not;
    the data has exactly those three, the words name the hit by what it does."""
    game, side, action = _first("vsgmr/street", "shoot")
    odds = game.seat(side).odds(action)
    assert odds is not None and set(odds.outcomes) == {"miss", "saved", "hit"}
    assert all(
        p.denominator in (1, 2, 3, 4, 6, 9, 12, 18, 36, 72, 108, 216)
        for p in odds.outcomes.values()
    )


def test_a_bot_reads_the_odds_as_data_from_its_seat() -> None:
    """The example bot (examples/aggressive_bot.py) takes the attack likeliest to do
    something, read from ``seat.odds``; the figure it acts on is its own side's."""
    path = Path(__file__).parents[2] / "examples" / "aggressive_bot.py"
    spec = importlib.util.spec_from_file_location("aggressive_bot_example", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    game, side, _ = _first("veg/tank-battle", "attack")
    seat = game.seat(side)
    attacks = [a for a in seat.legal_actions() if str(a).startswith("attack")]
    best = max(1 - seat.odds(a).outcomes["none"] for a in attacks)  # type: ignore[union-attr]
    chosen = module.AggressiveBot(3).choose(seat, side)
    chosen_odds = seat.odds(chosen)
    assert chosen_odds is not None
    assert 1 - chosen_odds.outcomes["none"] == best
