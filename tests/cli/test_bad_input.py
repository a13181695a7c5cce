"""Every input gets a clear error (issue 8, parts 2 and 3): seeds, stdin that is not UTF-8,
and records that a new game must never overwrite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from warbench.cli.main import main

BRIDGE = ["play", "miniwars/bridge", "--side", "guards=random", "--side", "vanguard=random"]


@pytest.mark.parametrize("seed", ["9" * 5000, "-1", "²", "1e3", "0x10", "", "9" * 20])
def test_a_seed_that_is_not_a_whole_number_in_range_is_refused_briefly(
    seed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main([*BRIDGE, "--auto", "--seed", seed])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed:" in err
    assert max(len(line) for line in err.splitlines()) < 200


def test_the_largest_seed_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "big.json"
    argv = [*BRIDGE, "--auto", "--seed", str(2**63 - 1), "--record", str(record)]
    assert main(argv) == 0
    assert json.loads(record.read_text("utf-8"))["seed"] == 2**63 - 1
    capsys.readouterr()
    assert main(["replay", str(record), "--json"]) == 0


def test_a_new_game_never_overwrites_another_games_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main([*BRIDGE, "--auto", "--seed", "7"]) == 0
    first = (tmp_path / "records" / "bridge-7.json").read_bytes()
    capsys.readouterr()

    assert main([*BRIDGE, "--auto", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "records/bridge-7.json holds another game: this one is recorded in" in out
    assert (tmp_path / "records" / "bridge-7.json").read_bytes() == first
    assert (tmp_path / "records" / "bridge-7-2.json").exists()

    explicit = ["--record", "records/bridge-7.json"]
    assert main([*BRIDGE, "--auto", "--seed", "8", *explicit]) == 2
    assert "records/bridge-7.json already exists" in capsys.readouterr().err
    assert (tmp_path / "records" / "bridge-7.json").read_bytes() == first


def _play_and_save(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, target: str) -> None:
    """Start a bridge game, type ``save TARGET`` at the prompt, then quit."""
    typed = iter([f"save {target}", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    argv = ["play", "miniwars/bridge", "--seed", "1", "--record", str(tmp_path / "g.json")]
    assert main(argv) == 0


def test_save_refuses_to_overwrite_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other.json"
    other.write_text("precious", "utf-8")
    _play_and_save(monkeypatch, tmp_path, str(other))
    assert "already exists (or its sealed files do); save to a new file" in capsys.readouterr().out
    assert other.read_text("utf-8") == "precious"


def test_stdin_that_is_not_utf8_gets_an_error_not_a_traceback(tmp_path: Path) -> None:
    """Under a strict UTF-8 locale a stray byte used to raise UnicodeDecodeError."""
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    env.pop("PYTHONUTF8", None)
    typed = b"\xff\xfe garbage \x80\n\x1b[2J\nlist\nquit\n"
    argv = [sys.executable, "-m", "warbench.cli.main", "play", "miniwars/bridge"]
    argv += ["--seed", "1", "--record", str(tmp_path / "g.json")]
    done = subprocess.run(argv, input=typed, capture_output=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    out = done.stdout.decode("utf-8")
    assert "Traceback" not in out + done.stderr.decode("utf-8", "replace")
    assert "unknown action" in out
    assert "\\udcff" in out  # the stray byte, shown escaped
    assert "\x1b[2J" not in out  # a control sequence typed is never sent back raw


def test_a_scenario_named_with_a_control_character_still_renders(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from warbench.core.loader import builtin_scenarios

    odd = tmp_path / ("a" + chr(1) + "b.toml")
    odd.write_text(builtin_scenarios()["miniwars/bridge"].read_text("utf-8"), "utf-8")
    assert main(["render", str(odd), "--svg", str(tmp_path / "o.svg")]) == 0
    assert "\\x01" in (tmp_path / "o.svg").read_text("utf-8")


def test_simulate_refuses_absurd_workers_and_a_folder_of_earlier_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "miniwars/bridge", "--games", "2"]
    assert main([*argv, "--workers", "1000000000"]) == 2
    assert "1 to 256 workers" in capsys.readouterr().err
    folder = str(tmp_path / "recs")
    assert main([*argv, "--record-dir", folder, "--seed", "1"]) == 0
    first = (tmp_path / "recs" / "game-00000.json").read_bytes()
    capsys.readouterr()
    assert main([*argv, "--record-dir", folder, "--seed", "2"]) == 2
    assert "already holds game-00000.json" in capsys.readouterr().err
    assert (tmp_path / "recs" / "game-00000.json").read_bytes() == first


@pytest.mark.parametrize(
    ("pairs", "problem"),
    [
        (["att=3", "att=4"], "given twice"),
        (["att=٣"], "wants a whole number"),
        (["att=" + "9" * 5000], "…(5000 characters)"),
    ],
)
def test_odds_keys_are_given_once_in_ascii_digits(
    pairs: list[str], problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["odds", "veg", "attack", *pairs]) == 2
    err = capsys.readouterr().err
    assert problem in err and len(err) < 300


def test_argument_errors_quote_the_command_line_only_as_printable_excerpts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["scenarios", chr(27) + "[31mRED" + chr(7) + "x" * 5000])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert chr(27) not in err and chr(7) not in err and len(err) < 400


def test_a_refused_start_claims_no_record_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "miniwars/bridge", "--seed", "7", "--side", "guards=nobody"]) == 2
    assert not (tmp_path / "records").exists() or not any((tmp_path / "records").iterdir())


def test_play_with_standard_input_closed_ends_cleanly(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "warbench.cli.main", "play", "miniwars/bridge", "--seed", "9"]
    argv += ["--record", str(tmp_path / "g.json")]
    done = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    closed = subprocess.run(
        [*argv[:-1], str(tmp_path / "h.json")],
        capture_output=True,
        timeout=120,
        preexec_fn=lambda: os.close(0),
    )
    assert closed.returncode == 0, closed.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in closed.stderr


def test_a_record_name_too_long_for_its_side_files_is_refused_up_front(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = tmp_path / ("r" * 160 + ".json")
    assert main([*BRIDGE, "--auto", "--seed", "1", "--record", str(long)]) == 2
    assert "at most 150 characters" in capsys.readouterr().err
    short = tmp_path / "r.json"
    assert main([*BRIDGE, "--auto", "--seed", "1", "--record", str(short)]) == 0
    short.rename(long)
    capsys.readouterr()
    assert main(["play", "--resume", str(long), "--auto"]) == 2
    assert "give a shorter --record" in capsys.readouterr().err


def test_save_under_a_file_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "plain"
    blocker.write_text("x", "utf-8")
    _play_and_save(monkeypatch, tmp_path, f"{blocker}/x.json")
    assert "a file stands where its folder would be" in capsys.readouterr().out
