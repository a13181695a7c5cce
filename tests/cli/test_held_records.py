"""``replay`` and ``render`` of records with a held sealed choice in the middle.

A held choice is a sealed choice that stays secret while public actions follow
it: the shared record holds only its commitment, the clear text is in its
side's own file (``NAME.json.SIDE-sealed.json``). Without that file a replay
stops at the commitment (exit 3, "stopped at a secret": not a mismatch, not a
traceback); with it (the owner replaying his own game) it replays through,
never printing the secret unless ``--side`` names its side. ``render --at N``
draws any moment before the stop and refuses one after it with a clear message.

Played on the test-only duel's held variant (ann bids in secret, bob answers in
public, both stake, then the bid is opened) and on an MGV fire phase (a held
photon range guess, the public declaration and screens, then sealed splits).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from warbench.cli.main import main
from warbench.cli.replay import EXIT_MISMATCH, EXIT_STOPPED
from warbench.core.game import Game
from warbench.core.record import with_checksum
from warbench.core.saves import save_game, sealed_path
from warbench.rulesets.mgv.fire import missile_dice

ANN, BOB = "ann", "bob"
BID = "scissors"
"""ann's secret bid: appears in no shared output before it is opened."""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``warbench argv...``; return (exit status, stdout, stderr)."""
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text


def without_side_files(path: Path, folder: Path) -> Path:
    """A copy of the record at ``path`` in ``folder``, with none of its side files."""
    folder.mkdir(exist_ok=True)
    copy = folder / path.name
    shutil.copyfile(path, copy)
    return copy


# -- the duel: a held bid, a public answer, sealed stakes ---------------------------------
def _duel_mid_hold(duel: ModuleType, stake: bool = True) -> Game:
    """ann's bid held, bob's answer public, and (``stake``) ann's stake sealed."""
    game = Game(duel.scenario(points_to_win=3, held="sealed"), seed=5)
    game.apply(f"throw {BID}", ANN)
    game.apply("throw rock", BOB)
    if stake:
        game.apply("stake 2", ANN)
    return game


