"""The one probit likelihood and the one GLM wrapper agree with each other and with
statsmodels; the link-generic threshold; the cell-to-cell scatter estimate."""

import math

import numpy as np
import pytest
import statsmodels.api as sm
from scipy.stats import norm

from theorycheck.compare.trends import excess_scatter
from theorycheck.threshold.glm import (
    binomial_glm,
    fieller_interval,
    fit_link,
    link_quantile,
    link_slope_at,
)
from theorycheck.threshold.likelihood import (
    binomial_constant,
    probit_covariance,
    probit_loglik,
    probit_score_u,
)

T = np.log([10.0, 14.0, 20.0, 28.0, 40.0])
K = np.array([0, 1, 3, 6, 8])
N = np.array([8, 8, 8, 8, 8])


def test_probit_likelihood_and_covariance_equal_the_glm_wrapper():
    exog = sm.add_constant(T)
    res = binomial_glm(K, N, exog, "probit")
    u = exog @ res.params
    # same log-likelihood (statsmodels includes the binomial constant) ...
    assert probit_loglik(u, K, N) + binomial_constant(K, N) == pytest.approx(res.llf, rel=1e-9)
    # ... zero score at the MLE (IRLS stops on a relative deviance change of 1e-8, which
    # leaves scores of ~1e-6 against per-point scores of order 1), and the same
    # covariance (inverse expected information)
    assert np.abs(probit_score_u(u, K, N) @ exog).max() < 1e-4
    assert probit_covariance(u, N, exog) == pytest.approx(res.cov, rel=1e-5)


def test_link_quantiles_and_slopes_invert_their_cdfs():
    cdf = {"probit": norm.cdf, "logit": lambda e: 1 / (1 + math.exp(-e)),
           "cloglog": lambda e: 1 - math.exp(-math.exp(e)), "loglog": lambda e: math.exp(-math.exp(-e))}
    for link, f in cdf.items():
        for q in (0.2, 0.5, 0.9):
            eta = link_quantile(link, q)
            assert f(eta) == pytest.approx(q, rel=1e-12)
            h = 1e-6
            assert link_slope_at(link, q) == pytest.approx((f(eta + h) - f(eta - h)) / (2 * h), rel=1e-6)


def test_likelihood_picks_the_planted_link_and_its_crossing():
    # a loglog curve P = exp(-exp(-(b0 + b1 t))) with many trials: the loglog fit wins
    # by a wide margin and its q=1/2 crossing sits at the planted one
    t = np.linspace(-0.6, 0.6, 13)
    p = np.exp(-np.exp(-(link_quantile("loglog", 0.5) + 4.0 * t)))
    n = np.full(t.size, 4000)
    k = np.round(n * p).astype(int)
    fits = {lk: fit_link(t, k, n, lk) for lk in ("probit", "logit", "cloglog", "loglog")}
    best = max(fits.values(), key=lambda f: f.llf)
    assert best.link == "loglog"
    assert best.llf > fits["probit"].llf + 10  # decisive: 13 points of 4000 trials
    lo, hi = fieller_interval(best, 0.5, 0.95)
    truth = 0.0  # b0 chosen so that P(t=0) = 1/2
    assert lo < truth < hi and hi - lo < 0.02


def test_excess_scatter_is_zero_within_the_cis_and_recovers_planted_scatter():
    rng = np.random.default_rng(np.random.SeedSequence(3))
    m, se, tau = 400, 0.02, 0.05
    x = np.column_stack([np.ones(m), np.linspace(0, 3, m)])
    cov = np.eye(m) * se**2
    quiet = x @ [1.0, 0.5] + rng.normal(0, se, m)
    noisy = x @ [1.0, 0.5] + rng.normal(0, math.hypot(se, tau), m)
    # tau^2 estimate: sd of the moment estimator ~ sqrt(2/m)*(se^2+tau^2) ~ 2e-4, so
    # 0.05^2 = 2.5e-3 is recovered to +-25% and the quiet case stays below 1e-3
    assert excess_scatter(quiet, cov, x) < 1e-3 * 0.3
    assert excess_scatter(noisy, cov, x) == pytest.approx(tau**2, rel=0.25)
    # no residual degree of freedom: nothing to estimate
    assert excess_scatter(quiet[:2], cov[:2, :2], x[:2]) == 0.0


def test_log_phi_is_scipys_normal_log_density_to_the_last_bit():
    # the fits' inverse Mills ratio and Fisher weights use log_phi in place of scipy.stats.norm.logpdf (per-call
    # overhead); a last-bit difference would move every published fit's last digits, so equality is exact
    from theorycheck.threshold.likelihood import log_phi

    u = np.concatenate([np.random.default_rng(7).normal(0, 10, 10_000), [0.0, -40.0, 40.0, -1e8, 1e8, 1e-300]])
    assert np.array_equal(log_phi(u), norm.logpdf(u))
