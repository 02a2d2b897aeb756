"""The three-step thresholds on wide in-regime lines, on a GPU (issue 13's map; docs/theory.md §7.8).

    python bench/gpu_lines.py --workers 12 --out gpu-lines          # backend torch, a GPU
    python bench/gpu_lines.py --cells "V=4096,d=1024,L=64; ..." --law vural2026.headline

Checks ``--law`` (default ``vural2026.three_step_hard``) on ``--cells`` with the ``full``
budget's search and stopping rules, but without its trial-cost cap: the cap is the CPU
path's (``N·L + V²·d/80`` token visits, :func:`theorycheck.tasks.retrieval_task.retrieval_cost`)
and refuses the cells at ``V²·d ~ 10¹²`` that a GPU runs in a fraction of a second.  The
default cells are a ``V`` line at ``d = 2048`` (``V = 8192..23170``) and a ``d`` line at
``V = 16384`` (``d = 1448..4096``): every cell has ``V/d >= 4`` and ``d² >= 13·V log V``.
Writes the usual report, verdict.json and thresholds.csv to ``--out``
(``theorycheck fit OUT/thresholds.csv --law ...`` refits them).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from theorycheck.check import check
from theorycheck.check.budget import get_budget
from theorycheck.cli.options import parse_cells
from theorycheck.report import write_report
from theorycheck.report.terminal import exit_code, render_verdict
from theorycheck.sweep import make_executor, open_store

CELLS = ("V=8192,d=2048,L=64; V=11585,d=2048,L=64; V=16384,d=2048,L=64; V=23170,d=2048,L=64; "
         "V=16384,d=1448,L=64; V=16384,d=2896,L=64; V=16384,d=4096,L=64")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--law", default="vural2026.three_step_hard")
    ap.add_argument("--cells", default=CELLS)
    ap.add_argument("--backend", default="torch")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    try:
        cells = parse_cells(args.cells)
    except ValueError as exc:
        ap.error(str(exc))
    budget = dataclasses.replace(get_budget("full"), max_cost=float("inf"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with make_executor(args.workers if args.workers > 1 else None, None, False) as executor:
        result = check(args.law, budget=budget, cells=cells, settings={"backend": args.backend},
                       entropy=args.seed, executor=executor, store=open_store(out))
    data = result.to_dict()
    write_report(data, out)
    print(render_verdict(data))
    return exit_code(result.status)


if __name__ == "__main__":
    sys.exit(main())
