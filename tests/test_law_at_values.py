"""``Law.at_values``: the law fit's evaluator gives ``log_evaluate`` and ``elasticities`` to the last bit,
and the same errors."""

from __future__ import annotations

import numpy as np
import pytest

from theorycheck import catalogue
from theorycheck.law import Law

RNG = np.random.default_rng(2026)
CELLS = {"V": RNG.uniform(300, 20000, 9), "d": RNG.uniform(700, 3000, 9), "L": RNG.uniform(8, 600, 9)}
LAWS = [
    catalogue.get("vural2026.headline").law,
    catalogue.get("vural2026.readout_wall").law,
    Law.parse("N >= C0*V*log(V) + C1*V**2/d**2 - C2*V"),
    Law.parse("N >= C0 + C1/(d - C2)"),
    Law.parse("N >= C*L**a*V"),  # a law with two constants, one an exponent
    Law.parse("N >= C*V*log(d)", assume="d > 100"),  # an assumption on the variables alone
    Law.parse("N >= C0*V + C1", assume="C1 < V"),  # an assumption naming a constant
]


def _values(law):
    return {v: CELLS[v] if v in CELLS else RNG.uniform(1.5, 4.0, 9) for v in law.variables}


@pytest.mark.parametrize("law", LAWS, ids=lambda law: law.text)
def test_the_numbers_of_log_evaluate_and_elasticities_to_the_last_bit(law):
    values = _values(law)
    if "d - C2" in law.text:  # the pole below every cell
        values["d"] = CELLS["d"]
    at = law.at_values(values)
    for constants in ({}, {law.constants[0]: 0.43}, {c: 10.0 ** (i - 1) for i, c in enumerate(law.constants)},
                      {law.constants[-1]: np.float64(2.5)}):
        if "d - C2" in law.text and constants.get("C2", 1.0) >= 700:
            continue
        assert np.array_equal(at.log_evaluate(constants), law.log_evaluate(values, constants), equal_nan=True)
        want = law.elasticities(values, constants, of_constants=True)
        got = at.constant_elasticities(constants, law.constants)
        assert list(got) == list(law.constants)
        assert all(np.array_equal(got[c], want[c], equal_nan=True) for c in law.constants)


def test_bad_values_and_constants_are_refused_as_the_law_refuses_them():
    law = Law.parse("N >= C0*V + C1", assume="C1 < V")
    with pytest.raises(ValueError, match="V must be positive and finite"):
        law.at_values({"V": [3.0, -1.0]})
    at = law.at_values({"V": np.array([3.0, 5.0])})
    for constants in ({"C1": 4.0}, {"C0": -1.0}, {"C0": float("inf")}, {"C9": 1.0}, {"C0": np.array([1.0, 2.0, 3.0])}):
        with pytest.raises(ValueError) as theirs:
            law.log_evaluate({"V": np.array([3.0, 5.0])}, constants)
        with pytest.raises(ValueError) as ours:
            at.log_evaluate(constants)
        assert str(ours.value) == str(theirs.value)
    with pytest.raises(ValueError, match="assumption 'V < d' fails"):
        Law.parse("N >= C*V*log(d)", assume="V < d").at_values({"V": [10.0], "d": [5.0]})
