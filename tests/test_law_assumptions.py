"""Laws in textbook form: declared assumptions (k < n), E and pi (theorycheck.law.assumptions)."""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from theorycheck.law import Law

TEXTBOOK = "m >= C*k*log(n/k)"


def test_textbook_law_needs_and_accepts_its_assumption():
    with pytest.raises(ValueError, match="declare assumptions such as"):
        Law.parse(TEXTBOOK)
    law = Law.parse(TEXTBOOK, assume="k < n")
    assert law.resource == "m" and law.variables == ("k", "n") and law.constants == ("C",)
    assert law.assumption_texts == ("k < n",)
    assert law.to_dict()["assume"] == ["k < n"]
    assert Law.parse(TEXTBOOK, assume=["k < n", "k >= 2"]).assumption_texts == ("k < n", "k >= 2")


def test_satisfies_is_vectorised_and_evaluation_refuses_points_outside():
    law = Law.parse(TEXTBOOK, assume="k < n")
    got = law.satisfies({"k": np.array([1.0, 5.0, 10.0]), "n": 5.0})
    assert got.tolist() == [True, False, False]  # strict: k = n is outside
    assert math.isclose(float(law.evaluate({"k": 2.0, "n": 20.0})), 2 * math.log(10))
    with pytest.raises(ValueError, match="assumption 'k < n' fails"):
        law.evaluate({"k": np.array([2.0, 30.0]), "n": 20.0})
    with pytest.raises(ValueError, match="assumption 'k < n' fails"):
        law.log_evaluate({"k": math.log(30.0), "n": math.log(20.0)}, log_values=True)
    with pytest.raises(ValueError, match="assumption 'k < n' fails"):
        law.evaluate_mp({"k": 30, "n": 20})


def test_assumptions_survive_pickle_solve_for_and_equality():
    law = Law.parse(TEXTBOOK, assume="k < n")
    assert pickle.loads(pickle.dumps(law)) == law
    assert law != Law.parse(TEXTBOOK, assume="k <= n")
    assert law.solve_for("n").assumption_texts == ("k < n",)


@pytest.mark.parametrize(("assume", "message"), [
    ("z < n", "names \\['z'\\]"),
    (5, "assume must be a string"),
    (["k < n", 3], "each assumption must be a string"),
    ("k < n < 3", "chained comparisons"),
])
def test_bad_assumptions_are_refused(assume, message):
    with pytest.raises(ValueError, match=message):
        Law.parse(TEXTBOOK, assume=assume)


def test_E_is_eulers_number_and_pi_is_pi():
    law = Law.parse("m >= C*k*log(E*n/k)", assume="k <= n")
    assert law.variables == ("k", "n")
    assert math.isclose(float(law.evaluate({"k": 3.0, "n": 3.0})), 3.0)  # log(e) = 1
    assert Law.parse("N >= pi*V").threshold == sp.pi * sp.Symbol("V", positive=True)
    # E alone as one side is the resource (an error E), not a number ...
    assert Law.parse("E >= C1/d + C2/T").resource == "E"
    # ... and a law may not use it both ways.
    with pytest.raises(ValueError, match="both a variable"):
        Law.parse("E >= C*log(E*d)")


# Closed forms of f = C k log(n/k): d log f / d log n = 1/log(n/k),
# d log f / d log k = 1 - 1/log(n/k). Points are drawn inside k < n with n/k >= 1.01,
# where 1/log(n/k) <= 100.5; float64 relative error of the lambdified log form is
# ~1e-13 there, so rel 1e-9 leaves orders of magnitude of slack without hiding a wrong formula.
@settings(max_examples=60, deadline=None)
@given(log_k=st.floats(0.0, 12.0), log_ratio=st.floats(math.log(1.01), 12.0), c=st.floats(0.01, 100.0))
def test_elasticities_of_the_textbook_law_match_the_closed_form(log_k, log_ratio, c):
    law = Law.parse(TEXTBOOK, assume="k < n")
    k, n = math.exp(log_k), math.exp(log_k + log_ratio)
    el = law.elasticities({"k": k, "n": n}, {"C": c})
    lr = math.log(n / k)
    assert math.isclose(float(el["n"]), 1.0 / lr, rel_tol=1e-9)
    assert math.isclose(float(el["k"]), 1.0 - 1.0 / lr, rel_tol=1e-9, abs_tol=1e-9)


def test_derived_laws_carry_the_assumptions_into_a_verdict():
    # the additive alternative C1/V + C2*log(n/k) is only positive where k < n: it must inherit
    # the assumption, or building it would fail the positivity check and abort the verdict
    from theorycheck.compare import compare
    from theorycheck.compare.model_selection import additive_alternative
    from theorycheck.planted import planted_dataset

    law = Law.parse("m >= C*log(n/k)/V", assume="k < n")
    assert additive_alternative(law).assumption_texts == ("k < n",)
    cells = [{"k": k, "n": n, "V": v} for k in (2, 8, 32) for n in (64, 256, 1024) for v in (10, 100)]
    data = planted_dataset(law, cells=cells, constants={"C": 2.0}, width=0.1, trials=8, seed=4)
    verdict = compare(law, data)
    assert verdict.status == "consistent" and verdict.models.best_bic == "law"
