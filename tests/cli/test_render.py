"""``warbench render``: scenarios and records to SVG and PNG, overlays, sides, clean errors."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from warbench.bots import make_bot
from warbench.cli.main import main
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios
from warbench.core.record import with_checksum
from warbench.core.saves import write_record
from warbench.render.png import PNG_SIGNATURE, png_size
from warbench.render.svg import SVG_NS, svg_size

ACTIONS = 80
"""Length of the bot game recorded for these tests."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``warbench argv...``; return (exit status, stdout, stderr)."""
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def assert_clean_error(status: int, err: str, *wanted: str) -> None:
    """Exit 2, one ``warbench:`` line naming ``wanted``, and no traceback."""
    assert status == 2
    assert err.startswith("warbench: ") and err.count("\n") == 1
    assert "Traceback" not in err
    for text in wanted:
        assert text in err


def picture(path: Path) -> ET.Element:
    return ET.fromstring(path.read_text("utf-8"))


def classes(root: ET.Element, css_class: str) -> list[ET.Element]:
    return [e for e in root.iter() if css_class in (e.get("class") or "").split()]


def heading(root: ET.Element) -> list[str]:
    return [t.text or "" for t in classes(root, "heading")[0]]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """A short seeded game of random bots on Danville, written as ``play`` writes records."""
    game = Game.start("miniwars/danville", seed=21)
    bots = {side: make_bot("random", 3 + i) for i, side in enumerate(game.scenario.sides)}
    for _ in range(ACTIONS):
        side = game.waiting_for()[0]
        game.apply(bots[side].choose(game, side), side)
    path = tmp_path_factory.mktemp("records") / "danville-21.json"
    data = game.record()
    write_record(data, path)
    return path, data


def action_number(data: dict[str, Any], verb: str) -> int:
    """The number (1-based) of the first recorded action starting with ``verb``
    that changes something to draw (a move that holds in place draws nothing)."""
    for number, entry in enumerate(data["actions"], start=1):
        words = entry["action"].split()
        if words[0] == verb and (verb != "move" or _moves(data, number)):
            return number
    raise AssertionError(f"no {verb} in the record")


def _moves(data: dict[str, Any], number: int) -> bool:
    game = Game.start("miniwars/danville", seed=data["seed"])
    for entry in data["actions"][: number - 1]:
        game.apply(entry["action"], entry["side"])
    unit, to = data["actions"][number - 1]["action"].split()[1:]
    return bool(game.state.units[unit].pos.label != to)


# -- scenarios ---------------------------------------------------------------------------------
def test_a_scenario_id_draws_the_set_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg, png = tmp_path / "d.svg", tmp_path / "d.png"
    status, out, err = run(
        capsys, "render", "miniwars/danville", "--svg", str(svg), "--png", str(png)
    )
    assert status == 0, err
    root = picture(svg)
    assert root.tag == f"{{{SVG_NS}}}svg"
    units = {g.get("data-unit") for g in classes(root, "unit")}
    assert {"MG", "G1", "HL", "B7"} <= units and len(units) == 27
    assert heading(root)[0] == "The Danville Raid"
    assert "miniwars/danville: the set-up, before any action" in heading(root)
    assert not classes(root, "overlay")
    data = png.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert png_size(data) == svg_size(svg.read_text("utf-8"))
    assert f"wrote {svg}" in out and f"wrote {png}" in out


def test_a_scenario_file_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "raid.toml"
    source.write_text(builtin_scenarios()["miniwars/bridge"].read_text("utf-8"), "utf-8")
    status, _, err = run(capsys, "render", str(source), "--svg", str(tmp_path / "b.svg"))
    assert status == 0, err
    assert classes(picture(tmp_path / "b.svg"), "unit")


def test_png_only(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, _ = run(capsys, "render", "miniwars/danville", "--png", str(tmp_path / "d.png"))
    assert status == 0
    assert (tmp_path / "d.png").read_bytes().startswith(PNG_SIGNATURE)
    assert not (tmp_path / "d.svg").exists()


# -- records -----------------------------------------------------------------------------------
def test_a_record_is_drawn_at_its_end(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: tuple[Path, dict[str, Any]]
) -> None:
    path, data = record
    last = data["actions"][-1]
    status, _, err = run(capsys, "render", str(path), "--svg", str(tmp_path / "end.svg"))
    assert status == 0, err
    lines = heading(picture(tmp_path / "end.svg"))
    expected = f"after action {ACTIONS} of {ACTIONS}, {last['side']}: {last['action']}"
    assert any(line.endswith(expected) for line in lines)
    assert f"Turn {data['turns']} of 50" in lines[1]


def test_at_a_move_draws_its_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: tuple[Path, dict[str, Any]]
) -> None:
    path, data = record
    number = action_number(data, "move")
    entry = data["actions"][number - 1]
    unit, to = entry["action"].split()[1:]
    svg = tmp_path / "move.svg"
    status, _, err = run(capsys, "render", str(path), "--at", str(number), "--svg", str(svg))
    assert status == 0, err
    root = picture(svg)
    counters = {g.get("data-unit"): g.get("data-hex") for g in classes(root, "unit")}
    assert counters[unit] == to
    paths = classes(root, "path")
    assert len(paths) == 1 and paths[0].get("data-side") == entry["side"]
    assert any(f"after action {number} of {ACTIONS}" in line for line in heading(root))
    status, _, _ = run(
        capsys, "render", str(path), "--at", str(number), "--no-overlays", "--svg", str(svg)
    )
    assert status == 0 and not classes(picture(svg), "overlay")


