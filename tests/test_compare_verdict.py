"""compare(): planted laws come back consistent / refuted / inconclusive (docs/architecture.md "Controls")."""

import json

import numpy as np
import pytest

from theorycheck.compare import DEFAULT_TOLERANCE, Dataset, compare
from theorycheck.law import Law
from theorycheck.planted import planted_dataset

MONO = Law.parse("N >= C*V**2*log(V)/d")
MULTI = Law.parse("N >= C1*V*log(V) + C2*L*V**2/d")
MONO_GRID = {"V": [30, 100, 300, 1000], "d": [10, 30, 100]}
MULTI_GRID = {"V": [32, 100, 320, 1000], "L": [2, 8, 32], "d": [16, 32, 64]}


@pytest.fixture(scope="module")
def mono_data():
    return planted_dataset(MONO, grid=MONO_GRID, constants={"C": 2.0}, width=0.15, trials=8, seed=11)


@pytest.fixture(scope="module")
def multi_data():
    # the two terms cross inside the grid: their ratio runs from ~0.1 to ~100
    return planted_dataset(MULTI, grid=MULTI_GRID, constants={"C1": 5.0, "C2": 2.0},
                           width=0.15, trials=6, seed=15)


def test_planted_monomial_is_consistent(mono_data):
    v = compare(MONO, mono_data)
    assert v.status == "consistent", v.reason
    assert v.tested == ("V", "d") and v.untested == ()
    # V's exponent as the design sees it is 2 + mean(1/log V) ~ 2.2, d's is -1
    assert v.exponents["V"].predicted == pytest.approx(2.19, abs=0.02)
    assert v.exponents["d"].predicted == pytest.approx(-1.0, abs=1e-9)
    for c in v.exponents.values():
        assert c.ci[0] <= c.predicted <= c.ci[1]
    # the fitted constant covers the planted one (95% CI)
    lo, hi = v.constants["C"].ci
    assert lo <= 2.0 <= hi
    assert 0.8 < v.ratio_spread["min"] and v.ratio_spread["max"] < 1.25
    assert v.tolerance == DEFAULT_TOLERANCE == 0.25
    assert v.models is not None and v.models.best_aic == "law"  # multiplicative beats additive
    assert v.power_fit is not None and v.collapse is not None
    json.dumps(v.to_dict(), allow_nan=False)  # strict JSON


def test_monomial_off_by_half_is_refuted(mono_data):
    v = compare(Law.parse("N >= C*V**2.5*log(V)/d"), mono_data, diagnostics=False)
    assert v.status == "refuted"
    assert v.exponents["V"].status == "refuted" and v.exponents["d"].status == "consistent"
    assert "V" in v.reason


def test_narrow_sweep_is_inconclusive_and_says_how_wide():
    data = planted_dataset(MONO, grid={"V": [100, 120, 150], "d": [10, 30, 100]},
                           constants={"C": 2.0}, width=0.15, trials=8, seed=12)
    v = compare(MONO, data, diagnostics=False)
    assert v.status == "inconclusive"
    assert v.exponents["V"].status == "inconclusive" and v.exponents["d"].status == "consistent"
    assert "spans only 0.18 decades" in v.reason
    assert any("widen V" in s for s in v.suggestions)


def test_too_few_trials_is_inconclusive_and_asks_for_more():
    data = planted_dataset(MONO, grid=MONO_GRID, constants={"C": 2.0}, width=0.6, trials=1,
                           seed=13, multipliers=[0.5, 1.0, 2.0])
    v = compare(MONO, data, diagnostics=False)
    assert v.status == "inconclusive"
    assert any("trials" in s for s in v.suggestions)
    json.dumps(v.to_dict(), allow_nan=False)  # infinite CIs come out as null


def test_single_valued_variable_is_untested():
    data = planted_dataset(MONO, grid={"V": [30, 100, 300, 1000], "d": [30]}, constants={"C": 2.0},
                           width=0.15, trials=8, seed=14)
    v = compare(MONO, data, diagnostics=False)
    assert v.exponents["d"].status == "untested" and v.exponents["d"].estimate is None
    assert v.untested == ("d",) and v.tested == ("V",)
    assert v.status == "consistent"
    assert "covers only the varied variables (V): d untested" in v.reason
    assert v.to_dict()["exponents"]["d"]["status"] == "untested"
    json.dumps(v.to_dict(), allow_nan=False)


def test_variable_absent_from_the_law_is_tested_against_zero(mono_data):
    # a law without d predicts exponent 0 for d; the data say -1
    v = compare(Law.parse("N >= C*V**2*log(V)"), mono_data, diagnostics=False)
    assert v.exponents["d"].predicted == pytest.approx(0.0, abs=1e-12)
    assert v.exponents["d"].status == "refuted"


def test_planted_sum_of_terms_is_consistent(multi_data):
    v = compare(MULTI, multi_data, diagnostics=False)
    assert v.status == "consistent", v.reason
    # local exponents change across the sweep: L's elasticity runs from ~0.1 to ~1
    lo, hi = v.exponents["L"].predicted_range
    assert lo < 0.3 and hi > 0.9
    for name, truth in (("C1", 5.0), ("C2", 2.0)):
        c = v.constants[name]
        assert c.ci[0] <= truth <= c.ci[1]


def test_sum_of_terms_off_by_half_is_refuted(multi_data):
    v = compare(Law.parse("N >= C1*V*log(V) + C2*L*V**2.5/d"), multi_data, diagnostics=False)
    # the fitted constants move the crossover so that the overall slope nearly matches,
    # but the local slope where the V^2.5 term dominates does not
    assert v.status == "refuted"
    assert v.exponents["V"].status == "refuted"


