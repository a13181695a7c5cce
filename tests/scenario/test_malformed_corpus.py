"""Malformed scenarios: one clear error naming file, field and problem, never a traceback.

Every file under ``tests/corpus/scenarios/<ruleset>/`` is a small scenario
with one defect; its second line says what the error must name:

    # expect: forces.red[0].at: finite

(field path, then a fragment of the problem; an empty field path is a
problem with the whole file). ``warbench validate FILE`` must exit 2 with one
``warbench: FILE: FIELD: problem`` message whose lines are short and free of
control characters, and loading the file to play it (``load_scenario`` then
``Game``) must raise the same ScenarioError. Cases too big to check in (labels
of thousands of digits, deep nesting, files over the size limit, too many
units) are generated below; so are scenarios just inside the limits, which
must validate.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from warbench.cli.main import main
from warbench.core.game import Game
from warbench.core.loader import builtin_scenarios, load_scenario, scenario_from_dict
from warbench.errors import ScenarioError
from warbench.geometry.table.serial import (
    MAX_FEATURE_POINTS,
    MAX_FEATURES,
    MAX_FIGURES,
    MAX_TABLE_SIZE,
)
from warbench.scenario.errors import MAX_LISTED
from warbench.scenario.files import MAX_FILE_BYTES, parse_toml
from warbench.scenario.hexmap import MAX_MAP_SIZE, MAX_UNITS

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "scenarios"
MESSAGE_LIMIT = 400
"""Characters in a line of an error message."""
LINE_LIMIT = len("warbench: ") + MESSAGE_LIMIT

HEX_BASES = {
    "miniwars": ("guardsmen", "wolfriders", ""),
    "cgme": ("tank", "tank", 'terrain = "clear"'),
    "veg": ("light_tank", "light_tank", 'terrain = "clear"'),
}


def hex_scenario(ruleset: str, *, map_extra: str = "", red: str = "", tail: str = "") -> str:
    """A small valid hex scenario of ``ruleset``, with text added where asked."""
    red_type, blue_type, terrain = HEX_BASES[ruleset]
    red = red or f'{{ id = "R1", type = "{red_type}", at = "0202" }}'
    return f"""ruleset = "{ruleset}"
title = "Small"
turn_limit = 3

[map]
columns = 6
rows = 6
{terrain}
{map_extra}

[[sides]]
name = "red"

[[sides]]
name = "blue"

[forces]
red = [{red}]
blue = [{{ id = "B1", type = "{blue_type}", at = "0505" }}]
{tail}"""


VSGMR = """ruleset = "vsgmr"
title = "Small"
rounds = 3

[table]
width = 24
height = 24

[[sides]]
name = "red"

[[sides]]
name = "blue"

[[figures.red]]
id = "R1"
type = "troop"
at = [4, 4]

