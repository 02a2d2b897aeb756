"""Calibration harness: success curves whose exact threshold is known, not probit-shaped.

Each shape is a success probability ``P(r)`` of the resource ``r`` with its exact
q=1/2 threshold computed here (no simulator: Bernoulli trials are drawn from ``P``):

* ``probit``  -- planted ``Phi(log(r/r*)/w)`` (the model the GLM assumes);
* ``logistic`` -- log-logistic ``1/(1 + (r/r*)^-s)`` (symmetric, heavier tails);
* ``gumbel``  -- success iff the maximum of ``k`` iid Exp(1) is below ``s log(r/r0)``:
  ``P = (1 - (r/r0)^-s)^k`` (log-log link shape: sharp lower tail, long upper tail);
* ``weibull`` -- success iff a Poisson process of intensity ``(r/c)^s`` has an event:
  ``P = 1 - exp(-(r/c)^s)`` (complementary log-log shape: the mirror image);
* ``coupon``  -- coupon collector: all ``n`` coupons seen in ``m = r`` draws,
  ``P = sum_j (-1)^j C(n,j) (1-j/n)^m`` (inclusion-exclusion, exact with mpmath).

``run_search`` runs the adaptive search the way ``theorycheck check`` does (integer
resource, 4 trials a point, quick budget's 480 trials and CI width e^0.06, search ceiling
4096x the start) from a start guess off by a factor ``e^U(-1.5, 1.5)``.
Run as a script to print coverage tables: ``python tests/shape_harness.py [runs]
[shape,shape,...] [probit|average|stop-average] [seed]`` (see ``_main``).
"""

from __future__ import annotations

import functools
import math
import sys
import time

import mpmath
import numpy as np
from scipy.optimize import brentq
from scipy.stats import beta, norm

from theorycheck.threshold import ThresholdSearch

WIDTHS = (0.05, 0.1, 0.2)  # standard deviation of log r* of the transition, roughly


class Shape:
    """A success curve ``prob(r)`` with exact threshold ``truth`` (q = 1/2)."""

    name = "shape"
    truth: float

    def prob(self, r: float) -> float:
        raise NotImplementedError


class Probit(Shape):
    name = "probit"

    def __init__(self, truth: float, width: float) -> None:
        self.truth, self.width = truth, width

    def prob(self, r: float) -> float:
        return float(norm.cdf(math.log(r / self.truth) / self.width))


class Logistic(Shape):
    name = "logistic"

    def __init__(self, truth: float, width: float) -> None:
        self.truth, self.s = truth, math.pi / math.sqrt(3.0) / width  # sd of log r = width

    def prob(self, r: float) -> float:
        x = self.s * math.log(r / self.truth)
        return float(math.exp(-math.log1p(math.exp(-x)))) if x > -700 else 0.0


class Gumbel(Shape):
    name = "gumbel"

    def __init__(self, r0: float, width: float, k: int = 1000) -> None:
        self.r0, self.k = r0, k
        self.s = math.pi / math.sqrt(6.0) / width  # Gumbel sd pi/sqrt(6) in units of 1/s
        # (1 - x)^k = 1/2 with x = (r/r0)^-s
        x = -math.expm1(-math.log(2.0) / k)
        self.truth = r0 * x ** (-1.0 / self.s)

    def prob(self, r: float) -> float:
        if r <= self.r0:
            return 0.0
        return float(math.exp(self.k * math.log1p(-((r / self.r0) ** -self.s))))


class Weibull(Shape):
    name = "weibull"

    def __init__(self, truth: float, width: float) -> None:
        self.s = math.pi / math.sqrt(6.0) / width
        self.c = truth / math.log(2.0) ** (1.0 / self.s)  # 1 - exp(-(r*/c)^s) = 1/2
        self.truth = truth

    def prob(self, r: float) -> float:
        x = self.s * math.log(r / self.c)  # log of the intensity (r/c)^s
        return 1.0 if x > 700 else float(-math.expm1(-math.exp(x)))