@pytest.fixture
def duel_record(duel: ModuleType, tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "duel.json"
    save_game(_duel_mid_hold(duel), path)
    assert BID not in path.read_text("utf-8")
    assert sealed_path(path, ANN).exists()
    yield path


def test_without_the_side_file_the_replay_stops_at_the_secret_and_says_so(
    duel_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shared = without_side_files(duel_record, tmp_path / "friend")
    status, out, err = run(capsys, "replay", str(shared))
    no_traceback(out, err)
    assert status == EXIT_STOPPED == 3
    assert "MISMATCH" not in out
    assert "Stopped at a secret: action 1 is ann's sealed choice" in out
    assert "1 public action follows it" in out
    assert f"its file {sealed_path(shared, ANN)} is not beside the record" in out
    assert "nothing was found wrong up to there" in out
    assert "Replayed 0 of 3 actions" in out
    assert BID not in out

    status, out, err = run(capsys, "replay", str(shared), "--json")
    no_traceback(out, err)
    assert status == EXIT_STOPPED
    data = json.loads(out)
    assert data["status"] == "stopped"
    assert data["matches"] is None and data["problems"] == []
    assert data["stopped_at"] == {
        "action": 1,
        "side": ANN,
        "file": str(sealed_path(shared, ANN)),
        "public_actions_after": 1,
    }
    assert data["actions"] == 0 and data["recorded_actions"] == 3
    assert data["sealed_pending"] == 2 and data["sealed_from_files"] == 0


def test_with_the_side_file_the_owner_replays_through_without_seeing_the_secret_printed(
    duel_record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(capsys, "replay", str(duel_record))
    no_traceback(out, err)
    assert status == 0, out
    assert "Digest matches" in out
    assert "   1. ann: a sealed choice, not yet revealed (read from its file; not shown)" in out
    assert "   2. bob: throw rock" in out
    assert BID not in out and "stake 2" not in out

    status, out, _ = run(capsys, "replay", str(duel_record), "--side", "ANN")
    assert status == 0
    assert f"   1. ann: throw {BID} (sealed, not yet revealed to the other sides)" in out
    assert "   3. ann: stake 2 (sealed" in out

    status, out, _ = run(capsys, "replay", str(duel_record), "--json")
    assert status == 0
    data = json.loads(out)
    assert data["status"] == "matches" and data["matches"] is True
    assert data["actions"] == data["recorded_actions"] == 3
    assert data["sealed_from_files"] == 2 and data["stopped_at"] is None


def test_replay_side_must_name_a_side(
    duel_record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "replay", str(duel_record), "--side", "carl")
    assert status == 2 and err.startswith("warbench: --side: no side 'carl'")


def test_a_side_file_of_another_game_does_not_count(
    duel: ModuleType, duel_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other" / "duel.json"
    other.parent.mkdir()
    save_game(_duel_mid_hold(duel), other)  # the same moves, other salts
    shared = without_side_files(duel_record, tmp_path / "mixed")
    shutil.copyfile(sealed_path(other, ANN), sealed_path(shared, ANN))
    status, out, err = run(capsys, "replay", str(shared))
    no_traceback(out, err)
    assert status == EXIT_STOPPED
    assert f"its file {sealed_path(shared, ANN)} does not hold it" in out


def test_a_held_choice_as_the_last_action_stops_without_a_false_mismatch(
    duel: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing follows it, but its round moved the game on: the digest cannot match."""
    game = Game(duel.scenario(points_to_win=3, held="sealed"), seed=5)
    game.apply(f"throw {BID}", ANN)
    path = tmp_path / "duel.json"
    save_game(game, path)
    assert main(["replay", str(path)]) == 0
    shared = without_side_files(path, tmp_path / "friend")
    capsys.readouterr()
    status, out, err = run(capsys, "replay", str(shared))
    no_traceback(out, err)
    assert status == EXIT_STOPPED
    assert "its round moved the game on without showing it" in out
    assert "MISMATCH" not in out


def test_a_pending_choice_of_the_round_now_asked_still_replays_to_a_match(
    duel: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The classic sealed round: the choice changed nothing yet, so the digest is checked."""
    game = Game(duel.scenario(), seed=5)
    game.apply("throw rock", ANN)
    path = tmp_path / "duel.json"
    save_game(game, path)
    shared = without_side_files(path, tmp_path / "friend")
    status, out, _ = run(capsys, "replay", str(shared))
    assert status == 0
    assert "1 sealed choice(s) not yet revealed: not shown." in out
    assert "Digest matches" in out
    status, out, _ = run(capsys, "replay", str(shared), "--json")
    assert status == 0 and json.loads(out)["status"] == "matches"


def test_a_changed_record_with_a_held_choice_is_still_a_mismatch(
    duel_record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(duel_record.read_text("utf-8"))
    data["digest"] = "0" * 64
    duel_record.write_text(json.dumps(with_checksum(data)), "utf-8")
    status, out, _ = run(capsys, "replay", str(duel_record))
    assert status == EXIT_MISMATCH
    assert "MISMATCH" in out
    status, out, _ = run(capsys, "replay", str(duel_record), "--json")
    assert status == EXIT_MISMATCH
    assert json.loads(out)["status"] == "mismatch"


def test_replay_step_through_a_held_choice(
    duel_record: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts: list[str] = []

    def answer(prompt: str = "") -> str:
        prompts.append(prompt)
        return ""

    monkeypatch.setattr("builtins.input", answer)
    status, out, _ = run(capsys, "replay", str(duel_record), "--step")
    assert status == 0
    assert [p.split("]")[0] for p in prompts] == ["[1/3", "[2/3", "[3/3"]
    shared = without_side_files(duel_record, duel_record.parent / "friend")
    prompts.clear()
    status, out, _ = run(capsys, "replay", str(shared), "--step")
    assert status == EXIT_STOPPED and prompts == []  # action 1 is the secret: nothing to step
    assert "Stopped at a secret" in out


def test_replay_help_documents_the_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = capsys.readouterr().out
    assert "exit status:" in out
    assert "3  stopped at a secret" in out
    assert "1  MISMATCH" in out


def test_render_after_the_stop_says_why_not(
    duel_record: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """(The duel has nothing to draw: the drawing itself is tried on MGV below.)"""
    shared = without_side_files(duel_record, tmp_path / "friend")
    svg = tmp_path / "at.svg"
    for at in ("1", "2", "3"):
        status, out, err = run(capsys, "render", str(shared), "--at", at, "--svg", str(svg))
        no_traceback(out, err)
        assert status == 2
        assert err.startswith(f"warbench: --at {at}: the record can be drawn up to action 0 only")
        assert "action 1 is ann's sealed choice, held secret" in err
        assert f"its file {sealed_path(shared, ANN)} is not beside the record" in err
        assert not svg.exists()
    status, out, err = run(capsys, "render", str(shared), "--at", "4", "--svg", str(svg))
    assert status == 2 and "has 3 actions; give 0 to 3" in err


# -- MGV: a held photon range guess in a fire phase ----------------------------------------
GUESS = "33.75"
"""blue's photon range guess for B4: in no shared output before the dice."""


@pytest.fixture(scope="module")
def mgv_record(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """mgv/clear, seed 0: blue fires; its range guess is held, the declaration and red's
    screens are public, and blue's missile split is sealed (red's still to come)."""
    game = Game.start("mgv/clear", seed=0)
    game.apply(
        "arm B1=photon B1.secondary=photon B2=missile B3=missile B4=photon B4.secondary=kinetic",
        "blue",
    )
    game.apply(
        "arm R1=photon R1.secondary=kinetic R2=missile R3=missile R4=kinetic R4.secondary=kinetic",
        "red",
    )
    game.apply("phase fire", "blue")
    decision = game.decision
    assert decision is not None and decision.hold, "mgv/clear seed 0: blue fires first"
    game.apply(f"range B4>R4={GUESS}", "blue")
    game.apply("fire B4>R4 B2>R1 B3>R4", "blue")
    game.apply("screen none", "red")
    attacks = {a.number: a for a in game.state.fire.attacks}
    two, three = (missile_dice(game.state, attacks[n])[0] for n in (2, 3))
    game.apply(f"split 2={two}/0/0 3={three}/0/0", "blue")
    path = tmp_path_factory.mktemp("mgv") / "clear.json"
    save_game(game, path, {"players": {"blue": "human", "red": "human"}})
    data = json.loads(path.read_text("utf-8"))
    assert [e.get("action", "<sealed>")[:5] for e in data["actions"]] == [
        "arm B",
        "arm R",
        "phase",
        "<seal",
        "fire ",
        "scree",
        "<seal",
    ]
    assert GUESS not in path.read_text("utf-8")
    return path, data


def test_mgv_replay_with_and_without_the_firing_sides_file(
    mgv_record: tuple[Path, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, data = mgv_record
    status, out, err = run(capsys, "replay", str(path))
    no_traceback(out, err)
    assert status == 0, out
    assert "   5. blue: fire B4>R4 B2>R1 B3>R4" in out
    assert "Digest matches" in out and GUESS not in out

    status, out, _ = run(capsys, "replay", str(path), "--side", "blue")
    assert status == 0 and f"range B4>R4={GUESS} (sealed" in out

    shared = without_side_files(path, tmp_path / "friend")
    status, out, err = run(capsys, "replay", str(shared))
    no_traceback(out, err)
    assert status == EXIT_STOPPED
    assert "Stopped at a secret: action 4 is blue's sealed choice" in out
    assert "2 public actions follow it" in out
    assert "   3. blue: phase fire" in out and "   5." not in out
    assert "MISMATCH" not in out and GUESS not in out

    status, out, _ = run(capsys, "replay", str(shared), "--json")
    summary = json.loads(out)
    assert status == EXIT_STOPPED and summary["status"] == "stopped"
    assert summary["stopped_at"]["action"] == 4 and summary["actions"] == 3
    assert summary["recorded_actions"] == len(data["actions"])


def test_mgv_render_before_and_after_the_stop(
    mgv_record: tuple[Path, dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = mgv_record
    shared = without_side_files(path, tmp_path / "friend")
    svg = tmp_path / "mgv.svg"
    status, _, err = run(capsys, "render", str(shared), "--at", "3", "--svg", str(svg))
    assert status == 0, err
    assert "after action 3 of 7, blue: phase fire" in svg.read_text("utf-8")
    status, out, err = run(capsys, "render", str(shared), "--at", "5", "--svg", str(tmp_path / "x"))
    no_traceback(out, err)
    assert status == 2
    assert err.startswith("warbench: --at 5: the record can be drawn up to action 3 only")
    assert "action 4 is blue's sealed choice" in err

    status, _, err = run(capsys, "render", str(shared), "--svg", str(svg))
    assert status == 0, err
    assert "drawn after action 3: action 4 is blue's sealed choice" in err
    text = svg.read_text("utf-8")
    assert "after action 3 of 7" in text and "drawn at action 3, where the replay stops" in text

    for at in ("4", "5", "6", "7"):
        status, _, err = run(
            capsys, "render", str(path), "--at", at, "--side", "blue", "--svg", str(svg)
        )
        assert status == 0, err
        text = svg.read_text("utf-8")
        assert f"after action {at} of 7" in text and GUESS not in text
    assert "blue: a sealed choice, not yet revealed" in text
