"""Where games are played (issue 14, part 3): the same seed gives the same results on the
local backend with any number of workers and on Ray (simulate, balance and calibrate). One
local Ray (``num_cpus=2``) is shared by the tests of this module and shut down after them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from warbench.cli.main import main
from warbench.errors import WarbenchError
from warbench.sim.backends import check_backend, run_jobs
from warbench.sim.balance import balance
from warbench.sim.calibrate import calibrate
from warbench.sim.runner import simulate

ray = pytest.importorskip("ray")  # installed by make test (the ray extra)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _sim(result: Any) -> dict[str, Any]:
    data = result.to_json()
    for key in ("seconds", "games_per_second"):
        data.pop(key)
    return data


def _square(x: int) -> int:
    return x * x


def test_run_jobs_gives_every_result_on_every_backend(local_ray: None) -> None:
    jobs = list(range(23))
    want = [x * x for x in jobs]
    assert sorted(run_jobs(_square, jobs, len(jobs), 1)) == want
    assert sorted(run_jobs(_square, iter(jobs), len(jobs), 2)) == want
    assert sorted(run_jobs(_square, iter(jobs), len(jobs), 2, backend="ray")) == want


def test_simulate_is_the_same_on_every_backend_and_worker_count(local_ray: None) -> None:
    bots = {"guards": "greedy", "vanguard": "random"}
    one = simulate("miniwars/bridge", 30, bots, seed=4, workers=1)
    two = simulate("miniwars/bridge", 30, bots, seed=4, workers=2)
    on_ray = simulate("miniwars/bridge", 30, bots, seed=4, workers=2, backend="ray")
    assert _sim(one) == _sim(two) == _sim(on_ray)
    table = {"red": "random", "blue": "random"}
    assert _sim(simulate("vsgmr/street", 4, table, seed=2)) == _sim(
        simulate("vsgmr/street", 4, table, seed=2, workers=2, backend="ray")
    )


def test_balance_is_the_same_on_ray(local_ray: None) -> None:
    here = balance("miniwars/bridge", ["greedy", "random"], pairs=6, seed=8)
    there = balance("miniwars/bridge", ["greedy", "random"], pairs=6, seed=8, backend="ray")
    a, b = here.to_json(), there.to_json()
    a.pop("seconds")
    b.pop("seconds")
    assert a == b


def test_calibrate_is_the_same_on_ray(local_ray: None) -> None:
    here = calibrate("miniwars", pairs=40, seed=3).to_json()
    there = calibrate("miniwars", pairs=40, seed=3, workers=2, backend="ray").to_json()
    here.pop("seconds")
    there.pop("seconds")
    assert here == there


def test_the_command_line_takes_the_backend(
    local_ray: None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "miniwars/bridge", "--games", "6", "--backend", "ray", "--json"]
    assert main(argv) == 0
    assert '"games": 6' in capsys.readouterr().out


def test_bad_backend_choices_are_one_clear_error() -> None:
    with pytest.raises(WarbenchError, match="unknown backend 'spark'"):
        check_backend("spark", None)
    with pytest.raises(WarbenchError, match="--address is for --backend ray"):
        check_backend("local", "auto")
    with pytest.raises(WarbenchError, match="where its game is played"):
        simulate(
            "miniwars/bridge", 2, {}, record_dir=Path("records"), backend="ray", address="auto"
        )
