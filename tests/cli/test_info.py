"""``warbench info SCENARIO UNIT [--side SIDE]`` and the goals in ``validate`` and
``scenarios``, run in-process through main()."""

from __future__ import annotations

import json

import pytest

from warbench.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_clean_error(status: int, err: str, *wanted: str) -> None:
    assert status == 2
    assert err.startswith("warbench: ")
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    for text in wanted:
        assert text in err


def test_info_answers_from_the_units_own_side_by_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "info", "miniwars/bridge", "G1")
    assert (status, err) == (0, "")
    assert out.splitlines() == [
        "Hold the Bridge (miniwars/bridge), at the start, as guards sees it:",
        "  G1: Town Guardsmen (guardsmen), guards (Town guards)",
        "  move 3, CS 2, morale + (above average), cost 68",
        "  missile B: hits on 3+ at 1 hex, 4+ at 2, 5+ at 3, 6 at 4",
        "  at 0504 (open, road)",
        "  status: in good order",
    ]


def test_info_of_a_hex_is_a_spectators_and_side_is_any_case(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(capsys, "info", "veg/city-assault", "1206")
    assert status == 0
    assert out.splitlines()[0].endswith("as a spectator sees it:")
    assert "  building BUNKER (garrison): DEF 6, 20 of 20 structural points" in out
    status, out, _ = run(capsys, "info", "veg/city-assault", "BUNKER", "--side", "ASSAULT")
    assert status == 0
    assert "as assault sees it" in out and "structural points: 20 of 20" in out


def test_info_of_a_figure_and_a_point_on_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "info", "vsgmr/street", "R4", "--side", "blue")
    assert status == 0
    assert "  gun (distance attacks), automatic fire; armour none; worth 3 points" in out
    assert "  at 13,2, facing 90deg north" in out
    status, out, _ = run(capsys, "info", "invisible-enemy/company", "6,10", "--side", "california")
    assert status == 0
    assert '  figures within 3" (centre to centre): C1 (california) 0.0"' in out
    # A spectator sees both sides by eye (3.0): C1 at the centre of its 2-inch cell.
    status, out, _ = run(capsys, "info", "invisible-enemy/company", "6,10")
    assert status == 0
    assert '  figures within 3" (centre to centre): C1 (california) 1.4"' in out


def test_info_of_an_unknown_unit_is_one_clean_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "info", "mgv/strike", "Z9")
    assert out == ""
    assert_clean_error(status, err, "no base 'Z9' here", "ask about a base (B1, B2, B3, B4, R1")


def test_info_with_an_unknown_side_is_one_clean_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "info", "mgv/strike", "B1", "--side", "purple")
    assert_clean_error(status, err, "no side 'purple'", "sides: blue, red")


def test_info_of_an_unknown_scenario_is_a_clean_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "info", "nowhere/at-all", "B1")
    assert status == 2 and err.startswith("warbench: ") and "Traceback" not in err


def test_validate_prints_the_goal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "validate", "mgv/strike")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("OK: mgv/strike (Surgical Strike)")
    assert lines[1] == "Goal:"
    assert "  blue wins as soon as R1 (L63 Whiptail) is destroyed." in lines


def test_scenarios_shows_how_each_is_won(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "scenarios")
    assert status == 0
    assert "how it is won" in out and "--long" in out
    status, out, _ = run(capsys, "scenarios", "--long")
    assert status == 0
    assert "veg/crater-field: Crossing the Crater Field (veg)" in out
    assert "  At the end of turn 8, blockers (Blocking force) wins." in out


def test_scenarios_json_long_gives_each_goal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "scenarios", "--json", "--long")
    assert status == 0
    rows = {row["id"]: row for row in json.loads(out)}
    assert rows["miniwars/bridge"]["goal"][1] == (
        "guards (Town guards) wins if both armies still stand at the end of turn 8."
    )
    assert all(row["goal"] for row in rows.values())


def scenario_ids() -> list[str]:
    from warbench.core.loader import list_scenarios

    return [s.id for s in list_scenarios()]


@pytest.mark.parametrize("sid", scenario_ids())
def test_every_built_in_scenario_states_its_description_and_its_end(sid: str) -> None:
    from warbench.core.loader import load_scenario
    from warbench.core.registry import get

    scenario = load_scenario(sid)
    lines = get(scenario.ruleset).goal(scenario)
    assert lines[0] == " ".join(str(scenario.raw["description"]).split())
    assert len(lines) >= 3
    limit = scenario.turn_limit
    assert any(f"turn {limit}" in line or f"round {limit}" in line for line in lines[1:])
