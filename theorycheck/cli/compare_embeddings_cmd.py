"""``theorycheck compare-embeddings``: the random-versus-orthogonal ablation, side by side.

Runs the sweep over ``L`` twice (docs/theory.md §6: with orthogonal embeddings the ``L`` dependence
disappears) and writes both reports plus ``compare_L.png`` (both threshold curves).
Exit code 0 when both verdicts are consistent, 1 if either is refuted, 3 otherwise.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from theorycheck.check.ablation import RANDOM_TARGET, ablation_jobs
from theorycheck.cli.check_cmd import run_checks
from theorycheck.cli.options import (add_run_options, check_parallel, default_out, parse_assignments, plain_text,
                                     prepare_out, run_budget)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare-embeddings", help="the ablation: thresholds against L with random and orthogonal embeddings",
        description=plain_text(__doc__.splitlines()[0]),
    )
    p.add_argument("--V", type=int, default=128, help="vocabulary size (d = V + 2 for both arms; default 128)")
    p.add_argument("--algorithm", default="limit", help="simulator algorithm (default limit: the three steps)")
    p.add_argument("--random-target", default=RANDOM_TARGET, help=f"law for the random arm (default {RANDOM_TARGET})")
    add_run_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    for flag in ("base", "vary", "cells"):
        if getattr(args, flag):
            raise ValueError(f"--{flag} is fixed by the ablation (d = V + 2, L varied); drop it")
    from theorycheck.check import plan
    from theorycheck.check.run_arguments import CLI_NAMES, check_run_arguments

    check_run_arguments(vary=None, entropy=args.seed, q=args.q, tolerance=args.tolerance,
                        thresholds=args.thresholds, names=CLI_NAMES)
    jobs = [(name, target, {**kw, "thresholds": args.thresholds}) for name, target, kw in
            ablation_jobs(V=args.V, algorithm=args.algorithm, budget=run_budget(args),
                          settings=parse_assignments(args.settings, "--set"), random_target=args.random_target)]
    for _, target, kw in jobs:
        plan(target, **kw)  # every input check before any work
    check_parallel(args)
    out = prepare_out(Path(args.out) if args.out else default_out("compare-embeddings"))
    results = run_checks(args, jobs, out)
    from theorycheck.jsonable import dumps
    from theorycheck.report import write_report
    from theorycheck.report.ablation import plot_ablation
    from theorycheck.report.terminal import exit_code, render_verdict

    summary = {}
    for (name, _, _), res in zip(jobs, results, strict=True):
        data = res.to_dict()
        write_report(data, out / name)
        summary[name] = data
    plot_ablation(summary, "L", out / "compare_L.png")
    if args.json:
        print(dumps({k: v["verdict"] for k, v in summary.items()} | {"out": out}, sort_keys=False))
    else:
        for name, data in summary.items():
            print(f"== {name} embeddings: {data['target']['id']} ({data['target']['law']})")
            print(render_verdict(data) + "\n")
        print(f"reports: {out}/random, {out}/orthogonal; figure: {out / 'compare_L.png'}")
    statuses = [r.status for r in results]
    overall = "refuted" if "refuted" in statuses else (
        "consistent" if all(s == "consistent" for s in statuses) else "inconclusive")
    return exit_code(overall)
