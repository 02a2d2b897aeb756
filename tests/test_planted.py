"""Planted-law data: the probabilities, the reproducibility and the bad input."""

import math

import numpy as np
import pytest
from scipy.stats import binomtest

from theorycheck.law import Law
from theorycheck.planted import planted_dataset, planted_trial, success_probability
from theorycheck.seeding import seeded_trial

LAW = Law.parse("N >= C*V**2/d")


def test_success_probability_is_the_probit_in_log_resource():
    p = success_probability([50.0, 100.0, 100.0 * math.e**0.2], 100.0, width=0.2)
    assert p == pytest.approx([0.5 - 0.5 * math.erf(math.log(2) / 0.2 / math.sqrt(2)), 0.5, 0.8413447], abs=1e-6)
    assert success_probability(100.0, 100.0, width=0.2, q=0.9) == pytest.approx(0.9)
    assert success_probability(200.0, 100.0, width=0.2, increasing=False) < 0.01


def test_dataset_has_planted_thresholds_and_rates():
    data = planted_dataset(LAW, grid={"V": [10, 100], "d": [4, 8]}, constants={"C": 3.0},
                           width=0.1, trials=400, seed=1, multipliers=[0.8, 1.0, 1.25])
    assert data.resource == "N" and data.variables == ("V", "d") and len(data.cells) == 4
    for cell in data.cells:
        truth = 3.0 * cell.values["V"] ** 2 / cell.values["d"]
        for r, k, n in cell.points:
            p = float(success_probability(r, truth, width=0.1))
            # every point's count is a Binomial(400, p) draw: a two-sided exact test at
            # 0.1% on each of 12 points fails by chance with probability ~1%
            assert binomtest(k, n, p).pvalue > 1e-3
        assert [r for r, _, _ in cell.points] == pytest.approx([0.8 * truth, truth, 1.25 * truth])


def test_same_seed_same_data_other_seed_other_data():
    kw = dict(grid={"V": [10, 30], "d": [5]}, constants={"C": 1.0}, width=0.2, trials=8)
    a = planted_dataset(LAW, seed=3, **kw)
    assert a == planted_dataset(LAW, seed=3, **kw)
    assert a != planted_dataset(LAW, seed=4, **kw)


def test_function_threshold_extra_variables_and_integer_grid():
    data = planted_dataset(lambda v: 10.0 * v["V"], cells=[{"V": 10, "L": 3}, {"V": 20, "L": 3}],
                           resource="d", width=0.3, resources=[50, 100.4, 200, 400], integer=True)
    assert data.resource == "d" and data.variables == ("L", "V")
    assert all(float(r).is_integer() for c in data.cells for r, _, _ in c.points)


def test_planted_trial_is_order_independent_and_calibrated():
    trial = seeded_trial(planted_trial, {"threshold": 1000.0, "width": 0.2}, entropy=5)
    first = [trial(1000.0, i) for i in range(400)]
    assert first == [trial(1000.0, i) for i in range(400)]
    assert [trial(1000.0, i) for i in reversed(range(400))] == first[::-1]
    # P = 1/2 at the threshold: exact two-sided test at 0.1%
    assert binomtest(sum(first), 400, 0.5).pvalue > 1e-3
    assert sum(trial(2000.0, i) for i in range(100)) > 95  # P = Phi(3.47) = 0.9997


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        (dict(grid={"V": [10]}, width=0.1), "needs ['d']"),
        (dict(grid={"V": [10], "d": [2]}, width=0), "width must be a positive finite number"),
        (dict(grid={"V": [10], "d": [2]}, q=1.0), "q must lie strictly between 0 and 1"),
        (dict(grid={"V": [10], "d": [2]}, trials=0), "trials must be an integer >= 1"),
        (dict(), "give exactly one of grid"),
        (dict(grid={"V": [10], "d": [2]}, resources=[1, 2], multipliers=[1, 2]), "not both"),
        (dict(grid={"V": [10], "d": [2]}, resources=[-1, 2]), "positive"),
    ],
)
def test_bad_planted_arguments(kwargs, fragment):
    with pytest.raises(ValueError) as info:
        planted_dataset(LAW, **kwargs)
    assert fragment in str(info.value)


def test_bad_trial_arguments():
    with pytest.raises(ValueError, match="threshold must be a positive finite number"):
        planted_trial({"threshold": -3.0, "width": 0.1, "N": 10}, np.random.SeedSequence(0))
    with pytest.raises(ValueError, match="law must be a theorycheck Law"):
        planted_dataset(42, grid={"V": [1]})
    assert np.all(np.isfinite(success_probability([1.0, 1e300], 10.0, width=0.1)))
