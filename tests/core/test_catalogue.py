"""The cached catalogue of rulesets and scenarios (issue 28: start-up).

``warbench rulesets`` and ``scenarios`` read the catalogue from a cache keyed by a
fingerprint of the sources; with it current they import no ruleset (nor numpy,
shapely or scipy). Each start-up check runs in a fresh interpreter, since the test
process has long since imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from warbench.core import catalogue, registry

HEAVY = ("scipy", "numpy", "shapely")


def _command(argv: list[str], cache: Path) -> dict[str, object]:
    """Run ``warbench ARGV`` in a new interpreter; what it printed and imported."""
    script = textwrap.dedent(
        f"""
        import contextlib, io, json, sys
        from warbench.cli.main import main
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main({argv!r})
        rulesets = sorted(m for m in sys.modules if m.startswith("warbench.rulesets."))
        heavy = sorted(m for m in {HEAVY!r} if m in sys.modules)
        print(json.dumps({{"status": status, "out": out.getvalue(),
                          "rulesets": rulesets, "heavy": heavy}}))
        """
    )
    env = {**os.environ, "WARBENCH_CACHE": str(cache), "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_rulesets_never_imports_scipy(tmp_path: Path) -> None:
    """Not when it computes the catalogue, nor when it reads it from the cache."""
    first = _command(["rulesets"], tmp_path)
    assert first["status"] == 0
    assert "scipy" not in list(first["heavy"])  # type: ignore[arg-type]
    again = _command(["rulesets"], tmp_path)
    assert again["out"] == first["out"]
    assert again["heavy"] == []
    assert again["rulesets"] == []


def test_scenarios_from_the_cache_import_no_ruleset(tmp_path: Path) -> None:
    first = _command(["scenarios", "--json", "--long"], tmp_path)
    assert (tmp_path / "catalogue.json").is_file()
    again = _command(["scenarios", "--json", "--long"], tmp_path)
    assert again["out"] == first["out"]
    assert again["rulesets"] == [] and again["heavy"] == []
    rows = json.loads(str(again["out"]))
    assert "mgv/strike" in [row["id"] for row in rows]
    assert all(row["goal"] for row in rows)


def test_a_stale_or_broken_cache_is_computed_again(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps({"fingerprint": "old", "rulesets": [], "scenarios": []}))
    result = _command(["rulesets"], tmp_path)
    assert "miniwars" in str(result["out"])
    assert json.loads(path.read_text())["fingerprint"] != "old"
    path.write_text("{not json")
    assert "miniwars" in str(_command(["rulesets"], tmp_path)["out"])


def test_the_cached_catalogue_is_the_computed_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WARBENCH_CACHE", str(tmp_path))
    monkeypatch.setattr(catalogue, "_current", None)
    computed = catalogue.catalogue()
    monkeypatch.setattr(catalogue, "_current", None)
    monkeypatch.setattr(catalogue, "compute", lambda: pytest.fail("not read from the cache"))
    assert catalogue.catalogue() == computed
    names = [row.name for row in computed.rulesets]
    assert names == [r.info.name for r in registry.all_rulesets() if r.info.name in names]
    assert {"cgme", "invisible-enemy", "mgv", "miniwars", "veg", "vsgmr"} <= set(names)


def test_the_fingerprint_follows_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import warbench.rulesets

    before = catalogue.fingerprint()
    assert catalogue.fingerprint() == before
    monkeypatch.setattr(warbench.rulesets, "__path__", [*warbench.rulesets.__path__, str(tmp_path)])
    (tmp_path / "newrules").mkdir()
    (tmp_path / "newrules" / "__init__.py").write_text("")
    added = catalogue.fingerprint()
    assert added != before
    (tmp_path / "newrules" / "__init__.py").write_text("# changed")
    assert catalogue.fingerprint() != added


def test_a_ruleset_registered_in_the_process_is_listed(duel: object) -> None:
    assert "test-duel" in [row.name for row in catalogue.ruleset_rows()]
