"""Relations Θ, Θ̃, O, Ω between laws on a regime (and its cone of rays); Regime checks."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from theorycheck.law import Law, Regime, relation
from theorycheck.symbols import symbol

REGIME = Regime({"V": 1, "d": "3/4", "L": "1/4"}, "V >> d", ("V >> d", "L << V"))
small = st.fractions(min_value=-2, max_value=2, max_denominator=4)


@st.composite
def sums_of_monomials(draw):
    """Threshold = sum of 1-3 positive monomials in V, d, L times log(V)**k."""
    expr = sp.Integer(0)
    for _ in range(draw(st.integers(1, 3))):
        term = sp.Rational(draw(st.integers(1, 50)), draw(st.integers(1, 50)))
        for name in ("V", "d", "L"):
            a = draw(small)
            term *= symbol(name) ** sp.Rational(a.numerator, a.denominator)
        term *= sp.log(symbol("V")) ** draw(st.integers(0, 2))
        expr += term
    return expr


@settings(deadline=None, max_examples=15)
@given(sums_of_monomials(), st.fractions(min_value=Fraction(1, 10), max_value=1000, max_denominator=10))
def test_theta_is_invariant_to_constant_factors(expr, factor):
    f = Law.from_threshold("N", expr)
    g = Law.from_threshold("N", sp.Rational(factor.numerator, factor.denominator) * symbol("C7") * expr)
    rel = relation(f, g, REGIME)
    assert rel.kind == "Theta"
    assert rel.soft_theta and rel.f_is_O_of_g and rel.g_is_O_of_f


@settings(deadline=None, max_examples=15)
@given(sums_of_monomials(), st.sampled_from(["V", "d", "L"]), st.integers(1, 3), st.sampled_from([1, -1]))
def test_soft_theta_is_invariant_to_polylog_factors(expr, var, power, sign):
    f = Law.from_threshold("N", expr)
    g = Law.from_threshold("N", expr * sp.log(symbol(var)) ** (sign * power))
    rel = relation(f, g, REGIME)
    assert rel.kind == "SoftTheta" and rel.soft_theta
    # the log factor makes g larger (sign > 0) or smaller on every ray
    assert rel.f_is_O_of_g == (sign > 0) and rel.g_is_O_of_f == (sign < 0)


def test_o_omega_and_where_they_differ():
    f = Law.parse("N >= C*L*V*log(V)/d")
    g = Law.parse("N >= C*L*V**2*log(V)/d**2")
    rel = relation(f, g, REGIME)
    assert rel.kind == "O" and rel.f_is_O_of_g and not rel.g_is_O_of_f
    assert "exponent of V: 1 vs 2" in rel.differences and "exponent of d: -1 vs -2" in rel.differences
    assert relation(g, f, REGIME).kind == "Omega"
    json.dumps(rel.to_dict())


def test_log_power_difference_is_named():
    rel = relation(Law.parse("N >= V**2"), Law.parse("N >= V**2*log(V)**2"), Regime({"V": 1}))
    assert rel.kind == "SoftTheta"
    assert "log power of V: 0 vs 2" in rel.differences


def test_incomparable_when_the_order_changes_inside_the_cone():
    regime = Regime({"V": 1, "d": 1}, "V ~ d")
    rel = relation(Law.parse("N >= V"), Law.parse("N >= d"), regime)
    assert rel.kind == "incomparable"
    assert len(rel.rays) == 5


def test_gradient_noise_and_lower_bound_are_theta_in_the_lower_regime():
    upper = Law.parse("N >= C3*L*V*(V + d)*log(V)/d**2")
    lower = Law.parse("(d**2/2)*log(1 + N/(L*V)) >= V*log(V)", resource="N")
    regime = Regime({"V": 1, "d": "3/4", "L": "1/4"}, "lower regime",
                    ("V >> d", "N << L*V", "d**2 >> V*log(V)"))
    rel = relation(lower, upper, regime)
    assert rel.kind == "Theta" and rel.differences == ()
    assert rel.exponents_f == rel.exponents_g == {"L": 1, "V": 2, "d": -2}


def test_relation_input_errors():
    f = Law.parse("N >= V")
    with pytest.raises(ValueError, match="different resources"):
        relation(f, Law.parse("d >= V"), Regime({"V": 1}))
    with pytest.raises(ValueError, match="two Law objects"):
        relation(f, "N >= V", Regime({"V": 1}))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no exponent for"):
        relation(f, Law.parse("N >= V*d"), Regime({"V": 1}))


def test_regime_validation():
    with pytest.raises(ValueError, match="violates its own constraint"):
        Regime({"V": 1, "d": 2}, "", ("V >> d",))
    with pytest.raises(ValueError, match="exactly one of"):
        Regime({"V": 1}, "", ("V > d",))
    with pytest.raises(ValueError, match="non-empty mapping"):
        Regime({})
    with pytest.raises(ValueError, match="holds every variable fixed"):
        Regime({"V": 0})
    with pytest.raises(ValueError, match="not a simple fraction"):
        Regime({"V": 0.1234567})
    with pytest.raises(ValueError, match="eps must be"):
        Regime({"V": 1}).cone(2)
    regime = Regime({"V": 1, "d": 0.75, "zeta": 0})
    assert regime.ray == {"V": 1, "d": Fraction(3, 4), "zeta": 0}
    assert len(regime.cone()) == 5  # zeta stays fixed
    points = regime.points(16.0)
    assert points == {"V": 16.0, "d": 8.0, "zeta": 1.0}
    assert regime == Regime({"V": "1", "d": "3/4", "zeta": 0}) and hash(regime) == hash(Regime({"V": 1, "d": "3/4", "zeta": 0}))
    json.dumps(regime.to_dict())


def test_constraint_involving_the_resource_is_read_at_the_threshold():
    regime = Regime({"V": 1, "d": "3/4", "L": "1/4"}, "", ("N << L*V",))
    assert regime.violated(regime.ray, Law.parse("N >= L*V**2/d**2")) == []
    assert regime.violated(regime.ray, Law.parse("N >= L*V**2")) == ["N << L*V"]


def test_much_less_than_is_strict_on_the_ray():
    # guards: "d << V" judged as <= (a ray with d and V growing alike would be accepted)
    with pytest.raises(ValueError, match="violates its own constraint"):
        Regime({"V": 1, "d": 1}, "", ("d << V",))
    regime = Regime({"V": 1, "d": "3/4"}, "", ("d << V",))
    assert regime.violated({"V": Fraction(1), "d": Fraction(1)}) == ["d << V"]
    assert regime.violated({"V": Fraction(1), "d": Fraction(15, 16)}) == []


def test_cone_drops_a_neighbour_ray_that_holds_everything_fixed():
    # guards: cone keeping the all-zero ray when an exponent equals eps (V = 1/16 moved by -1/16)
    assert Regime({"V": "1/16"}).cone() == [{"V": Fraction(1, 16)}, {"V": Fraction(1, 8)}]
