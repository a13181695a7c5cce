"""``warbench calibrate`` end to end (issue 14, part 2): the values table against the printed
costs, ``--json``, ``--scenario`` writing an adjusted scenario checked by a balance run, and
clear errors (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warbench.cli.main import main
from warbench.core.loader import load_scenario


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse's own usage errors
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_table_compares_values_from_play_with_the_printed_costs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "calibrate", "miniwars", "--pairs", "120")
    assert status == 0, err
    assert "miniwars: 240 games (120 battles, forces swapped) in miniwars/arena" in out
    for words in ("printed", "from play", "95% interval", "Hobgoblin", "Militia"):
        assert words in out
    assert "rank correlation with the printed costs (Spearman):" in out


def test_json_and_a_fair_scenario_written_and_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "danville-fair.toml"
    status, out, err = run(
        capsys,
        "calibrate",
        "miniwars",
        "--pairs",
        "100",
        "--scenario",
        "miniwars/danville",
        "--balance-pairs",
        "20",
        "--out",
        str(out_file),
        "--json",
    )
    assert status == 0, err
    data = json.loads(out)
    kinds = {k["key"]: k for k in data["unit_types"]}
    assert kinds["militia"]["printed"] == 9
    assert kinds["militia"]["low"] <= kinds["militia"]["points"] <= kinds["militia"]["high"]
    assert data["spearman"] is not None
    fair = data["fairness"]
    assert fair["first_side"] == "danville" and fair["adjusted_scenario"] == str(out_file)
    first, last = fair["rounds"][0], fair["rounds"][-1]
    assert first["score"]["high"] < 0.5 and first["changes"]
    assert abs(last["score"]["rate"] - 0.5) < abs(first["score"]["rate"] - 0.5)
    assert load_scenario(str(out_file)).title == "The Danville Raid"


def test_text_of_a_fairness_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_file = tmp_path / "f.toml"
    status, out, err = run(
        capsys,
        "calibrate",
        "miniwars",
        "--pairs",
        "100",
        "--scenario",
        "miniwars/danville",
        "--balance-pairs",
        "20",
        "--rounds",
        "1",
        "--out",
        str(out_file),
    )
    assert status == 0, err
    assert "miniwars/danville: danville scores 0.0%" in out
    assert "danville should get about" in out and "more points to make it even" in out
    assert f"adjusted scenario written to {out_file}" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["calibrate", "chess"], "unknown ruleset"),
        (["calibrate", "vsgmr", "--arena", "vsgmr/relic", "--pairs", "2"], "3 sides"),
        (["calibrate", "miniwars", "--pairs", "0"], "--pairs"),
    ],
)
def test_clear_errors(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert words in err


def test_an_existing_out_file_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    taken = tmp_path / "taken.toml"
    taken.write_text("keep me", "utf-8")
    argv = ["calibrate", "miniwars", "--pairs", "60", "--scenario", "miniwars/danville"]
    status, _, err = run(capsys, *argv, "--out", str(taken))
    assert status == 2
    assert "exists: give a new file" in err
    assert taken.read_text("utf-8") == "keep me"
