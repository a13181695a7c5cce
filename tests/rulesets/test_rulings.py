"""House rules made visible (issue 12): the rulings files, the refusals that cite them,
``rules_in_force`` for every built-in scenario, and prompts that explain the rules' choices.

Each ruleset's ``data/rulings.toml`` lists the numbered rulings of its trace
(``docs/rules/<name>.md``) and what each value of each scenario option means;
refusals caused by a ruling cite it from there (``warbench.rulesets.kit.rulings``).
The refusal tests play to the position with each ruleset's own test helpers
(its ``conftest.py``, loaded by path: the tests run with importlib imports).
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import typing
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from warbench.core.loader import builtin_scenarios, load_scenario
from warbench.core.registry import get
from warbench.errors import IllegalAction
from warbench.rulesets.kit.rulings import cite, cite_ruling, offers, rules_in_force, rulings

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent

# ruleset (or world) package -> its trace, and the model of its scenario options
TRACES = {
    "miniwars": "miniwars.md",
    "veg": "veg.md",
    "cgme": "cgme.md",
    "vsgmr": "vsgmr.md",
    "mgv": "mgv.md",
    "invisible_enemy": "invisible-enemy.md",
}


def _package(name: str) -> str:
    return f"warbench.rulesets.{name}"


def _options_model(name: str) -> Any:
    if name in ("cgme", "veg"):
        return get(name).options_model  # type: ignore[attr-defined]
    module = importlib.import_module(f"warbench.rulesets.{name}.scenario")
    return module.OptionsSpec


def _doc_rulings(name: str) -> dict[int, str]:
    """The numbered rulings of a trace: number -> bold title (without its full stop)."""
    text = (ROOT / "docs" / "rules" / TRACES[name]).read_text("utf-8")
    found = re.findall(r"^(\d+)\. \*\*(.+?)\*\*", text, re.MULTILINE)
    return {int(n): title.rstrip(".") for n, title in found}


def _helpers(name: str) -> ModuleType:
    """A ruleset's test helpers (its conftest.py), loaded under a name of their own."""
    path = HERE / name / "conftest.py"
    spec = importlib.util.spec_from_file_location(f"_rulings_helpers_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _refusal(game: Any, text: str, side: str) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(text, side)
    return err.value.reason if hasattr(err.value, "reason") else str(err.value)


# -- the data files match the traces -------------------------------------------------------


@pytest.mark.parametrize("name", sorted(TRACES))
def test_every_ruling_in_the_data_matches_a_numbered_ruling_of_the_trace(name: str) -> None:
    """Each line of ``rulings.toml`` is the trace's ruling of that number (same title),
    and every numbered ruling of the trace has its line (CGME has none: stand-ins)."""
    data = rulings(_package(name))
    doc = _doc_rulings(name)
    assert {n: r.title for n, r in data.rulings.items()} == doc
    if name == "cgme":
        assert doc == {}


@pytest.mark.parametrize("name", sorted(TRACES))
def test_every_option_a_ruling_selects_is_named_in_that_ruling_of_the_trace(name: str) -> None:
    """A ruling line that names an option names one its trace paragraph names too."""
    text = (ROOT / "docs" / "rules" / TRACES[name]).read_text("utf-8")
    paragraphs = re.split(r"\n(?=\d+\. \*\*)", text)
    for number, ruling in rulings(_package(name)).rulings.items():
        (paragraph,) = [p for p in paragraphs if p.startswith(f"{number}. **")]
        for option in ruling.options:
            assert f"`{option}" in paragraph or option.replace("_", " ") in paragraph.lower(), (
                number,
                option,
            )


@pytest.mark.parametrize("name", sorted(TRACES))
def test_the_data_describes_every_scenario_option_and_every_value(name: str) -> None:
    """Every option of the ruleset's options model is in the data, and every value a
    scenario may write (each Literal, both booleans) has a meaning."""
    model = _options_model(name)
    data = rulings(_package(name))
    assert set(data.options) == set(model.model_fields)
    for option, field in model.model_fields.items():
        values: list[Any] = []
        for arg in typing.get_args(field.annotation) or (field.annotation,):
            if typing.get_origin(arg) is typing.Literal:
                values.extend(typing.get_args(arg))
            elif arg is bool:
                values.extend([True, False])
            elif arg is type(None):
                values.append(None)
        if field.annotation is bool:
            values = [True, False]
        values.append(field.default)
        defaults = model().model_dump()
        for value in values:
            lines = rules_in_force(_package(name), {**defaults, option: value}, defaults)
            assert any(line.startswith(f"option {option} = ") for line in lines)


# -- rules_in_force for every built-in scenario ------------------------------------------------


@pytest.mark.parametrize("ref", sorted(builtin_scenarios()))
def test_rules_in_force_lists_each_option_then_each_ruling_for_every_built_in_scenario(
    ref: str,
) -> None:
    scenario = load_scenario(ref)
    ruleset = get(scenario.ruleset)
    lines = ruleset.rules_in_force(scenario)
    package = _package(scenario.ruleset.replace("-", "_"))
    data = rulings(package)
    option_lines = [line for line in lines if line.startswith("option ")]
    ruling_lines = [line for line in lines if line.startswith("ruling ")]
    assert len(option_lines) == len(data.options)
    assert len(ruling_lines) == len(data.rulings)
    assert lines == option_lines + ruling_lines
    for number, line in enumerate(ruling_lines, start=1):
        assert line.startswith(f"ruling {number}, {data.rulings[number].title}: ")
    set_in_file = dict(scenario.raw.get("options", {}))
    for line in option_lines:
        name = line.split()[1]
        if name in set_in_file and "(default;" not in line:
            assert "(default " in line  # a value the scenario changed says the default


def test_rules_in_force_says_what_danville_plays_with() -> None:
    lines = get("miniwars").rules_in_force(load_scenario("miniwars/danville"))
    assert lines[:5] == [
        "option fired_units = free (default; ruling 7): a unit that fired may still move and melee",
        "option first_initiative_tie = reroll (default; ruling 9): both sides roll again",
        "option hedgerow = as_printed (default; ruling 3): "
        "infantry may not cross a hedgerow; cavalry pays +2",
        "option hold_and_melee = true (default; ruling 8): "
        "a unit may hold in its hex (move 0) and then melee",
        "option los_along_edge = either (default; ruling 6): "
        "blocked when the hexes on either side of the line block",
    ]
    assert lines[5 + 6] == (
        "ruling 7, Fire and then move or melee: what a unit that fired may still do "
        "that turn [option fired_units]"
    )


def test_rules_in_force_marks_options_a_scenario_changed() -> None:
    """Relic turns on two optional rules of the text; Gauntlet picks core rule (b);
    the tank battle turns on attacks during movement."""
    relic = get("vsgmr").rules_in_force(load_scenario("vsgmr/relic"))
    assert (
        "option everyone_acts = true (default false; ruling 4): "
        "players act one figure at a time in turn"
    ) in relic
    assert (
        "option specific_skills = true (default false; II.5, optional rule Specific Skills): "
        "+1 to a skill roll of the figure's own kind of skill"
    ) in relic
    gauntlet = get("mgv").rules_in_force(load_scenario("mgv/gauntlet"))
    assert gauntlet[0] == (
        "option core_rule = b (default a; 5.2, core rule (a) or (b)): "
        "core hits may eat their way round beneath intact surface circles"
    )
    tanks = get("veg").rules_in_force(load_scenario("veg/tank-battle"))
    assert tanks[0] == (
        "option attack_during_movement = true (default false; optional rule Attacks During "
        "Movement): units may attack in their movement phase"
    )
    assert (
        "option stacking_limit = unset (default; ruling 1): 5 units a hex (the world's limit)"
        in tanks
    )


def test_a_stacking_limit_of_any_number_is_described() -> None:
    defaults = get("veg").options_model().model_dump()  # type: ignore[attr-defined]
    lines = rules_in_force("warbench.rulesets.veg", {"stacking_limit": 7}, defaults)
    assert "option stacking_limit = 7 (default unset; ruling 1): 7 units a hex" in lines


# -- citing -------------------------------------------------------------------------------------


def test_cite_names_the_ruling_and_option_from_the_data() -> None:
    assert cite("warbench.rulesets.miniwars", "fired_units", allow="free") == (
        "ruling 7, option `fired_units` (set it to `free` to allow)"
    )
    assert cite("warbench.rulesets.vsgmr", "figures_block_sight") == (
        "ruling 10, option `figures_block_sight`"
    )
    assert cite("warbench.rulesets.veg", "move_or_shoot", allow="false") == (
        "option `move_or_shoot` (optional rule of the mobile howitzer; set it to `false` to allow)"
    )
    assert cite_ruling("warbench.rulesets.invisible_enemy", 36) == "ruling 36"


def test_citing_what_the_data_does_not_hold_is_an_error() -> None:
    with pytest.raises(KeyError, match="no option 'fire_then_melee'"):
        cite("warbench.rulesets.miniwars", "fire_then_melee")
    with pytest.raises(KeyError, match="no ruling 23"):
        cite_ruling("warbench.rulesets.miniwars", 23)


# -- refusals caused by a ruling name it --------------------------------------------------------


def _mw_fired(mw: ModuleType, fired_units: str) -> Any:
    """R (code A) fires at T and misses, then A's movement begins."""
    game = mw.started_game(
        [("red", "R", "bowA", "0501"), ("blue", "T", "foot", "0503")],
        dice=[1],
        options={"fired_units": fired_units},
    )
    game.apply("fire R T", "red")
    mw.skip_to(game, "move_a")
    return game


def test_miniwars_ruling_7_hold_a_unit_that_fired_may_not_move() -> None:
    mw = _helpers("miniwars")
    game = _mw_fired(mw, "hold")
    assert _refusal(game, "move R 0502", "red") == (
        "R fired this turn and must hold: "
        "ruling 7, option `fired_units` (set it to `free` to allow)"
    )


def test_miniwars_ruling_7_no_melee_a_unit_that_fired_may_not_attack_after_moving() -> None:
    mw = _helpers("miniwars")
    game = _mw_fired(mw, "no_melee")
    game.apply("move R 0502", "red")  # next to T, but no attack is offered
    assert _refusal(game, "attack R T", "red") == (
        "R fired this turn and may not melee: ruling 7, option `fired_units` "
        "(set it to `free` to allow)"
    )


def test_miniwars_ruling_8_a_unit_that_held_may_not_attack_under_the_option() -> None:
    mw = _helpers("miniwars")
    game = mw.started_game(
        [("red", "A", "foot", "0505"), ("blue", "D", "foot", "0506")],
        options={"hold_and_melee": False},
    )
    mw.skip_to(game, "move_a")
    assert _refusal(game, "attack A D", "red") == (
        "A must first move into a new hex (move A HEX), then attack: ruling 8, option "
        "`hold_and_melee` (set it to `true` to allow)"
    )


def test_miniwars_ruling_21_a_unit_attacks_right_after_its_move() -> None:
    mw = _helpers("miniwars")
    game = mw.started_game(
        [("red", "A", "foot", "0505"), ("red", "B", "foot", "0305"), ("blue", "D", "foot", "0506")]
    )
    mw.skip_to(game, "move_a")
    assert _refusal(game, "attack A D", "red") == (
        "move A first (move A 0505 to stay where it is), then attack: ruling 21"
    )
    game.apply("move A 0505", "red")
    game.apply("pass", "red")
    assert _refusal(game, "attack A D", "red") == (
        "A has already moved this phase; a unit attacks right after its move or not at all: "
        "ruling 21"
    )


def test_miniwars_ruling_6_a_shot_along_a_hexside_names_the_ruling() -> None:
    """0102 to 0302 runs along the hexside between 0201 and 0202; a forest in 0201
    blocks it under `either` (the default)."""
    mw = _helpers("miniwars")
    game = mw.started_game(
        [("red", "R", "bowA", "0102"), ("blue", "T", "foot", "0302")],
        hexes={"forest": ["0201"]},
    )
    reason = game.ruleset.fire_problem(game.state, game.state.units["R"], game.state.units["T"])
    assert reason == (
        "no line of sight from R to T: the line runs along a hexside or through a hex corner, "
        "and a blocker on either side blocks it (ruling 6, option `los_along_edge`)"
    )


def test_veg_ruling_1_a_full_hex_names_the_stacking_ruling() -> None:
    veg = _helpers("veg")
    units = [("red", "M", "gun", "0503"), *[("blue", f"E{i}", "gun", "0505") for i in range(5)]]
    game = veg.new_game(units)
    reason = _refusal(game, "move M 0505", "red")
    assert reason.endswith(
        "the hex is full (stacking limit 5 units, both sides count: ruling 1, option "
        "`stacking_limit`)"
    )


def test_veg_optional_rules_name_their_option() -> None:
    veg = _helpers("veg")
    howitzer = [
        ("red", "H", "mobile_howitzer", "0501"),
        ("red", "G", "gun", "0901"),
        ("blue", "E", "gun", "0507"),
        ("blue", "F", "gun", "0903"),  # G's target, so red's attack phase is asked
    ]
    game = veg.new_game(howitzer, options={"move_or_shoot": True})
    game.apply("move H 0502", "red")
    veg.skip_to(game, "red", "attack")
    assert _refusal(game, "attack H E", "red") == (
        "H has moved this turn and may not fire: option `move_or_shoot` "
        "(optional rule of the mobile howitzer; set it to `false` to allow)"
    )
    guns = [("red", "A", "gun", "0505"), ("blue", "T", "gun", "0507")]
    game = veg.new_game(guns)
    assert _refusal(game, "attack A T", "red") == (
        "attacks come in the attack phase: option `attack_during_movement` "
        "(optional rule Attacks During Movement; set it to `true` to allow)"
    )


VS_PAIR = [
    ("red", {"id": "A2", "type": "troop", "at": [30, 10], "facing": 90, "distance": True}),
    ("blue", {"id": "B2", "type": "troop", "at": [30, 11], "facing": 270}),
]
"""A pair in contact far away, so red is still asked in the attack steps."""


def test_vsgmr_ruling_12_a_riderless_mount_does_not_attack() -> None:
    vs = _helpers("vsgmr")
    figures = [
        vs.fig("red", "A", "cavalry", (10, 9.5), 90),
        vs.fig("blue", "B", "troop", (10, 11), 270),
        *VS_PAIR,
    ]
    game = vs.start(figures, dice=[6, 1])
    vs.skip_to(game, "hand", "red")
    assert _refusal(game, "fight A B", "red") == (
        "A has no rider or driver, so it does not attack: ruling 12, option "
        "`riderless_attacks` (set it to `true` to allow)"
    )


def test_vsgmr_ruling_6_a_half_move_in_rough_terrain_names_the_option() -> None:
    vs = _helpers("vsgmr")
    woods = {
        "id": "woods",
        "kind": "woods",
        "shape": "polygon",
        "points": [[8, 8], [12, 8], [12, 14], [8, 14]],
        "rough": True,
    }
    figures = [vs.fig("red", "A", "troop", (10, 10), 90), vs.fig("blue", "Z", "troop", (34, 34))]
    game = vs.start(figures, features=[woods])
    reason = _refusal(game, "move A 10,13.2", "red")
    assert reason.endswith(
        "(a Half Move Unit: the base is in rough terrain during the move: ruling 6, option `rough`)"
    )


def test_vsgmr_ruling_10_range_names_how_it_is_measured() -> None:
    vs = _helpers("vsgmr")
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 30), 270),
        *VS_PAIR,
    ]
    game = vs.start(figures, dice=[6, 1])
    vs.skip_to(game, "distance", "red")
    reason = _refusal(game, "shoot A B", "red")
    assert reason.endswith(
        'beyond the Distance Attack Unit (12", measured edge to edge: ruling 10, option '
        "`range_from`)"
    )


