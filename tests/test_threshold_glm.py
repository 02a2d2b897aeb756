"""fit_threshold: probit GLM with Fieller CI, model-free fallbacks, bad input."""

import json
import math

import numpy as np
import pytest
import statsmodels.api as sm
from scipy.stats import norm

from theorycheck.threshold import fit_threshold
from theorycheck.threshold import glm
from theorycheck.threshold.glm import fieller_interval, fit_link, fit_probit
from theorycheck.threshold.links import link_quantile
from theorycheck.threshold.points import pool_points

POINTS = [(10, 0, 8), (14, 1, 8), (20, 3, 8), (28, 6, 8), (40, 8, 8)]


def test_estimate_is_the_probit_crossing(monkeypatch):
    # with the probit as the only candidate link (the fit before links were chosen by
    # likelihood, docs/thresholds.md)
    monkeypatch.setattr(glm, "LINK_CANDIDATES", ("probit",))
    th = fit_threshold(POINTS)
    r = np.array([p[0] for p in POINTS], float)
    k = np.array([p[1] for p in POINTS], float)
    res = sm.GLM(np.column_stack([k, 8 - k]), sm.add_constant(np.log(r)),
                 family=sm.families.Binomial(link=sm.families.links.Probit())).fit()
    b0, b1 = res.params
    assert th.method == "glm"
    assert th.estimate == pytest.approx(math.exp(-b0 / b1), rel=1e-6)
    assert th.slope == pytest.approx(b1, rel=1e-6)
    assert th.ci[0] < th.estimate < th.ci[1]


def test_estimate_is_the_link_average_and_the_ci_contains_the_plausible_links(monkeypatch):
    # the hull of the plausible links' CIs was replaced by their likelihood-weighted
    # average (theorycheck/threshold/link_average.py, docs/thresholds.md)
    monkeypatch.setattr(glm, "LINK_CANDIDATES", glm.CALIBRATED_LINKS)
    th = fit_threshold(POINTS)
    pts = pool_points(POINTS)
    fits = {lk: fit_link(pts.t, pts.k, pts.n, lk) for lk in glm.LINK_CANDIDATES}
    best = max(fits.values(), key=lambda f: f.llf)
    assert th.link == best.link
    crossings = {lk: (link_quantile(lk, 0.5) - f.b0) / f.b1 for lk, f in fits.items()}
    lo, hi = np.log(th.ci)
    assert min(crossings.values()) <= math.log(th.estimate) <= max(crossings.values())
    weights = np.exp(np.array([f.llf for f in fits.values()]) - best.llf)
    weights /= weights.sum()
    intervals = [fieller_interval(f, 0.5, 0.95) for f in fits.values()]
    # the mixture's tail quantiles lie inside the union of the links' CIs
    assert min(a for a, _ in intervals) - 1e-9 <= lo < hi <= max(b for _, b in intervals) + 1e-9
    for lk, w in zip(fits, weights):
        if w >= 0.05:  # a link of weight >= 1 - level cannot be excluded by the mixture
            assert lo <= crossings[lk] <= hi
    assert th.to_dict()["link"] == best.link


def test_fieller_interval_matches_its_definition():
    pts = pool_points(POINTS)
    fit = fit_probit(pts.t, pts.k, pts.n)
    lo, hi = fieller_interval(fit, 0.5, 0.95)
    z = norm.ppf(0.975)

    def g2_minus_bound(theta):
        g = fit.b0 + fit.b1 * theta
        var = fit.cov[0, 0] + 2 * theta * fit.cov[0, 1] + theta**2 * fit.cov[1, 1]
        return g * g - z * z * var

    # the endpoints solve g^2 = z^2 Var(g) and the interior satisfies the inequality
    assert g2_minus_bound(lo) == pytest.approx(0, abs=1e-9)
    assert g2_minus_bound(hi) == pytest.approx(0, abs=1e-9)
    assert g2_minus_bound((lo + hi) / 2) < 0


def test_q_shifts_the_threshold_up():
    assert fit_threshold(POINTS, q=0.9).estimate > fit_threshold(POINTS).estimate


def test_isotonic_cross_check_agrees_on_clean_data():
    th = fit_threshold(POINTS)
    # both estimate the same crossing; 15% apart at most on 40 trials with this design
    assert th.isotonic_estimate == pytest.approx(th.estimate, rel=0.15)
    assert th.monotone and not th.warnings


def test_perfect_separation_falls_back_to_bracket():
    th = fit_threshold([(10, 0, 8), (20, 0, 8), (30, 8, 8), (40, 8, 8)])
    assert th.method == "bracket"
    assert any("perfect separation" in n for n in th.notes)
    # 0/8 and 8/8 exclude P >= 1/2 resp. P <= 1/2 at 2.5% each (0.5^8 = 0.004)
    assert th.ci == pytest.approx((20, 30))
    assert 20 < th.estimate < 30


def test_bracket_with_too_few_trials_is_unbounded():
    th = fit_threshold([(10, 0, 4), (20, 4, 4)])
    # 0/4 does not exclude P >= 1/2 at 2.5% (0.5^4 = 0.0625): no finite bracket
    assert th.ci == (0.0, math.inf)


