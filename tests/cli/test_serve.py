"""``warbench serve`` refuses a database it cannot open, and a port already in use, with one
clear line (exit 2); a busy port creates no database file."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from warbench.cli.main import main
from warbench.server.client import free_port


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
    assert main(["serve", "--db", url, "--port", str(free_port())]) == 2
    err = capsys.readouterr().err
    assert f"cannot open the database {url}: " in err and words in err
    assert len(err.strip().splitlines()) == 1


def test_a_bad_port_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", "--port", "70000", "--db", f"sqlite:///{tmp_path / 'g.db'}"])
    assert stopped.value.code == 2
    assert "70000" in capsys.readouterr().err


def test_a_busy_port_is_one_line_naming_port_and_creates_no_database(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        db = tmp_path / "games.db"
        assert main(["serve", "--port", str(port), "--db", f"sqlite:///{db}"]) == 2
    err = capsys.readouterr().err
    assert f"port {port} on 127.0.0.1 is already in use" in err and "--port" in err
    assert len(err.strip().splitlines()) == 1
    assert not db.exists()
