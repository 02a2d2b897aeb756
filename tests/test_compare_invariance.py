"""Invariances of the verdict (hypothesis): resource scale, row order, polylog factors."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorycheck.compare import Dataset, compare
from theorycheck.law import Law
from theorycheck.planted import planted_dataset

LAW = Law.parse("N >= C*V**2*log(V)/d")
DATA = planted_dataset(LAW, grid={"V": [30, 100, 300], "d": [10, 30, 100]}, constants={"C": 2.0},
                       width=0.2, trials=6, seed=21)
BASE = compare(LAW, DATA, diagnostics=False)
ROWS = [{**c.values, "N": r, "successes": k, "trials": n} for c in DATA.cells for r, k, n in c.points]


def _rescaled(factor: float) -> Dataset:
    return Dataset.from_rows([{**row, "N": row["N"] * factor} for row in ROWS])


@settings(max_examples=6, deadline=None)
@given(st.floats(min_value=1e-3, max_value=1e3, allow_nan=False))
def test_rescaling_the_resource_changes_only_the_constant(factor):
    v = compare(LAW, _rescaled(factor), diagnostics=False)
    assert v.status == BASE.status
    for name, c in BASE.exponents.items():
        # same likelihood up to a shift of log N: the optimum moves only within the
        # optimiser's tolerance (exponents agree to 1e-4)
        assert v.exponents[name].estimate == pytest.approx(c.estimate, abs=1e-4)
        assert v.exponents[name].status == c.status
    assert v.constants["C"].estimate == pytest.approx(factor * BASE.constants["C"].estimate, rel=1e-3)


@settings(max_examples=5, deadline=None)
@given(st.permutations(ROWS))
def test_row_order_changes_nothing(rows):
    data = Dataset.from_rows(rows)
    assert data == DATA
    assert compare(LAW, data, diagnostics=False).to_dict() == BASE.to_dict()


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=-2, max_value=3), st.integers(min_value=-1, max_value=2))
def test_polylog_factor_does_not_change_a_soft_theta_verdict(k, j):
    base = compare(LAW, DATA, up_to="polylog", diagnostics=False)
    law = Law.parse(f"N >= C*V**2*log(V)*log(V)**({k})*log(d)**({j})/d")
    v = compare(law, DATA, up_to="polylog", diagnostics=False)
    assert v.status == base.status
    for name, c in base.exponents.items():
        assert v.exponents[name].status == c.status
        assert v.exponents[name].predicted == pytest.approx(c.predicted, abs=1e-9)
        assert v.exponents[name].estimate == pytest.approx(c.estimate, abs=1e-9)
        trend = v.exponents[name].estimate - v.exponents[name].predicted
        assert trend == pytest.approx(c.estimate - c.predicted, abs=1e-4)


def test_theta_verdict_does_see_the_log_factor():
    # under Θ the law's log factor is part of its shape: log(V)^2 adds 1/log V per power
    plain = compare(LAW, DATA, diagnostics=False)
    logged = compare(Law.parse("N >= C*V**2*log(V)**3/d"), DATA, diagnostics=False)
    shift = logged.exponents["V"].predicted - plain.exponents["V"].predicted
    assert 0.3 < shift < 0.6  # 2 * mean(1/log V) over V in 30..300 ~ 0.43
