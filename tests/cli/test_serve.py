"""``warbench serve`` refuses a database it cannot open with one clear line (exit 2), before
it listens on anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from warbench.cli.main import main


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nonsense://x", "Can't load plugin: sqlalchemy.dialects:nonsense"),
        ("sqlite:////no/such/folder/games.db", "unable to open database file"),
    ],
)
def test_a_database_it_cannot_open_is_one_clear_error(
    capsys: pytest.CaptureFixture[str], url: str, words: str
) -> None:
    assert main(["serve", "--db", url, "--port", "1"]) == 2
    err = capsys.readouterr().err
    assert f"cannot open the database {url}: " in err and words in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_port_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--port", "70000", "--db", f"sqlite:///{tmp_path / 'g.db'}"])
    assert stopped.value.code == 2
    assert "70000" in capsys.readouterr().err
