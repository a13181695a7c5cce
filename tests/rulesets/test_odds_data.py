"""The odds of an action as data (``Ruleset.odds_result``, ``Seat.odds``) are the very
numbers ``action_odds`` prints: for every built-in scenario, after some random play,
every legal action has data exactly when it has words, the outcomes sum to 1, and the
percentages in the words are those of the data."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from warbench.core.actions import Action
from warbench.core.decisions import DecisionKind
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios
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
    game = Game.start(scenario_id, seed=5)
    ruleset = scenario_id.split("/")[0]
    with_odds = 0
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
                assert all(isinstance(p, Fraction) and 0 <= p <= 1 for p in data.outcomes.values())
                assert sum(data.outcomes.values(), Fraction(0)) == 1
                check_words(ruleset, action, text, data)
    assert with_odds > 0, "the random play reached no action with odds: nothing was checked"