def test_vsgmr_ruling_10_a_figure_in_the_way_names_the_option_that_makes_it_block() -> None:
    vs = _helpers("vsgmr")
    figures = [
        vs.fig("red", "A", "troop", (10, 10), 90, distance=True),
        vs.fig("blue", "B", "troop", (10, 16), 270),
        vs.fig("red", "C", "vehicle", (10, 13), 0),
        *VS_PAIR,
    ]
    game = vs.start(figures, dice=[6, 1], options={"figures_block_sight": True})
    vs.skip_to(game, "distance", "red")
    assert _refusal(game, "shoot A B", "red") == (
        "A cannot see B: figures block sight here (C in the way): ruling 10, option "
        "`figures_block_sight` (set it to `false` to allow)"
    )
    game = vs.start(figures, dice=[6, 1])  # by default C blocks nothing
    vs.skip_to(game, "distance", "red")
    assert "shoot A B" in [str(a) for a in game.legal_actions("red")]


def test_mgv_ruling_14_under_estimate_nobody_writes_guesses() -> None:
    mgv = _helpers("mgv")
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="photon"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.start(bases, "blue", "fire", (4, 1, 1, 1), tail=True, options={"photon": "estimate"})
    assert game.state.step == "declare"
    assert mgv.refused(game, "range B1>R1=15", "blue") == (
        "nobody writes range guesses: each photon shot's guess is drawn from the error model: "
        "ruling 14, option `photon` (set it to `guess` to allow)"
    )


