"""An example of a user's own test file, written only against ``theorycheck.testing`` and
``theorycheck.law`` -- copy it next to your code and replace the law with yours.

The claim under test: "exact recall needs N >= C * L * V**2 * log(V) / d**2" in the
regime V >> d, L << V (the multiplicative law of Vural et al. 2026 for V >> d).
Each test states one property of the claim; each could fail (see
tests/test_testing_helpers.py, which runs the same assertions with a wrong law).
"""

from hypothesis import given, settings

from theorycheck.law import Law, Regime
from theorycheck.testing import (
    assert_dominates,
    assert_monotone,
    assert_threshold_consistent,
    planted_datasets,
    regime_points,
)

MY_LAW = Law.parse("N >= C*L*V**2*log(V)/d**2")
MY_REGIME = Regime({"V": 1, "d": "3/4", "L": "1/4"}, "V >> d, L << V", ("V >> d", "L << V"))
DIRECTIONS = {"N": "helps", "d": "helps", "L": "hurts", "V": "hurts"}
# Two values per variable, each spanning a decade or more, so that every exponent is tested.
GRID = {"V": [64, 1024], "d": [8, 64], "L": [2, 32]}
# A weaker necessary condition: the law without its log factor.
NECESSARY = Law.parse("N >= L*V**2/d**2")


@settings(max_examples=25)
@given(point=regime_points(MY_LAW, MY_REGIME))
def test_law_moves_in_the_declared_directions(point):
    assert_monotone(MY_LAW, DIRECTIONS, point)


@settings(max_examples=4)
@given(data=planted_datasets(MY_LAW, GRID, constants={"C": 5.0}, width=0.1, trials=16))
def test_planted_thresholds_are_consistent_with_the_law(data):
    # Data drawn from the law itself (C = 5, probit width 0.1 in log N) must come back
    # "consistent" under the comparator's default exponent tolerance of 0.25.
    assert_threshold_consistent(MY_LAW, data)


def test_law_dominates_the_necessary_condition():
    assert_dominates(MY_LAW, NECESSARY, MY_REGIME, constants={"C": 1.0})
