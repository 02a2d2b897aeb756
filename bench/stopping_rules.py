"""Stopping rules of the threshold search, measured (prints figures, asserts nothing).

    python bench/stopping_rules.py                     # every rule; coupon n = 566, 800; 400 seeds
    python bench/stopping_rules.py --rules kept,either --seeds 100 --shapes gumbel,probit

A search stops once the CI of ``log r*`` that its stopping rule reads is narrower than the
budget's target (``theorycheck/threshold/search.py``). A CI that is narrow early mostly
rests on a slope that came out steep by chance; stopping on it selects those searches and
their CIs under-cover (docs/thresholds.md, "Stopping"). The rules compared here change only
the CI the stopping rule reads; the reported CI is the search's own:

* ``kept``     -- the rule in theorycheck (``theorycheck/threshold/stopping.py``): the best
  link's Fieller CI, from ``MIN_TRIALS_TO_STOP`` (96) trials, and only once the slope is
  known to ``se(b1)/b1 <= MAX_SLOPE_REL_SE`` (0.15); until 2026-11-26 this bench called
  it ``slope``;
* ``min96``    -- the rule until 2026-11-26 (this bench's ``kept`` then): from 96 trials,
  whatever the slope's precision;
* ``min150``, ``min200`` -- from 150 / 200 trials, whatever the slope's precision;
* ``average``  -- the link average's CI (``STOP_ON_AVERAGE``), from 96 trials;
* ``shallow``  -- the CI as it would be with the slope one standard error shallower: its
  width divided by ``1 - se(b1)/b1`` (the CI's width goes as ``1/b1``), from 96 trials;
* ``either``   -- ``shallow``, except that a slope known to ``se(b1)/b1 <= 0.15`` stops on
  the CI itself.

Every rule but ``kept`` lifts the slope condition (``MAX_SLOPE_REL_SE = inf``), so each
reads as it did when it was first measured.

Coupon cells: all ``n`` coupons seen in ``m`` uniform draws, with the exact ``P(m)`` from
the occupancy chain (the number of distinct coupons after each draw). The search starts at
``n log n`` (a law ``m >= C n log n`` with ``C = 1``; for n = 566 and 800 that is 0.95x the
median, where ``P`` is already 0.37, inside a transition whose sd of ``log m*`` is ~0.17),
with the quick budget's settings (4 trials a point, 480 trials, CI ratio ``e^0.06``, a full
width), seeds ``0..S-1``.
``--shapes`` adds the calibration shapes of ``tests/shape_harness.py`` (its searches, its
seed 0). Each line: searches, coverage of the exact median, mean trials, and coverage by
the number of trials at which the search stopped.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
import time

from blas_threads import set_blas_threads

set_blas_threads()

import numpy as np  # noqa: E402

import theorycheck.threshold.search as search  # noqa: E402
from theorycheck.threshold import stopping  # noqa: E402

SLOPE_REL_SE = stopping.MAX_SLOPE_REL_SE
BANDS = ((0, 120), (120, 150), (150, 200), (200, 300), (300, 10**9))
RULES = ("kept", "min96", "min150", "min200", "average", "shallow", "either")
SHAPES = ("probit", "logistic", "gumbel", "weibull", "coupon")  # tests/shape_harness.py


def _widen(ci: tuple[float, float], est: float, factor: float) -> tuple[float, float]:
    return est - (est - ci[0]) * factor, est + (ci[1] - est) * factor


def _read_ci(rule: str, original):
    """The stopping rule's CI under ``rule`` (wraps :func:`search.glm_threshold_t`)."""

    def read(pts, q, level, *, average=True):
        got = original(pts, q, level, average=average)
        if got is None:
            return None
        est, ci, fit = got
        rel = stopping.slope_rel_se(fit)
        if rule == "shallow" or (rule == "either" and rel > SLOPE_REL_SE):
            ci = _widen(ci, est, 1.0 / (1.0 - rel) if rel < 1.0 else math.inf)
        return est, ci, fit

    return read


@contextlib.contextmanager
def stopping_rule(rule: str):
    """Run the searches inside under ``rule``; theorycheck's own rule is restored after."""
    saved = (stopping.MIN_TRIALS_TO_STOP, stopping.MAX_SLOPE_REL_SE, stopping.STOP_ON_AVERAGE,
             search.glm_threshold_t)
    try:
        if rule not in RULES:
            raise ValueError(f"unknown rule {rule!r}; choose from {', '.join(RULES)}")
        if rule != "kept":
            stopping.MAX_SLOPE_REL_SE = math.inf
        if rule.startswith("min"):
            stopping.MIN_TRIALS_TO_STOP = int(rule[3:])
        elif rule == "average":
            stopping.STOP_ON_AVERAGE = True
        elif rule in ("shallow", "either"):
            search.glm_threshold_t = _read_ci(rule, saved[3])
        yield
    finally:
        (stopping.MIN_TRIALS_TO_STOP, stopping.MAX_SLOPE_REL_SE, stopping.STOP_ON_AVERAGE,
         search.glm_threshold_t) = saved