def test_mgv_ruling_12_written_guesses_cannot_be_taken_back() -> None:
    mgv = _helpers("mgv")
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0, main="photon"),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.start(bases, "blue", "fire", (4, 1, 1, 1), tail=True)
    game.apply("range B1>R1=15", "blue")
    assert game.state.step == "declare"
    assert mgv.refused(game, "range B1>R1=16", "blue") == (
        "the range guesses are written and cannot be taken back (ruling 12)"
    )


# -- prompts explain the rules' own choices -------------------------------------------------------


def test_the_miniwars_initiative_prompt_says_what_a_and_b_do() -> None:
    mw = _helpers("miniwars")
    game = mw.new_game([("red", "R", "foot", "0501"), ("blue", "T", "foot", "0510")], [6, 1])
    assert game.decision.prompt == (
        "red won the initiative: choose A (fire first, move and fight last, rally first) "
        "or B (fire second, move and fight first)"
    )


def test_the_vsgmr_initiative_prompt_says_what_first_means() -> None:
    vs = _helpers("vsgmr")
    game = vs.new_game(
        [vs.fig("red", "A", "troop", (10, 10)), vs.fig("blue", "B", "troop", (30, 30))], [6, 1]
    )
    assert game.decision.prompt == (
        "red won the initiative: choose the side that acts first in every step of this "
        "round (first red or first blue); the other acts second"
    )


