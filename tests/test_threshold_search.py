"""ThresholdSearch / find_threshold on planted trial functions (docs/theory.md §4)."""

import math

import numpy as np
import pytest

from theorycheck.planted import planted_trial
from theorycheck.seeding import seeded_trial
from theorycheck.threshold import Threshold, ThresholdSearch, find_threshold, glm
from theorycheck.threshold.points import pool_points


@pytest.mark.parametrize(
    ("truth", "width", "start", "target"),
    [(3000.0, 0.1, 700, 0.15), (250.0, 0.3, 2000, 0.3), (12_000.0, 0.03, 12_000, 0.15)],
)
def test_search_ci_covers_planted_threshold(truth, width, start, target):
    covered = 0
    for seed in range(20):
        th = find_threshold(seeded_trial(planted_trial, {"threshold": truth, "width": width}, entropy=seed), start=start, rel_width=target)
        assert isinstance(th, Threshold)
        assert th.ci[0] <= th.estimate <= th.ci[1]
        assert th.trials == sum(n for _, _, n in th.points) <= 400
        assert all(float(r).is_integer() for r, _, _ in th.points)  # integer=True by default
        if th.log_ci_width > target:  # allowed only when the search says so and why it stopped
            assert any(w.startswith(f"CI of log N* has width {th.log_ci_width:.3g} > target {target:g}")
                       for w in th.warnings), th.warnings
            assert any(n.startswith("stopped:") for n in th.notes), th.notes
        covered += th.ci[0] <= truth <= th.ci[1]
    # 95% CIs: P(at most 16 of 20 cover | coverage 0.95) = 1.6%, so 17 is a fair bar for
    # one seeded batch (the calibration test measures coverage on hundreds of runs)
    assert covered >= 17


def test_search_stops_at_target_width(monkeypatch):
    # the probit-only fit, whose stopping CI is the reported CI (with the link average,
    # the default, see the next test)
    monkeypatch.setattr(glm, "LINK_CANDIDATES", ("probit",))
    trial = seeded_trial(planted_trial, {"threshold": 5000.0, "width": 0.1}, entropy=4)
    th = find_threshold(trial, start=5000, rel_width=0.1, integer=False)
    assert th.method == "glm"
    assert th.log_ci_width <= 0.1
    assert any("narrower than" in n for n in th.notes)


def test_link_average_search_stops_on_the_best_links_width_and_says_when_wider():
    # the stopping rule reads the largest-likelihood link's Fieller CI (stopping on the
    # averaged CI cost +24-37% trials, docs/thresholds.md); the reported averaged CI may
    # then be wider than the target, and the result says so
    assert glm.LINK_CANDIDATES == glm.CALIBRATED_LINKS
    trial = seeded_trial(planted_trial, {"threshold": 5000.0, "width": 0.1}, entropy=4)
    th = find_threshold(trial, start=5000, rel_width=0.1, integer=False)
    assert th.method == "glm" and any("narrower than" in n for n in th.notes)
    best = glm.glm_threshold_t(pool_points(th.points), 0.5, 0.95, average=False)
    assert best[1][1] - best[1][0] <= 0.1
    if th.log_ci_width > 0.1:
        assert any(w.startswith(f"CI of log N* has width {th.log_ci_width:.3g} > target 0.1")
                   for w in th.warnings), th.warnings


def test_search_for_decreasing_resource_capacity():
    # success falls with V (capacity): the threshold is the V where P crosses 1/2
    trial = seeded_trial(planted_trial, {"threshold": 800.0, "width": 0.1, "increasing": False}, entropy=5)
    th = find_threshold(trial, start=100, increasing=False, resource="V", rel_width=0.15)
    assert th.resource == "V" and not th.increasing
    assert th.ci[0] <= 800.0 <= th.ci[1]


def test_search_at_q_090():
    # one seeded search once stood for this (entropy 6); a 95% CI misses one seed in 20, and
    # that seed's CI missed by 0.1% once the stopping rule changed (stopping.py), so the
    # claim is read over 20 seeds with the bar of the first test of this file
    truth_half, width = 1000.0, 0.2
    truth_q = truth_half * math.exp(width * 1.2815515655446004)  # Phi^-1(0.9)
    covered = 0
    for seed in range(20):
        trial = seeded_trial(planted_trial, {"threshold": truth_half, "width": width}, entropy=100 + seed)
        th = find_threshold(trial, start=300, q=0.9, rel_width=0.2)
        assert th.q == 0.9
        covered += th.ci[0] <= truth_q <= th.ci[1]
    assert covered >= 17  # P(at most 16 of 20 | coverage 0.95) = 1.6%


def test_step_function_ends_in_certified_bracket():
    # a transition far sharper than the grid: the search cannot avoid separation, so it
    # certifies the two bracketing points with an exact binomial test
    def step(resource, replicate):
        return resource >= 1234

    th = find_threshold(step, start=50, rel_width=0.1)
    assert th.method == "bracket"
    assert th.ci[0] <= 1234 <= th.ci[1]
    assert th.log_ci_width <= 0.1
    assert any("separation" in n for n in th.notes)
    # each bracketing end has >= 6 trials (0.5^6 < 0.025)
    lo_pt = [p for p in th.points if math.isclose(p[0], th.ci[0])][0]
    hi_pt = [p for p in th.points if math.isclose(p[0], th.ci[1])][0]
    assert lo_pt[1] == 0 and lo_pt[2] >= 6 and hi_pt[1] == hi_pt[2] >= 6


