"""Start-up: a command imports only the ruleset it names (issue 13), and discovery still works.

Each check runs in a fresh interpreter, since the test process has long since
imported every ruleset: what matters is which ``warbench.rulesets.*`` modules
are in ``sys.modules`` after one command or lookup.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

RULESETS = ("cgme", "invisible_enemy", "mgv", "miniwars", "veg", "vsgmr")


def _run(script: str) -> dict[str, object]:
    """Run ``script`` in a new interpreter; it prints one JSON object as its last line."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _names(value: object) -> list[str]:
    assert isinstance(value, list)
    return [str(name) for name in value]


LOADED = """
    import json, sys
    loaded = sorted(
        name for name in {rulesets!r}
        if f"warbench.rulesets.{{name}}" in sys.modules
    )
"""


def _loaded_after(body: str) -> dict[str, object]:
    script = textwrap.dedent(body) + textwrap.dedent(LOADED.format(rulesets=RULESETS))
    return _run(script + "print(json.dumps({'loaded': loaded, **extra}))\n")


def test_odds_for_miniwars_imports_miniwars_alone() -> None:
    result = _loaded_after(
        """
        import contextlib, io
        from warbench.cli.main import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main(["odds", "miniwars", "melee", "attacker=3", "defender=2"])
        extra = {"status": status, "out": out.getvalue()}
        """
    )
    assert result["status"] == 0
    assert "7/12" in str(result["out"])  # the hit chance: the command really ran
    assert result["loaded"] == ["miniwars"]


def test_a_scenario_id_imports_the_ruleset_its_prefix_names() -> None:
    result = _loaded_after(
        """
        from warbench.core.loader import load_scenario
        from warbench.core.game import Game
        scenario = load_scenario("miniwars/danville")
        game = Game(scenario, seed=1)
        extra = {"ruleset": scenario.ruleset, "title": scenario.title,
                 "sides": list(game.scenario.sides), "over": game.is_over}
        """
    )
    assert result["ruleset"] == "miniwars"
    assert result["title"]
    assert result["sides"] and result["over"] is False
    assert result["loaded"] == ["miniwars"]


def test_a_table_scenario_does_not_import_the_hex_rulesets() -> None:
    result = _loaded_after(
        """
        from warbench.core.loader import load_scenario
        extra = {"ruleset": load_scenario("invisible-enemy/breach").ruleset}
        """
    )
    assert result["ruleset"] == "invisible-enemy"
    # Invisible Enemy shares MGV's table code; nothing else comes along.
    loaded = _names(result["loaded"])
    assert set(loaded) <= {"invisible_enemy", "mgv"}
    assert "invisible_enemy" in loaded


def test_an_alias_still_resolves_by_loading_every_ruleset() -> None:
    result = _loaded_after(
        """
        from warbench.core import registry
        extra = {"ie": registry.get("ie").info.name, "mw": registry.get("MW").info.name,
                 "veg": registry.get("v.e.g.").info.name}
        """
    )
    assert result["ie"] == "invisible-enemy"
    assert result["mw"] == "miniwars"
    assert result["veg"] == "veg"
    assert result["loaded"] == list(RULESETS)


def test_an_unknown_name_lists_every_ruleset_even_in_a_fresh_process() -> None:
    result = _loaded_after(
        """
        from warbench.core import registry
        from warbench.errors import UnknownRuleset
        try:
            registry.get("chess")
        except UnknownRuleset as exc:
            message = str(exc)
        extra = {"message": message}
        """
    )
    message = str(result["message"])
    assert message.startswith("unknown ruleset 'chess'; known rulesets: ")
    for name in ("cgme", "invisible-enemy", "mgv", "miniwars", "veg", "vsgmr"):
        assert name in message


def test_a_scenario_file_loads_the_ruleset_it_names(tmp_path: Path) -> None:
    source = Path(__file__).parents[2] / "src/warbench/rulesets/vsgmr/scenarios/street.toml"
    copy = tmp_path / "my-street.toml"
    copy.write_text(source.read_text("utf-8"), "utf-8")
    result = _loaded_after(
        f"""
        from warbench.core.loader import load_scenario
        extra = {{"ruleset": load_scenario({str(copy)!r}).ruleset}}
        """
    )
    assert result["ruleset"] == "vsgmr"
    assert result["loaded"] == ["vsgmr"]


def test_a_new_package_under_rulesets_registers_itself(tmp_path: Path) -> None:
    """Discovery: a package beside the built-in ones is found by its name and its
    alias, with no change anywhere else (here the folder is added to the package path)."""
    package = tmp_path / "newrules"
    package.mkdir()
    (package / "__init__.py").write_text(
        textwrap.dedent(
            """
            from warbench.core.registry import register
            from warbench.core.ruleset import RulesetInfo
            from warbench.rulesets.miniwars import MiniWars

            class NewRules(MiniWars):
                info = RulesetInfo(name="newrules", title="New rules", version="1",
                                   geometry="hex", aliases=("nr",))

            RULESET = register(NewRules())
            """
        ),
        "utf-8",
    )
    result = _run(
        f"""
        import json, sys
        import warbench.rulesets
        warbench.rulesets.__path__.append({str(tmp_path)!r})
        from warbench.core import registry
        first = registry.get("newrules").info.title
        alone = "warbench.rulesets.vsgmr" not in sys.modules
        alias = registry.get("NR").info.name
        names = [r.info.name for r in registry.all_rulesets()]
        print(json.dumps({{"first": first, "alone": alone, "alias": alias, "names": names}}))
        """
    )
    assert result["first"] == "New rules"
    assert result["alone"] is True
    assert result["alias"] == "newrules"
    assert {"newrules", "vsgmr"} <= set(_names(result["names"]))
