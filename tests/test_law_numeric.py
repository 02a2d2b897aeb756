"""Float64 and log-space evaluation against certified mpmath values (50 digits)."""

from __future__ import annotations

from fractions import Fraction

import sys

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from theorycheck.law import Law, PrecisionLost
from theorycheck.law.numeric import fold_logs
from theorycheck.symbols import symbol

# Float64 evaluation of a product/sum of ~10 elementary operations loses a few ulps each;
# 1e-12 relative leaves a margin of ~50x over the worst case seen (~2e-14).
RTOL = 1e-12

exps = st.fractions(min_value=-40, max_value=40, max_denominator=4)
values = st.floats(min_value=2.0, max_value=1e12, allow_nan=False, allow_infinity=False)


@st.composite
def laws_and_points(draw):
    """A sum of two monomial-polylog terms (exponents up to 40, so values overflow float64)."""
    expr = sp.Integer(0)
    for _ in range(2):
        term = sp.Rational(draw(st.integers(1, 99)), draw(st.integers(1, 99)))
        for name in ("V", "d"):
            a: Fraction = draw(exps)
            term *= symbol(name) ** sp.Rational(a.numerator, a.denominator)
        term *= sp.log(symbol("V")) ** draw(st.integers(-2, 3))
        expr += term
    law = Law.from_threshold("N", expr * symbol("C"))
    point = {name: draw(values) for name in law.variables}
    return law, point, draw(st.floats(0.1, 10.0))


def _check_against_mp(law: Law, point: dict, constants: dict) -> None:
    exact = law.evaluate_mp(point, constants, dps=50)
    log_exact = float(mpmath.log(exact))
    if sys.float_info.min < exact < sys.float_info.max:  # representable in float64
        assert float(law.evaluate(point, constants)) == pytest.approx(float(exact), rel=RTOL)
    elif exact > 1:
        with pytest.raises(OverflowError, match="log_evaluate"):
            law.evaluate(point, constants)
    # log space: absolute error ~ ulp(log f) times a few operations
    assert float(law.log_evaluate(point, constants)) == pytest.approx(log_exact, rel=RTOL, abs=1e-12)


@settings(deadline=None, max_examples=30)
@given(laws_and_points())
def test_float_and_log_space_agree_with_mpmath(case):
    law, point, c = case
    _check_against_mp(law, point, {"C": c})


@pytest.mark.parametrize(
    ("text", "resource", "point"),
    [
        ("N >= C3*L*V*(V+d)*log(V)/d**2", None, {"L": 4.0, "V": 1024.0, "d": 256.0}),
        ("(d**2/2)*log(1 + N/(L*V)) >= V*log(V)", "N", {"L": 3.0, "V": 1000.0, "d": 1e7}),  # expm1 regime
        ("(d**2/2)*log(1 + N/(L*V)) >= V*log(V)", "N", {"L": 3.0, "V": 1000.0, "d": 20.0}),  # exp large
        ("N >= Max(C0*V*log(V), C3*L*V**2*log(V)/d**2)", None, {"L": 4.0, "V": 1024.0, "d": 256.0}),
        ("E >= C1/d + C2/sqrt(T)", None, {"d": 1e6, "T": 3.0}),
    ],
)
def test_catalogue_like_laws_agree_with_mpmath(text, resource, point):
    law = Law.parse(text, resource=resource)
    _check_against_mp(law, point, {c: 2.5 for c in law.constants})


def test_capacity_with_lambert_w_agrees_with_mpmath():
    cap = Law.parse("N >= C*L*V**2*log(V)/d**2").solve_for("V")
    for point in ({"N": 1e5, "d": 100.0, "L": 3.0}, {"N": 1e300, "d": 1e100, "L": 3.0}):
        _check_against_mp(cap, point, {"C": 34.0})
    # beyond float64 through logs: N = 10**4000, d = 10**10, L = 1
    exact = cap.evaluate_mp({"N": "1e4000", "d": "1e10", "L": 1}, {"C": 1})
    logs = {"N": 4000 * np.log(10), "d": 10 * np.log(10), "L": 0.0}
    assert float(cap.log_evaluate(logs, {"C": 1.0}, log_values=True)) == pytest.approx(float(mpmath.log(exact)), rel=RTOL)


def test_mp_evaluation_is_certified_or_raises():
    law = Law.from_threshold("N", "V*log(1 + 1/V) - 1 + 1/(2*V)")  # ~ 1/(3 V**2), cancellation
    value = law.evaluate_mp({"V": "1e200"}, dps=30)
    with mpmath.workdps(40):
        assert abs(value / (mpmath.mpf(1) / (3 * mpmath.mpf(10) ** 400)) - 1) < mpmath.mpf(10) ** -30 * 5e171
        # (the next term is -1/(4 V**3); relative size 3/(4 V) = 7.5e-201, far below 1e-30)
    with pytest.raises(PrecisionLost, match="cannot certify"):
        law.evaluate_mp({"V": "1e3000"}, dps=30)


