"""Print, or run in parallel, a bench script's list of ``theorycheck`` commands.

The line scripts (``gd_plain_lines.py``, ``three_step_eta_line.py``) record the single-seed
``simulate`` runs behind a published rows file as a list of commands: printed by default,
run with ``--run --workers K`` (each command one process on one core, appending to the
``--rows`` file). A run stopped half way is resumed by the same command: a command whose
``(V, d, L, N)`` and seeds the rows file already holds (its ``seeds`` column, written by
``simulate --rows``) is skipped, so no trial is counted twice. Two ``--run`` invocations on
one rows file would each list the pending commands when they start and run some twice, so
``--run`` holds a lock on the rows file (``.<rows name>.lock`` beside it,
:class:`theorycheck.sweep.lock.OutLock`) and a second one stops with a one-line message
(exit 2). Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from theorycheck.cli.fit_input import read_csv
from theorycheck.cli.rows_file import SEEDS, parse_seeds
from theorycheck.sweep.lock import OutLock

#: the flags that say which trials a command runs, besides its seeds
_POINT = ("--V", "--d", "--L", "--N")


def add_arguments(parser: argparse.ArgumentParser, rows: str) -> None:
    """``--run``, ``--workers`` and ``--rows`` (default ``rows``)."""
    parser.add_argument("--run", action="store_true", help="run the commands (else print them); "
                        "commands whose trials the rows file already holds are skipped")
    parser.add_argument("--workers", type=int, default=1, help="commands at once (each uses one core)")
    parser.add_argument("--rows", default=rows, help="the rows file they append to")


def _flag(command: list[str], name: str, default: str | None = None) -> str | None:
    return command[command.index(name) + 1] if name in command else default


def recorded(rows: str) -> set[tuple]:
    """``(V, d, L, N, seed)`` of every trial in the rows file ``rows`` that names its seeds
    (empty if there is no such file; a ``ValueError`` naming the line if it repeats its header)."""
    if not os.path.exists(rows):
        return set()
    _, records = read_csv(rows)  # refuses a header repeated inside, naming the line
    return {(*(int(float(r[k.lstrip("-")])) for k in _POINT), seed)
            for i, r in enumerate(records, start=2) if (r.get(SEEDS) or "").strip()
            for seed in parse_seeds(r[SEEDS], f"{rows}, line {i}")}


def pending(commands: list[list[str]], done: set[tuple]) -> list[list[str]]:
    """The commands with a trial not in ``done`` (:func:`recorded`)."""
    def trials(c):
        first, k = int(_flag(c, "--seed", "0")), int(_flag(c, "--seeds", "1"))
        return {(*(int(_flag(c, name)) for name in _POINT), s) for s in range(first, first + k)}
    return [c for c in commands if not trials(c) <= done]


def rows_lock(rows: str) -> OutLock:
    """The lock of the rows file ``rows``: ``.<name>.lock`` in its directory."""
    path = Path(rows)
    return OutLock(path.parent, f".{path.name}.lock", subject=f"rows file {rows!r}",
                   advice="give this run another --rows file",
                   unwritable="give --rows a file in a directory where files can be written")


def print_or_run(commands: list[list[str]], args: argparse.Namespace) -> int:
    """Print ``commands`` one per line, or (``args.run``) run those not yet in the rows file
    (:func:`pending`) ``args.workers`` at a time, holding :func:`rows_lock`, and print each
    one's exit code beside it as it ends, in order.  Returns 2 (a one-line message on
    stderr) when another run holds the rows file."""
    if not args.run:
        print("\n".join(shlex.join(c) for c in commands))
        return 0
    try:
        with rows_lock(args.rows):
            return _run_pending(commands, args)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def _run_pending(commands: list[list[str]], args: argparse.Namespace) -> int:
    todo = pending(commands, recorded(args.rows))
    if len(todo) < len(commands):
        print(f"{len(commands) - len(todo)} of {len(commands)} commands skipped: {args.rows} holds their trials",
              flush=True)
    with ThreadPoolExecutor(args.workers) as pool:
        for c, code in zip(todo, pool.map(lambda c: subprocess.run(c, capture_output=True).returncode, todo)):
            print(code, shlex.join(c), flush=True)
    return 0
