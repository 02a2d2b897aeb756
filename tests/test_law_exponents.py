"""Exponents: exact for monomials, dominant terms along rays, cross-checked with limits."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import lambertw

from theorycheck.law import Law, Regime
from theorycheck.law.exponents import leading_term, limit_term
from theorycheck.symbols import symbol

NAMES = ("V", "d", "L", "m")
exponent = st.fractions(min_value=-3, max_value=3, max_denominator=4)
ray_exponent = st.fractions(min_value=0, max_value=2, max_denominator=4)


def _rational(f: Fraction) -> sp.Rational:
    return sp.Rational(f.numerator, f.denominator)


@st.composite
def monomials(draw):
    """``c * C * prod x**a_x * log(x_log)**k`` with planted exponents."""
    powers = {n: draw(exponent) for n in NAMES}
    log_var = draw(st.sampled_from(NAMES))
    k = draw(st.fractions(min_value=-2, max_value=2, max_denominator=2))
    coeff = draw(st.fractions(min_value=Fraction(1, 20), max_value=100, max_denominator=20))
    expr = _rational(coeff) * symbol("C") * sp.log(symbol(log_var)) ** _rational(k)
    for n, a in powers.items():
        expr *= symbol(n) ** _rational(a)
    return expr, powers, log_var, k


@settings(deadline=None, max_examples=25)
@given(monomials())
def test_monomial_exponents_recover_planted_values(planted):
    expr, powers, log_var, k = planted
    law = Law.from_threshold("N", expr)
    assert law.is_monomial
    exps, logs = law.exponents(), law.log_powers()
    for name in law.variables:
        assert exps[name] == powers[name]
        assert logs[name] == (k if name == log_var else 0)
    # every variable with a planted non-zero exponent or log power is a variable of the law
    assert {n for n, a in powers.items() if a} <= set(law.variables)


@settings(deadline=None, max_examples=25)
@given(monomials(), monomials(), st.fixed_dictionaries({n: ray_exponent for n in NAMES}))
def test_ray_exponent_of_a_sum_is_the_max_of_its_terms(first, second, ray):
    if not any(ray.values()):
        ray = {**ray, "V": Fraction(1)}
    f, g = first[0], second[0]
    total = Law.from_threshold("N", f + g)
    parts = [Law.from_threshold("N", f), Law.from_threshold("N", g)]
    expected = max(p.ray_exponent(ray) for p in parts)
    assert total.ray_exponent(ray) == expected
    # the monomial's ray exponent is sum alpha_x a_x
    assert parts[0].ray_exponent(ray) == sum(ray[n] * first[1][n] for n in NAMES)


def test_gradient_noise_exponents_in_its_regime():
    law = Law.parse("N >= C3*L*V*(V+d)*log(V)/d**2")
    regime = Regime({"V": 1, "d": "3/4", "L": "1/4"}, "V >> d", ("V >> d",))
    assert law.exponents(regime) == {"L": 1, "V": 2, "d": -2}
    assert law.log_powers(regime) == {"L": 0, "V": 1, "d": 0}
    # the other side: d >> V, the V*d term dominates
    assert law.exponents({"V": 1, "d": 2, "L": 0}) == {"L": 1, "V": 1, "d": -1}


def test_exponents_need_a_regime_for_sums_and_refuse_ties():
    law = Law.parse("N >= C0*V*log(V) + C3*L*V**2*log(V)/d**2")
    with pytest.raises(ValueError, match="not a monomial"):
        law.exponents()
    with pytest.raises(ValueError, match="tie"):
        law.exponents({"V": 1, "d": "1/2", "L": 0})  # both terms ~ t log t
    assert law.ray_growth({"V": 1, "d": "1/2", "L": 0}) == (1, 1)
    with pytest.raises(ValueError, match="no exponent for \\['L'\\]"):
        law.exponents({"V": 1, "d": "1/2"})
    with pytest.raises(ValueError, match="breaks the regime constraint"):
        law.exponents(Regime({"V": 1, "d": "1/2", "L": "1/2"}, "", ("N << V",)))


def test_log_one_plus_and_exp_minus_one_regimes():
    low = Law.parse("(d**2/2)*log(1 + N/(L*V)) >= V*log(V)", resource="N")
    ray = {"V": 1, "d": "3/4", "L": "1/4"}
    assert low.exponents(ray) == {"L": 1, "V": 2, "d": -2}
    assert low.log_powers(ray) == {"L": 0, "V": 1, "d": 0}
    # when d^2 << V log V the threshold grows like V**(2V/d**2): faster than any power, not a ray law
    direct = Law.from_threshold("N", "log(1 + V/d)")
    assert direct.exponents({"V": "1/2", "d": 1}) == {"V": 1, "d": -1}  # log(1+x) ~ x for x -> 0
    # log of a growing argument: log(V/d) = log t on V = t^2, d = t; k_x = lim (E_x - a_x) log x
    # with E_V = 1/log(V/d), log V = 2 log t gives k_V = 2 and k_d = -1 (they sum to the ray's kappa = 1)
    assert direct.log_powers({"V": 2, "d": 1}) == {"V": 2, "d": -1}
    assert direct.ray_growth({"V": 2, "d": 1}) == (0, 1)


def test_max_keeps_the_dominant_argument():
    law = Law.parse("N >= Max(C0*V*log(V), C3*L*V**2*log(V)/d**2)")
    assert law.exponents({"V": 1, "d": "3/4", "L": "1/4"}) == {"L": 0, "V": 1, "d": 0}
    assert law.exponents({"V": 1, "d": "1/4", "L": "1/4"}) == {"L": 1, "V": 2, "d": -2}


def test_capacity_exponents_with_lambert_w():
    cap = Law.parse("N >= C*L*V**2*log(V)/d**2").solve_for("V")
    ray = {"N": 1, "d": 0, "L": 0}
    assert cap.exponents(ray) == {"L": Fraction(-1, 2), "N": Fraction(1, 2), "d": 1}
    assert cap.log_powers(ray) == {"L": 0, "N": Fraction(-1, 2), "d": 0}
    # numerical elasticities far out on the ray approach these limits
    n = np.array([1e100, 1e300])
    el = cap.elasticities({"N": n, "d": 1.0, "L": 1.0})
    # by hand: V = sqrt(z / (C W(z))) * ..., E_N = 1/2 - 1/(2 (1 + W(z))) with z = 2 N d^2 / (C L)
    w = lambertw(2 * n).real
    np.testing.assert_allclose(el["N"], 0.5 - 0.5 / (1 + w), rtol=1e-12)
    # (E_N - 1/2) log N -> -1/2 (the log power), off by O(log log N / log N) < 0.02 here
    np.testing.assert_allclose((el["N"] - 0.5) * np.log(n), -0.5, atol=0.02)


def test_structural_leading_terms_agree_with_sympy_limits():
    law = Law.parse("N >= C0*V*log(V) + C3*L*V*(V + d)*log(V)/d**2")
    ray = {"V": Fraction(1), "d": Fraction(1, 2), "L": Fraction(1, 2)}
    fast = leading_term(law.threshold, ray, law.variables)
    slow = limit_term(law.threshold, ray, law.variables)
    assert (dict(fast.powers), dict(fast.logs)) == (dict(slow.powers), dict(slow.logs))
    assert fast.growth(ray) == slow.growth(ray) == (Fraction(3, 2), 1)


def test_log_of_a_fixed_variable_does_not_count_in_kappa():
    # guards: Term.growth counting log powers of variables held fixed on the ray (ray 0)
    law = Law.parse("N >= C*V*log(d)")
    assert law.ray_growth({"V": 1, "d": 0}) == (Fraction(1), Fraction(0))
    assert law.ray_growth({"V": 1, "d": 1}) == (Fraction(1), Fraction(1))
