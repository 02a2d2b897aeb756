"""Per-seed thresholds in ``d`` for the Hebbian memory (linear-am) vs the Bernoulli search
(prints figures, asserts nothing).

    python bench/bench_per_seed_d.py                    # V = 256, 1024, 2048
    python bench/bench_per_seed_d.py --V 512 --horizon 3

The linear associative memory's data are nested in ``d`` and its Hebbian logits grow by
low-rank updates (theorycheck/tasks/linear_am_scan.py), so a seed's whole success curve
in ``d`` is one pass.  For each ``V`` (exact recall, ``tau = 1``, the `hebbian` entry):

1. the Bernoulli search (:func:`theorycheck.threshold.find_threshold`, the quick budget's
   4 seeds a point and CI target): its CI of the median ``d*`` and its cost;
2. per-seed thresholds as ``check --thresholds per-seed`` runs them
   (:class:`PerSeedSearch` asking, :class:`CriticalTrial` with the task's scan answering),
   seeds added until the order-statistic CI is as narrow as the Bernoulli one; and the
   same without the scan (one trial per lattice point, the generic path);
3. ``--truth-seeds`` seeds scanned over the whole lattice: how many succeed and then fail
   again at a larger ``d``, the median of the first success, of the value from which a
   seed keeps succeeding (what per-seed thresholds estimate) and the ``d`` where half the
   seeds succeed (what the Bernoulli search estimates).

Costs are process CPU time in *trial-equivalents*: one trial at the Bernoulli estimate.
"""

from __future__ import annotations

import argparse
import math
import os
import time

from blas_threads import set_blas_threads

set_blas_threads()

import numpy as np  # noqa: E402

from theorycheck.seeding import child_seed, seed_sequence  # noqa: E402
from theorycheck.tasks.linear_am import TASK, LinearAMParams, simulate_linear_am  # noqa: E402
from theorycheck.tasks.linear_am_scan import hebbian_scan  # noqa: E402
from theorycheck.threshold.per_seed_search import CriticalTrial, PerSeedSearch  # noqa: E402

from bench_per_seed import bernoulli, log_width, trial_cost  # noqa: E402  (this folder)


def hebbian_succeeds(V):
    """``succeeds(d, seed)``: exact recall of the Hebbian memory with ``V`` facts."""
    return lambda d, seed: simulate_linear_am(LinearAMParams(V=V, d=int(round(d)), target=1.0), seed).success


def per_seed(V, start, width, scan, horizon, max_seeds):
    """The product's per-seed search, one seed a round, until its CI is ``width`` wide."""
    search = PerSeedSearch(start, lower=2, upper=4 * V, rel_width=width, seeds_per_round=1,
                           max_evaluations=10**9, horizon=horizon, resource="d", min_seeds=8)
    trial = CriticalTrial(TASK.trial, "d", TASK.scan if scan else None, TASK.cost)
    root = seed_sequence(20261126)
    cpu, seeds = time.process_time(), 0
    while not search.done and seeds < max_seeds:
        (value, _), = search.ask()
        params = {"V": V, "d": value, "method": "hebbian", "target": 1.0, **search.trial_params}
        search.tell_results(value, [trial(params, child_seed(root, seeds))])
        seeds += 1
    return search, time.process_time() - cpu


def truth(V, centre, seeds, per_doubling):
    grid = np.unique(np.rint(centre * 2 ** (np.arange(-2 * per_doubling, 2 * per_doubling + 1) / per_doubling)))
    grid = grid.astype(int)
    ok = np.array([list(hebbian_scan(V, grid, 1.0, 9_000_000 + s)) for s in range(seeds)])
    first = [grid[r.argmax()] if r.any() else math.inf for r in ok]
    kept = [grid[np.flatnonzero(~r)[-1] + 1] if (~r).any() and (~r)[-1] == 0 else
            (grid[0] if r.all() else math.inf) for r in ok]
    flips = sum(r.any() and (~r[r.argmax():]).any() for r in ok)
    rate = ok.mean(axis=0)
    half = grid[np.argmax(rate >= 0.5)] if (rate >= 0.5).any() else math.inf
    return flips, float(np.median(first)), float(np.median(kept)), half


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--V", type=int, nargs="*", default=[256, 1024, 2048])
    ap.add_argument("--max-trials", type=int, default=160)
    ap.add_argument("--horizon", type=int, default=None,
                    help="lattice points checked above a critical value (default: one doubling)")
    ap.add_argument("--max-seeds", type=int, default=120)
    ap.add_argument("--ref-trials", type=int, default=8)
    ap.add_argument("--truth-seeds", type=int, default=40)
    ap.add_argument("--no-generic", dest="generic", action="store_false",
                    help="skip the per-seed search without the scan (slow)")
    args = ap.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; costs are CPU time in"
          " trial-equivalents (t-eq: one trial at the Bernoulli estimate); tau = 1 (exact recall)")
    print(f"{'V':>5s} | {'Bernoulli d*':>12s} {'CI':>12s} {'logw':>5s} {'trials':>6s} {'t-eq':>6s} |"
          f" {'path':7s} {'per-seed d*':>11s} {'CI':>12s} {'logw':>5s} {'seeds':>5s} {'flips':>5s}"
          f" {'evals':>5s} {'t-eq':>6s}")
    for V in args.V:
        start = math.sqrt(10 * V * math.log(V))
        bern, bern_cpu = bernoulli(hebbian_succeeds(V), start, args.max_trials)
        est = bern.estimate or start
        unit = trial_cost(hebbian_succeeds(V), est, args.ref_trials)
        width = log_width(bern.ci)
        head = (f"{V:5d} | {est:12.1f} {str(tuple(round(x, 1) for x in bern.ci)):>12s} {width:5.3f}"
                f" {bern.trials:6d} {bern_cpu / unit:6.1f} |")
        for scan in (True, False) if args.generic else (True,):
            search, cpu = per_seed(V, est, width, scan, args.horizon, args.max_seeds)
            t = search.result()
            print(f"{head} {'scan' if scan else 'generic':7s} {t.estimate or math.nan:11.1f}"
                  f" {str(tuple(round(x, 1) for x in t.ci)):>12s} {log_width(t.ci):5.3f}"
                  f" {len(search.critical):5d} {search.flips:5d} {search.evaluations:5d} {cpu / unit:6.1f}",
                  flush=True)
            head = " " * (len(head) - 1) + "|"
        if args.truth_seeds:
            flips, first, kept, half = truth(V, est, args.truth_seeds, search.per_doubling)
            print(f"{'':5s}   {args.truth_seeds} seeds scanned over d*/4..4 d*: {flips} fail again after a success;"
                  f" median first success {first:.0f}, median 'succeeds from' {kept:.0f};"
                  f" half the seeds succeed from d = {half:.0f}", flush=True)
    print("logw: log(hi/lo) of the 95% CI of the median threshold; evals: lattice points evaluated")


if __name__ == "__main__":
    main()
