"""BREAK POINT: at half its starting units an army's remaining units are all disrupted,
once per game.

Red archers R1... stand in column 01, each next to a disrupted blue unit T1...
in column 02, so that every shot (a scripted 6) removes one blue unit.
"""

from __future__ import annotations


def _army(mw, targets: int, others: int, extra=(), dice=()):
    units = []
    for i in range(1, targets + 1):
        units.append(("red", f"R{i}", "bowA", f"01{i:02d}"))
        units.append(("blue", f"T{i}", "foot", f"02{i:02d}"))
    for i in range(1, others + 1):
        units.append(("blue", f"O{i}", "foot", f"09{i:02d}"))
    game = mw.started_game([*units, *extra], dice=[6] * targets + list(dice))
    mw.disrupt(game, *(f"T{i}" for i in range(1, targets + 1)))
    return game


def _others_disrupted(game, n: int) -> list[bool]:
    return [game.state.units[f"O{i}"].disrupted for i in range(1, n + 1)]


def test_twelve_units_break_on_losing_the_sixth(mw):
    """BREAK POINT (worked example): 12 units; the 6th loss disrupts every unit left."""
    game = _army(mw, targets=6, others=6)
    for i in range(1, 6):
        game.apply(f"fire R{i} T{i}", "red")
    assert len(game.state.side_units("blue")) == 7
    assert _others_disrupted(game, 6) == [False] * 6
    assert not mw.events(game, "break")
    game.apply("fire R6 T6", "red")
    assert len(game.state.side_units("blue")) == 6
    assert _others_disrupted(game, 6) == [True] * 6
    assert mw.last(game, "break").data["side"] == "blue"


def test_units_already_disrupted_are_not_affected_by_the_break(mw):
    """BREAK POINT: a unit already disrupted stays disrupted; it is not removed."""
    game = _army(mw, targets=2, others=2)
    mw.disrupt(game, "O1")
    game.apply("fire R1 T1", "red")
    game.apply("fire R2 T2", "red")
    assert mw.events(game, "break")
    assert mw.where(game, "O1") == "0901"
    assert game.state.units["O1"].disrupted is True


def test_an_army_breaks_only_once_per_game(mw):
    """BREAK POINT: an army breaks only once; later losses disrupt nobody."""
    extra = [
        ("red", "R7", "bowA", "0108"),
        ("blue", "P", "foot", "0208"),  # undisrupted: R7 disrupts, then removes it
        ("blue", "K", "chief", "0910"),
    ]
    # Six 6s, then blue's K rallies itself with a 2 in the Morale phase; turn 2:
    # initiative 6-1, and R7 fires twice over two turns.
    game = _army(mw, targets=6, others=4, extra=extra, dice=[2, 6, 1, 6])
    for i in range(1, 7):
        game.apply(f"fire R{i} T{i}", "red")
    assert len(mw.events(game, "break")) == 1  # 6 of 12 lost
    game.apply("end", "red")
    mw.skip_to(game, "morale")
    game.apply("rally K K", "blue")
    assert game.state.units["K"].disrupted is False
    game.apply("choose A", "red")
    game.apply("fire R7 P", "red")  # P was disrupted by the break: removed
    assert mw.where(game, "P") is None
    assert len(mw.events(game, "break")) == 1
    assert game.state.units["K"].disrupted is False


def test_odd_armies_break_at_half_rounded_down(mw):
    """BREAK POINT (ruling): "reduced to half" of 9 (Danville's defenders) is 4 left,
    so the 5th loss breaks the army, not the 4th."""
    game = _army(mw, targets=5, others=4)
    for i in range(1, 5):
        game.apply(f"fire R{i} T{i}", "red")
    assert not mw.events(game, "break")
    game.apply("fire R5 T5", "red")
    assert mw.events(game, "break")
    assert _others_disrupted(game, 4) == [True] * 4


def test_break_point_counts_losses_in_melee_too(mw):
    """BREAK POINT: any loss counts; here a melee elimination breaks a 2-unit army."""
    game = mw.started_game(
        [
            ("red", "A", "foot", "0504"),
            ("blue", "D", "foot", "0506"),
            ("blue", "O1", "foot", "0909"),
        ],
        dice=[6, 5],
    )
    mw.disrupt(game, "D")
    mw.skip_to(game, "move_a")
    game.apply("move A 0505", "red")
    game.apply("attack A D", "red")
    assert game.state.units["O1"].disrupted is True
    assert mw.events(game, "break")
