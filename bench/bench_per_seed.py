"""Per-seed critical values vs the Bernoulli threshold search (prints figures, asserts nothing).

    python bench/bench_per_seed.py                 # the default cells
    python bench/bench_per_seed.py --max-trials 190 --cells 32,64,4 64,128,8

For each cell (V, d, L; limit algorithm, hard attention, tau = 0.99):

1. the Bernoulli search (:func:`theorycheck.threshold.find_threshold`, probit GLM,
   4 seeds per point, target CI ratio 1.06 as the quick budget) with ``--max-trials``
   plain trials: its CI of the median threshold (width ``log(hi/lo)``) and cost;
2. per-seed critical values (:mod:`theorycheck.threshold.per_seed`, grid with
   ``--per-doubling`` points per factor 2), seeds added one by one until the
   order-statistic CI of the median is at most as wide as the Bernoulli one (or
   ``--max-seeds``): seeds, evaluations, cost.

3. monotonicity: ``--scan-seeds`` seeds evaluated at every grid point; how many succeed
   and then fail again at a larger N (the bisection assumes they do not).

Cost is process CPU time (steadier than wall time on a shared machine) in
*trial-equivalents*: the CPU time of one plain trial at the Bernoulli estimate (the mean
over ``--ref-trials`` seeds).
"""

from __future__ import annotations

import argparse
import math
import os
import time

from blas_threads import set_blas_threads

set_blas_threads()

import numpy as np  # noqa: E402

from theorycheck.simulate import simulate  # noqa: E402
from theorycheck.tasks.retrieval import RetrievalParams  # noqa: E402
from theorycheck.threshold import find_threshold  # noqa: E402
from theorycheck.threshold.per_seed import critical_value, geometric_grid  # noqa: E402
from theorycheck.threshold.quantile import quantile_threshold  # noqa: E402


def log_width(ci):
    lo, hi = ci
    return math.inf if lo <= 0 or not math.isfinite(hi) else math.log(hi / lo)


def bernoulli(succeeds, start, max_trials):
    """The Bernoulli search on ``succeeds(value, seed)`` (quick budget: 4 seeds a point,
    CI ratio 1.06), seeds 0, 1, ...; with its CPU time."""
    counter = iter(range(10**9))
    cpu = time.process_time()
    result = find_threshold(lambda value, rep: succeeds(value, next(counter)), start=start,
                            max_trials=max_trials, rel_width=math.log(1.06), seeds_per_point=4)
    return result, time.process_time() - cpu


def trial_cost(succeeds, value, repeats):
    """Mean CPU time of ``succeeds(value, seed)`` over ``repeats`` seeds: one trial-equivalent."""
    cpu = time.process_time()
    for s in range(repeats):
        succeeds(value, 10**6 + s)
    return (time.process_time() - cpu) / repeats


def per_seed(cell, grid, target_width, max_seeds, verify=False):
    cpu = time.process_time()
    found = []
    t = None
    for seed in range(max_seeds):
        hint = None
        if found:
            med = float(np.median([c.critical for c in found]))
            hint = len(grid) - 1 if math.isinf(med) else int(np.searchsorted(grid, med))
        found.append(critical_value(cell, 5_000_000 + seed, grid, hint=hint, verify=verify))
        t = quantile_threshold([c.critical for c in found], 0.5, 0.95, start=float(grid[0]))
        if log_width(t.ci) <= target_width:
            break
    return t, found, time.process_time() - cpu


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cells", nargs="*", default=["32,128,4", "64,128,8"])
    ap.add_argument("--max-trials", type=int, default=160)
    ap.add_argument("--per-doubling", type=int, default=16)
    ap.add_argument("--max-seeds", type=int, default=80)
    ap.add_argument("--ref-trials", type=int, default=8)
    ap.add_argument("--scan-seeds", type=int, default=10)
    ap.add_argument("--no-verify", dest="verify", action="store_false",
                    help="per-seed search without checking points above each critical value")
    args = ap.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; costs are CPU time")
    print(f"verify={args.verify}; grid: {args.per_doubling} points per doubling from N*/8 to 8 N*; Bernoulli: at most"
          f" {args.max_trials} trials, 4 seeds per point; per-seed: up to {args.max_seeds} seeds")
    print(f"{'cell (V,d,L)':14s} | {'Bernoulli: N*':>8s} {'CI':>17s} {'logw':>5s} {'trials':>6s} {'t-eq':>6s} |"
          f" {'per-seed: N*':>12s} {'CI':>17s} {'logw':>5s} {'seeds':>5s} {'evals':>5s} {'t-eq':>6s}"
          f" {'censored':>8s}")
    for spec in args.cells:
        V, d, L = (int(x) for x in spec.split(","))
        cell = RetrievalParams(V=V, d=d, L=L, N=1)
        start = 4.0 * V * L
        succeeds = lambda N, seed, cell=cell: simulate(cell.replace(N=int(N)), "limit", seed=seed).success  # noqa: E731
        bern, bern_cpu = bernoulli(succeeds, start, args.max_trials)
        est = bern.estimate or start
        unit = trial_cost(succeeds, est, args.ref_trials)
        grid = geometric_grid(max(1, int(est / 8)), int(est * 8), args.per_doubling)
        width = log_width(bern.ci)
        t, found, cpu = per_seed(cell, grid, width, args.max_seeds, args.verify)
        evals = sum(len(c.evaluated) for c in found)
        censored = sum(math.isinf(c.critical) for c in found)
        print(f"{spec:14s} | {est:8.0f} {str(tuple(round(x) for x in bern.ci)):>17s} {width:5.3f}"
              f" {bern.trials:6d} {bern_cpu / unit:6.1f} | {t.estimate or math.nan:12.0f}"
              f" {str(tuple(round(x) if math.isfinite(x) else x for x in t.ci)):>17s}"
              f" {log_width(t.ci):5.3f} {len(found):5d} {evals:5d} {cpu / unit:6.1f} {censored:8d}",
              flush=True)
        print(f"{'':14s}   flips seen by the per-seed searches: {sum(not c.monotone for c in found)}"
              f" of {len(found)} seeds", flush=True)
        if args.scan_seeds:
            scans = [critical_value(cell, 7_000_000 + s, grid, scan=True) for s in range(args.scan_seeds)]
            flips = sum(not c.monotone for c in scans)
            print(f"{'':14s}   monotonicity: {flips} of {args.scan_seeds} seeds scanned over all {len(grid)}"
                  " grid points succeed and then fail again at a larger N", flush=True)
    print("t-eq: CPU time in trial-equivalents (one plain trial at the Bernoulli estimate);"
          " logw: log(hi/lo) of the 95% CI of the median threshold")


if __name__ == "__main__":
    main()
