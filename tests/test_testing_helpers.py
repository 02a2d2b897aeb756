"""theorycheck.testing: the helpers pass on true claims and fail on false ones.

The project's own properties are written with the helpers, as a user would: every
catalogue bound moves in its declared directions on its regime; planted data come back
consistent with their law and refuted for a law off by one in an exponent. Each
assertion is also run on a deliberately false claim (pytest.raises(AssertionError)),
including the assertions of the example user file tests/examples/test_user_example.py.
"""

import importlib.util
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from theorycheck import catalogue
from theorycheck.law import Law, Regime
from theorycheck.planted import planted_dataset, success_probability
from theorycheck.testing import (
    assert_dominates,
    assert_monotone,
    assert_threshold_consistent,
    assert_threshold_refuted,
    measure_dataset,
    monomial_laws,
    planted_datasets,
    regime_points,
    simulated_trial,
)

EXAMPLE = Path(__file__).parent / "examples" / "test_user_example.py"
MEASURED = [b for b in catalogue.all_bounds() if b.kind != "assumption"]


def _example_module():
    spec = importlib.util.spec_from_file_location("user_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _off_by_one(law: Law, var: str) -> Law:
    """The same law with the exponent of ``var`` raised by 1 (a deliberately false claim)."""
    from theorycheck.symbols import symbol

    return Law.from_threshold(law.resource, law.threshold * symbol(var), constants=law.constants)


# --------------------------------------------------------------------- monotone
@pytest.mark.parametrize("bound", MEASURED, ids=[b.id for b in MEASURED])
def test_catalogue_bounds_move_in_their_declared_directions(bound):
    @settings(max_examples=15)
    @given(point=regime_points(bound))
    def check(point):
        assert_monotone(bound, bound.directions, point)

    check()


def test_assert_monotone_fails_for_a_wrong_direction():
    bound = catalogue.get("vural2026.gradient_noise")
    wrong = {**bound.directions, "L": "helps"}
    with pytest.raises(AssertionError, match="L declared to help"):
        assert_monotone(bound, wrong, {"N": 1e4, "d": 32.0, "L": 4.0, "V": 256.0})
    with pytest.raises(AssertionError, match="resource N is declared to hurt"):
        assert_monotone(bound, {**bound.directions, "N": "hurts"}, {"d": 32.0, "L": 4.0, "V": 256.0})


def test_assert_monotone_sees_a_non_monotone_law_only_where_it_turns():
    # f(d) = d + 100/d decreases for d < 10 and increases beyond: "d helps" fails at d = 30 only.
    law = Law.parse("N >= d + 100/d")
    assert_monotone(law, {"d": "helps"}, {"d": [1.0, 2.0, 5.0, 9.9]})
    with pytest.raises(AssertionError, match=r"d log\(threshold\)/d log d = \+0\.8"):
        assert_monotone(law, {"d": "helps"}, {"d": [2.0, 30.0]})


def test_assert_monotone_capacity_form_flips_the_signs():
    law = Law.parse("N >= C*V*log(V)").solve_for("V")  # V <= g(N): more N helps, V hurts
    assert law.sense == "<="
    assert_monotone(law, {"N": "helps", "V": "hurts"}, {"N": [100.0, 1e4, 1e6]})
    with pytest.raises(AssertionError):
        assert_monotone(law, {"N": "hurts"}, {"N": [100.0]})


def test_assert_monotone_reads_an_iterator_of_points_once():
    # the points may be any iterable of mappings (docstring); a generator is consumed only once
    law = Law.parse("N >= C*n*log(n)")
    assert_monotone(law, {"n": "hurts"}, ({"n": n} for n in (10.0, 100.0, 1000.0)))
    with pytest.raises(AssertionError, match="n declared to help"):
        assert_monotone(law, {"n": "helps"}, ({"n": n} for n in (10.0, 100.0)))


def test_assert_monotone_strict_rejects_a_flat_direction():
    law = Law.parse("N >= C*V*log(V)")
    assert_monotone(law, {"V": "hurts", "L": "hurts"}, {"V": [10.0, 100.0], "L": [4.0, 4.0]})  # weakly monotone
    # a declared name that neither the law nor the points know may be a typo: said, not silent
    with pytest.warns(UserWarning, match=r"directions name \['nn'\].*check the spelling"):
        assert_monotone(law, {"V": "hurts", "nn": "hurts"}, {"V": [10.0, 100.0]})
    with pytest.raises(AssertionError, match="strictly"):
        assert_monotone(law, {"V": "hurts", "L": "hurts"}, {"V": [10.0, 100.0], "L": [4.0, 4.0]}, strict=True)


def test_assert_monotone_fails_where_the_elasticity_is_nan():
    # guards: a NaN elasticity passing (at V = d sqrt(V - d) has infinite slope: the elasticity is nan)
    law = Law.parse("N >= C*(sqrt(V-d)+d)", assume="d <= V")
    with pytest.raises(AssertionError, match="nan at {V: 4, d: 4}"):
        assert_monotone(law, {"V": "hurts"}, {"V": [4.0, 8.0], "d": [4.0, 2.0]})
    assert_monotone(law, {"V": "hurts"}, {"V": [8.0], "d": [2.0]})  # finite elsewhere: passes


def test_assert_monotone_bad_input_is_a_value_error():
    law = Law.parse("N >= C*L*V/d")
    with pytest.raises(ValueError, match="points lack 'V'"):
        assert_monotone(law, {"d": "helps"}, {"d": 4.0, "L": 2.0})
    with pytest.raises(ValueError, match="give directions"):
        assert_monotone(law, None, {"d": 4.0, "L": 2.0, "V": 9.0})
    with pytest.raises(ValueError, match="'helps' or 'hurts'"):
        assert_monotone(law, {"d": "up"}, {"d": 4.0, "L": 2.0, "V": 9.0})
    with pytest.raises(ValueError, match="expected a Law"):
        assert_monotone(42, {"d": "helps"}, {"d": 4.0})


# --------------------------------------------------------------------- dominates
def test_gradient_noise_upper_bound_dominates_the_lower_bound():
    upper, lower = catalogue.get("vural2026.gradient_noise"), catalogue.get("vural2026.lower")
    rel = assert_dominates(upper, lower, lower.regime, constants={"C3": 34.0})
    assert rel.kind == "Theta"  # both ~ L V^2 log V / d^2 on the lower bound's regime


def test_assert_dominates_fails_numerically_with_too_small_a_constant():
    # Same order, but with C3 = 1 the upper bound's L V (V + d) log V / d^2 is below the
    # lower bound's L V (V^(2V/d^2) - 1) ~ 2 L V^2 log V / d^2 (factor ~2).
    upper, lower = catalogue.get("vural2026.gradient_noise"), catalogue.get("vural2026.lower")
    with pytest.raises(AssertionError, match="falls below"):
        assert_dominates(upper, lower, lower.regime, constants={"C3": 1.0})


def test_assert_dominates_fails_asymptotically_for_a_smaller_order():
    lower = catalogue.get("vural2026.lower")
    too_weak = Law.parse("N >= C*L*V*log(V)/d**2")  # one power of V short
    with pytest.raises(AssertionError, match="does not dominate"):
        assert_dominates(too_weak, lower)  # regime: the lower bound's


def test_assert_dominates_capacity_form_flips_the_asymptotic_test():
    # guards: the O-relation not flipped for <= (capacity) laws: the sufficient capacity is the smaller one
    rel = assert_dominates("V <= C*N", "V <= C*N**2", {"N": 1})
    assert rel.kind == "O"
    with pytest.raises(AssertionError, match="does not dominate"):
        assert_dominates("V <= C*N**2", "V <= C*N", {"N": 1})


def test_assert_dominates_capacity_form_flips_the_numerical_gap():
    # guards: the numerical gap not flipped for <= (capacity) laws (same order, constants decide)
    rel = assert_dominates("V <= C1*N", "V <= C2*N", {"N": 1}, constants={"C1": 1.0, "C2": 2.0})
    assert rel.kind == "Theta"
    with pytest.raises(AssertionError, match="falls below"):
        assert_dominates("V <= C1*N", "V <= C2*N", {"N": 1}, constants={"C1": 2.0, "C2": 1.0})


def test_assert_dominates_bad_input_is_a_value_error():
    with pytest.raises(ValueError, match="give a regime"):
        assert_dominates(Law.parse("N >= V**2"), Law.parse("N >= V"))
    with pytest.raises(ValueError, match="different resources"):
        assert_dominates(Law.parse("N >= V**2"), Law.parse("d >= V"), {"V": 1})
    with pytest.raises(ValueError, match="belong to neither"):
        assert_dominates(Law.parse("N >= V**2"), Law.parse("N >= V"), {"V": 1}, constants={"C9": 1.0})


# ------------------------------------------------------------- planted / refuted
GRID_2D = {"V": [16.0, 160.0, 1600.0], "d": [8.0, 80.0]}


@settings(max_examples=4)
@given(case=monomial_laws(variables=("d", "V"), max_abs_exponent=2).flatmap(
    lambda law: planted_datasets(law, GRID_2D, width=0.1, trials=16).map(lambda data: (law, data))))
def test_planted_random_law_is_consistent_and_off_by_one_is_refuted(case):
    # Planted at width 0.1 with 16 trials at 9 points per cell, exponents are measured to
    # about +-0.02 (see the planted controls of the comparator), far inside the default
    # tolerance 0.25 and far from an error of 1.
    law, data = case
    assert_threshold_consistent(law, data)
    assert_threshold_refuted(_off_by_one(law, "V"), data)
    with pytest.raises(AssertionError, match="refuted"):
        assert_threshold_consistent(_off_by_one(law, "d"), data)


def test_assert_threshold_refuted_fails_for_the_true_law():
    law = Law.parse("N >= C*V*d")
    data = planted_dataset(law, grid=GRID_2D, constants={"C": 2.0}, width=0.1, trials=16, seed=3)
    with pytest.raises(AssertionError, match="expected: refuted"):
        assert_threshold_refuted(law, data)


def test_too_narrow_a_sweep_is_inconclusive_unless_allowed():
    # V spans only a factor 1.2 (0.08 decades < the comparator's 0.5-decade minimum).
    law = Law.parse("N >= C*V")
    data = planted_dataset(law, grid={"V": [100.0, 120.0]}, width=0.1, trials=16, seed=1)
    with pytest.raises(AssertionError, match="inconclusive"):
        assert_threshold_consistent(law, data)
    verdict = assert_threshold_consistent(law, data, allow_inconclusive=True)
    assert verdict.status == "inconclusive"


def test_allow_inconclusive_still_fails_a_refuted_law():
    # guards: allow_inconclusive=True passing any verdict (here a V exponent off by one: refuted)
    data = planted_dataset(Law.parse("N >= C*V*d"), grid=GRID_2D, constants={"C": 2.0}, width=0.1,
                           trials=16, seed=3)
    with pytest.raises(AssertionError, match="refuted"):
        assert_threshold_consistent("N >= C*V**2*d", data, allow_inconclusive=True)


def test_assert_threshold_consistent_rejects_non_dataset():
    with pytest.raises(ValueError, match="Dataset"):
        assert_threshold_consistent("N >= C*V", [(100, 1, 2)])


def test_user_example_would_fail_for_a_false_claim():
    """The example file's assertions, run with a law whose L exponent is off by one."""
    ex = _example_module()
    wrong = _off_by_one(ex.MY_LAW, "L")  # N >= C*L**2*V**2*log(V)/d**2
    data = planted_dataset(ex.MY_LAW, grid=ex.GRID, constants={"C": 5.0}, width=0.1, trials=16, seed=0)
    assert_threshold_consistent(ex.MY_LAW, data)
    with pytest.raises(AssertionError, match="refuted"):
        assert_threshold_consistent(wrong, data)
    with pytest.raises(AssertionError, match="does not dominate"):
        assert_dominates(ex.NECESSARY, wrong, ex.MY_REGIME)
    with pytest.raises(AssertionError, match="V declared to hurt"):
        assert_monotone(Law.parse("N >= C*L*log(V)/(V*d**2)"), ex.DIRECTIONS, {"d": 8.0, "L": 2.0, "V": 64.0})


# --------------------------------------------------------------------- strategies
@settings(max_examples=40)
@given(point=regime_points(catalogue.get("vural2026.gradient_noise"), t_range=(10.0, 1e4)))
def test_regime_points_stay_on_the_cone(point):
    # x = t^(alpha_x + delta_x) with t in [10, 1e4], |delta_x| <= 1/16 and the ray
    # V = t, d = t^(3/4), L = t^(1/4); the constraints V >> d, L << V hold on every ray.
    for name, alpha in (("V", 1.0), ("d", 0.75), ("L", 0.25)):
        lo, hi = (alpha - 1 / 16) * math.log(10.0), (alpha + 1 / 16) * math.log(1e4)
        assert lo - 1e-9 <= math.log(point[name]) <= hi + 1e-9
    assert point["V"] > point["d"] > point["L"] > 1


@settings(max_examples=30)
@given(point=regime_points("N >= C*d**2/V", Regime({"V": 1, "d": 1}, "d >= V", ("d >= V",))))
def test_regime_points_respect_the_constraints(point):
    # The cone moves d's exponent by up to 1/16 either way; rays with d below V are rejected.
    assert point["d"] >= point["V"] * (1 - 1e-9)


def test_regime_points_fixed_values_and_bad_input():
    @settings(max_examples=5)
    @given(point=regime_points("d >= C*log(V)/zeta**2", {"V": 1, "zeta": 0}, fixed={"zeta": 0.5}))
    def check(point):
        assert point["zeta"] == 0.5

    check()
    with pytest.raises(ValueError, match="give a regime"):
        regime_points("N >= V")
    with pytest.raises(ValueError, match="gives no exponent"):
        regime_points("N >= V*d", {"V": 1})
    with pytest.raises(ValueError, match="t_range"):
        regime_points("N >= V", {"V": 1}, t_range=(0.5, 10.0))


@settings(max_examples=30)
@given(law=monomial_laws(variables=("d", "L", "V"), denominators=(1, 2, 4), max_abs_exponent=Fraction(3, 2)))
def test_monomial_laws_have_the_drawn_shape(law):
    exps = law.exponents()
    assert law.is_monomial and law.resource == "N" and law.constants == ("C",)
    assert all(abs(a) <= Fraction(3, 2) and a.denominator in (1, 2, 4) for a in exps.values())
    assert law.log_powers().get("V", 0) in (0, 1)
    assert sum(a != 0 for a in exps.values()) >= 1


def test_monomial_laws_bad_input():
    with pytest.raises(ValueError, match="resource"):
        monomial_laws(resource="V", variables=("V", "d"))
    with pytest.raises(ValueError, match="log_variable"):
        monomial_laws(variables=("d",), log_variable="V")
    with pytest.raises(ValueError, match="denominators"):
        monomial_laws(denominators=(0,))


def test_planted_datasets_validate_when_built():
    with pytest.raises(ValueError, match="width"):
        planted_datasets(Law.parse("N >= C*V"), {"V": [10, 100]}, width=0.0)
    with pytest.raises(ValueError):
        planted_datasets(Law.parse("N >= C*V*d"), {"V": [10, 100]})  # d missing from the grid


# --------------------------------------------------------------------- measured data
def test_measure_dataset_recovers_a_planted_trial_law():
    # A real threshold search per cell on a planted trial (threshold 10*V, width 0.1):
    # the comparator must find N* proportional to V.
    def trial(params, seed):  # the package's trial signature: one uniform draw from the seed
        p = success_probability(params["N"], 10 * params["V"], width=0.1)
        return bool(np.random.default_rng(seed).random() < p)

    data = measure_dataset(trial, [{"V": v} for v in (16, 64, 256, 1024)], start=lambda c: 3 * c["V"],
                           max_trials=120)
    assert_threshold_consistent("N >= C*V", data)
    assert_threshold_refuted("N >= C*V**2", data)


def test_measure_dataset_bad_input():
    with pytest.raises(ValueError, match="cells"):
        measure_dataset(lambda c, n, r: True, [], start=10)
    with pytest.raises(ValueError, match="same variables"):
        measure_dataset(lambda c, n, r: True, [{"V": 1}, {"d": 2}], start=10)
    with pytest.raises(ValueError, match="start"):
        measure_dataset(lambda c, n, r: True, [{"V": 1}], start=-1)
    with pytest.raises(ValueError, match="must not be a cell variable"):
        measure_dataset(lambda c, n, r: True, [{"N": 1}], start=10)


def test_simulated_trial_is_deterministic_and_order_free():
    trial = simulated_trial("one-step", entropy=5, embeddings="random")
    cell = {"V": 32, "d": 64, "L": 4}  # d^2 = 4096 > 10 V log V ~ 1100: storage is not the limit
    calls = [({**cell, "N": n}, np.random.SeedSequence(5, spawn_key=(n, r))) for n in (300, 3000, 30000)
             for r in range(3)]
    first = [trial(*c) for c in calls]
    second = [trial(*c) for c in reversed(calls)][::-1]
    assert first == second
    # one-step threshold ~ 6.2 V log V + 34 L V (V + d) log V / d^2 ~ 1000 here (docs/theory.md §5):
    assert first[-3:] == [True, True, True]  # N = 30000, 30x above it
    assert first[:3] == [False, False, False]  # N = 300 < 3 V log V: some token is never seen


@pytest.mark.parametrize("kwargs, match", [
    ({"algorithm": "nope"}, "unknown algorithm"),
    ({"algorithm": "limit", "colour": 1}, "unknown retrieval parameter"),
    ({"algorithm": "limit", "entropy": -1}, "entropy"),
])
def test_simulated_trial_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulated_trial(**kwargs)


def test_assertions_work_without_hypothesis():
    # hypothesis is a test dependency: the assertions must import without it, and the
    # strategies must say what to install.
    code = (
        "import sys; sys.modules['hypothesis'] = None\n"
        "import theorycheck.testing as t\n"
        "t.assert_monotone('N >= C*V', {'V': 'hurts'}, {'V': [10.0, 100.0]})\n"
        "try:\n    t.regime_points\nexcept ImportError as exc:\n    print('ImportError:', exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "needs hypothesis" in out.stdout and "pip install" in out.stdout
    with pytest.raises(AttributeError):
        import theorycheck.testing as testing

        testing.no_such_helper  # noqa: B018


def test_assert_monotone_refuses_points_where_the_threshold_is_not_positive():
    # n log n is 0 at n = 1 and negative below: its log elasticity (+inf, -0.44) says nothing
    law = Law.parse("N >= C*n*log(n)")
    with pytest.raises(ValueError, match=r"is 0 \(not positive\) at \{n: 1\}"):
        assert_monotone(law, {"n": "hurts"}, {"n": 1.0})
    with pytest.raises(ValueError, match=r"-0.3466 \(not positive\) at \{n: 0.5\}"):
        assert_monotone(law, {"n": "hurts"}, {"n": [2.0, 0.5]})


def test_regime_points_refuses_misspelt_or_contradictory_names_when_built():
    law = Law.parse("N >= C*L*V*(V + d)*log(V)/d**2")
    with pytest.raises(ValueError, match=r"fixed names \['l'\]"):
        regime_points(law, {"V": 1, "d": "3/4", "L": 0}, fixed={"l": 16})
    with pytest.raises(ValueError, match=r"fixed holds \['L'\], which the regime's ray grows"):
        regime_points(law, {"V": 1, "d": "3/4", "L": "1/4"}, fixed={"L": 16})
    with pytest.raises(ValueError, match=r"the regime's ray names \['q'\]"):
        regime_points(Law.parse("N >= C*n*log(n)"), {"n": 1, "q": 1})


def test_regime_points_meet_the_laws_own_assumptions():
    law = Law.parse("m >= C*k*log(n/k)", assume="k < n")
    # k = t grows faster than n = t^(1/2): k > n over the whole t_range, refused when built
    with pytest.raises(ValueError, match=r"breaks the law's assumption 'k < n' at both ends"):
        regime_points(law, {"n": "1/2", "k": 1})

    # k = t^(1/2 +- 1/16), n = t: every drawn point has k < n (a point breaking it is filtered)
    @given(regime_points(law, {"n": 1, "k": "1/2"}))
    @settings(max_examples=30, deadline=None)
    def check(point):
        assert point["k"] < point["n"]

    check()