def test_sum_of_terms_narrow_sweep_is_inconclusive():
    data = planted_dataset(MULTI, grid={"V": [32, 100, 320, 1000], "L": [8, 10, 12], "d": [16, 32, 64]},
                           constants={"C1": 5.0, "C2": 2.0}, width=0.15, trials=6, seed=16)
    v = compare(MULTI, data, diagnostics=False)
    assert v.status == "inconclusive"
    assert v.exponents["L"].status == "inconclusive"


def test_lower_bound_check(mono_data):
    below = compare(MONO, mono_data, diagnostics=False, lower_bound=Law.parse("N >= V**2*log(V)/d"))
    assert below.lower_bound is not None and not below.lower_bound.violated
    above = compare(MONO, mono_data, diagnostics=False, lower_bound=Law.parse("N >= 5*V**2*log(V)/d"))
    assert above.lower_bound.violated and len(above.lower_bound.cell_violations) == 12
    steeper = compare(MONO, mono_data, diagnostics=False,
                      lower_bound=Law.parse("N >= C0*V**3/d"))
    assert steeper.lower_bound.violated and not steeper.lower_bound.cell_violations
    assert "scales better than the bound" in steeper.lower_bound.exponent_violations[0]
    assert "constants ['C0']" in steeper.lower_bound.notes[0]


def test_additive_truth_prefers_additive_model():
    data = planted_dataset(Law.parse("N >= C1*V + C2*L"), grid={"V": [10, 40, 160], "L": [10, 40, 160]},
                           constants={"C1": 1.0, "C2": 1.0}, width=0.1, trials=8, seed=17)
    v = compare(Law.parse("N >= C*V*L"), data)
    assert v.models.best_aic == "additive" and v.models.best_bic == "additive"
    assert v.models.delta_aic("law") > 10


@pytest.mark.parametrize(
    ("law", "kwargs", "fragment"),
    [
        ("d >= C*V", {}, "the law is about 'd' but the data vary 'N'"),
        ("N >= C*V*m", {}, "the law needs ['m']"),
        ("N >= C*V", {"tolerance": 0}, "tolerance must be a positive number"),
        ("N >= C*V", {"up_to": "logs"}, "up_to must be"),
        ("N >= C*V", {"q": 2}, "q must lie strictly between 0 and 1"),
        ("N <= C*V", {}, "the opposite"),
    ],
)
def test_bad_input(mono_data, law, kwargs, fragment):
    with pytest.raises(ValueError) as info:
        compare(Law.parse(law), mono_data, **kwargs)
    assert fragment in str(info.value)


def test_bad_data_and_law_types(mono_data):
    with pytest.raises(ValueError, match="data must be a theorycheck.compare.Dataset"):
        compare(MONO, [1, 2, 3])
    with pytest.raises(ValueError, match="expected a Law, a catalogue Bound or id, or a law string"):
        compare(5, mono_data)
    # a law string is read as check() and the testing helpers read it (it used to be refused)
    assert compare("N >= C*V", mono_data).law == compare(Law.parse("N >= C*V"), mono_data).law
    with pytest.raises(ValueError, match="alternatives must map names to laws"):
        compare(MONO, mono_data, alternatives=["N >= C*V**2"])



def test_data_where_no_cell_crosses_are_inconclusive_with_every_cell_censored():
    # valid data that only say where the threshold is not: nothing to fit, no error either
    all_success = Dataset.from_rows([{"V": 2, "d": 1, "N": 10, "successes": 4, "trials": 4},
                                     {"V": 4, "d": 1, "N": 20, "successes": 4, "trials": 4}])
    v = compare(Law.parse("N >= C*V/d"), all_success)
    assert v.status == "inconclusive" and "no cell crosses success probability q" in v.reason
    cells = v.to_dict()["cells"]
    assert [(c["censored_side"], c["censored_beyond"]) for c in cells] == [("below", 10.0), ("below", 20.0)]
    assert v.to_dict()["untested"] == ["V", "d"] and v.to_dict()["exponents"] == {}


def test_span_and_window_count_only_the_cells_with_a_threshold():
    # N* = 3 V at V = 10, 100, 1000, 10000, with resources 4..40000 shared by every cell:
    # the V = 10000 cell (N* = 30000) fails everywhere below 40000 except near its top,
    # so take resources up to 8000 only: that cell never succeeds and is censored. The
    # exponent is read from V = 10..1000, two decades; counting the censored cell would
    # claim three (and "consistent" needs a span of at least 0.5, decide.py).
    law = Law.parse("N >= C*V")
    data = planted_dataset(law, grid={"V": [10, 100, 1000, 10000]}, constants={"C": 3.0}, width=0.1,
                           resources=np.geomspace(4, 8000, 23), trials=8, seed=5, resource="N")
    v = compare(law, data).exponents["V"]
    assert v.values == (10.0, 100.0, 1000.0) and v.cells == 3
    assert v.span_decades == pytest.approx(2.0)


def test_one_binomial_row_gives_an_inconclusive_verdict_not_an_error():
    # one cell with one resource value: scipy's approx_fprime returns the one-row Jacobian
    # without its row axis, which once reached the information matrix as a matmul error
    data = Dataset.from_rows([{"n": 16, "N": 35, "successes": 3, "trials": 40}], resource="N")
    v = compare(Law.parse("N >= C*n*log(n)"), data)
    assert v.status == "inconclusive" and v.exponents["n"].status == "untested"
