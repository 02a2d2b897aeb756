"""``theorycheck check [ID | --law LAW]``: one command from a law to a verdict.

Exit codes: 0 consistent, 1 refuted, 3 inconclusive, 2 bad input (before any work).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from theorycheck.cli.options import (add_run_options, check_parallel, default_out, parse_assignments, parse_cells,
                                     prepare_out, run_budget)
from theorycheck.wording import counted

DEFAULT_TARGET = "vural2026.headline"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check", help="check a bound against simulation and print a verdict",
        description=(f"Design a sweep inside the law's regime, measure the threshold in every cell, "
                     f"compare exponents and write a report. Default target: {DEFAULT_TARGET} "
                     "(our reading of the paper's headline law, N d^2 >= C L V^2 log V, checked in its regime V >> d)."),
    )
    p.add_argument("target", nargs="?", default=None, metavar="ID", help=f"catalogue id (default {DEFAULT_TARGET})")
    p.add_argument("--law", default=None, help='your own law, e.g. "N >= C*L*V**2*log(V)/d**2"')
    p.add_argument("--assume", action="append", default=None, metavar="COND",
                   help='with --law: where it holds, e.g. "k < n" (repeat for several); cells outside are not designed')
    p.add_argument("--task", default=None, metavar="TASK",
                   help="task to simulate for --law: a registered name (default retrieval; "
                   "'theorycheck tasks' lists them), package.module:NAME or path/to/file.py:NAME "
                   "naming a theorycheck.Task")
    add_run_options(p)
    p.set_defaults(func=run)


def resolve_common(args: argparse.Namespace) -> dict:
    """Parse and validate everything (raises ValueError) and return the keyword arguments of check."""
    budget = run_budget(args)
    from theorycheck.check.run_arguments import CLI_NAMES, check_run_arguments

    # the checks of check() itself, with the option names, before the output directory exists
    vary = check_run_arguments(vary=args.vary, entropy=args.seed, q=args.q, tolerance=args.tolerance,
                               thresholds=args.thresholds, names=CLI_NAMES)
    from theorycheck.task_sources import resolve_task

    if getattr(args, "assume", None) and not args.law:
        raise ValueError("--assume applies to --law; a catalogue bound states its own regime")
    return dict(budget=budget, task=resolve_task(getattr(args, "task", None)),
                assume=tuple(args.assume) if getattr(args, "assume", None) else None,
                settings=parse_assignments(args.settings, "--set"),
                base=parse_assignments(args.base, "--base", numeric=True), vary=vary,
                cells=parse_cells(getattr(args, "cells", None)), thresholds=args.thresholds)


def _refuse_other_check(out: Path, target_id: str, law: str, force_new: bool) -> None:
    """An ``--out`` that holds the report of another check is not overwritten (its store
    would mix two checks' trials) unless ``--force-new``."""
    import json

    previous = out / "verdict.json"
    if force_new or not previous.is_file():
        return
    try:
        target = json.loads(previous.read_text()).get("target", {})
    except (OSError, ValueError, AttributeError):
        raise ValueError(f"{out} holds an unreadable verdict.json; choose another --out, or --force-new to "
                         "start afresh there") from None
    if (target.get("id"), target.get("law")) != (target_id, law):
        raise ValueError(f"{out} holds another check ({target.get('id')}: {target.get('law')}); choose another "
                         f"--out, or --force-new to replace it")


def run_checks(args: argparse.Namespace, jobs: list[tuple[str, object, dict]], out: Path):
    """Run several checks with one executor; returns the CheckResults in order."""
    from theorycheck.check import check
    from theorycheck.sweep import TerminalProgress, make_executor, open_store

    results = []
    with make_executor(args.workers, args.scheduler, args.dask_local) as executor:
        for name, target, kw in jobs:
            store = open_store(out / name if len(jobs) > 1 else out, force_new=args.force_new)
            progress = TerminalProgress(quiet=args.quiet)
            results.append(check(target, entropy=args.seed, q=args.q, tolerance=args.tolerance,
                                 executor=executor, store=store, progress=progress, **kw))
    return results


def run(args: argparse.Namespace) -> int:
    if args.target and args.law:
        raise ValueError("give either a catalogue ID or --law, not both")
    if args.task and not args.law:
        raise ValueError("--task applies to --law; a catalogue bound names its own task")
    if args.law is not None and not args.law.strip():
        raise ValueError("--law is empty: give a condition such as 'N >= C*V*log(V)', or a catalogue ID")
    target = args.law if args.law is not None else (args.target or DEFAULT_TARGET)
    kw = resolve_common(args)
    from theorycheck.check import plan
    from theorycheck.check.where_measured import regime_for

    tgt, design = plan(target, **kw)  # every input check, before any work
    check_parallel(args, tgt.task.trial)
    out_dir = Path(args.out) if args.out else default_out(tgt.id)
    _refuse_other_check(out_dir, tgt.id, tgt.law.text, args.force_new)
    out = prepare_out(out_dir)
    planned = regime_for(tgt.id, tgt.law, [{"params": dict(c), "threshold": None} for c in design.cells],
                         design.resource, design.base)
    if not args.quiet and not args.json:
        n = len(design.cells)
        print(f"checking {tgt.id}: {tgt.law.text}  ({counted(n, 'cell')}, budget {design.budget.name}; "
              f"output {out})", file=sys.stderr)
        if planned.get("outside"):
            print(f"warning: the design is {planned['summary']}", file=sys.stderr)
    (result,) = run_checks(args, [("check", target, kw)], out)
    if result.run.get("reused") and not args.json:
        print(f"resumed: {result.run['reused']} trials reused, {result.run['computed']} computed", file=sys.stderr)
    from theorycheck.report import write_report
    from theorycheck.jsonable import dumps
    from theorycheck.report.terminal import exit_code, render_verdict

    data = result.to_dict()
    write_report(data, out)
    if args.json:
        print(dumps({**data["verdict"], "cells": data["cells"], "regime": data["regime"], "out": out},
                    sort_keys=False))
    else:
        print(render_verdict(data))
        print(f"\nreport: {out / 'report.md'}  (verdict.json, thresholds.csv, plots)")
    return exit_code(result.status)
