"""Per-seed critical values on nested data, and the quantile threshold with its CI."""

import math

import numpy as np
import pytest
from scipy.stats import binom

from theorycheck.simulate import simulate
from theorycheck.tasks.retrieval import RetrievalParams
from theorycheck.threshold.per_seed import (
    critical_value,
    critical_values,
    geometric_grid,
    per_seed_threshold,
)
from theorycheck.threshold.first_success import first_success, verified_first_success
from theorycheck.threshold.quantile import order_statistic_ci, quantile_threshold

# a cheap cell whose threshold (accuracy >= 0.99 on 32 test sequences) lies near N ~ 4000
CELL = RetrievalParams(V=32, d=64, L=4, N=1)
GRID = geometric_grid(500, 16000, 4)


@pytest.mark.parametrize("algorithm", ["limit", "one-step"])
def test_every_evaluated_point_equals_plain_simulate(algorithm):
    found = critical_value(CELL, 7, GRID, algorithm=algorithm, scan=True)
    assert len(found.evaluated) == len(GRID)
    for N, accuracy, success in found.evaluated:
        plain = simulate(CELL.replace(N=N), algorithm, seed=7)
        assert accuracy == plain.accuracy, N  # the same fit, bit for bit: same accuracy
        assert success == plain.success
    # not vacuous: the seed fails somewhere and succeeds somewhere on the grid
    flags = [s for _, _, s in found.evaluated]
    assert not flags[0] and flags[-1]


# a cell whose accuracy depends on which test contexts are drawn (at CELL it does not)
CONTEXT_CELL = RetrievalParams(V=32, d=24, L=16, N=1, contexts=4)


def test_evaluated_points_equal_plain_simulate_where_the_test_set_matters():
    # guards: simulate drawing its test set from another seed stream than the per-seed evaluator
    # (a test set from the training stream changes the accuracy at N = 1000 and 10000 here)
    grid = [300, 1000, 3000, 10000]
    found = critical_value(CONTEXT_CELL, 7, grid, algorithm="limit", beta=2.0, scan=True)
    assert [N for N, _, _ in found.evaluated] == grid
    for N, accuracy, success in found.evaluated:
        plain = simulate(CONTEXT_CELL.replace(N=N), "limit", seed=7, beta=2.0)
        assert accuracy == plain.accuracy, N  # the same fit and test set, bit for bit
        assert success == plain.success
    # not vacuous: the accuracy moves along the grid (it is not stuck at 0 or 1)
    assert len({accuracy for _, accuracy, _ in found.evaluated}) == len(grid)


def test_bisection_finds_the_scanned_critical_value_from_any_hint():
    for seed in (1, 2):  # two seeds whose success is monotone on this grid
        full = critical_value(CELL, seed, GRID, scan=True)
        assert full.monotone
        for hint in range(0, len(GRID), 3):
            fast = critical_value(CELL, seed, GRID, hint=hint, verify=False)
            assert fast.critical == full.critical
            assert len(fast.evaluated) < len(GRID)
            assert critical_value(CELL, seed, GRID, hint=hint).critical == full.critical


@pytest.mark.parametrize("K", range(1, 14))
def test_search_on_monotone_sequences(K):
    for answer in range(K + 1):  # success iff index >= answer (answer == K: never)
        for hint in (None, *range(K)):
            calls = []

            def success(i):
                calls.append(i)
                return i >= answer

            assert first_success(success, K, hint) == answer
            # galloping + bisection: O(log K) evaluations
            assert len(calls) <= 2 * math.ceil(math.log2(K + 1)) + 2


def test_verify_moves_past_a_flip_back():
    flags = [False, False, True, False, True, True, True, True]  # success flips back at 3
    calls = []

    def success(i):
        calls.append(i)
        return flags[i]

    assert first_success(success, 8, 2) == 2  # bisection stops at the first crossing
    assert verified_first_success(success, 8, 2) == 4  # the failure at 3 is found and passed
    assert all(flags[i] for i in set(calls) if i >= 4)
    assert verified_first_success(lambda i: i >= 5, 8, 5) == 5  # monotone: unchanged
    assert verified_first_success(lambda i: i != 7 and i >= 2, 8, 2) == 8  # fails at the top: never


def test_search_scan_reports_the_last_failure():
    flags = [False, True, False, True, True]
    assert first_success(lambda i: flags[i], 5, None, scan=True) == 3


def test_order_statistic_ci_coverage_is_at_least_level():
    assert order_statistic_ci(20, 0.5, 0.95)[:2] == (6, 15)  # textbook ranks (Conover Table A3)
    for n in (6, 10, 25, 60, 200):
        for q in (0.25, 0.5, 0.9):
            lo, hi, cov = order_statistic_ci(n, q, 0.95)
            exact = binom.cdf(hi - 1, n, q) - binom.cdf(lo - 1, n, q) if hi <= n else binom.sf(lo - 1, n, q)
            assert cov == pytest.approx(exact) and cov >= 0.95


