"""Where the search's refine pair sits at q != 1/2, measured (prints figures, asserts nothing).

    python bench/refine_placement.py                        # q = 0.9 and 0.1, 4 shapes, pulls 0 and 0.5
    python bench/refine_placement.py --q 0.9 --shapes gumbel --runs 400 --pulls 0,0.25,0.5,1

The refine pair of the adaptive search is centred at ``u = (1 - REFINE_PULL) z_q`` on the
fitted probit scale (``theorycheck/threshold/placement.py``). For each shape of
``tests/shape_harness.py`` (random scale and width, as the slow calibration test draws them),
each ``q`` and each pull, ``--runs`` searches run by ``shape_harness.run_search`` with the quick budget's settings (4 trials a
point, 480 trials, CI ratio ``e^0.06``, search ceiling 4096x the start), starting within
``e^1.5`` of the exact q-crossing (found by root-finding on the shape's exact ``P``). Each
line: coverage of the exact crossing by the 95% CI (with its binomial sd), mean trials and the
CPU seconds of the line. The same seeds for every pull.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

from blas_threads import set_blas_threads

set_blas_threads()

import numpy as np  # noqa: E402
from scipy.optimize import brentq  # noqa: E402

from theorycheck.threshold import placement  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
import shape_harness  # noqa: E402


def crossing(shape: shape_harness.Shape, q: float) -> float:
    """The exact resource at which ``shape.prob`` crosses ``q``."""
    centre = math.log(shape.truth)
    return math.exp(brentq(lambda t: shape.prob(math.exp(t)) - q, centre - 6.0, centre + 6.0, xtol=1e-12))


def run(name: str, q: float, runs: int, seed: int) -> tuple[int, float]:
    """``(covered, mean trials)`` over ``runs`` searches for the crossing at ``q``."""
    shape_rng = np.random.default_rng(np.random.SeedSequence([seed, 7]))
    covered, trials = 0, []
    for i in range(runs):
        shape = shape_harness.make_shape(name, shape_rng)
        ok, _, n, _, _ = shape_harness.run_search(shape, (seed, i), truth=crossing(shape, q), q=q)
        covered += ok
        trials.append(n)
    return covered, float(np.mean(trials))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--q", default="0.9,0.1")
    ap.add_argument("--shapes", default="probit,gumbel,weibull,logistic")
    ap.add_argument("--pulls", default="0,0.5", help="values of REFINE_PULL to compare")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print(f"REFINE_PULL in theorycheck: {placement.REFINE_PULL}; {args.runs} searches a line, seed {args.seed}")
    for q in (float(x) for x in args.q.split(",")):
        for name in args.shapes.split(","):
            for pull in (float(x) for x in args.pulls.split(",")):
                placement.REFINE_PULL = pull
                t0 = time.process_time()
                covered, mean_trials = run(name, q, args.runs, args.seed)
                p = covered / args.runs
                print(f"q={q:g} {name:9s} pull={pull:<5g} covered {covered}/{args.runs} = {p:.3f} "
                      f"(sd {math.sqrt(p * (1 - p) / args.runs):.3f}), mean trials {mean_trials:.0f}, "
                      f"{time.process_time() - t0:.0f} s CPU", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