def test_mp_digits_are_stable_across_precisions():
    law = Law.parse("N >= C3*L*V*(V+d)*log(V)/d**2")
    point = {"L": 4, "V": "1024", "d": 256.0}
    a = law.evaluate_mp(point, {"C3": 34}, dps=50)
    b = law.evaluate_mp(point, {"C3": 34}, dps=80)
    with mpmath.workdps(80):
        assert abs(a - b) <= abs(b) * mpmath.mpf(10) ** -49
        assert abs(b - mpmath.mpf(34) * 4 * 1024 * 1280 * mpmath.log(1024) / 256**2) <= abs(b) * mpmath.mpf(10) ** -79


def test_a_log_of_a_constant_s_expression_stays_whole():
    """``log(A*V)`` is solved through as one atom: sympy would split it into ``log A + log V`` across the solved
    sum, whose log-space form needs each term positive, and ``log A = 0`` where a fit starts (``A = 1``). Whole, the
    law has finite elasticities there (checked against a central difference, 1e-6 relative: the step's own error is
    ~1e-9), and it is ``log V + B`` with ``A = e^B`` (to float64 rounding)."""
    law = Law.parse("d**2 >= C*log(A*V)*(s*V + (s + 1)*d)", resource="d")
    assert law.threshold.has(sp.log(symbol("A") * symbol("V")))
    points = {"V": np.array([512.0, 4096.0]), "s": np.array([1.0, 5.0])}
    el = law.elasticities(points, {"C": 1.0, "A": 1.0}, of_constants=True)["A"]
    h = 1e-5
    up, down = (law.evaluate(points, {"C": 1.0, "A": float(np.exp(x))}) for x in (h, -h))
    assert np.all(np.isfinite(el)) and el == pytest.approx((np.log(up) - np.log(down)) / (2 * h), rel=1e-6)
    offset = Law.parse("d**2 >= C*(log(V) + B)*(s*V + (s + 1)*d)", resource="d")
    assert law.evaluate(points, {"C": 3.8, "A": float(np.exp(1.2))}) == pytest.approx(
        offset.evaluate(points, {"C": 3.8, "B": 1.2}), rel=1e-12)


@pytest.mark.parametrize("text, resource", [("d**2 >= C*(log(A) + log(V))*(s*V + (s + 1)*d)", "d"),
                                            ("N >= C*(log(A) + log(V))*V*s", "N")])
def test_a_sum_of_logs_written_by_hand_is_folded(text, resource):
    """``log(A) + log(V)`` written by hand is ``log(A*V)``: the log-space form takes each term of a sum as positive,
    and ``log A = 0`` at ``A = 1`` where a fit starts, so the unfolded sum had no finite elasticity there (solved or
    not: the second needs no solving). Folded, value and elasticities equal the whole log's (1e-12:
    float64 rounding of the same numbers in another order)."""
    law = Law.parse(text, resource=resource)
    whole = Law.parse(text.replace("(log(A) + log(V))", "log(A*V)"), resource=resource)
    points = {"V": np.array([512.0, 4096.0]), "s": np.array([1.0, 5.0])}
    for constants in ({"C": 1.0, "A": 1.0}, {"C": 3.8, "A": 0.2}):
        assert law.evaluate(points, constants) == pytest.approx(whole.evaluate(points, constants), rel=1e-12)
        el, el_whole = (f.elasticities(points, constants, of_constants=True)["A"] for f in (law, whole))
        assert np.all(np.isfinite(el)) and el == pytest.approx(el_whole, rel=1e-12)


def test_fold_logs_keeps_the_value_and_leaves_other_sums_alone():
    """Folding is exact algebra for positive names: at seeded positive points the folded and the written forms agree
    to float64 rounding (1e-12 of the terms' total size: the terms may cancel); logs with different cofactors, and sums
    without two logs, are left as written."""
    A, V, L, C = (symbol(n) for n in "AVLC")
    rng = np.random.default_rng(13764)
    written = C * L * sp.log(A) + C * L * sp.log(V) - C * L * sp.log(2 * V + L) + sp.log(V) * (sp.log(A) + sp.log(L))
    folded = fold_logs(written)
    assert folded.has(sp.log(A * V / (2 * V + L))) and folded.has(sp.log(A * L))
    for _ in range(20):
        at = {x: float(np.exp(rng.uniform(-3.0, 8.0))) for x in (A, V, L, C)}
        size = sum(abs(float(t.subs(at))) for t in sp.Add.make_args(sp.expand(written)))
        assert abs(float(folded.subs(at)) - float(written.subs(at))) <= 1e-12 * size
    for kept in (2 * sp.log(V) + sp.log(L), sp.log(V) + 1, C * sp.log(V) + L * sp.log(A)):
        assert fold_logs(kept) == kept
