"""The ``warbench`` commands run in-process: output, JSON and exit statuses."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from warbench.cli.main import main
from warbench.core.loader import builtin_scenarios
from warbench.core.record import with_checksum


def danville_text() -> str:
    return builtin_scenarios()["miniwars/danville"].read_text("utf-8")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``warbench argv...``; return (exit status, stdout, stderr)."""
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_clean_error(status: int, err: str, *wanted: str) -> None:
    """Exit 2, a ``warbench:`` message naming ``wanted``, and no traceback."""
    assert status == 2
    assert err.startswith("warbench: ")
    assert "Traceback" not in err
    for text in wanted:
        assert text in err


# -- catalogue ---------------------------------------------------------------------------------
def test_rulesets_lists_miniwars(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "rulesets")
    assert status == 0
    assert "miniwars" in out and "MiniWars" in out and "mw" in out


def test_scenarios_json_is_a_list_of_objects(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "scenarios", "--json")
    assert status == 0
    scenarios = json.loads(out)
    assert {"id": "miniwars/danville", "ruleset": "miniwars", "title": "The Danville Raid"} in (
        scenarios
    )
    assert all(set(s) == {"id", "ruleset", "title"} for s in scenarios)


def test_scenarios_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "scenarios")
    assert status == 0
    assert "miniwars/danville" in out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.startswith("warbench ")


# -- validate ----------------------------------------------------------------------------------
def test_validate_a_builtin_id(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "validate", "miniwars/danville")
    assert status == 0
    assert out.startswith("OK: miniwars/danville (The Danville Raid), 2 sides")


def test_validate_bad_toml_names_file_and_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('ruleset = "miniwars"\ntitle = "unclosed\n', "utf-8")
    status, _, err = run(capsys, "validate", str(bad))
    assert_clean_error(status, err, str(bad), "line 2")


@pytest.mark.parametrize(
    ("old", "new", "field", "problem"),
    [
        ('type = "mayor"', 'type = "orc"', "forces.danville[0].type", "unknown unit type 'orc'"),
        ('at = "1410"', 'at = "2010"', "forces.horde[6].at", "off the 16x12 map"),
    ],
)
def test_validate_bad_field_names_file_and_field(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    old: str,
    new: str,
    field: str,
    problem: str,
) -> None:
    path = tmp_path / "broken.toml"
    assert old in danville_text()
    path.write_text(danville_text().replace(old, new), "utf-8")
    status, _, err = run(capsys, "validate", str(path))
    assert_clean_error(status, err, str(path), field, problem)


def test_validate_unknown_id(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "validate", "miniwars/nowhere")
    assert_clean_error(status, err, "miniwars/nowhere", "miniwars/danville")


# -- odds --------------------------------------------------------------------------------------
def test_odds_melee_json_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "odds", "miniwars", "melee", "attacker=3", "defender=2", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["exact"]["hit"] == "7/12"
    assert data["exact"]["attacker_disrupted"] == "1/6"
    assert data["outcomes"]["hit"] == pytest.approx(7 / 12)
    assert data["attacker_disrupted"] == pytest.approx(1 / 6)


def test_odds_json_flag_may_come_before_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "odds", "miniwars", "melee", "--json", "attacker=3", "defender=2")
    assert status == 0
    assert json.loads(out)["exact"]["hit"] == "7/12"


def test_odds_missile_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "odds", "miniwars", "missile", "code=B", "range=2")
    assert status == 0
    assert "code=B range=2" in out
    hit = next(line for line in out.splitlines() if " hit " in line)
    assert "50.00%" in hit and "1/2" in hit