class Coupon(Shape):
    """All ``n`` coupons seen in ``m`` uniform draws; ``m`` is rounded to an integer."""

    name = "coupon"

    def __init__(self, n: int) -> None:
        self.n = n
        lo, hi = n * math.log(n) * 0.5, n * math.log(n) * 3.0
        self.truth = brentq(lambda m: self._p(m) - 0.5, lo, hi, xtol=1e-6)

    @functools.lru_cache(maxsize=None)  # noqa: B019 (few instances, lives with the test run)
    def _p(self, m: float) -> float:
        n = self.n
        # P <= prod_i P(coupon i seen) = (1 - (1-1/n)^m)^n (negative association): below
        # 1e-30 a Bernoulli draw cannot tell P from 0
        bound = n * math.log1p(-math.exp(m * math.log1p(-1.0 / n)))
        if bound < math.log(1e-30):
            return 0.0
        lam = n * math.exp(-m / n)
        # working precision: 30 digits beyond the largest term C(n,j) (1-j/n)^m
        j = np.arange(n)
        log_terms = (math.lgamma(n + 1) - np.array([math.lgamma(x + 1) + math.lgamma(n - x + 1) for x in j])
                     + m * np.log1p(-j / n))
        if log_terms.max() < math.log(1e4):  # float64 cancellation error < 1e-8 (checked against 400 digits)
            signs = np.where(j % 2 == 0, 1.0, -1.0)
            p = float(np.sum(signs * np.exp(log_terms)) + (0.0 if m > 0 else (-1.0) ** n))
            return min(max(p, 0.0), 1.0)
        with mpmath.workdps(int(30 + max(0.0, float(log_terms.max())) / math.log(10))):
            total = mpmath.mpf(0)
            for j in range(n + 1):
                term = mpmath.binomial(n, j) * mpmath.power(1 - mpmath.mpf(j) / n, m)
                total += term if j % 2 == 0 else -term
                if j > lam and term < mpmath.mpf(10) ** -40:  # the rest is below 1e-40
                    break
            p = float(total)
        if not -1e-20 <= p <= 1 + 1e-20:
            raise ArithmeticError(f"coupon P({m:g}) = {p!r} outside [0, 1]: precision lost")
        return min(max(p, 0.0), 1.0)

    def prob(self, r: float) -> float:
        return self._p(float(round(r)))


def make_shape(name: str, rng: np.random.Generator) -> Shape:
    """A shape with a random scale (r* between 1e2 and 1e4) and width from :data:`WIDTHS`."""
    width = float(rng.choice(WIDTHS))
    truth = float(10 ** rng.uniform(2, 4))
    if name == "probit":
        return Probit(truth, width)
    if name == "logistic":
        return Logistic(truth, width)
    if name == "gumbel":
        g = Gumbel(1.0, width)
        return Gumbel(truth / g.truth, width)  # rescale r0 so that r* = truth
    if name == "weibull":
        return Weibull(truth, width)
    if name == "coupon":
        return Coupon(int(rng.choice([50, 200, 1000])))  # sd of log m*: ~0.3, 0.22, 0.17
    raise ValueError(f"unknown shape {name!r}")


def run_search(shape: Shape, seed: int | tuple[int, ...], truth: float | None = None,
               **overrides: object) -> tuple[bool, float, int, str, tuple[float, ...]]:
    """One search as ``check`` runs it; ``(covered, log(estimate/truth), trials, method,
    (log error of the mixture median, of the weighted mean, of the best link))``.
    ``truth``: the crossing the search is after (default ``shape.truth``, the one at q = 1/2;
    give the crossing at ``q`` with ``q=`` in ``overrides``); ``seed`` an int or a tuple of ints."""
    truth = shape.truth if truth is None else truth
    ss = np.random.SeedSequence([*(seed if isinstance(seed, tuple) else (seed,)), 12])
    rng = np.random.default_rng(ss)
    start = max(1.0, truth * math.exp(rng.uniform(-1.5, 1.5)))
    kwargs = dict(start=start, q=0.5, seeds_per_point=4, integer=True, upper=start * 4096,
                  max_trials=480, rel_width=0.06)
    kwargs.update(overrides)
    search = ThresholdSearch(**kwargs)  # type: ignore[arg-type]
    while requests := search.ask():
        for r, n in requests:
            search.tell(r, int(rng.binomial(n, shape.prob(r))), n)
    th = search.result()
    lo, hi = th.ci
    err = math.log(th.estimate / truth) if th.estimate else math.nan
    return bool(lo <= truth <= hi), err, th.trials, th.method, _average_errors(th, truth)


def _average_errors(th: object, truth: float) -> tuple[float, float, float]:
    """``log(estimate/truth)`` of the link average's mixture median, its weighted mean and
    the largest-likelihood link's crossing, on the search's final points (nan when there
    is no averaged fit)."""
    from theorycheck.threshold.glm import averaged_fit, link_crossing
    from theorycheck.threshold.points import pool_points

    got = averaged_fit(pool_points(th.points), th.q, th.level)
    if got is None:
        return math.nan, math.nan, math.nan
    avg, best = got
    return tuple(x - math.log(truth) for x in (avg.median, avg.mean, link_crossing(best, th.q)))


def coverage(name: str, runs: int, seed: int = 0, **overrides: object) -> dict[str, float]:
    """Coverage of the exact threshold by the 95% CI over ``runs`` searches, with its
    Clopper-Pearson 95% CI, mean log error and trials."""
    shape_rng = np.random.default_rng(np.random.SeedSequence([seed, 7]))
    cov, errs, trials, avg_errs = 0, [], [], []
    for i in range(runs):
        shape = make_shape(name, shape_rng)
        ok, err, n, _, avg_err = run_search(shape, seed * 100003 + i, **overrides)
        cov += ok
        errs.append(err)
        trials.append(n)
        avg_errs.append(avg_err)
    lo = float(beta.ppf(0.025, cov, runs - cov + 1)) if cov else 0.0
    hi = float(beta.ppf(0.975, cov + 1, runs - cov)) if cov < runs else 1.0
    return {"coverage": cov / runs, "cp_lo": lo, "cp_hi": hi, "runs": runs,
            "mean_log_err": float(np.nanmean(errs)), "mean_trials": float(np.mean(trials)),
            "log_err_median": float(np.nanmean([e[0] for e in avg_errs])),
            "log_err_mean": float(np.nanmean([e[1] for e in avg_errs])),
            "log_err_best": float(np.nanmean([e[2] for e in avg_errs])),
            "rms_err": [float(np.sqrt(np.nanmean([e[j] ** 2 for e in avg_errs]))) for j in range(3)],
            "median_trials": float(np.median(trials))}


