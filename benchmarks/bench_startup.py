"""Start-up of the listing commands (issue 28): CPU seconds and peak MiB of each.

Runs ``warbench rulesets``, ``warbench scenarios`` and ``warbench --help`` (as
``python -m warbench``) each in a process of its own, ``--repeat`` times (default
5), and prints the least CPU time (user + system) and the peak resident memory
of each against the targets: under 0.3 s and 60 MiB. The listings come from the
catalogue cache (:mod:`warbench.core.catalogue`); the first run in a fresh cache
folder computes it, which is shown apart as ``cold`` (every ruleset imported and
every scenario validated). A measurement, not a test: it always exits 0. Run with
``python benchmarks/bench_startup.py [--repeat N]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile

COMMANDS = (["rulesets"], ["scenarios"], ["--help"])
CPU_TARGET = 0.3
MIB_TARGET = 60.0


def measure(argv: list[str], cache: str) -> tuple[float, float]:
    """CPU seconds and peak MiB of one ``python -m warbench ARGV``."""
    env = {**os.environ, "WARBENCH_CACHE": cache}
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        pid = os.posix_spawn(
            sys.executable,
            [sys.executable, "-m", "warbench", *argv],
            env,
            file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)],
        )
    finally:
        os.close(devnull)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"warbench {' '.join(argv)} failed")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # Linux: KiB


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs of each (least kept)")
    args = parser.parse_args()
    print(f"{'command':<22} {'CPU s':>7} {'MiB':>7}  target: < {CPU_TARGET} s, < {MIB_TARGET} MiB")
    with tempfile.TemporaryDirectory() as cache:
        for argv in COMMANDS:
            name = " ".join(argv)
            if argv[0] != "--help":
                cold = measure(argv, tempfile.mkdtemp(dir=cache))
                print(f"{name + ' (cold)':<22} {cold[0]:7.3f} {cold[1]:7.1f}  computes the cache")
            runs = [measure(argv, cache) for _ in range(args.repeat + 1)][1:]
            cpu = min(run[0] for run in runs)
            mib = max(run[1] for run in runs)
            ok = "ok" if cpu < CPU_TARGET and mib < MIB_TARGET else "OVER"
            print(f"{name:<22} {cpu:7.3f} {mib:7.1f}  {ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
