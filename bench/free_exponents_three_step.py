"""Free exponents of the three-step threshold N*(V, d, L) inside the paper's regime. Prints figures.

The quick check of ``vural2026.headline`` varies only ``L``: at ``V = 2048`` the regime
(``V >= 4 d``) and storage to spare (``d^2 >= 9 V log V``, theorycheck/bounds/vural2026.py) leave
``d`` and ``V`` less than 1.5x of room, and one-at-a-time lines need more. This script
measures the threshold at hand-picked cells of that wedge instead -- ``d`` and ``V`` each
over ~2x, ``L`` over 8x, every cell with ``V/d >= 4`` and ``d^2/(V log V) >= 9`` -- through
the same sweep engine, threshold search and store as ``theorycheck check`` (quick budget's
search settings, entropy 2026), and fits free exponents with CIs
(:func:`theorycheck.compare.free_fit.fit_exponents`, docs/fit.md) and the in-regime law.

Usage: ``python bench/free_exponents_three_step.py [--out DIR] [--workers K] [--set KEY=VALUE]``
(``--out`` keeps the trials: a rerun resumes; ``--set beta=4`` etc. for other settings).
About 15 min of CPU on 2 cores with the default cells (the V = 4096 cells dominate).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
from pathlib import Path

from theorycheck.check.runner import cell_searches, plan
from theorycheck.cli.options import parse_assignments
from theorycheck.compare import Dataset, compare
from theorycheck.compare.free_fit import fit_exponents
from theorycheck.sweep import TerminalProgress, make_executor, open_store, run_sweep

#: (V, d, L): the regime wedge V/d >= 4, d^2 >= 9 V log V, L << V, around (2048..4096, 512..1024).
CELLS = [
    (2048, 384, 128), (2048, 512, 128), (2048, 512, 16), (2048, 512, 45),
    (2896, 512, 128), (2896, 724, 128), (4096, 724, 128), (4096, 1024, 128),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=None, help="directory of a resumable trial store")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    for V, d, L in CELLS:
        assert V >= 4 * d and d * d >= 9 * V * math.log(V) and 4 * L <= V, (V, d, L)
    settings = parse_assignments(args.settings, "--set")
    tgt, design = plan("vural2026.headline", budget="quick", settings=settings)
    cells = [{**design.base, "V": float(V), "d": float(d), "L": float(L)} for V, d, L in CELLS]
    starts = [max(1000.0, 1.2 * V * math.log(V)) for V, _, _ in CELLS]  # near the count floor seen at V = 2048
    design = dataclasses.replace(design, cells=cells, starts=starts)
    store = open_store(args.out)
    with make_executor(args.workers) as executor:
        sweep = run_sweep(cell_searches(design, 0.5), tgt.task.trial, entropy=2026, executor=executor, store=store,
                          progress=TerminalProgress())
    print(f"settings: {design.settings}")
    print(f"{'V':>6} {'d':>6} {'L':>5} {'N*':>10}  {'95% CI':<22} {'N*/(L V)':>9} trials")
    rows = []
    for key, cell in zip(sweep.results, cells, strict=True):
        th = sweep.results[key]
        params = {v: cell[v] for v in ("V", "d", "L")}
        rows.append((params, th))
        ci = "-" if th.ci is None else f"[{th.ci[0]:.4g}, {th.ci[1]:.4g}]"
        est = "censored" if th.estimate is None else f"{th.estimate:.4g}"
        ratio = "-" if th.estimate is None else f"{th.estimate / (cell['L'] * cell['V']):.3f}"
        print(f"{cell['V']:>6.0f} {cell['d']:>6.0f} {cell['L']:>5.0f} {est:>10}  {ci:<22} {ratio:>9} "
              f"{len(sweep.trials[key])}")
    data = Dataset.from_thresholds(rows)
    free = fit_exponents(data)
    print("\nfree fit  log N* = log C + a_V log V + a_d log d + a_L log L:")
    for name, e in free.exponents.items():
        print(f"  {name}: {e.estimate:+.3f}  95% CI [{e.ci[0]:+.3f}, {e.ci[1]:+.3f}]")
    for cand in free.candidates[:3]:
        print(f"  candidate {cand.law}: dBIC {cand.delta_bic:.1f}")
    verdict = compare(tgt.law, data)
    print(f"\n{tgt.law.text}: {verdict.status} -- {verdict.reason[:160]}")


if __name__ == "__main__":
    main()
