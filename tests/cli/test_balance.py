"""``warbench balance`` end to end (issue 14): the tables, ``--json`` with each interval as
``low`` and ``high``, the picture, ``--precision``, and one clear error (exit 2) for bad
input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warbench.cli.balance import split_bots
from warbench.cli.main import main
from warbench.render.png import png_size


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_tables_show_every_share_with_its_interval(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "balance", "miniwars/bridge", "--bots", "greedy,random", "--pairs", "4"
    )
    assert status == 0, err
    assert "8 games (4 seeds x 2 seatings), bots greedy, random" in out
    for words in ("95% interval", "guards", "vanguard", "draws", "bot greedy", "bot random"):
        assert words in out
    assert "the side with the first initiative won" in out
    assert "Game length" in out and "p95" in out
    assert "How the games ended" in out
    assert "Standing at the end of each turn" in out and "lead changes per game" in out
    assert "What decided the games" in out and "elimination" in out
    assert "How pieces were removed" in out and ("melee" in out or "missile fire" in out)


def test_json_gives_low_and_high(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "balance", "mgv/clear", "--bots", "random", "--pairs", "2", "--json"
    )
    assert status == 0, err
    data = json.loads(out)
    assert data["games"] == 2 and data["bots"] == ["random"]
    for share in [*data["wins_by_side"].values(), data["draws"]]:
        assert set(share) == {"count", "trials", "rate", "low", "high"}
        assert 0.0 <= share["low"] <= share["rate"] <= share["high"] <= 1.0
    assert data["score_by_turn"] and data["turns"]["max"] >= 1
    assert list(data["decided_by"]) == ["mission", "elimination", "points", "time"]
    assert sum(s["count"] for s in data["decided_by"].values()) == 2
    assert sum(s["count"] for s in data["removals_by_cause"].values()) == data["removals"]
    assert set(data["tallies"]) == {"hits scored", "hits lost", "hits on wrecks"}


def test_precision_and_the_picture(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    png, svg = tmp_path / "b.png", tmp_path / "b.svg"
    status, out, err = run(
        capsys,
        "balance",
        "miniwars/bridge",
        "--precision",
        "0.2",
        "--max-games",
        "200",
        "--png",
        str(png),
        "--svg",
        str(svg),
    )
    assert status == 0, err
    assert "widest half-interval" in out and "(asked: 20.0%)" in out
    width, height = png_size(png.read_bytes())
    assert width >= 900 and height >= 400
    text = svg.read_text("utf-8")
    assert "wins, with 95% intervals" in text and "mean standing" in text


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--bots", "greedy,random,mcts"], "one bot, or one per side"),
        (["--bots", "nosuch"], "unknown bot 'nosuch'"),
        (["--bots", "mcts:iterations=x"], "is not a whole number"),
        (["--precision", "0.9"], "half-width between 0 and 0.5"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    status, _, err = run(capsys, "balance", "miniwars/bridge", "--pairs", "1", *argv)
    assert status == 2
    assert words in err and "Traceback" not in err


def test_a_bots_options_keep_their_commas() -> None:
    assert split_bots("greedy, mcts:iterations=5,depth=2") == [
        "greedy",
        "mcts:iterations=5,depth=2",
    ]