@pytest.mark.parametrize("argv", [["odds", "miniwars", "--help"], ["odds", "miniwars"]])
def test_odds_help_lists_attacks_and_keys(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert "melee:" in out and "missile:" in out
    assert "attacker=<int> (default 3)" in out
    assert "code=<A|B|C|D|E> (default B)" in out


def test_odds_without_ruleset_lists_rulesets(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "odds")
    assert status == 0
    assert "miniwars: melee, missile" in out


@pytest.mark.parametrize(
    ("argv", "wanted"),
    [
        (["odds", "chess", "melee"], "unknown ruleset 'chess'"),
        (["odds", "miniwars", "blast"], "no attack 'blast'"),
        (["odds", "miniwars", "melee", "power=3"], "unknown key 'power'"),
        (["odds", "miniwars", "melee", "attacker=x"], "wants a whole number"),
    ],
)
def test_odds_errors(capsys: pytest.CaptureFixture[str], argv: list[str], wanted: str) -> None:
    status, _, err = run(capsys, *argv)
    assert_clean_error(status, err, wanted)


# -- play --auto and replay -------------------------------------------------------------------
@pytest.fixture(scope="module")
def auto_record(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The record of a whole game of random bots, played by ``play --auto``."""
    path = tmp_path_factory.mktemp("auto") / "bridge.json"
    assert main(["play", "miniwars/bridge", "--auto", "--seed", "5", "--record", str(path)]) == 0
    yield path


def test_play_auto_writes_a_finished_record(auto_record: Path) -> None:
    record = json.loads(auto_record.read_text("utf-8"))
    assert record["outcome"] is not None
    assert record["players"] == {"guards": "random", "vanguard": "random"}


def test_replay_json_matches(capsys: pytest.CaptureFixture[str], auto_record: Path) -> None:
    status, out, _ = run(capsys, "replay", str(auto_record), "--json")
    assert status == 0
    data = json.loads(out)
    record = json.loads(auto_record.read_text("utf-8"))
    assert data["matches"] is True
    assert data["digest"] == record["digest"]
    assert data["actions"] == len(record["actions"])
    assert data["winner"] == record["outcome"]["winner"]


def test_replay_narrates_every_action(
    capsys: pytest.CaptureFixture[str], auto_record: Path
) -> None:
    status, out, _ = run(capsys, "replay", str(auto_record))
    record = json.loads(auto_record.read_text("utf-8"))
    assert status == 0
    assert f"{len(record['actions']):>4}. " in out
    assert "Digest matches" in out


def tampered(auto_record: Path, tmp_path: Path) -> Path:
    record = json.loads(auto_record.read_text("utf-8"))
    record["digest"] = "0" * 64
    record = with_checksum(record)  # a forger who recomputes the checksum: the replay still tells
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), "utf-8")
    return path


def test_replay_tampered_digest(
    capsys: pytest.CaptureFixture[str], auto_record: Path, tmp_path: Path
) -> None:
    path = tampered(auto_record, tmp_path)
    status, out, _ = run(capsys, "replay", str(path), "--json")
    assert status == 1
    assert json.loads(out)["matches"] is False
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 1
    assert "MISMATCH" in out


def test_replay_step_can_quit(
    capsys: pytest.CaptureFixture[str], auto_record: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter(["", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    status, out, _ = run(capsys, "replay", str(auto_record), "--step")
    assert status == 0
    assert "   1. " in out and "   2. " not in out
    assert "Replay stopped" in out


def test_replay_of_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "replay", str(tmp_path / "none.json"))
    assert_clean_error(status, err, "none.json")


# -- simulate ----------------------------------------------------------------------------------
def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "simulate", "miniwars/bridge", "--games", "2", "--side", "vanguard=random", "--json"
    )
    assert status == 0
    data = json.loads(out)
    assert data["scenario"] == "miniwars/bridge"
    assert data["games"] == 2
    assert sum(data["wins"].values()) + data["draws"] == 2
    for key in ("seed", "mean_turns", "games_per_second"):
        assert key in data


def test_simulate_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out, _ = run(
        capsys, "simulate", "miniwars/bridge", "--games", "2", "--record-dir", str(tmp_path)
    )
    assert status == 0
    assert "guards" in out and "vanguard" in out and "draws" in out and "games/s" in out
    assert len(list(tmp_path.glob("*.json"))) == 2


@pytest.mark.parametrize(
    ("side", "wanted"),
    [("orcs=random", "no side 'orcs'"), ("guards=clever", "unknown player 'clever'")],
)
def test_simulate_bad_side(capsys: pytest.CaptureFixture[str], side: str, wanted: str) -> None:
    status, _, err = run(
        capsys, "simulate", "miniwars/bridge", "--games", "1", "--side", side, "--json"
    )
    assert_clean_error(status, err, wanted)