def test_threshold_beyond_upper_limit_is_censored():
    trial = seeded_trial(planted_trial, {"threshold": 1e6, "width": 0.1}, entropy=7)
    th = find_threshold(trial, start=10, upper=1000)
    assert th.method == "censored" and th.censored == "above" and th.estimate is None
    assert th.ci[1] == math.inf and th.ci[0] <= 1000
    assert any("upper limit" in n for n in th.notes)


def _bracket_top(truth: float, start: float, *, increasing: bool = True, **kwargs) -> float:
    """Largest resource a search asks for on a sharp step at ``truth`` (success above it
    when ``increasing``, below it otherwise)."""
    s = ThresholdSearch(start=start, increasing=increasing, max_trials=60, **kwargs)
    top = 0.0
    while requests := s.ask():
        for r, n in requests:
            top = max(top, r)
            s.tell(r, n if (r >= truth) == increasing else 0, n)
    return top


@pytest.mark.parametrize("increasing", [True, False])
def test_bracketing_towards_larger_resources_overshoots_by_less_than_max_growth(increasing):
    # Trials cost more as N, d, V grow. From a start 3000x on the cheap side of a step, the
    # doubling log step alone goes 2x, 4x, 16x, 256x and lands at 3.3e6, 11x past the
    # crossing at 3e5 (the costliest trial 11x a threshold trial); capped at 4x a step
    # (growth**2, the default) the costliest request stays below 4x the crossing.
    # (With increasing=False success falls with the resource, e.g. a capacity in V: the
    # start lies on the success side and the search climbs towards the failures.)
    truth, start = 3e5, 100.0
    assert truth <= _bracket_top(truth, start, increasing=increasing) < 4 * truth
    # the uncapped rule, for comparison: this is the overshoot the cap prevents
    assert _bracket_top(truth, start, increasing=increasing, max_growth=math.inf) > 10 * truth


def test_bracketing_towards_smaller_resources_keeps_the_doubling_step():
    # trials get cheaper downwards: from 3000x above the crossing the step doubles freely
    # (2x, 4x, 16x, 256x down), four rounds where a capped step would need seven
    s = ThresholdSearch(start=3e5, max_trials=60)
    asked = []
    while (requests := s.ask()) and len(asked) < 5:
        for r, n in requests:
            asked.append(r)
            s.tell(r, n if r >= 100 else 0, n)
    assert asked[:5] == [3e5, 1.5e5, 37500, 2344, 9]


def test_ask_is_idempotent_until_tell_and_done_after_stop():
    s = ThresholdSearch(start=100, rel_width=0.5)
    first = s.ask()
    assert first == s.ask()  # asking again returns the outstanding requests
    assert all(isinstance(n, int) and n >= 1 for _, n in first)
    rng = np.random.default_rng(0)
    from theorycheck.planted import success_probability

    while requests := s.ask():
        for r, n in requests:
            s.tell(r, int(rng.binomial(n, float(success_probability(r, 300.0, width=0.2)))), n)
    assert s.done and s.ask() == []
    assert s.result().ci[0] <= 300 <= s.result().ci[1]


def test_ask_may_return_several_points_for_parallel_runs():
    trial = seeded_trial(planted_trial, {"threshold": 600.0, "width": 0.2}, entropy=8)
    s = ThresholdSearch(start=600, points_per_round=3, rel_width=0.05, max_trials=200)
    sizes = []
    counts: dict[float, int] = {}
    while requests := s.ask():
        sizes.append(len(requests))
        for r, n in requests:
            first = counts.get(r, 0)
            counts[r] = first + n
            s.tell(r, sum(trial(r, first + i) for i in range(n)), n)
    assert max(sizes) >= 2
    assert s.result().trials <= 200


def test_tell_accepts_unrequested_points():
    s = ThresholdSearch(start=100)
    s.tell(50, 0, 4)
    s.tell(200, 4, 4)
    assert s.trials == 8
    assert {r for r, _ in s.ask()}  # still asks for something


def test_same_trial_function_same_result():
    trial = seeded_trial(planted_trial, {"threshold": 900.0, "width": 0.1}, entropy=9)
    a = find_threshold(trial, start=100)
    b = find_threshold(trial, start=100)
    assert a == b


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"start": 0}, "start must be a positive finite number"),
        ({"start": 10, "q": 1.0}, "q must lie strictly between 0 and 1"),
        ({"start": 10, "seeds_per_point": 0}, "seeds_per_point must be an integer >= 1"),
        ({"start": 10, "lower": 50, "upper": 20}, "must be below upper"),
        ({"start": 10, "lower": 20}, "outside [lower, upper]"),
        ({"start": 10, "growth": 1.0}, "growth must be > 1"),
        ({"start": 10, "max_growth": 1.5}, "max_growth must be >= growth = 2"),
        ({"start": 10, "max_growth": -1}, "max_growth must be a positive number or inf"),
        ({"start": 10, "resource": ""}, "resource must be a variable name"),
        ({"start": float("nan")}, "start must be a positive finite number"),
    ],
)
def test_bad_search_arguments(kwargs, fragment):
    with pytest.raises(ValueError, match=None) as info:
        ThresholdSearch(**kwargs)
    assert fragment in str(info.value)


def test_bad_tell_and_early_result():
    s = ThresholdSearch(start=10)
    with pytest.raises(ValueError, match="no trials told yet"):
        s.result()
    with pytest.raises(ValueError, match="exceed trials"):
        s.tell(10, 5, 4)
    with pytest.raises(ValueError, match="positive finite"):
        s.tell(-1, 0, 4)
    with pytest.raises(ValueError, match="callable"):
        find_threshold("not a function", start=10)
