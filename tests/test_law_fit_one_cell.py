"""One cell, one constant: the law's constant is that cell's threshold over ``f``, with the
cell's own CI (compare/law_fit.py, ``_one_cell``), not a Wald interval on the same number."""

import math

import pytest

from theorycheck.compare import cell_thresholds, compare, fit_law
from theorycheck.compare.data import Dataset
from theorycheck.law import Law
from theorycheck.planted import planted_dataset


@pytest.mark.parametrize("text, power", [("N >= C*V", 1), ("N >= C**2*V", 2), ("N >= V", 1)])
def test_one_cells_constant_is_its_threshold_with_its_ci(text, power):
    # a probe: one cell, 6 points of 4 trials, so that the slope is poorly known and the
    # cell's CI (Fieller's, over the links) is asymmetric on the log scale, as no Wald interval is. The constant
    # (C, or the overall factor K of a law without constants) must reproduce the cell's
    # estimate and CI through f: C**power * 64 = N*; a mapping, so equal to 1e-9 relative
    law = Law.parse(text)
    data = planted_dataset(Law.parse("N >= C*V"), grid={"V": [64]}, constants={"C": 30.0}, width=0.3,
                           trials=4, seed=11, multipliers=[0.6, 0.8, 1.0, 1.2, 1.5, 2.0])
    (th,) = cell_thresholds(data)
    assert th.method == "glm" and abs(math.log(th.ci[1] * th.ci[0] / th.estimate ** 2)) > 0.05  # asymmetric
    fit = fit_law(law, data)
    est = fit.constants["C"] if law.constants else fit.scale
    assert fit.constants_from == "cell"
    for got, want in zip((est.estimate, *est.ci), (th.estimate, *th.ci)):
        assert got ** power * 64 == pytest.approx(want, rel=1e-9)
    assert est.log_se == pytest.approx(th.log_se / power, rel=1e-9)
    # the verdict's cell then sits on its prediction: ratio 1
    (cell,) = compare(law, data).cells
    assert cell.ratio == pytest.approx(1.0, rel=1e-9)


def test_a_one_cell_step_says_its_constant_is_the_cells_bracket():
    # a step on its grid: the likelihood is not identified and the cell's threshold is a bracket,
    # [200, 400]; the constant is that bracket over V = 64, and the notes do not also claim that
    # it was fitted by weighted least squares (the fallback the one cell supersedes)
    data = Dataset.from_rows([{"V": 64, "N": n, "successes": k, "trials": 10}
                              for n, k in ((100, 0), (200, 0), (400, 10), (800, 10))])
    (th,) = cell_thresholds(data)
    fit = fit_law(Law.parse("N >= C*V"), data)
    assert th.method == "bracket" and fit.constants_from == "cell"
    assert [x * 64 for x in fit.constants["C"].ci] == pytest.approx(list(th.ci), rel=1e-9)
    assert not any("weighted least squares" in n for n in fit.notes)
    assert any(n.startswith("one cell:") for n in fit.notes)


def test_two_cells_keep_the_joint_likelihoods_constants():
    data = planted_dataset(Law.parse("N >= C*V"), grid={"V": [64, 256]}, constants={"C": 30.0}, width=0.3,
                           trials=4, seed=11)
    fit = fit_law(Law.parse("N >= C*V"), data)
    assert fit.constants_from == "likelihood" and math.isfinite(fit.constants["C"].log_se)