def _main(argv: list[str]) -> None:
    """``python tests/shape_harness.py [runs] [shape,...] [probit|average|stop-average]
    [seed]``: the probit-only fit, the link average with the best link's stopping rule
    (default), or the link average also as the stopping rule."""
    from theorycheck.threshold import glm, stopping

    n_runs = int(argv[1]) if len(argv) > 1 else 100
    names = argv[2].split(",") if len(argv) > 2 else ["probit", "logistic", "gumbel", "weibull", "coupon"]
    mode = argv[3] if len(argv) > 3 else "average"
    seed = int(argv[4]) if len(argv) > 4 else 0
    glm.LINK_CANDIDATES = ("probit",) if mode == "probit" else glm.CALIBRATED_LINKS
    stopping.STOP_ON_AVERAGE = mode == "stop-average"
    for nm in names:
        t0 = time.process_time()
        c = coverage(nm, n_runs, seed)
        print(f"{nm:9s} {mode} seed {seed} coverage {c['coverage']:.3f} [{c['cp_lo']:.3f}, {c['cp_hi']:.3f}] "
              f"n={n_runs} log-err {c['mean_log_err']:+.4f} (median {c['log_err_median']:+.4f}, "
              f"mean {c['log_err_mean']:+.4f}, best link {c['log_err_best']:+.4f}; rms "
              f"{'/'.join(f'{x:.4f}' for x in c['rms_err'])}) trials mean {c['mean_trials']:.0f} "
              f"median {c['median_trials']:.0f}  cpu {time.process_time() - t0:.0f}s", flush=True)


def sweep_exponent(seed: int, shape: str = "gumbel",
                   values: tuple[float, ...] = (30, 60, 120, 240, 480)) -> tuple[bool, float, int]:
    """One planted sweep of the exact law ``N* = C V`` whose cells have a non-probit
    ``shape`` (width drawn per cell from :data:`WIDTHS`): run the searches, compare the
    law, and return ``(exponent CI covers 1, exponent estimate, trials)`` (for a monomial
    law the residual-trend CI is the exponent CI shifted by the exponent)."""
    from theorycheck.compare import Dataset, compare
    from theorycheck.law import Law

    rng = np.random.default_rng(np.random.SeedSequence([seed, 99]))
    const = float(10 ** rng.uniform(0.5, 1.5))
    items, total = [], 0
    for j, v in enumerate(values):
        width = float(rng.choice(WIDTHS))
        truth = const * v
        cell = {"gumbel": lambda: Gumbel(truth / Gumbel(1.0, width).truth, width),
                "weibull": lambda: Weibull(truth, width),
                "probit": lambda: Probit(truth, width)}[shape]()
        ss = np.random.SeedSequence([seed, j, 5])
        sub = np.random.default_rng(ss)
        start = max(1.0, truth * math.exp(sub.uniform(-1.5, 1.5)))
        search = ThresholdSearch(start=start, q=0.5, seeds_per_point=4, integer=True,
                                 upper=start * 4096, max_trials=480, rel_width=0.06)
        while requests := search.ask():
            for r, n in requests:
                search.tell(r, int(sub.binomial(n, cell.prob(r))), n)
        th = search.result()
        total += th.trials
        items.append(({"V": float(v)}, th))
    data = Dataset.from_thresholds(items)
    verdict = compare(Law.parse("N >= C*V"), data, diagnostics=False)
    ex = verdict.exponents["V"]
    return bool(ex.ci[0] <= 1.0 <= ex.ci[1]), float(ex.estimate), total


def exponent_coverage(runs: int, shape: str = "gumbel", seed: int = 0) -> dict[str, float]:
    """Coverage of the true exponent 1 over ``runs`` planted sweeps, with Clopper-Pearson CI."""
    res = [sweep_exponent(seed * 100003 + i, shape) for i in range(runs)]
    cov = sum(r[0] for r in res)
    lo = float(beta.ppf(0.025, cov, runs - cov + 1)) if cov else 0.0
    hi = float(beta.ppf(0.975, cov + 1, runs - cov)) if cov < runs else 1.0
    est = np.array([r[1] for r in res])
    return {"coverage": cov / runs, "cp_lo": lo, "cp_hi": hi, "runs": runs,
            "sd_estimate": float(est.std(ddof=1)), "mean_estimate": float(est.mean())}


if __name__ == "__main__":
    _main(sys.argv)
