"""compare/constant_start.py: the common shift and the two-start least squares both law fits use."""

from __future__ import annotations

import numpy as np
import pytest

from theorycheck.compare.constant_start import best_least_squares, common_shift


def test_the_common_shift_lands_on_the_datas_level():
    """Residuals ``y − (x₀ + x₁)`` at ``x = (0, 0)``: one shift ``δ`` of both moves the sum by ``2δ``,
    so the best is ``δ = mean(y)/2`` (bounded Brent: to 1e-5 of the bracket's tolerance)."""
    y = np.array([3.0, 3.4, 2.6])
    assert common_shift(lambda x: y - x.sum(), np.zeros(2)) == pytest.approx(1.5, abs=1e-4)


def test_the_better_start_is_kept_and_the_first_on_a_tie():
    """A residual with two basins, ``x = ±1``: least squares from each start stays in its basin.
    With equal basins the first start's answer is kept; tilted, the lower basin wins whatever the
    order. A start where the residual is not finite is skipped; ``None`` when every start is."""
    def two_basins(depth):
        return lambda x: np.array([(x[0] ** 2 - 1.0), depth * (x[0] + 1.0) + 0.1])

    even = two_basins(0.0)  # x = -1 and x = +1 both leave 0.1 in the second residual
    starts = [np.array([0.9]), np.array([-0.9])]
    assert best_least_squares(even, starts).x == pytest.approx([1.0], abs=1e-6)
    assert best_least_squares(even, starts[::-1]).x == pytest.approx([-1.0], abs=1e-6)
    lower = two_basins(-0.05)  # the second residual 0.1 - 0.05(x + 1): 0.1 at -1, 0.0 at +1
    assert best_least_squares(lower, starts[::-1]).x == pytest.approx([1.0], abs=1e-3)

    def nan_away_from_zero(x):
        return np.array([x[0] - 0.5]) if abs(x[0]) < 2 else np.array([np.nan])

    assert best_least_squares(nan_away_from_zero, [np.array([5.0]), np.array([0.0])]).x == pytest.approx([0.5])
    assert best_least_squares(nan_away_from_zero, [np.array([5.0])]) is None
    assert best_least_squares(nan_away_from_zero, [np.zeros(0)]) is None
