"""The three-step thresholds on wide in-regime lines, on a GPU (issue 13's map; docs/theory.md §7.8).

    python bench/gpu_lines.py --workers 12 --out gpu-lines          # backend torch, a GPU
    python bench/gpu_lines.py --cells "V=4096,d=1024,L=64; ..." --law vural2026.headline

Checks ``--law`` (default ``vural2026.three_step_hard``) on ``--cells`` with the ``full``
budget's search and stopping rules, but without its trial-cost cap: it runs
``theorycheck check LAW --budget full --max-cost inf --cells CELLS --set backend=... --seed ...``.
The cap is the CPU path's (``N·L + V²·d/80`` token visits,
:func:`theorycheck.tasks.retrieval_task.retrieval_cost`) and refuses the cells at ``V²·d ~ 10¹²``
that a GPU runs in a fraction of a second.  The default cells are a ``V`` line at ``d = 2048``
(``V = 8192..23170``) and a ``d`` line at ``V = 16384`` (``d = 1448..4096``): every cell has
``V/d >= 4`` and ``d² >= 13·V log V``.  Writes the usual report, verdict.json and thresholds.csv
to ``--out`` (``theorycheck fit OUT/thresholds.csv --law ...`` refits them).
"""

from __future__ import annotations

import argparse
import sys

from theorycheck.cli.main import main as theorycheck

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
    words = ["check", args.law, "--budget", "full", "--max-cost", "inf", "--cells", args.cells,
             "--set", f"backend={args.backend}", "--seed", str(args.seed), "--out", args.out]
    return theorycheck(words + (["--workers", str(args.workers)] if args.workers > 1 else []))


if __name__ == "__main__":
    sys.exit(main())