def coupon_cdf(n: int) -> np.ndarray:
    """``P(all n coupons seen in m draws)`` for ``m = 0, 1, ...`` up to far in the upper tail."""
    m_max = int(1.5 * n * (math.log(n) + 8.0))
    j = np.arange(n + 1)
    p, out = np.zeros(n + 1), np.zeros(m_max + 1)
    p[0] = 1.0
    for m in range(1, m_max + 1):
        moved = p[:-1] * (n - j[:-1]) / n  # a draw shows a new coupon
        p = p * j / n
        p[1:] += moved
        out[m] = p[n]
    return out


def coupon_search(cdf: np.ndarray, n: int, seed: int) -> tuple[int, float, float, float]:
    """``(trials, estimate, ci_lo, ci_hi)`` of one quick-budget search on a coupon cell."""
    rng = np.random.default_rng(seed)
    s = search.ThresholdSearch(start=n * math.log(n), q=0.5, seeds_per_point=4, integer=True,
                               lower=1, max_trials=480, rel_width=0.06, resource="m")
    while requests := s.ask():
        for r, k in requests:
            s.tell(r, int(rng.binomial(k, cdf[min(int(r), cdf.size - 1)])), k)
    th = s.result()
    return s.trials, th.estimate, th.ci[0], th.ci[1]


def _line(label: str, trials: np.ndarray, covered: np.ndarray) -> str:
    bands = " ".join(
        f"[{lo},{hi if hi < 10**9 else ''}):{int(m.sum())}/{covered[m].mean():.2f}"
        for lo, hi in BANDS if (m := (trials >= lo) & (trials < hi)).any()
    )
    return (f"{label:28s} {trials.size:4d} searches  coverage {covered.mean():.3f}  "
            f"mean trials {trials.mean():6.1f}  by stop: {bands}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default=",".join(RULES))
    ap.add_argument("--n", default="566,800", help="coupon cells (number of coupon types)")
    ap.add_argument("--seeds", type=int, default=400, help="searches per coupon cell")
    ap.add_argument("--shapes", default="", help="e.g. gumbel,weibull,probit,logistic")
    ap.add_argument("--shape-runs", type=int, default=200)
    a = ap.parse_args()
    rules = a.rules.split(",")
    unknown = sorted(set(rules) - set(RULES))
    if unknown:
        ap.error(f"unknown rule(s) {', '.join(unknown)}; choose from {', '.join(RULES)}")
    shapes = [s for s in a.shapes.split(",") if s]
    if set(shapes) - set(SHAPES):
        bad = ", ".join(sorted(set(shapes) - set(SHAPES)))
        ap.error(f"--shapes: unknown {bad}; choose from {', '.join(SHAPES)}")
    try:
        cells = [int(x) for x in a.n.split(",") if x]
    except ValueError:
        cells = []
    if not cells or min(cells) < 2:
        ap.error(f"--n takes whole numbers >= 2 separated by commas, e.g. 566,800; got {a.n!r}")
    if a.seeds < 1 or a.shape_runs < 1:
        ap.error(f"--seeds and --shape-runs must be at least 1; got {a.seeds} and {a.shape_runs}")
    if shapes:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
        import shape_harness
    cdfs = {n: coupon_cdf(n) for n in cells}
    # exact median, continuous: the resource where P crosses 1/2, between two integers
    medians = {n: float(np.searchsorted(cdfs[n], 0.5)) - 0.5 for n in cells}
    print(f"coupon cells n = {cells}, exact medians {medians}; {a.seeds} seeds each")
    for rule in rules:
        t0 = time.process_time()
        with stopping_rule(rule):
            rows = [(n, *coupon_search(cdfs[n], n, seed)) for n in cells for seed in range(a.seeds)]
            trials = np.array([r[1] for r in rows])
            covered = np.array([r[3] <= medians[r[0]] <= r[4] for r in rows])
            cpu = time.process_time() - t0
            print(_line(f"{rule} coupon", trials, covered) + f"  cpu {cpu:.0f}s", flush=True)
            for name in shapes:
                shape_rng = np.random.default_rng(np.random.SeedSequence([0, 7]))
                res = [shape_harness.run_search(shape_harness.make_shape(name, shape_rng), i)
                       for i in range(a.shape_runs)]
                print(_line(f"{rule} {name}", np.array([r[2] for r in res]),
                            np.array([r[0] for r in res])), flush=True)


if __name__ == "__main__":
    main()
