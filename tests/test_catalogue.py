"""The catalogue of bounds: completeness, consistency of declared directions, the
lower bound against the upper bound, and the Bound/get machinery."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from theorycheck import catalogue
from theorycheck.catalogue import Bound, Expected
from theorycheck.check.budget import BUDGETS
from theorycheck.check.target import resolve_target
from theorycheck.registry import task_names
from theorycheck.law import Law, Regime, relation

THEORY_IDS = [
    "vural2026.counts", "vural2026.regime", "vural2026.storage", "vural2026.trigger_overlap",
    "vural2026.gradient_noise", "vural2026.mean_bias", "vural2026.headline", "vural2026.lower",
    "vural2026.orthogonal", "vural2026.mlp_storage", "vural2026.mlp_gradient_noise", "vural2026.mlp_mean_bias",
    "nichani2025.linear_am", "nichani2025.mlp_am", "giorlandino2026.sharp", "hebbian", "cabannes2024",
    "kajitsuka2025",
]
ALL = catalogue.all_bounds()


def test_every_theory_entry_is_present_once():
    ids = [b.id for b in ALL]
    assert len(ids) == len(set(ids))
    assert set(THEORY_IDS) <= set(ids)


@pytest.mark.parametrize("bound", ALL, ids=lambda b: b.id)
def test_entry_is_well_formed_and_serialisable(bound: Bound):
    assert bound.citation.lstrip().startswith("@") and bound.citation.rstrip().endswith("}")
    assert bound.criterion and bound.description
    assert bound.task is None or bound.task in task_names()
    info = json.loads(json.dumps(bound.to_dict()))
    assert info["id"] == bound.id and set(info["exponents"]) == set(bound.law.variables)


@pytest.mark.parametrize("bound", ALL, ids=lambda b: b.id)
def test_declared_directions_match_elasticity_signs_along_the_regime_ray(bound: Bound):
    """helps/hurts must agree with the sign of d log(threshold)/d log x at points on the ray.

    For a '>=' law a variable with positive elasticity raises the bar (hurts); for a '<='
    law (a ceiling) it lifts the ceiling (helps). The resource helps a '>=' law.
    """
    law = bound.law
    t = np.geomspace(2.0**6, 2.0**14, 9)
    points = {k: v for k, v in bound.regime.points(t).items() if k in law.variables}
    constants = {c: bound.constants.get(c, 1.0) for c in law.constants}
    elasticities = law.elasticities(points, constants)
    sign = 1.0 if law.sense == ">=" else -1.0
    for var, values in elasticities.items():
        assert np.all(np.isfinite(values)), var
        expected = "hurts" if sign * values[0] > 0 else "helps"
        assert np.all(np.sign(sign * values) == (1 if expected == "hurts" else -1)), (var, values)
        assert bound.directions[var] == expected, (var, values)
    assert bound.directions[law.resource] == ("helps" if law.sense == ">=" else "hurts")


@pytest.mark.parametrize("bound", ALL, ids=lambda b: b.id)
def test_regime_exponents_are_the_limits_of_the_elasticities(bound: Bound):
    """Far out on the ray the local elasticity approaches the declared regime exponent.

    The gap is the polylog part k/log x plus the subdominant terms' share; at t = 2**60
    both are below 0.15 for every entry (log x >= 10 for growing x, subdominant terms are
    down by t**-1/4 at least).
    """
    law = bound.law
    t = 2.0**60
    points = {k: float(v) for k, v in bound.regime.points(t).items() if k in law.variables}
    constants = {c: bound.constants.get(c, 1.0) for c in law.constants}
    exps = bound.exponents()
    logs = bound.log_powers()
    for var, value in law.elasticities(points, constants).items():
        corrected = float(value) - (float(logs[var]) / np.log(points[var]) if points[var] > 1 else 0.0)
        assert abs(corrected - float(exps[var])) < 0.15, (var, value, exps[var])


def test_headline_and_gradient_noise_exponents():
    expected = {"d": -2, "L": 1, "V": 2}
    for name in ("vural2026.gradient_noise", "vural2026.headline", "vural2026.lower", "vural2026.one_step"):
        assert catalogue.get(name).exponents() == expected, name
    # the derived fit of the hard-attention three-step thresholds: the headline without its L
    assert catalogue.get("vural2026.three_step_hard").exponents() == {"d": -2, "V": 2}


def test_lower_and_gradient_noise_are_theta_in_the_lower_regime():
    lower, upper = catalogue.get("vural2026.lower"), catalogue.get("vural2026.gradient_noise")
    rel = relation(lower.law, upper.law, lower.regime)
    assert rel.kind == "Theta"  # same exponents and the same log V power
    assert rel.exponents_f == rel.exponents_g == {"d": -2, "L": 1, "V": 2}
    assert len(rel.rays) > 1  # the cone around the ray was tested too


def test_lower_bound_never_exceeds_upper_bound_in_the_regime():
    """Grid in N << L*V, V >> d, d^2 >> V log V, with slack factors 4 on each '>>'.

    Upper bound with its reference constant C3 = 34 (docs/theory.md §5); the lower bound has no
    free constant.
    """
    lower, upper = catalogue.get("vural2026.lower").law, catalogue.get("vural2026.gradient_noise").law
    V, d, L = np.meshgrid(2.0 ** np.arange(8, 25), 2.0 ** np.arange(3, 20), 2.0 ** np.arange(0, 12), indexing="ij")
    V, d, L = V.ravel(), d.ravel(), L.ravel()
    n_upper = upper.evaluate({"V": V, "d": d, "L": L}, {"C3": 34.0})
    inside = (V >= 4 * d) & (d**2 >= 4 * V * np.log(V)) & (4 * n_upper <= L * V) & (L <= V)
    assert inside.sum() > 200
    n_lower = lower.evaluate({"V": V[inside], "d": d[inside], "L": L[inside]})
    assert np.all(n_lower <= n_upper[inside])
    # Same order: ratio = (2/34) * (e^x - 1)/x * V/(V + d) with x = 2 V log V / d^2 <= 1/2
    # and V/(V + d) in [0.8, 1), so it lies in [2/34 * 0.8, 2/34 * (e^0.5 - 1)/0.5] = [0.047, 0.0763].
    ratio = n_lower / n_upper[inside]
    assert ratio.min() >= 2 / 34 * 0.8 * (1 - 1e-12)
    assert ratio.max() <= 2 / 34 * (np.exp(0.5) - 1) / 0.5 * (1 + 1e-12)


def test_get_unknown_id_suggests_close_matches():
    with pytest.raises(ValueError, match="unknown bound 'vural2026.gradient'; known ids: .*did you mean vural2026.gradient_noise"):
        catalogue.get("vural2026.gradient")
    with pytest.raises(ValueError, match="unknown bound 'zzz'; known ids"):
        catalogue.get("zzz")


def _bound(**changes) -> Bound:
    fields = dict(id="test.entry", law=Law.parse("N >= C*V"), kind="upper",
                  directions={"N": "helps", "V": "hurts"}, regime=Regime({"V": 1}), provenance="derived",
                  citation="@misc{x}", task="retrieval", criterion="accuracy", settings={}, constants={"C": 1.0},
                  description="test")
    fields.update(changes)
    return Bound(**fields)


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"id": "Bad Id"}, "bound id must look like"),
        ({"kind": "sufficient"}, "kind must be one of"),
        ({"provenance": "rumour"}, "provenance must be one of"),
        ({"directions": {"V": "hurts"}}, "directions must name exactly"),
        ({"directions": {"N": "helps", "V": "worse"}}, "'helps' or 'hurts'"),
        ({"constants": {"C9": 1.0}}, "not constants of"),
        ({"constants": {"C": -1.0}}, "positive number"),
        ({"regime": Regime({"d": 1})}, "no exponent for"),
        ({"law": "N >= V"}, "must be a theorycheck.law.Law"),
        ({"task": ""}, "task must be a task name or None"),
        ({"settings": {"algorithm": "limit", "base": {"V": 64}}}, r"settings hold \['base'\].*Bound\(base=...\)"),
        ({"settings": {"task": "retrieval"}}, r"settings hold \['task'\]"),
        ({"ranges": {"V": (64, 16)}}, r"ranges\['V'\] must be \(low, high\)"),
        ({"base": {"V": 0}}, "base must map variables to positive numbers"),
        ({"vary": "V"}, "vary must be a non-empty tuple"),
        ({"lower": "test.entry"}, "lower must be the id of another"),
        ({"expected": "consistent"}, "expected must be a theorycheck.catalogue.Expected"),
        ({"task": None, "expected": Expected("consistent", "quick")}, "needs a bound that check can run"),
    ],
)
def test_bound_validation(changes, fragment):
    with pytest.raises(ValueError, match=fragment):
        _bound(**changes)


def test_bound_is_frozen_and_exponents_are_fractions():
    b = _bound()
    with pytest.raises(AttributeError):
        b.kind = "lower"  # type: ignore[misc]
    with pytest.raises(TypeError):
        b.directions["V"] = "helps"  # type: ignore[index]
    assert b.exponents() == {"V": Fraction(1)}


def test_bounds_and_laws_pickle_for_process_and_dask_executors():
    import pickle

    for bound in ALL:
        point = {v: 100.0 for v in bound.law.variables}
        before = bound.law.evaluate(point)  # fills the caches of lambdified functions
        copy = pickle.loads(pickle.dumps(bound))
        assert copy.law == bound.law and copy.regime == bound.regime
        assert copy.to_dict() == bound.to_dict()
        np.testing.assert_array_equal(copy.law.evaluate(point), before)


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"task": "zipf-am"}, "unknown task 'zipf-am'.*or task=None"),
        ({"base": {"V": 64, "T": 3}}, r"base names \['T'\], not variables of task 'retrieval'"),
        ({"vary": ("V", "alpha")}, r"vary names \['alpha'\]"),
        ({"task": "linear-am", "law": Law.parse("N >= C*V")}, r"law names \['N'\], not variables of task 'linear-am'"),
        ({"lower": "vural2026.gradient_noise"}, "must be the id of a 'lower' bound"),
        ({"lower": "nope.nope"}, "must be the id of a 'lower' bound"),
        ({"task": None, "base": {"V": 64}}, "design hints .* need a task"),
    ],
)
def test_names_are_validated_against_tasks_and_catalogue(changes, fragment):
    """What the catalogue checks at load for every entry, and check for a hand-built Bound."""
    bound = _bound(**changes)
    with pytest.raises(ValueError, match=fragment):
        catalogue.validate(bound)
    if bound.task is not None:  # check validates a hand-built Bound the same way
        with pytest.raises(ValueError, match=fragment):
            resolve_target(bound)


def test_catalogue_load_rejects_a_bound_naming_an_unknown_task(monkeypatch):
    from theorycheck.bounds import folklore

    bad = [_bound(id="hebbian.copy", task="zipf-am")]
    monkeypatch.setattr(folklore, "BOUNDS", folklore.BOUNDS + bad)
    catalogue._registry.cache_clear()
    try:
        with pytest.raises(ValueError, match="hebbian.copy: unknown task 'zipf-am'"):
            catalogue.all_bounds()
    finally:
        monkeypatch.undo()
        catalogue._registry.cache_clear()
    assert "hebbian.copy" not in [b.id for b in catalogue.all_bounds()]


def test_a_bound_without_simulator_is_refused_by_check_in_one_line():
    no_sim = [b for b in ALL if b.task is None]
    assert {b.id for b in no_sim} == {"cabannes2024", "kajitsuka2025", "kajitsuka2025.seq2seq", "nichani2025.mlp_am"}
    for bound in no_sim:
        with pytest.raises(ValueError, match=f"{bound.id} has no simulator in this package") as info:
            resolve_target(bound.id)
        assert "\n" not in str(info.value) and f"theorycheck fit DATA.csv --law {bound.id}" in str(info.value)


def test_design_hints_and_lower_reach_the_target():
    target = resolve_target("vural2026.one_step")
    bound = catalogue.get("vural2026.one_step")
    assert target.task.name == bound.task == "retrieval"
    assert target.settings == dict(bound.settings) == {"algorithm": "one-step", "embeddings": "random"}
    assert target.base["d"] == bound.base["d"] == 181 and target.ranges == dict(bound.ranges)
    assert target.vary == bound.vary == ("d", "L", "V")
    assert target.lower_law == catalogue.get("vural2026.lower").law


@pytest.mark.parametrize("bound", [b for b in ALL if b.expected is not None], ids=lambda b: b.id)
def test_declared_expected_verdicts_name_a_known_budget(bound: Bound):
    assert bound.expected.budget in BUDGETS and bound.task is not None


@pytest.mark.parametrize("bound", [b for b in ALL if b.task is not None], ids=lambda b: b.id)
def test_settings_and_base_are_parameters_the_task_can_run(bound: Bound):
    """The task's own validation (no trial run) accepts the bound's settings at its base point:
    a misspelt setting or an unknown algorithm in the catalogue fails here, not mid-check."""
    from theorycheck.registry import get_task

    task = get_task(bound.task)
    typed = task.check_params({**task.defaults, **bound.settings, **bound.base})
    assert {k: typed[k] for k in bound.settings} == {k: v for k, v in bound.settings.items()}


def test_a_users_own_bounds_module_does_not_hide_the_catalogue(tmp_path):
    # The catalogue was a top-level package `bounds`: a bounds.py beside a user's notebook or
    # script (the working directory comes first on sys.path) shadowed it, and every catalogue
    # lookup failed with "module 'bounds' has no attribute '__path__'". It is theorycheck.bounds now.
    import subprocess
    import sys

    (tmp_path / "bounds.py").write_text("x = 1\n")
    code = "from theorycheck import catalogue; print(catalogue.get('vural2026.headline').id)"
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "vural2026.headline"
