"""Calibration of the search's 95% CIs on planted trial functions (slow)."""

import math

import numpy as np
import pytest
from scipy.stats import norm

from theorycheck.planted import planted_trial
from theorycheck.seeding import seeded_trial
from theorycheck.threshold import find_threshold


@pytest.mark.slow
def test_search_ci_coverage_between_90_and_99_percent():
    rng = np.random.default_rng(np.random.SeedSequence(2024))
    runs, covered, trials = 300, 0, []
    for i in range(runs):
        width = (0.03, 0.1, 0.3)[i % 3]
        q = 0.9 if i % 4 == 3 else 0.5
        half = float(10 ** rng.uniform(2, 5))
        truth = half * math.exp(width * norm.ppf(q))  # the q-threshold of the planted curve
        start = half * math.exp(rng.uniform(-1.5, 1.5))
        th = find_threshold(seeded_trial(planted_trial, {"threshold": half, "width": width}, entropy=i), start=start, q=q, rel_width=0.15)
        covered += th.ci[0] <= truth <= th.ci[1]
        trials.append(th.trials)
    coverage = covered / runs
    print(f"search CI coverage {coverage:.3f} over {runs} runs; mean trials {np.mean(trials):.1f}")
    # nominal 95%; with 300 runs the binomial sd is 1.3 points, so [0.90, 0.99] leaves
    # ~3 sd on either side for small-sample and adaptive-design effects
    assert 0.90 <= coverage <= 0.99