def test_the_vsgmr_prompt_says_everyone_acts_one_figure_at_a_time() -> None:
    vs = _helpers("vsgmr")
    figures = [vs.fig("red", "A", "troop", (10, 10)), vs.fig("blue", "B", "troop", (30, 30))]
    game = vs.start(figures, options={"everyone_acts": True})
    assert game.decision.prompt.endswith("(Everyone Acts: one figure, then the next player)")


def test_the_cgme_join_prompt_says_what_joining_and_rolling_do() -> None:
    veg = _helpers("veg")
    units = [("red", "A", "gun", "0505"), ("red", "B", "gun", "0504"), ("blue", "T", "gun", "0507")]
    game = veg.new_game(units)
    veg.skip_to(game, "red", "attack")
    game.apply("attack A T", "red")
    assert game.decision.prompt == (
        "attack on T by A: join UNIT to add its ATT to this attack, or roll to resolve it"
    )


def test_the_mgv_prompts_say_what_the_choices_are() -> None:
    mgv = _helpers("mgv")
    bases = [
        mgv.base("blue", "B1", "L35", (4, 12), 0),
        mgv.base("red", "R1", "L35", (20, 12), 180),
    ]
    game = mgv.new_game(bases, [6, 1], True)
    assert game.decision.prompt == (
        "choose what all your bases do this phase (1.6): phase move or phase fire; "
        "each may be taken once a turn"
    )


