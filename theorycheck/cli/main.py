"""Entry point of the ``theorycheck`` console script.

Each sub-command lives in its own module of this package and exposes
``add_parser(subparsers)`` (registering its arguments, with ``func=run``) and
``run(args) -> int`` (the exit code). Conventions shared by every command:

* exit 0 success / consistent, 1 refuted, 3 inconclusive, 2 bad input, 4 internal error
  (the map: :mod:`theorycheck.report.terminal`; the handler: :mod:`theorycheck.cli.errors`);
* bad input is a :class:`ValueError` raised before any work; it is printed as one
  line ``theorycheck: error: <message>`` on stderr, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# Small matrix products dominate the simulator; a BLAS thread pool per process makes them
# slower, not faster, on a few cores (measured ~50x on the 2-core CI machine). Users may
# override by setting the variable themselves.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

# Modules of theorycheck.cli that define a sub-command, in the order of --help.
COMMANDS: tuple[str, ...] = ("check_cmd", "compare_embeddings_cmd", "simulate_cmd", "bounds_cmd", "fit_cmd",
                             "tasks_cmd")


class _Parser(argparse.ArgumentParser):
    """argparse parser whose usage errors are one line and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="theorycheck",
        description="Check scaling laws of learning theory against simulation.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"theorycheck.cli.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # name the sub-command whose help lists the options (argparse names the top level)
        prog = f"{parser.prog} {args.command}" if getattr(args, "command", None) else parser.prog
        parser.exit(2, f"{prog}: error: unrecognized arguments: {' '.join(extra)} (see '{prog} --help')\n")
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 0
    from theorycheck.cli.errors import run_command

    return run_command(args.func, args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
