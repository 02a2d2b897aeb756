"""Law: resource, threshold, sense, solve_for, evaluation, elasticities, printing."""

from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp

from theorycheck.law import Law
from theorycheck.symbols import L, N, V, d, symbol

GRADIENT_NOISE = "N >= C3*L*V*(V+d)*log(V)/d**2"
POINT = {"L": 4.0, "V": 1024.0, "d": 256.0}


def test_attributes_of_a_threshold_law():
    law = Law.parse(GRADIENT_NOISE)
    assert law.resource == "N" and law.sense == ">="
    assert law.variables == ("L", "V", "d") and law.constants == ("C3",)
    assert law.condition == sp.Ge(N, law.threshold, evaluate=False)
    assert not law.is_monomial
    assert law.text == "N >= C3*L*V*(V + d)*log(V)/d**2"
    assert law.latex.startswith("N \\geq") and law._repr_latex_() == f"${law.latex}$"
    assert str(law) == law.text
    json.dumps(law.to_dict())


def test_lower_bound_is_solved_for_n():
    law = Law.parse("(d**2/2)*log(1 + N/(L*V)) >= V*log(V)", resource="N")
    expected = L * V * (V ** (2 * V / d**2) - 1)
    assert law.sense == ">="
    assert sp.simplify(law.threshold.rewrite(sp.exp) - expected.rewrite(sp.exp)) == 0


def test_from_threshold_and_equality():
    a = Law.from_threshold("N", "C*V*log(V)")
    b = Law.parse("N >= C*V*log(V)")
    assert a == b and hash(a) == hash(b)
    assert Law.from_threshold("L", symbol("V"), sense="<=").sense == "<="
    with pytest.raises(ValueError, match="sense must be"):
        Law.from_threshold("N", "V", sense=">")


def test_law_is_immutable():
    law = Law.parse("N >= V")
    with pytest.raises(AttributeError):
        law.resource = "V"  # type: ignore[misc]


def test_capacity_form_flips_sense_and_inverts_the_threshold():
    law = Law.parse("N >= C*L*V**2*log(V)/d**2")
    cap = law.solve_for("V")
    assert cap.resource == "V" and cap.sense == "<="
    assert cap.variables == ("L", "N", "d")
    # round trip: the N needed for V0 gives back capacity V0
    for v0, l0, d0, c0 in [(1000.0, 4.0, 64.0, 3.0), (50.0, 2.0, 8.0, 0.5)]:
        n0 = float(law.evaluate({"L": l0, "V": v0, "d": d0}, {"C": c0}))
        assert cap.evaluate({"L": l0, "N": n0, "d": d0}, {"C": c0}) == pytest.approx(v0, rel=1e-10)
    back = cap.solve_for("N")
    assert back.sense == ">=" and sp.simplify(back.threshold - law.threshold) == 0


def test_solve_for_storage_and_budget_in_d():
    law = Law.parse("d**2 >= C1*V*log(V)", resource="d")
    cap = law.solve_for("V")
    assert cap.sense == "<="
    assert float(cap.evaluate({"d": 128.0}, {"C1": 10.0})) * np.log(
        float(cap.evaluate({"d": 128.0}, {"C1": 10.0}))) == pytest.approx(128.0**2 / 10.0, rel=1e-10)


def test_solve_for_unknown_variable():
    with pytest.raises(ValueError, match="cannot solve .* for 'm'"):
        Law.parse(GRADIENT_NOISE).solve_for("m")


@pytest.mark.parametrize(
    ("values", "constants", "fragment"),
    [
        ({"L": 4.0, "V": 1024.0}, None, "lacks 'd'"),
        ({**POINT, "m": 3.0}, None, "'m', which the law does not have"),
        ({**POINT, "N": 3.0}, None, "'N', which the law does not have"),
        ({**POINT, "d": 0.0}, None, "d must be positive and finite, got 0.0"),
        ({**POINT, "V": -5.0}, None, "V must be positive and finite, got -5.0"),
        ({**POINT, "L": np.array([1.0, np.nan])}, None, "L must be positive and finite, got nan"),
        ({**POINT, "L": "four"}, None, "L must be a positive number"),
        (POINT, {"C9": 1.0}, "no constant \\['C9'\\]"),
        (POINT, {"C3": -1.0}, "C3 must be positive"),
        ([1, 2], None, "mapping"),
    ],
)
def test_bad_values_name_the_culprit(values, constants, fragment):
    law = Law.parse(GRADIENT_NOISE)
    for method in (law.evaluate, law.log_evaluate, law.elasticities):
        with pytest.raises(ValueError, match=fragment):
            method(values, constants)


