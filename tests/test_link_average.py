"""Likelihood-weighted link average (theorycheck/threshold/link_average.py)."""

import math

import numpy as np
import pytest
from scipy.stats import norm

from theorycheck.threshold import fit_threshold, glm
from theorycheck.threshold.glm import averaged_fit, fieller_interval, fit_link, link_crossing
from theorycheck.threshold.link_average import average_links, link_weights
from theorycheck.threshold.points import pool_points

Z = norm.ppf(0.975)


def _two_piece_cdf(x, t, lo, hi):
    """The per-link distribution of the module doc, written out independently."""
    s = (t - lo) / Z if x < t else (hi - t) / Z
    return norm.cdf((x - t) / s)


def test_weights_sum_to_one_and_follow_the_likelihood_ratio():
    w = link_weights(np.array([-10.0, -11.0, -13.0, -1000.0]))
    assert w.sum() == pytest.approx(1.0, abs=1e-12)
    assert w[0] / w[1] == pytest.approx(math.e, rel=1e-12)
    assert w[0] / w[2] == pytest.approx(math.e**3, rel=1e-12)
    assert w[3] < 1e-300


def test_one_dominant_link_gives_exactly_its_fieller_ci_and_estimate():
    ests = np.array([1.0, 1.3, 0.6])
    ivs = [(0.9, 1.15), (1.1, 1.6), (0.2, 0.9)]
    avg = average_links(ests, ivs, np.array([0.0, -60.0, -60.0]), 0.95)
    assert avg.ci == pytest.approx((0.9, 1.15), abs=1e-9)
    assert avg.median == pytest.approx(1.0, abs=1e-9)
    single = average_links(ests[:1], ivs[:1], np.array([-5.0]), 0.95)
    assert single.ci == pytest.approx((0.9, 1.15), abs=1e-12) and single.mean == 1.0


def test_ci_limits_are_the_mixture_tail_quantiles():
    ests = np.array([1.0, 1.2])
    ivs = [(0.9, 1.15), (1.0, 1.5)]
    ll = np.array([0.0, -0.5])
    avg = average_links(ests, ivs, ll, 0.95)
    w = link_weights(ll)

    def cdf(x):
        return sum(wk * _two_piece_cdf(x, t, lo, hi) for wk, t, (lo, hi) in zip(w, ests, ivs))

    assert cdf(avg.ci[0]) == pytest.approx(0.025, abs=1e-9)
    assert cdf(avg.ci[1]) == pytest.approx(0.975, abs=1e-9)
    assert cdf(avg.median) == pytest.approx(0.5, abs=1e-9)
    assert avg.mean == pytest.approx(float(w @ ests), abs=1e-12)


def test_ci_contains_every_plausible_links_estimate_and_stays_inside_the_hull():
    # a link of weight >= 1 - level puts >= (1 - level)/2 of the mixture on each side of
    # its own estimate, so the mixture's tail quantiles cannot exclude it
    rng = np.random.default_rng(np.random.SeedSequence(3))
    for _ in range(200):
        ests = rng.normal(0.0, 0.3, size=4)
        half = rng.uniform(0.02, 0.4, size=(4, 2))
        ivs = [(t - a, t + b) for t, (a, b) in zip(ests, half)]
        ll = rng.normal(0.0, 2.0, size=4)
        avg = average_links(ests, ivs, ll, 0.95)
        assert min(lo for lo, _ in ivs) - 1e-9 <= avg.ci[0] < avg.median < avg.ci[1] <= max(hi for _, hi in ivs) + 1e-9
        for t, wk in zip(ests, avg.weights):
            if wk >= 0.05:
                assert avg.ci[0] - 1e-9 <= t <= avg.ci[1] + 1e-9


def test_identical_links_give_that_ci():
    avg = average_links(np.array([2.0, 2.0]), [(1.8, 2.3), (1.8, 2.3)], np.array([-3.0, -3.0]), 0.95)
    assert avg.ci == pytest.approx((1.8, 2.3), abs=1e-12)


def test_unbounded_link_widens_or_voids_the_ci():
    ests = np.array([1.0, 1.0])
    ivs = [(0.9, 1.1), None]
    tail = 0.025
    # weight of the unbounded link 0.01 < 0.025: conservative limits, wider than alone
    ll_small = np.array([0.0, math.log(0.01 / 0.99)])
    avg = average_links(ests, ivs, ll_small, 0.95)
    p = (tail - 0.01) / 0.99
    s = 0.1 / Z
    assert avg.ci == pytest.approx((1.0 + s * norm.ppf(p), 1.0 - s * norm.ppf(p)), abs=1e-9)
    assert avg.ci[0] < 0.9 and avg.ci[1] > 1.1
    # weight 0.03 >= 0.025: no interval
    assert average_links(ests, ivs, np.array([0.0, math.log(0.03 / 0.97)]), 0.95) is None


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="one entry per link"):
        average_links(np.array([1.0, 2.0]), [(0.0, 1.0)], np.array([0.0, 0.0]), 0.95)
    with pytest.raises(ValueError, match="logliks"):
        link_weights(np.array([0.0, np.nan]))
    with pytest.raises(ValueError, match="level"):
        average_links(np.array([1.0]), [(0.0, 2.0)], np.array([0.0]), 1.5)


def test_fit_threshold_reports_the_link_average(monkeypatch):
    monkeypatch.setattr(glm, "LINK_CANDIDATES", glm.CALIBRATED_LINKS)
    points = [(10, 0, 8), (14, 1, 8), (20, 3, 8), (28, 6, 8), (40, 8, 8)]
    th = fit_threshold(points)
    pts = pool_points(points)
    fits = [fit_link(pts.t, pts.k, pts.n, lk) for lk in glm.CALIBRATED_LINKS]
    avg = average_links(np.array([link_crossing(f, 0.5) for f in fits]),
                        [fieller_interval(f, 0.5, 0.95) for f in fits],
                        np.array([f.llf for f in fits]), 0.95)
    assert th.estimate == pytest.approx(math.exp(avg.median), rel=1e-9)
    assert np.log(th.ci) == pytest.approx(avg.ci, abs=1e-9)
    assert th.link == max(fits, key=lambda f: f.llf).link
    assert averaged_fit(pts, 0.5, 0.95)[0].ci == pytest.approx(avg.ci, abs=1e-12)