def test_at_a_shot_draws_its_line_of_sight(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: tuple[Path, dict[str, Any]]
) -> None:
    path, data = record
    number = action_number(data, "fire")
    svg = tmp_path / "fire.svg"
    status, _, err = run(capsys, "render", str(path), "--at", str(number), "--svg", str(svg))
    assert status == 0, err
    sights = classes(picture(svg), "sight")
    assert len(sights) == 1 and sights[0].get("data-clear") == "true"


def test_at_zero_is_the_set_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: tuple[Path, dict[str, Any]]
) -> None:
    path, _ = record
    svg = tmp_path / "zero.svg"
    status, _, _ = run(capsys, "render", str(path), "--at", "0", "--svg", str(svg))
    assert status == 0
    root = picture(svg)
    assert any(f"before any of the record's {ACTIONS} actions" in line for line in heading(root))
    assert not classes(root, "overlay")


def test_a_negative_at_is_refused_by_the_argument_parser(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: tuple[Path, dict[str, Any]]
) -> None:
    path, _ = record
    with pytest.raises(SystemExit) as caught:
        run(capsys, "render", str(path), "--at", "-1", "--svg", str(tmp_path / "x.svg"))
    assert caught.value.code == 2
    assert "--at: -1 is out of range" in capsys.readouterr().err


@pytest.mark.parametrize("at", [str(ACTIONS + 1), "1000"])
def test_at_out_of_range(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: tuple[Path, dict[str, Any]], at: str
) -> None:
    path, _ = record
    status, _, err = run(capsys, "render", str(path), "--at", at, "--svg", str(tmp_path / "x.svg"))
    assert_clean_error(status, err, f"--at {at}", f"has {ACTIONS} actions; give 0 to {ACTIONS}")
    assert not (tmp_path / "x.svg").exists()


def test_side_draws_that_sides_view(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: tuple[Path, dict[str, Any]]
) -> None:
    path, _ = record
    svg = tmp_path / "horde.svg"
    status, _, err = run(capsys, "render", str(path), "--side", "HORDE", "--svg", str(svg))
    assert status == 0, err
    assert "view of horde: what horde may see" in heading(picture(svg))
    status, _, _ = run(capsys, "render", "miniwars/danville", "--svg", str(svg))
    assert "view: everyone (spectator)" in heading(picture(svg))


# -- errors ------------------------------------------------------------------------------------
def test_a_file_to_write_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "render", "miniwars/danville")
    assert_clean_error(status, err, "--svg FILE, --png FILE or both")


def test_unknown_scenario(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(capsys, "render", "miniwars/nowhere", "--svg", str(tmp_path / "x.svg"))
    assert_clean_error(status, err, "no scenario 'miniwars/nowhere'")


def test_unknown_side(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(
        capsys, "render", "miniwars/danville", "--side", "elves", "--svg", str(tmp_path / "x.svg")
    )
    assert_clean_error(status, err, "no side 'elves'", "danville, horde")


def test_at_needs_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run(
        capsys, "render", "miniwars/danville", "--at", "3", "--svg", str(tmp_path / "x.svg")
    )
    assert_clean_error(status, err, "--at needs a record")


def test_bad_records(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, record: tuple[Path, dict[str, Any]]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", "utf-8")
    status, _, err = run(capsys, "render", str(broken), "--svg", str(tmp_path / "x.svg"))
    assert_clean_error(status, err, str(broken), "not a JSON record")
    _, data = record
    changed = {**data, "actions": [*data["actions"][:5], {"side": "horde", "action": "fly W1"}]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(changed), "utf-8")
    status, _, err = run(capsys, "render", str(bad), "--svg", str(tmp_path / "x.svg"))
    assert_clean_error(status, err, "the record was changed after it was written")
    changed = with_checksum(changed)
    bad.write_text(json.dumps(changed), "utf-8")
    status, _, err = run(capsys, "render", str(bad), "--svg", str(tmp_path / "x.svg"))
    assert_clean_error(status, err, "action 6 cannot be replayed")
