"""The search coordinate of a resource (threshold/axis.py): limits, rounding, direction."""

import doctest
import math

import pytest

import theorycheck.threshold.axis as axis_module
from theorycheck.threshold.axis import ResourceAxis


def test_module_examples_hold():
    result = doctest.testmod(axis_module)
    assert result.attempted >= 2 and result.failed == 0


def test_an_integer_resource_rounds_inside_fractional_limits():
    ax = ResourceAxis.checked(lower=2.5, upper=9.5, integer=True, increasing=True)
    assert (ax.snap(1.0), ax.snap(2.6), ax.snap(7.4), ax.snap(40.0)) == (3.0, 3.0, 7.0, 9.0)


def test_a_decreasing_resource_is_searched_on_minus_log_r():
    # success falls with V: t = -log V, so a larger t is a smaller V
    ax = ResourceAxis.checked(lower=None, upper=None, integer=False, increasing=False)
    assert ax.t(100.0) == pytest.approx(-math.log(100.0))
    assert ax.r(ax.t(100.0)) == pytest.approx(100.0)
    assert ax.r(ax.t(100.0) + 1.0) < 100.0


def test_defaults_and_bad_limits():
    assert ResourceAxis.checked(lower=None, upper=None, integer=True, increasing=True).lower == 1.0
    assert ResourceAxis.checked(lower=None, upper=None, integer=False, increasing=True).lower == 0.0
    with pytest.raises(ValueError, match=r"lower \(8\) must be below upper \(4\)"):
        ResourceAxis.checked(lower=8, upper=4, integer=True, increasing=True)


def test_a_real_resource_is_rounded_so_that_machines_agree_on_its_trials():
    # a trial's seed is keyed by the value it runs at; the values come from fits whose last
    # bits differ between machines, so a real value keeps 7 significant digits (axis.py)
    from theorycheck.threshold.axis import REAL_DIGITS, ResourceAxis

    ax = ResourceAxis.checked(lower=None, upper=2.0, integer=False, increasing=True)
    x = 0.6123456789012345
    assert ax.snap(x) == ax.snap(x * (1 + 3e-15)) == ax.snap(x * (1 - 3e-15)) == 0.6123457
    assert REAL_DIGITS == 7 and ax.snap(3.0) == 2.0  # the limits still hold
    wide = ResourceAxis.checked(lower=None, upper=None, integer=False, increasing=False)
    assert wide.snap(1234.56789) == 1234.568 and wide.r(-math.log(1234.56789)) == 1234.568
    assert ax.r(math.log(0.5)) == 0.5