def test_censored_when_every_trial_succeeds():
    th = fit_threshold([(10, 4, 4), (20, 4, 4)])
    assert th.estimate is None and th.censored == "below" and th.method == "censored"
    assert th.censored_beyond == 10.0 and th.to_dict()["censored_beyond"] == 10.0  # N* < 10
    th2 = fit_threshold([(10, 4, 4), (20, 4, 4)], increasing=False, resource="V")
    assert th2.censored == "above" and th2.censored_beyond == 20.0  # success falls with V: V* > 20
    assert fit_threshold([(10, 0, 4), (20, 2, 4), (40, 4, 4)]).censored_beyond is None


def test_non_monotone_success_is_flagged():
    pts = [(10, 0, 20), (20, 20, 20), (30, 0, 20), (40, 20, 20)]
    th = fit_threshold(pts)
    assert not th.monotone
    assert any("not monotone" in w for w in th.warnings)


def test_decreasing_direction_mirrors_increasing():
    up = fit_threshold(POINTS)
    down = fit_threshold([(1.0 / r, k, n) for r, k, n in POINTS], increasing=False)
    assert down.estimate == pytest.approx(1.0 / up.estimate, rel=1e-6)
    assert down.ci[0] == pytest.approx(1.0 / up.ci[1], rel=1e-6)


def test_points_are_merged_and_to_dict_is_json():
    th = fit_threshold([(20, 1, 4), (10, 0, 4), (20, 2, 4), (40, 4, 4), (30, 3, 4), (14, 0, 0)])
    assert th.points == ((10.0, 0, 4), (20.0, 3, 8), (30.0, 3, 4), (40.0, 4, 4))
    json.dumps(th.to_dict(), allow_nan=False)
    json.dumps(fit_threshold([(10, 4, 4)]).to_dict(), allow_nan=False)


@pytest.mark.parametrize(
    ("points", "fragment"),
    [
        ([(10, 5, 4)], "exceed trials"),
        ([(-1, 0, 4)], "positive finite"),
        ([(float("nan"), 0, 4)], "positive finite"),
        ([(10, 1.5, 4)], "successes must be an integer >= 0"),
        ([(10, 0)], "(resource, successes, trials)"),
        ([], "no points"),
    ],
)
def test_bad_points(points, fragment):
    with pytest.raises(ValueError) as info:
        fit_threshold(points)
    assert fragment in str(info.value)


def test_bad_q_and_level():
    with pytest.raises(ValueError, match="q must lie strictly between 0 and 1"):
        fit_threshold(POINTS, q=0)
    with pytest.raises(ValueError, match="level must lie strictly between 0 and 1"):
        fit_threshold(POINTS, level=1.5)


def test_bracket_certifies_a_side_from_six_trials_not_five():
    # guards the two-sided level of the bracket: at a one-sided 5% (not 2.5%) 0/5 and 5/5 would already bound it.
    # 0.5^5 = 0.031 > 0.025 (unbounded); 0.5^6 = 0.016 < 0.025 (bounded), as trials_to_certify says
    from theorycheck.threshold.isotonic import trials_to_certify

    assert trials_to_certify(0.5, 0.95, "low") == trials_to_certify(0.5, 0.95, "high") == 6
    assert fit_threshold([(10, 0, 5), (20, 5, 5)]).ci == (0.0, math.inf)
    th = fit_threshold([(10, 0, 6), (20, 6, 6)])
    assert th.method == "bracket" and th.ci == pytest.approx((10, 20))


def test_monotonicity_warning_is_bonferroni_corrected_over_all_pairs():
    # guards the correction: 7/10 then 1/10 has one-sided Fisher p = 0.0099 < 1%, which warns on its own, but
    # among 3 points (3 pairs) it is 0.03 > 1%; without the correction the third point would not matter.
    def warns(pts):
        return any("not monotone" in w for w in fit_threshold(pts).warnings)

    assert warns([(10, 7, 10), (20, 1, 10)])
    assert not warns([(10, 7, 10), (20, 1, 10), (30, 10, 10)])


def test_a_point_left_a_few_ulps_apart_is_one_point():
    # six single trials at N = 4219, one of them 1 ulp off: one point of 0/6, so the model-free
    # bracket's lower end (six failures exclude the crossing at 95%) is 4219; as six points of
    # 0/1 it was unbounded (bench/fit_stability.py's ulp-nudged copies of a published line)
    from theorycheck.threshold.isotonic import bracket_interval

    low = [(4219.0, 0, 1)] * 5 + [(np.nextafter(4219.0, 5000.0), 0, 1)]
    pts = pool_points(low + [(5017.0, 1, 1)] * 6)
    assert pts.n.tolist() == [6, 6] and pts.resources[0] == 4219.0
    lo, hi = bracket_interval(pts, 0.5, 0.95)
    assert (math.exp(lo), math.exp(hi)) == pytest.approx((4219.0, 5017.0))
    assert pool_points([(100.0, 0, 1), (100.0 * (1 + 1e-6), 1, 1)]).n.tolist() == [1, 1]  # a real step apart
