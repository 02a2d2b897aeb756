"""Where the search's refine pair sits (theorycheck/threshold/placement.py)."""

from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pytest

from theorycheck.threshold import placement
from theorycheck.threshold.placement import refine_points

T = np.array([0.0, 1.0, 2.0, 3.0])  # explored points, wide enough not to clip


@pytest.mark.parametrize("q", [0.5, 0.9, 0.1])
def test_pair_is_centred_on_the_crossing(q):
    # the pull is 0 (measured, not adopted: docs/thresholds.md), so at every q the pair is
    # symmetric around the crossing, spread/slope to each side
    lo, hi = refine_points(T, 1.5, 2.0, q=q, spread=0.8, count=2)
    assert (lo + hi) / 2 == pytest.approx(1.5) and hi - lo == pytest.approx(0.8)


@pytest.mark.parametrize("q", [0.9, 0.1])
def test_a_pull_moves_the_pair_towards_the_median(q, monkeypatch):
    # what bench/refine_placement.py measures: with a pull the centre lies between the
    # crossing and the median, at the fraction of z_q/slope the pull says
    monkeypatch.setattr(placement, "REFINE_PULL", 0.5)
    est, slope = 1.5, 2.0
    z = NormalDist().inv_cdf(q)
    lo, hi = refine_points(T, est, slope, q=q, spread=0.8, count=2)
    centre, median = (lo + hi) / 2, est - z / slope
    assert centre == pytest.approx(est - 0.5 * z / slope)
    assert min(est, median) < centre < max(est, median)


def test_pair_stays_inside_the_explored_range():
    lo, hi = refine_points(T, 3.4, 0.5, q=0.5, spread=0.8, count=2)
    assert T.min() <= (lo + hi) / 2 <= T.max() and hi - lo <= T.max() - T.min()


def test_one_point_a_round_sits_at_the_centre():
    assert refine_points(T, 1.5, 2.0, q=0.5, spread=0.8, count=1) == [1.5]