[[figures.blue]]
id = "B1"
type = "troop"
at = [20, 20]
"""


# -- checking one file ---------------------------------------------------------------------


def _expectation(path: Path) -> tuple[str, str]:
    for line in path.read_text("utf-8").splitlines():
        if line.startswith("# expect: "):
            field, _, fragment = line.removeprefix("# expect: ").partition(": ")
            return field, fragment
    raise AssertionError(f"{path} has no '# expect: FIELD: problem' line")


def assert_refused(
    path: Path, field: str, fragment: str, capsys: pytest.CaptureFixture[str]
) -> str:
    """``validate`` and the play path both refuse ``path`` with one clear message."""
    status = main(["validate", str(path)])
    out, err = capsys.readouterr()
    assert status == 2, f"{path.name} was not refused: {out}{err}"
    assert "Traceback" not in err
    lines = err.rstrip("\n").split("\n")
    where = f"{path}: {field}: " if field else f"{path}: "
    assert lines[0].startswith(f"warbench: {where}"), lines[0]
    assert fragment in lines[0], f"{fragment!r} not in {lines[0]!r}"
    assert len(lines) <= MAX_LISTED + 1
    for line in lines[1:]:
        assert line.startswith(f"{path}: "), line
    for line in lines:
        assert len(line) <= LINE_LIMIT, f"a line of {len(line)} characters"
        assert all(ch.isprintable() for ch in line), repr(line)
    with pytest.raises(ScenarioError) as caught:
        Game(load_scenario(str(path)), 1)
    assert caught.value.file == str(path)
    assert caught.value.path == field
    assert fragment in caught.value.problem
    for line in str(caught.value).split("\n"):  # short before the CLI's last guard cuts it
        assert len(line) <= MESSAGE_LIMIT, f"a line of {len(line)} characters"
        assert line.isprintable(), repr(line)
    return err


# -- the corpus ------------------------------------------------------------------------------


CASES = sorted(CORPUS.glob("*/*.toml"))


def test_the_corpus_covers_every_ruleset() -> None:
    assert {path.parent.name for path in CASES} == {
        "miniwars",
        "cgme",
        "veg",
        "vsgmr",
        "mgv",
        "invisible-enemy",
    }
    assert len(CASES) > 150


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_a_malformed_scenario_gets_one_clear_error(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    field, fragment = _expectation(path)
    assert_refused(path, field, fragment, capsys)


def test_each_corpus_file_is_small_and_its_base_is_valid(tmp_path: Path) -> None:
    """The corpus files are small, and the scenarios they break are valid as written here."""
    for path in CASES:
        assert path.stat().st_size < 4096, path
    for ruleset in HEX_BASES:
        assert load_scenario(_write(tmp_path, hex_scenario(ruleset), ruleset)).ruleset == ruleset
    assert load_scenario(_write(tmp_path, VSGMR, "vsgmr")).ruleset == "vsgmr"


# -- generated cases: too big to check in -------------------------------------------------------

HUGE_LABEL = "9" * 8600
"""Twice Python's limit of digits for reading an int: the two halves are each too long."""


def _write(folder: Path, text: str, name: str) -> str:
    path = folder / f"{name}.toml"
    path.write_text(text, "utf-8")
    return str(path)


def _label_places(ruleset: str, label: str) -> list[tuple[str, str, str]]:
    """(name, scenario text, field path) for each place a hex label goes."""
    red_type = HEX_BASES[ruleset][0]
    terrain = {"miniwars": "forest", "cgme": "rough", "veg": "woods"}[ruleset]
    places = [
        (
            "unit",
            hex_scenario(ruleset, red=f'{{ id = "R1", type = "{red_type}", at = "{label}" }}'),
            "forces.red[0].at",
        ),
        (
            "terrain",
            hex_scenario(ruleset, map_extra=f'hexes.{terrain} = ["{label}"]'),
            f"map.hexes.{terrain}[0]",
        ),
        (
            "elevation",
            hex_scenario(ruleset, map_extra=f'elevation.1 = ["{label}"]'),
            "map.elevation.1[0]",
        ),
        (
            "road",
            hex_scenario(ruleset, map_extra=f'roads = [["0101", "{label}"]]'),
            "map.roads[0][1]",
        ),
    ]
    feature = {"miniwars": "river", "veg": "stream"}.get(ruleset)
    if feature:
        sides = f'hexsides = [{{ feature = "{feature}", sides = ["0101/{label}"] }}]'
        places.append(
            ("hexside", hex_scenario(ruleset, map_extra=sides), "map.hexsides[0].sides[0]")
        )
    if ruleset == "miniwars":
        text = hex_scenario(ruleset).replace(
            'name = "red"\n', f'name = "red"\ndeploy = {{ within = 1, of = ["{label}"] }}\n', 1
        )
        places.append(("deploy", text, "sides[0].deploy.of[0]"))
    else:
        objective = (
            f'[victory]\nobjectives = [{{ side = "red", reach = {{ hexes = ["{label}"] }} }}]\n'
        )
        places.append(
            (
                "objective",
                hex_scenario(ruleset, tail=objective),
                "victory.objectives[0].reach.hexes[0]",
            )
        )
    if ruleset == "veg":
        building = f'[[buildings]]\nid = "H1"\nside = "red"\nat = "{label}"\ndef = 2\nsp = 3\n'
        places.append(("building", hex_scenario(ruleset, tail=building), "buildings[0].at"))
    return places


