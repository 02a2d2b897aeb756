"""One rule per kind of input (theorycheck.validate)."""

import math
from fractions import Fraction

import numpy as np
import pytest

from theorycheck.validate import (
    check_bool,
    check_choice,
    check_fraction,
    check_int,
    check_open_unit,
    check_positive,
)


@pytest.mark.parametrize("value", [3, np.int64(3), 3.0, np.float32(3.0)])
def test_integers_accept_integral_values(value):
    out = check_int("n", value, 1)
    assert out == 3 and type(out) is int


@pytest.mark.parametrize("value", [2.5, math.nan, math.inf, True, np.bool_(False), "3", None])
def test_integers_reject_the_rest_in_one_line(value):
    with pytest.raises(ValueError, match=r"^n must be an integer >= 1, got .* \(hint\)$") as info:
        check_int("n", value, 1, " (hint)")
    assert "\n" not in str(info.value)


def test_integer_minimum():
    assert check_int("n", 0) == 0
    with pytest.raises(ValueError, match=r"n must be an integer >= 2, got 1$"):
        check_int("n", 1.0, 2)


@pytest.mark.parametrize("value", [1, 0.5, np.float64(2.0), Fraction(1, 3)])
def test_positive_accepts_positive_finite_reals(value):
    assert check_positive("x", value) == float(value)


@pytest.mark.parametrize("value", [0, -1.0, math.nan, math.inf, True, "1", None])
def test_positive_rejects_the_rest(value):
    with pytest.raises(ValueError, match=r"^x must be a positive finite number, got "):
        check_positive("x", value)


def test_positive_with_infinity():
    assert check_positive("beta", math.inf, allow_inf=True) == math.inf
    with pytest.raises(ValueError, match=r"beta must be a positive number or inf, got -inf"):
        check_positive("beta", -math.inf, allow_inf=True)


def test_fractions_levels_bools_choices():
    assert check_fraction("tau", 1) == 1.0
    with pytest.raises(ValueError, match=r"tau must be a number in \(0, 1\], got 0.0"):
        check_fraction("tau", 0)
    assert check_open_unit("q", 0.5) == 0.5
    for bad in (0, 1.0, "0.5", True):
        with pytest.raises(ValueError, match="q must lie strictly between 0 and 1"):
            check_open_unit("q", bad)
    assert check_bool("b", np.bool_(True)) is True
    with pytest.raises(ValueError, match="b must be True or False, got 1"):
        check_bool("b", 1)
    assert check_choice("opt", "adam", ("gd", "adam")) == "adam"
    with pytest.raises(ValueError, match="opt must be one of 'gd', 'adam', got 'sgd'"):
        check_choice("opt", "sgd", ("gd", "adam"))
