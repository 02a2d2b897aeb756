"""The collapse test of the verdict (theorycheck.compare.collapse): calibrated on exact laws.

Planted data from the exact law ``N >= 2*V*d`` on a 3x3 grid, 7 resource values per cell
placed around each threshold with a random per-cell offset (as adaptive searches place
them), and three transition shapes with the threshold exactly at ``q = 0.5``: the probit
the fits assume, and the asymmetric complementary log-log and log-log shapes that real
transitions resemble.
"""

import numpy as np
import pytest
from scipy.stats import binomtest, norm

from theorycheck.compare import Dataset, compare
from theorycheck.compare.collapse import free_cell_fits, quasi_collapse_test
from theorycheck.compare.law_fit import fit_law
from theorycheck.law import Law
from theorycheck.seeding import seed_sequence

LAW = Law.parse("N >= C*V*d")
WIDTH = 0.3
SHAPES = {  # P(success) at x = log r - log r*, each exactly 1/2 at x = 0
    "probit": lambda x: norm.cdf(x / WIDTH),
    "cloglog": lambda x: 1 - np.exp(-np.log(2) * np.exp(x / WIDTH)),
    "loglog": lambda x: np.exp(-np.log(2) * np.exp(-x / WIDTH)),
}


def planted(shape: str, trials: int, seed: int, exponent_v: float = 1.0) -> Dataset:
    rng = np.random.default_rng(seed_sequence(seed))
    rows = []
    for v in (16, 64, 256):
        for d in (8, 32, 128):
            rstar = 2.0 * v**exponent_v * d
            xs = WIDTH * (np.linspace(-2, 2, 7) + rng.uniform(-0.3, 0.3))
            k = rng.binomial(trials, SHAPES[shape](xs))
            rows += [{"V": v, "d": d, "N": float(rstar * np.exp(x)), "successes": int(kk), "trials": trials}
                     for x, kk in zip(xs, k)]
    return Dataset.from_rows(rows, resource="N", variables=["V", "d"], increasing=True)


def collapse_p(data: Dataset) -> float:
    fit = fit_law(LAW, data, width_trends=("V", "d"))
    return quasi_collapse_test(data, joint_llf=fit.llf, joint_params=fit.n_params).p_value


def test_collapse_accepts_the_exact_law_and_rejects_a_wrong_one():
    assert collapse_p(planted("probit", 64, seed=1)) > 0.05
    # thresholds growing like V^1.5 cannot collapse onto N ~ V*d (the law's constant
    # absorbs the level only): p is tiny
    assert collapse_p(planted("probit", 64, seed=1, exponent_v=1.5)) < 1e-6


def test_the_cells_own_fits_computed_once_give_the_same_test_for_every_law():
    # compare() fits the cells on their own once and tests the law and each neighbouring
    # form against that; the result must be the test computed from scratch, form by form
    data = planted("cloglog", 64, seed=3)
    free = free_cell_fits(data)
    for law in (LAW, Law.parse("N >= C*V**1.5*d")):
        fit = fit_law(law, data)
        assert quasi_collapse_test(data, joint_llf=fit.llf, joint_params=fit.n_params, free=free) == \
            quasi_collapse_test(data, joint_llf=fit.llf, joint_params=fit.n_params)


def test_verdict_uses_the_dispersion_aware_collapse():
    v = compare(LAW, planted("cloglog", 400, seed=2), alternatives={})
    assert "quasi-likelihood F" in v.collapse.description
    assert v.collapse.p_value > 0.01  # exact law, non-probit shape, many trials: not rejected


@pytest.mark.slow
@pytest.mark.parametrize(("shape", "trials"), [("probit", 64), ("cloglog", 400), ("loglog", 400)])
def test_false_rejection_rate_of_the_exact_law_is_at_most_about_5_percent(shape, trials):
    # n = 150 seeded repeats per shape. Tolerance: the observed rate must not exceed 0.09;
    # at a true rate of 5% the binomial sd of the rate is 1.8%, so 0.09 is ~2.2 sd above
    # 5% (a test calibrated at 5% fails this by chance < 2%). Measured on these seeds:
    # probit 4/150 = 0.027 [0.007, 0.067]; cloglog and loglog 0/150 [0, 0.024], where the
    # plain chi-square LR test rejected 23/150 = 0.153 [0.100, 0.221] each. Power is kept:
    # thresholds ~ V^1.05 instead of V reject in 60/60 repeats (cloglog, 400 trials).
    n = 150
    rejected = sum(collapse_p(planted(shape, trials, seed=10_000 + i)) < 0.05 for i in range(n))
    ci = binomtest(rejected, n).proportion_ci(0.95)
    print(f"{shape} trials={trials}: {rejected}/{n} rejected at 5%, rate {rejected / n:.3f} "
          f"[{ci.low:.3f}, {ci.high:.3f}]")
    assert rejected / n <= 0.09
