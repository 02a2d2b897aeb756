"""The three-valued TOST decision for one exponent, called directly (compare/decide.py)."""

from __future__ import annotations

import pytest
from scipy.stats import norm

from theorycheck.compare.decide import Piece, decide

Z90, Z95 = float(norm.ppf(0.95)), float(norm.ppf(0.975))  # 1.6449, 1.9600


def _decide(tau: float, se: float):
    return decide("V", [Piece("overall", tau, se)], tolerance=0.25, level=0.95, span=1.0, min_span=0.5,
                  lo_value=10.0, hi_value=100.0)


def test_consistent_uses_the_90_percent_tost_interval():
    # guards the TOST z: a 95% TOST interval (0.1 + 1.96*0.08 = 0.257 > 0.25) would make this inconclusive.
    # The intervals are tau ± z*se computed in floating point, so abs=1e-12 is only rounding.
    d = _decide(0.1, 0.08)
    assert d.status == "consistent", d.reason
    assert d.tost_ci == pytest.approx((0.1 - Z90 * 0.08, 0.1 + Z90 * 0.08), abs=1e-12)
    assert d.ci == pytest.approx((0.1 - Z95 * 0.08, 0.1 + Z95 * 0.08), abs=1e-12)
    assert "90% CI" in d.reason


def test_refuted_needs_the_95_percent_interval_outside_the_tolerance():
    # guards the refute rule: refuting on the 90% interval would refute tau = 0.45 (0.45 - 1.645*0.11 = 0.269 > 0.25),
    # whose 95% interval reaches inside (0.45 - 1.96*0.11 = 0.234 < 0.25).
    d = _decide(0.45, 0.11)
    assert d.status == "inconclusive", d.reason
    assert d.ci == pytest.approx((0.45 - Z95 * 0.11, 0.45 + Z95 * 0.11), abs=1e-12)  # rounding only
    assert "lean towards refuting" in d.suggestion
    # a little further out the 95% interval clears the tolerance (lower end 0.2544 > 0.25): refuted
    d = _decide(0.47, 0.11)
    assert d.status == "refuted", d.reason
    assert d.ci[0] == pytest.approx(0.47 - Z95 * 0.11, abs=1e-12) and d.ci[0] > 0.25


@pytest.mark.parametrize(("worst", "shown"), [(1.23, 1.3), (2.0, 2.0), (0.123, 0.13), (10312.04, 11000.0),
                                              (10312.1, 11000.0), (99.1, 100.0), (1.0 + 1e-9, 1.0)])
def test_the_trials_still_needed_keep_two_significant_digits(worst, shown):
    # "about 10312x the trials" moved to "10312.1x" when the fit's last bits moved: the
    # estimate is rounded up to 2 significant digits, and 1e-9 of noise does not round up
    from theorycheck.compare.decide import _ceil_2

    assert _ceil_2(worst) == shown