def test_order_statistic_ci_covers_a_continuous_quantile():
    # 4000 seeded repeats of n=20 exponential samples: the exact coverage is 0.9586;
    # the Monte-Carlo s.d. is sqrt(0.96*0.04/4000) = 0.0031, so [0.945, 0.972] is
    # more than 4 s.d. on each side
    rng = np.random.default_rng(2026)
    true_median = math.log(2.0)
    covered = 0
    for _ in range(4000):
        t = quantile_threshold(rng.exponential(size=20), 0.5, 0.95)
        covered += t.ci[0] <= true_median <= t.ci[1]
    assert 0.945 <= covered / 4000 <= 0.972


def test_quantile_threshold_handles_censoring_and_flags():
    values = [5.0, 6.0, 7.0, 8.0, math.inf, math.inf, 9.0, 10.0, 11.0, 12.0]
    t = quantile_threshold(values, 0.5)
    # n = 10: ranks (2, 9); the two censored seeds sort last, so c_(9) = inf
    assert t.estimate == 9.0 and t.ci == (6.0, math.inf) and t.method == "quantile"
    t = quantile_threshold([math.inf] * 6 + [1.0] * 4, 0.5)
    assert t.estimate is None and t.censored == "above" and t.ci[1] == math.inf
    t = quantile_threshold([2.0] * 7 + [3.0, 4.0, 5.0], 0.5, start=2.0)
    assert t.censored == "below" and t.ci[0] == 0.0
    t = quantile_threshold([2.0, 3.0, 4.0, 5.0, 6.0, 7.0], 0.5, non_monotone=1)
    assert not t.monotone and any("fail again" in w for w in t.warnings)


def test_bad_inputs_are_rejected_with_a_clear_message():
    with pytest.raises(ValueError, match="critical must be a non-empty"):
        quantile_threshold([], 0.5)
    with pytest.raises(ValueError, match="critical must be a non-empty"):
        quantile_threshold([1.0, math.nan], 0.5)
    with pytest.raises(ValueError, match="q must lie strictly between 0 and 1"):
        quantile_threshold([1.0], 1.5)
    with pytest.raises(ValueError, match="grid must be a non-empty increasing"):
        critical_value(CELL, 0, [4, 2])
    with pytest.raises(ValueError, match="support algorithm"):
        critical_value(CELL, 0, GRID, algorithm="gd")
    with pytest.raises(ValueError, match="stop must be >= start"):
        geometric_grid(10, 5)


def test_per_seed_threshold_brackets_the_bernoulli_rate():
    # 12 seeds: the estimate is a critical value, and the success rate of plain trials at
    # the estimate over 12 fresh seeds is not far from q = 1/2 (binomial 12, loose bound)
    result, found = per_seed_threshold(CELL, range(12), GRID)
    assert result.estimate in GRID and result.ci[0] <= result.estimate <= result.ci[1]
    assert len(found) == 12
    rate = np.mean([simulate(CELL.replace(N=int(result.estimate)), "limit", seed=s).success
                    for s in range(100, 112)])
    assert 0.1 <= rate <= 1.0  # at the median of 12 critical values; P(rate < 0.1) is tiny
    assert critical_values(CELL, [3], GRID)[0].critical == critical_value(CELL, 3, GRID).critical


@pytest.mark.slow
def test_quantile_ci_coverage_on_real_critical_values():
    # Critical values of 300 seeds form the pool; 1000 seeded resamples of n = 20 seeds
    # from it (i.i.d. from the pool's distribution) are covered when their CI contains
    # the pool's median.  Nominal 0.95; the exact coverage is 0.9586 for continuous values
    # and higher with ties (grid-rounded critical values), so the grid is fine (96 points
    # per doubling) and the exact coverage for the pool's discrete distribution,
    # 1 − P(c_(l) > ξ) − P(c_(u) < ξ) = 1 − Bin(l−1; n, F(ξ)) − SF(u−1; n, F(ξ−)), is the
    # reference: the Monte-Carlo coverage must match it within 4 s.d. (s.d. <= 0.007 with
    # 1000 repeats) and lie in [0.93, 0.975] (the target is 0.93-0.97 at nominal 0.95).
    cell = CELL.replace(d=128)  # at d = 64 many seeds plateau below tau
    grid = geometric_grid(500, 32000, 96)
    pool = np.array([c.critical for c in critical_values(cell, range(300), grid)])
    assert np.isinf(pool).mean() < 0.05 and len(np.unique(pool)) > 100  # few ties
    truth = np.quantile(pool, 0.5, method="inverted_cdf")
    n = 20
    lo, hi, _ = order_statistic_ci(n, 0.5, 0.95)
    exact = 1 - binom.cdf(lo - 1, n, np.mean(pool <= truth)) - binom.sf(hi - 1, n, np.mean(pool < truth))
    rng = np.random.default_rng(99)
    hits = 0
    for _ in range(1000):
        t = quantile_threshold(rng.choice(pool, n), 0.5, 0.95)
        hits += t.ci[0] <= truth <= t.ci[1]
    coverage = hits / 1000
    sd = math.sqrt(exact * (1 - exact) / 1000)
    assert abs(coverage - exact) <= 4 * sd, (coverage, exact)
    assert 0.93 <= coverage <= 0.975, (coverage, exact)