def test_evaluate_mp_bad_values():
    law = Law.parse(GRADIENT_NOISE)
    with pytest.raises(ValueError, match="lacks"):
        law.evaluate_mp({"L": 4, "V": 1024})
    with pytest.raises(ValueError, match="d must be positive"):
        law.evaluate_mp({**POINT, "d": -1})
    with pytest.raises(ValueError, match="does not have"):
        law.evaluate_mp({**POINT, "Q": 1})
    with pytest.raises(ValueError, match="decimal number string"):
        law.evaluate_mp({**POINT, "d": "lots"})
    with pytest.raises(ValueError, match="dps must be"):
        law.evaluate_mp(POINT, dps=2)


def test_evaluate_is_vectorised_and_broadcasts():
    law = Law.parse(GRADIENT_NOISE)
    v = np.array([128.0, 256.0, 512.0])
    out = law.evaluate({"L": 4.0, "V": v, "d": np.array([[32.0], [64.0]])}, {"C3": 34.0})
    assert out.shape == (2, 3) and out.dtype == np.float64
    expected = 34.0 * 4.0 * v * (v + 64.0) * np.log(v) / 64.0**2
    np.testing.assert_allclose(out[1], expected, rtol=1e-14)
    assert law.evaluate(POINT).shape == ()


def test_overflow_raises_and_log_space_does_not():
    law = Law.parse("N >= V**400")
    with pytest.raises(OverflowError, match="log_evaluate"):
        law.evaluate({"V": 1e3})
    assert float(law.log_evaluate({"V": 1e3})) == pytest.approx(400 * np.log(1e3), rel=1e-14)
    # variables beyond float64 through their logs
    assert float(law.log_evaluate({"V": 5000.0}, log_values=True)) == pytest.approx(400 * 5000.0, rel=1e-14)


def test_elasticities_match_finite_differences_of_log_threshold():
    law = Law.parse("N >= C0*V*log(V) + C3*L*V*(V + d)*log(V)/d**2")
    consts = {"C0": 6.2, "C3": 34.0}
    rng = np.random.default_rng(np.random.SeedSequence(7))
    points = {"L": np.exp(rng.uniform(0, 4, 20)), "V": np.exp(rng.uniform(3, 9, 20)), "d": np.exp(rng.uniform(2, 6, 20))}
    el = law.elasticities(points, consts)
    h = 1e-6  # central difference in log x: error O(h^2) ~ 1e-12, rounding ~ 1e-16/h ~ 1e-10
    for name in law.variables:
        up = {**points, name: points[name] * np.exp(h)}
        down = {**points, name: points[name] * np.exp(-h)}
        fd = (law.log_evaluate(up, consts) - law.log_evaluate(down, consts)) / (2 * h)
        np.testing.assert_allclose(el[name], fd, atol=1e-7)
    assert law.elasticity("V", {k: float(v[0]) for k, v in points.items()}, consts) == pytest.approx(float(el["V"][0]))
    with pytest.raises(ValueError, match="no variable 'N'"):
        law.elasticity("N", {"L": 1.0, "V": 2.0, "d": 3.0})


def test_elasticities_in_the_constants_are_each_terms_share():
    # d log f / d log C_j of a sum is that term's share of the sum (the law fit's gradient,
    # compare/law_model.py); constants not given are 1
    law = Law.parse("N >= C0*V*log(V) + C1*V**2/d**2")
    V, d = np.array([1e3, 1e4]), np.array([256.0, 512.0])
    el = law.elasticities({"V": V, "d": d}, {"C0": 0.4}, of_constants=True)
    first, second = 0.4 * V * np.log(V), V**2 / d**2
    np.testing.assert_allclose(el["C0"], first / (first + second), rtol=1e-13)
    np.testing.assert_allclose(el["C1"], second / (first + second), rtol=1e-13)
    assert set(el) == {"C0", "C1"} and set(law.elasticities({"V": V, "d": d})) == {"V", "d"}


def test_elasticity_of_monomial_is_its_exponent_plus_log_term():
    law = Law.parse("N >= C*L*V**2*log(V)/d**2")
    el = law.elasticities({"L": 3.0, "V": np.array([10.0, 1e6]), "d": 7.0})
    np.testing.assert_allclose(el["V"], 2 + 1 / np.log([10.0, 1e6]), rtol=1e-13)
    np.testing.assert_allclose(el["d"], -2.0, rtol=1e-13)
    np.testing.assert_allclose(el["L"], 1.0, rtol=1e-13)


def test_strict_inequality_and_reversed_sides():
    law = Law.parse("C*V*log(V) < N")
    # the resource is the left-hand side's variable: V, at most the threshold (a capacity)
    assert law.resource == "V" and law.sense == "<="
    law = Law.parse("C*V*log(V) < N", resource="N")
    assert law.sense == ">=" and law.threshold == symbol("C") * V * sp.log(V)
