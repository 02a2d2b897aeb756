"""Start-up cost of the ``theorycheck`` command line: CPU and wall seconds per command.

Each command runs in a fresh interpreter (``python -m theorycheck.cli.main ...``, what the
console script does), ``--repeat`` times (default 5); the line shows the median CPU time of
the child (user + system, from ``os.wait4``) and the median wall time. CPU seconds are the
number to compare: on a loaded machine wall time mostly measures the other processes.

    python bench/bench_cli_start.py                  # the tree on sys.path / PYTHONPATH
    PYTHONPATH=/path/to/other/checkout python bench/bench_cli_start.py   # e.g. before/after

Commands: ``bounds list``, ``--help`` and a bad-input error (``check --budget nope``, which
must exit 2). No asserts: the numbers are read, not enforced; the laziness itself is
tested in ``tests/test_cli_start.py``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

COMMANDS: tuple[tuple[str, tuple[str, ...], int], ...] = (
    # (label, arguments, expected exit code)
    ("bounds list", ("bounds", "list"), 0),
    ("--help", ("--help",), 0),
    ("exit-2 error (check --budget nope)", ("check", "--budget", "nope"), 2),
)


def run_once(args: tuple[str, ...]) -> tuple[float, float, int]:
    """(child CPU seconds, wall seconds, exit code) of one fresh ``theorycheck`` process."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "theorycheck.cli.main", *args],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # so Popen does not wait again
    return usage.ru_utime + usage.ru_stime, wall, child.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per command (default 5)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        raise SystemExit(f"--repeat must be >= 1, got {args.repeat}")
    import theorycheck

    print(f"theorycheck from {os.path.dirname(theorycheck.__file__)}; python {sys.version.split()[0]}; "
          f"median of {args.repeat} fresh processes")
    print(f"{'command':<38} {'cpu_s':>7} {'wall_s':>7}")
    for label, cmd, expected in COMMANDS:
        runs = [run_once(cmd) for _ in range(args.repeat)]
        codes = sorted({code for _, _, code in runs})
        cpu = statistics.median(c for c, _, _ in runs)
        wall = statistics.median(w for _, w, _ in runs)
        flag = "" if codes == [expected] else f"  (exit codes {codes}, expected {expected})"
        print(f"{label:<38} {cpu:7.3f} {wall:7.3f}{flag}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