@pytest.mark.parametrize("ruleset", sorted(HEX_BASES))
def test_a_hex_label_of_thousands_of_digits_is_refused_everywhere_a_label_goes(
    ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, text, field in _label_places(ruleset, HUGE_LABEL):
        path = Path(_write(tmp_path, text, name))
        err = assert_refused(path, field, "a label has at most 16 digits", capsys)
        assert "(8600 characters)" in err
        assert "9" * 100 not in err


@pytest.mark.parametrize("ruleset", sorted(HEX_BASES))
def test_an_elevation_level_of_thousands_of_digits_is_refused(
    ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = hex_scenario(ruleset, map_extra=f'elevation.{HUGE_LABEL} = ["0101"]')
    path = Path(_write(tmp_path, text, "level"))
    status = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert status == 2
    assert "whole numbers from -99 to 99" in err and "9" * 100 not in err
    assert "(8600 characters)" in err


NESTINGS: dict[str, Callable[[int], str]] = {
    "arrays": lambda depth: "a = " + "[" * depth + "]" * depth,
    "inline tables": lambda depth: "a = " + "{ b = " * depth + "1" + " }" * depth,
    "arrays in a scenario": lambda depth: VSGMR.replace(
        "at = [4, 4]", "at = " + "[" * depth + "]" * depth
    ),
}


@pytest.mark.parametrize("kind", sorted(NESTINGS))
@pytest.mark.parametrize("depth", [2_000, 100_000])
def test_deeply_nested_toml_is_refused(
    kind: str, depth: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = Path(_write(tmp_path, NESTINGS[kind](depth), "deep"))
    assert_refused(path, "", "nested too deeply", capsys)


def test_a_file_over_the_size_limit_is_refused_before_it_is_parsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    padding = "# " + "x" * 98 + "\n"
    text = VSGMR + padding * (MAX_FILE_BYTES // len(padding) + 1)
    path = Path(_write(tmp_path, text, "big"))
    assert path.stat().st_size > MAX_FILE_BYTES
    assert_refused(path, "", "limited to 1,048,576 bytes (1 MiB)", capsys)
    with pytest.raises(ScenarioError, match="limited to"):
        parse_toml(text, "big.toml")


def test_a_file_just_under_the_size_limit_is_read(tmp_path: Path) -> None:
    padding = "# " + "x" * 98 + "\n"
    text = VSGMR + padding * ((MAX_FILE_BYTES - len(VSGMR)) // len(padding))
    path = _write(tmp_path, text, "padded")
    assert Path(path).stat().st_size <= MAX_FILE_BYTES
    assert load_scenario(path).ruleset == "vsgmr"


def test_a_number_of_thousands_of_digits_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = hex_scenario("miniwars").replace("turn_limit = 3", "turn_limit = " + "9" * 5000)
    assert_refused(Path(_write(tmp_path, text, "digits")), "", "number too long", capsys)


def test_a_file_that_is_not_utf8_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "latin.toml"
    path.write_bytes(VSGMR.replace("Small", "Caf\xe9").encode("latin-1"))
    assert_refused(path, "", "cannot read the file", capsys)


LONG = "x" * 10_000


@pytest.mark.parametrize(
    ("name", "make", "field", "fragment"),
    [
        (
            "unit type",
            lambda: hex_scenario("miniwars", red=f'{{ id = "R1", type = "{LONG}", at = "0202" }}'),
            "forces.red[0].type",
            "at most 40 characters",
        ),
        (
            "title",
            lambda: hex_scenario("cgme").replace('title = "Small"', f'title = "{LONG}"'),
            "title",
            "at most 200 characters",
        ),
        (
            "figure name",
            lambda: VSGMR.replace('id = "R1"', f'id = "R1"\nname = "{LONG}"'),
            "figures.red[0].name",
            "at most 200 characters",
        ),
        (
            "figure id",
            lambda: VSGMR.replace('id = "R1"', f'id = "{LONG}"'),
            "figures.red[0].id",
            "(10000 characters)",
        ),
        (
            "side key",
            lambda: hex_scenario("veg").replace("[forces]\n", f'[forces]\n"{LONG}" = []\n'),
            "forces." + "x" * 39 + "…(10000 characters)",
            "(10000 characters)",
        ),
        (
            "option key",
            lambda: hex_scenario("cgme", tail=f"[options]\n{LONG} = 1\n"),
            "options." + "x" * 39 + "…(10000 characters)",
            "unknown option",
        ),
        (
            "option value",
            lambda: VSGMR + f'[options]\nrough = "{LONG}"\n',
            "options.rough",
            "(10000 characters)",
        ),
        (
            "base shape",
            lambda: VSGMR.replace("at = [4, 4]", f'at = [4, 4]\nbase = {{ shape = "{LONG}" }}'),
            "figures.red[0].base",
            "(10000 characters)",
        ),
        pytest.param(
            "ruleset",
            lambda: VSGMR.replace('ruleset = "vsgmr"', f'ruleset = "{LONG}"'),
            "ruleset",
            "unknown ruleset",
        ),
    ],
)
def test_long_input_is_quoted_only_as_an_excerpt(
    name: str,
    make: Callable[[], str],
    field: str,
    fragment: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    err = assert_refused(Path(_write(tmp_path, make(), "long")), field, fragment, capsys)
    assert len(err) < 1000, f"the {name} is echoed at length"


def test_many_problems_are_listed_at_most_up_to_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    red = ", ".join(f'{{ id = "R{n}", type = 5, at = "0202" }}' for n in range(500))
    path = Path(_write(tmp_path, hex_scenario("miniwars", red=red), "many"))
    err = assert_refused(path, "forces.red[0].type", "text in quotes", capsys)
    lines = err.rstrip("\n").split("\n")
    assert len(lines) == MAX_LISTED + 1
    assert lines[-1] == f"{path}: … and {500 - MAX_LISTED} more problems"


# -- counts at and beyond the limits ---------------------------------------------------------


def _hex_crowd(ruleset: str, units: int, size: int = MAX_MAP_SIZE) -> str:
    """A ``size`` x ``size`` map with ``units`` units, half a side each, in the first and
    last columns."""
    red_type, blue_type, terrain = HEX_BASES[ruleset]

    def force(prefix: str, kind: str, count: int, first_column: int, step: int) -> str:
        return ", ".join(
            f'{{ id = "{prefix}{n}", type = "{kind}", '
            f'at = "{first_column + step * (n // size):02d}{1 + n % size:02d}" }}'
            for n in range(count)
        )

    red = force("R", red_type, units // 2, 1, 1)
    blue = force("B", blue_type, units - units // 2, size, -1)
    return f"""ruleset = "{ruleset}"
title = "Crowd"
turn_limit = 3

[map]
columns = {size}
rows = {size}
{terrain}

[[sides]]
name = "red"

[[sides]]
name = "blue"

[forces]
red = [{red}]
blue = [{blue}]
"""


@pytest.mark.parametrize("ruleset", sorted(HEX_BASES))
def test_a_largest_hex_scenario_validates_and_one_unit_more_is_refused(
    ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    largest = _write(tmp_path, _hex_crowd(ruleset, MAX_UNITS), "largest")
    assert main(["validate", largest]) == 0
    assert len(load_scenario(largest).spec.units) == MAX_UNITS
    crowded = Path(_write(tmp_path, _hex_crowd(ruleset, MAX_UNITS + 1), "crowded"))
    assert_refused(crowded, "forces", f"{MAX_UNITS + 1:,} units; a scenario has at most", capsys)
    capsys.readouterr()


def test_cgme_counts_every_squad_of_a_counter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    counters = ", ".join(
        f'{{ id = "C{n}", type = "trooper", at = "{1 + n // 40:02d}{1 + n % 40:02d}", count = 26 }}'
        for n in range(MAX_UNITS // 26 + 1)
    )
    text = hex_scenario("cgme", red=counters).replace(
        "columns = 6\nrows = 6", "columns = 60\nrows = 60"
    )
    path = Path(_write(tmp_path, text, "counters"))
    assert_refused(path, "forces", "units; a scenario has at most 2,000", capsys)


def _table_crowd(figures: int, features: int = 0, points: int = 3) -> str:
    """A 1000" table with ``figures`` figures in rows near the edges, and ``features``
    small woods (the first with ``points`` corners) across the middle."""
    parts = [
        f"""ruleset = "vsgmr"
title = "Crowd"
rounds = 3

[table]
width = {MAX_TABLE_SIZE:g}
height = {MAX_TABLE_SIZE:g}

[[sides]]
name = "red"

[[sides]]
name = "blue"
"""
    ]
    for n in range(figures):
        side, y0 = ("red", 10) if n % 2 == 0 else ("blue", 900)
        k = n // 2
        x, y = 5 + (k % 100) * 9, y0 + (k // 100) * 9
        parts.append(
            f'[[figures.{side}]]\nid = "{side[0].upper()}{k}"\ntype = "troop"\nat = [{x}, {y}]\n'
        )
    for n in range(features):
        x, y = 5 + (n % 40) * 24, 250 + (n // 40) * 20
        corners = points if n == 0 else 3
        outline = ", ".join(
            f"[{x + 8 * (1 + (k % 2)) * _cos(k, corners):.4f}, {y + 8 * _sin(k, corners):.4f}]"
            for k in range(corners)
        )
        parts.append(f'[[features]]\nid = "f{n}"\nshape = "polygon"\npoints = [{outline}]\n')
    return "\n".join(parts)


def _cos(k: int, n: int) -> float:
    import math

    return math.cos(2 * math.pi * k / n) / 2


def _sin(k: int, n: int) -> float:
    import math

    return math.sin(2 * math.pi * k / n) / 2


def test_a_largest_table_scenario_validates(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        _table_crowd(MAX_FIGURES, MAX_FEATURES, points=MAX_FEATURE_POINTS),
        "largest",
    )
    assert Path(path).stat().st_size <= MAX_FILE_BYTES
    assert main(["validate", path]) == 0
    setup = load_scenario(path).spec
    assert len(setup.placements) == MAX_FIGURES and len(setup.features) == MAX_FEATURES
    assert len(setup.features[0].points) == MAX_FEATURE_POINTS


@pytest.mark.parametrize(
    ("make", "field", "fragment"),
    [
        (
            lambda: _table_crowd(MAX_FIGURES + 1),
            "figures",
            "2,001 figures; a scenario has at most 2,000",
        ),
        (lambda: _table_crowd(2, MAX_FEATURES + 1), "features", "at most 1000 items"),
        (
            lambda: _table_crowd(2, 1, points=MAX_FEATURE_POINTS + 1),
            "features[0].points",
            "at most 1000 items",
        ),
    ],
)
def test_a_table_scenario_over_a_limit_is_refused(
    make: Callable[[], str],
    field: str,
    fragment: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert_refused(Path(_write(tmp_path, make(), "over")), field, fragment, capsys)


def test_every_builtin_scenario_still_validates(capsys: pytest.CaptureFixture[str]) -> None:
    for scenario_id in builtin_scenarios():
        assert main(["validate", scenario_id]) == 0, capsys.readouterr().err


# -- scenarios from records (JSON) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "field", "fragment"),
    [
        ({"turn_limit": None}, "turn_limit", "whole number, not null"),
        ({"turn_limit": "12"}, "turn_limit", "whole number"),
        ({"title": ["a", "list"]}, "title", "text in quotes, not a list"),
        ({"forces": {"red": "G1"}}, "forces.red", "should be a list"),
    ],
)
def test_a_record_scenario_is_checked_as_strictly_as_a_file(
    change: dict[str, object], field: str, fragment: str
) -> None:
    raw = json.loads(json.dumps(parse_toml(hex_scenario("miniwars"), "s.toml")))
    raw.update(change)
    with pytest.raises(ScenarioError) as caught:
        scenario_from_dict(raw, "record (scenario)", "s")
    assert caught.value.path == field
    assert fragment in caught.value.problem


def test_the_expect_lines_of_the_corpus_parse() -> None:
    for path in CASES:
        field, fragment = _expectation(path)
        assert fragment, path
        assert re.fullmatch(r"[\w.\[\]\\-]*", field), (path, field)
