"""The declared direction of success (Dataset.increasing, a law's sense) is checked against the data."""

import dataclasses
import math

import numpy as np
import pytest

from theorycheck.compare import Dataset, compare
from theorycheck.compare.direction import CONTRADICTION_Z, trend_z
from theorycheck.compare.free_fit import fit_exponents
from theorycheck.law import Law
from theorycheck.planted import planted_dataset


@pytest.fixture(scope="module")
def rising():
    return planted_dataset(Law.parse("N >= C*n*log(n)"), grid={"n": [16, 64, 256, 1024]}, constants={"C": 2.0},
                           width=0.3, trials=20, seed=4)


def test_data_going_the_other_way_are_refused_with_the_fix(rising):
    assert trend_z(rising) > 10  # a clear rise: far beyond the refusal level
    falling = dataclasses.replace(rising, increasing=False)
    with pytest.raises(ValueError, match=r"the law 'N <= C\*n\*log\(n\)' says success falls with N, but in "
                                         r"the data it rises .*write the law with '>='"):
        compare(Law.parse("N <= C*n*log(n)"), falling)
    with pytest.raises(ValueError, match=r"success is declared to fall with N, but in the data it rises"):
        fit_exponents(falling)
    assert compare(Law.parse("N >= C*n*log(n)"), rising).status == "consistent"


def test_flat_data_are_never_refused_either_way():
    # success 0.5 whatever N: z is standard normal, so |z| > 4 has probability 6e-5 per
    # dataset; 20 seeded datasets of 6 cells x 8 points x 10 trials must all pass both ways
    for seed in range(20):
        rng = np.random.default_rng(seed)
        rows = [{"n": n, "N": float(N), "successes": int(rng.binomial(10, 0.5)), "trials": 10}
                for n in (10, 20, 40, 80, 160, 320) for N in np.geomspace(100, 10000, 8)]
        for increasing in (True, False):
            data = Dataset.from_rows(rows, resource="N", increasing=increasing)
            z = trend_z(data)
            assert math.isfinite(z) and abs(z) < CONTRADICTION_Z


def test_trend_z_weights_the_mean_log_resource_by_trials():
    # guards the trial-weighted centring of log N: an unweighted mean gives the same numerator but a larger
    # variance (z = 1.876 here). By hand, log N = 0, 1, 2 with n = 6, 2, 2 and k = 1, 1, 2: p = 0.4,
    # weighted mean 0.6, dx = (-0.6, 0.4, 1.4), numerator sum (k - n p) dx = 2.6,
    # variance p (1 - p) sum n dx^2 = 0.24 * 6.4 = 1.536.
    rows = [{"n": 1, "N": math.e**i, "successes": k, "trials": t} for i, (k, t) in enumerate(((1, 6), (1, 2), (2, 2)))]
    data = Dataset.from_rows(rows, resource="N")
    assert trend_z(data) == pytest.approx(2.6 / math.sqrt(1.536), rel=1e-12)  # rel: log(e**i) rounding only
