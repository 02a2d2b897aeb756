"""Benchmarks of ``theorycheck check``. Prints figures; asserts nothing.

1. Wall time of the quick check of the default law (serial, and 2 worker processes).
2. Threshold search efficiency: our adaptive search (the quick budget's settings) against
   plain bisection in log N with 5 seeds per point until hi/lo <= 1.01 -- the protocol of
   Nichani, Lee & Bietti's code (a point "succeeds" when >= 3 of its 5 seeds succeed).
   Both designs' points go through the same probit GLM (Fieller CI), so the comparison is
   of designs: total trials, CI width (hi/lo - 1) and, for planted transitions, how often
   the CI (and bisection's final bracket) covers the true threshold.

Usage: ``python bench/bench_check.py [--reps 30] [--skip-quick]``.
"""

from __future__ import annotations

import argparse
import math
import time

from blas_threads import set_blas_threads

set_blas_threads()

import numpy as np  # noqa: E402

from theorycheck.check import BUDGETS, check  # noqa: E402
from theorycheck.simulate import simulate  # noqa: E402
from theorycheck.tasks.retrieval import RetrievalParams  # noqa: E402
from theorycheck.threshold import ThresholdSearch  # noqa: E402
from theorycheck.threshold.glm import fit_threshold  # noqa: E402


def planted(T: float, slope: float, entropy: int):
    """Bernoulli trial with P(success) = 1 / (1 + (T/N)^slope)."""
    def trial(n: float, rep: int) -> bool:
        rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(int(n), rep)))
        return bool(rng.random() < 1.0 / (1.0 + (T / n) ** slope))
    return trial


def one_step_cell(entropy: int):
    """Real simulator: one-step read-out at V=64, d=128, L=8 (a few ms a trial)."""
    p = RetrievalParams(V=64, d=128, L=8, N=1)

    def trial(n: float, rep: int) -> bool:
        seed = np.random.SeedSequence(entropy, spawn_key=(int(round(n)), rep))
        return simulate(p.replace(N=int(round(n))), "one-step", seed=seed).success
    return trial


def run_search(trial, start: float, max_trials: int | None = None):
    b = BUDGETS["quick"]
    search = ThresholdSearch(start=start, seeds_per_point=b.seeds_per_point,
                             max_trials=max_trials or b.max_trials_per_cell,
                             rel_width=b.ci_rel_width, integer=True)
    counts: dict[float, int] = {}
    while asks := search.ask():
        for r, n in asks:
            k0 = counts.get(r, 0)
            search.tell(r, sum(trial(r, k0 + i) for i in range(n)), n)
            counts[r] = k0 + n
    th = search.result()
    return th, sum(p[2] for p in th.points)


def run_bisection(trial, lo: float, hi: float, seeds: int = 5, ratio: float = 1.01):
    points = []
    while hi / lo > ratio:
        mid = float(round(math.sqrt(lo * hi)))
        if mid in (lo, hi):
            break
        k = sum(trial(mid, i) for i in range(seeds))
        points.append((mid, k, seeds))
        lo, hi = (lo, mid) if 2 * k > seeds else (mid, hi)
    th = fit_threshold(points) if points else None
    return th, (lo, hi), len(points) * seeds


def _width(th) -> float:
    """hi/lo - 1 of the CI; inf when the CI is unbounded, NaN when there is no estimate."""
    if th is None or th.estimate is None:
        return math.nan
    lo, hi = th.ci
    return hi / lo - 1 if lo and lo > 0 and math.isfinite(hi) else math.inf


def summarise(name, rows, truth=None):
    tr = np.array([r[0] for r in rows], float)
    width = np.array([r[1] for r in rows], float)
    line = f"  {name:<22} trials {tr.mean():6.1f}   CI width (hi/lo-1): median {np.nanmedian(width):.3f}"
    line += f", bounded in {np.isfinite(width).mean():.0%}"
    if truth is not None:
        line += f"   CI covers truth {np.mean([r[2] for r in rows]):.0%}"
        if len(rows[0]) > 3:
            line += f", final bracket covers truth {np.mean([r[3] for r in rows]):.0%}"
    print(line)


def efficiency(reps: int) -> None:
    cases = [("planted T=5000 slope 4", 5000.0, 4.0), ("planted T=5000 slope 8", 5000.0, 8.0),
             ("one-step V=64 d=128 L=8", None, None)]
    for label, T, s in cases:
        ours, half, bis = [], [], []
        for rep in range(reps):
            trial = planted(T, s, rep) if T else one_step_cell(rep)
            guess = 2 * T if T else 2 * 2500.0  # both start from a guess off by 2x
            th, n = run_search(trial, guess)
            w = _width(th)
            cov = T is not None and th.ci[0] <= T <= th.ci[1]
            ours.append((n, w, cov))
            thh, nh = run_search(trial, guess, max_trials=25)  # half of bisection's 50 trials
            half.append((nh, _width(thh), T is not None and thh.estimate is not None and thh.ci[0] <= T <= thh.ci[1]))
            thb, (blo, bhi), nb = run_bisection(trial, guess / 16, guess * 16)
            wb = _width(thb)
            covb = T is not None and thb is not None and thb.ci[0] <= T <= thb.ci[1]
            bis.append((nb, wb, covb, T is not None and blo <= T <= bhi))
        print(f"{label} ({reps} repetitions):")
        summarise("adaptive search", ours, T)
        summarise("adaptive, 25 trials", half, T)
        summarise("bisection 5 seeds 1.01", bis, T)


def quick_wall_time() -> None:
    from concurrent.futures import ProcessPoolExecutor

    t0 = time.perf_counter()
    res = check("vural2026.one_step", budget="quick")
    t1 = time.perf_counter()
    print(f"quick check, serial: {t1 - t0:.1f} s wall, {res.run['trials']} trials, "
          f"{len(res.cells)} cells, verdict {res.status}")
    per_cell = [sum(p[2] for p in c['threshold']['points']) for c in res.cells]
    widths = [c['threshold']['ci'][1] / c['threshold']['ci'][0] - 1 for c in res.cells if c['threshold']['estimate']]
    print(f"  trials per threshold: mean {np.mean(per_cell):.0f} (min {min(per_cell)}, max {max(per_cell)}); "
          f"CI width hi/lo-1: median {np.median(widths):.3f}")
    with ProcessPoolExecutor(2) as ex:
        t0 = time.perf_counter()
        check("vural2026.one_step", budget="quick", executor=ex)
        print(f"quick check, 2 worker processes: {time.perf_counter() - t0:.1f} s wall")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--skip-quick", action="store_true")
    args = ap.parse_args()
    if not args.skip_quick:
        quick_wall_time()
    efficiency(args.reps)


if __name__ == "__main__":
    main()