def test_the_invisible_enemy_prompts_say_what_each_choice_does() -> None:
    """The 2.0 worked example's network dice: blue has 4 points and buys first."""
    ie = _helpers("invisible_enemy")
    forces = [
        ie.unit("blue", "U1", ie.base("B1", "L35", (4, 12))),
        ie.unit("red", "V1", ie.base("R1", "K817", (20, 12), 180)),
    ]
    dice = (6, 6, 5, 4, 4, 3, 1, 1, 6, 5, 5, 5, 3, 2, 2)
    game = ie.new_game(forces, dice, network=(8, 7))
    assert game.state.step == "buy"
    assert game.decision.prompt == (
        "buy tactical actions with your 4 action points; unspent points are lost (2.0): "
        "buy auto=UNIT (it moves with no Control roll), type1 (an extra Type 1 barrage), "
        "deflect (-1 to an enemy marker's rolls), suppress25|suppress50|suppress75 "
        "(harder enemy Control rolls), die (the enemy loses a network die) ..., or buy none"
    )
    moving = ie.start(forces)
    assert moving.decision.prompt == (
        "name a unit to try to move (4.0): unit UNIT rolls for Control (a failed roll spends "
        "its move this turn), pass stops moving units this turn, destruct BASE "
        "self-destructs a base"
    )


def test_a_world_that_fixes_a_rule_says_so_instead_of_citing_an_option() -> None:
    """The bare CGME core offers no attacks during movement: the refusal says the rule is
    fixed there (V.E.G., which offers the option, cites it)."""
    from warbench.core.game import Game
    from warbench.errors import IllegalAction

    game = Game.start("cgme/skirmish", seed=0)
    side = game.waiting_for()[0]
    with pytest.raises(IllegalAction) as refused:
        game.apply("attack BT1 RT1", side)
    assert "attacks come in the attack phase: a fixed rule of this game" in str(refused.value)
    assert not offers("warbench.rulesets.cgme", "attack_during_movement")
    assert offers("warbench.rulesets.veg", "attack_during_movement")
