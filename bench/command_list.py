"""Print, or run in parallel, a bench script's list of ``theorycheck`` commands.

The line scripts (``gd_plain_lines.py``, ``three_step_eta_line.py``) record the single-seed
``simulate`` runs behind a published rows file as a list of commands: printed by default,
run with ``--run --workers K`` (each command one process on one core, appending to the
``--rows`` file). Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor


def add_arguments(parser: argparse.ArgumentParser, rows: str) -> None:
    """``--run``, ``--workers`` and ``--rows`` (default ``rows``)."""
    parser.add_argument("--run", action="store_true", help="run the commands (else print them)")
    parser.add_argument("--workers", type=int, default=1, help="commands at once (each uses one core)")
    parser.add_argument("--rows", default=rows, help="the rows file they append to")


def print_or_run(commands: list[list[str]], args: argparse.Namespace) -> int:
    """Print ``commands`` one per line, or (``args.run``) run them ``args.workers`` at a time
    and print each one's exit code beside it as it ends, in order."""
    if not args.run:
        print("\n".join(shlex.join(c) for c in commands))
        return 0
    with ThreadPoolExecutor(args.workers) as pool:
        for c, code in zip(commands, pool.map(lambda c: subprocess.run(c, capture_output=True).returncode, commands)):
            print(code, shlex.join(c), flush=True)
    return 0
