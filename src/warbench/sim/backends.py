"""Where a batch of games is played: this process, a pool of local processes, or Ray.

``run_jobs(func, jobs, workers, backend, address)`` calls ``func`` on every job and
yields the results as they come (in any order: the callers sort them by game index,
so a seed gives the same results on every backend and any number of workers).

- ``local`` (the default, nothing to install): one job after another in this process
  with ``workers=1``, else a pool of forked processes.
- ``ray``: Ray tasks, on a local Ray started here with ``workers`` CPUs, or on an
  existing cluster (``address``: ``auto``, or ``HOST:PORT``). Needs the ``ray`` extra
  (``pip install warbench[ray]``). ``func`` must be a module-level function and each
  job plain data (a scenario id or file path, seeds, bot names): a scenario file must
  be readable at the same path on every node, or use a built-in scenario.
"""

from __future__ import annotations

import itertools
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from warbench.errors import WarbenchError

J = TypeVar("J")
R = TypeVar("R")

BACKENDS = ("local", "ray")
RAY_BATCH = 4
"""Jobs per Ray task (fewer round trips; still many tasks for a cluster to spread)."""
RAY_IN_FLIGHT = 256
"""Ray tasks submitted and not yet collected, at most (jobs are read as they go)."""


def check_backend(backend: str, address: str | None) -> None:
    """Refuse an unknown backend, an address without Ray, or Ray when it is missing."""
    if backend not in BACKENDS:
        raise WarbenchError(f"unknown backend {backend!r}: {' or '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise WarbenchError("--address is for --backend ray (a Ray cluster's address)")
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise WarbenchError("the ray backend needs Ray: pip install 'warbench[ray]'") from None


def run_jobs(
    func: Callable[[J], R],
    jobs: Iterable[J],
    count: int,
    workers: int,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[R]:
    """``func`` of each of the ``count`` jobs, as the results come (see the module
    docstring); ``jobs`` is read as it goes, so it may be a generator."""
    check_backend(backend, address)
    if backend == "ray":
        yield from _ray(func, iter(jobs), workers, address)
        return
    if workers == 1 or count <= 1:
        for job in jobs:
            yield func(job)
        return
    context = multiprocessing.get_context("fork")
    chunk = max(1, min(32, count // (workers * 8)))
    with context.Pool(min(workers, count)) as pool:
        yield from pool.imap_unordered(func, jobs, chunksize=chunk)


def _batch(func: Callable[[Any], Any], jobs: list[Any]) -> list[Any]:
    return [func(job) for job in jobs]


def _ray(
    func: Callable[[J], R], jobs: Iterator[J], workers: int, address: str | None
) -> Iterator[R]:
    import ray

    if not ray.is_initialized():
        try:
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, log_to_driver=False)
        except (ConnectionError, ValueError, RuntimeError) as exc:
            where = address or "a local Ray"
            raise WarbenchError(f"cannot start or reach {where}: {exc}") from None
    task = ray.remote(_batch)
    pending: list[Any] = []
    while True:
        while len(pending) < RAY_IN_FLIGHT:
            batch = list(itertools.islice(jobs, RAY_BATCH))
            if not batch:
                break
            pending.append(task.remote(func, batch))
        if not pending:
            return
        done, pending = ray.wait(pending, num_returns=1)
        yield from ray.get(done[0])
