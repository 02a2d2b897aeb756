"""Per-seed thresholds in the sweep engine and in check (theorycheck/threshold/per_seed_search.py).

The toy task ``exact_trial`` has a known critical value per seed: seed ``s`` succeeds iff
``n >= k * c_s`` with ``c_s = 1000 exp(0.4 Z_s)``, ``Z_s`` the seed's first normal draw.
So every per-seed answer can be checked exactly, not statistically.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import theorycheck
from theorycheck.check import check, plan
from theorycheck.cli.main import main
from theorycheck.seeding import SeedIdentity
from theorycheck.simulate import simulate
from theorycheck.sweep import CellSpec, make_executor, run_sweep
from theorycheck.tasks.retrieval import RetrievalParams
from theorycheck.tasks.retrieval_task import retrieval_trial
from theorycheck.threshold.first_success import first_success, verified_first_success
from theorycheck.threshold.per_seed import critical_value
from theorycheck.threshold.per_seed_search import LATTICE_KEY, CriticalTrial, PerSeedSearch, lattice


def critical_of(params, seed) -> float:
    """The exact critical ``n`` of ``exact_trial`` for this seed."""
    z = np.random.default_rng(seed).standard_normal()
    return params["k"] * 1000.0 * math.exp(0.4 * z)


def exact_trial(params, seed):
    return {"success": bool(params["n"] >= critical_of(params, seed))}


def flipping_trial(params, seed):
    """Like exact_trial, but every seed fails again on [1.05, 1.10) x its critical value."""
    c = critical_of(params, seed)
    return {"success": bool(params["n"] >= c and not 1.05 * c <= params["n"] < 1.10 * c)}


def _task(name, trial, nested=("n",)):
    return theorycheck.Task(name, trial, variables=[theorycheck.Variable("n", "integer", 1),
                                                    theorycheck.Variable("k", "integer", 1)],
                            resource="n", defaults={"k": 4, "n": 4000}, nested=nested)


def _sweep(trial, executor=None, **search):
    s = PerSeedSearch(start=3000, max_evaluations=200, **search)
    cells = {"k=3": CellSpec({"k": 3, **s.trial_params}, "n", s)}
    return s, run_sweep(cells, CriticalTrial(trial, "n"), entropy=5, executor=executor)


def test_lattice_is_geometric_and_inside_its_range():
    g = lattice(1000.0, 10.0, 5000.0, 8, True)
    assert g[0] >= 10 and g[-1] <= 5000 and 1000 in g
    ratios = g[1:] / g[:-1]
    assert np.all(ratios > 1) and np.allclose(ratios[g[:-1] > 500], 2 ** (1 / 8), rtol=2e-3)
    real = lattice(0.01, 0.001, 0.1, 4, False)
    assert np.allclose(np.log2(real / 0.01) * 4, np.round(np.log2(real / 0.01) * 4))


def test_each_seed_gets_the_smallest_lattice_value_at_or_above_its_critical_value():
    s, sweep = _sweep(exact_trial)
    grid = s.grid
    records = sweep.trials["k=3"]
    assert len(records) >= s.min_seeds
    for r in records:
        exact = critical_of({"k": 3}, r.seed.seed_sequence())
        expected = grid[np.searchsorted(grid, exact)]  # first lattice value >= exact
        assert r.result["critical"] == expected
        assert r.result["monotone"]
    th = sweep.results["k=3"]
    assert th.method == "quantile"
    values = sorted(r.result["critical"] for r in records)
    assert th.estimate == values[math.ceil(len(values) / 2) - 1]  # the median order statistic
    # the CI covers the rounding: its lower end is a lattice step below an order statistic
    assert th.ci[0] < th.estimate <= th.ci[1]
    assert th.trials == sum(len(r.result["evaluated"]) for r in records)


def test_serial_and_two_workers_give_the_same_seeds_and_values():
    _, serial = _sweep(exact_trial)
    with make_executor(2) as executor:
        _, parallel = _sweep(exact_trial, executor=executor)
    assert [r.result for r in serial.trials["k=3"]] == [r.result for r in parallel.trials["k=3"]]
    assert serial.results["k=3"] == parallel.results["k=3"]


def test_a_flip_back_near_the_crossing_is_found_and_reported():
    s, sweep = _sweep(flipping_trial)
    records = sweep.trials["k=3"]
    flagged = [r for r in records if not r.result["monotone"]]
    assert flagged, "the verification step must meet the failures just above the crossing"
    for r in flagged:  # then the value lies past the failing stretch
        assert r.result["critical"] >= 1.10 * critical_of({"k": 3}, r.seed.seed_sequence())
    assert f"{len(flagged)} of {len(records)} seeds succeed and then fail again" in " ".join(
        sweep.results["k=3"].warnings)


def test_verification_stays_within_its_horizon():
    calls = []

    def success(i):
        calls.append(i)
        return i >= 10

    assert verified_first_success(success, 100, first_success(success, 100, 12), horizon=8) == 10
    assert max(calls) <= 18


def test_check_with_per_seed_thresholds_on_a_nested_task():
    task = _task("toy-nested", exact_trial)
    result = check("n >= C*k", task=task, thresholds="per-seed")
    data = result.to_dict()
    assert data["design"]["thresholds"] == "per-seed"
    assert data["run"]["seeds"] >= 3 * 8 and data["run"]["trials"] > data["run"]["seeds"]
    for cell in data["cells"]:
        k = cell["params"]["k"]
        # the true median critical value is 1000 k (median of exp(0.4 Z) is 1); each cell's
        # order-statistic CI misses it with probability <= 0.05 (exact, distribution-free).
        # Seeded, so deterministic: with this entropy all three cover, and their estimates lie
        # within the CI half-width (~25% at ~30 seeds of log-sd 0.4) of it
        assert cell["threshold"]["method"] == "quantile"
        lo, hi = cell["threshold"]["ci"]
        assert lo <= 1000 * k <= hi, cell
        assert abs(math.log(cell["threshold"]["estimate"] / (1000 * k))) < 0.25, cell
    # the verdict is fitted to the quantiles, and its cells show them (not the fit's approximation)
    assert data["verdict"]["notes"][0].startswith("thresholds table: 3 cells")
    assert [c["method"] for c in data["verdict"]["cells"]] == ["quantile"] * 3
    assert [c["ci"] for c in data["verdict"]["cells"]] == [c["threshold"]["ci"] for c in data["cells"]]
    from theorycheck.report.markdown import reproduce_command

    assert "--thresholds per-seed" in reproduce_command(data)


def test_per_seed_on_data_that_are_not_nested_is_refused_before_any_work():
    task = _task("toy-flat", exact_trial, nested=())
    with pytest.raises(ValueError, match=r"per-seed thresholds need data nested in the resource 'n'"):
        plan("n >= C*k", task=task, thresholds="per-seed")
    with pytest.raises(ValueError, match=r"thresholds must be one of bernoulli, per-seed, got 'glm'"):
        check("n >= C*k", task=task, thresholds="glm")


def test_cli_names_a_bad_threshold_method(capsys, tmp_path):
    assert main(["check", "--thresholds", "quantiles", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--thresholds must be one of bernoulli, per-seed, got 'quantiles'" in err[0]
    assert not (tmp_path / "o").exists()


def test_critical_trial_on_retrieval_equals_the_exact_per_seed_path():
    """End to end: the task's own trial, called with one seed at growing N, sees nested data;
    on a seed that is monotone over the lattice the wrapper finds the value the exact
    prefix-sum path (theorycheck/threshold/per_seed.py) finds by scanning every point."""
    cell = {"V": 32, "d": 64, "L": 4, "zeta": 1.0}
    spec = {"start": 4000.0, "low": 1000.0, "high": 16000.0, "per_doubling": 4, "integer": True}
    grid = lattice(**spec)
    wrapper = CriticalTrial(retrieval_trial, "N")
    compared = 0
    for replicate in range(4):
        seed = SeedIdentity(7, (3, replicate)).seed_sequence()
        scan = critical_value(RetrievalParams(**cell, N=1), seed, grid, scan=True)
        if not scan.monotone:
            continue
        found = wrapper({**cell, "N": 4000, LATTICE_KEY: {**spec, "horizon": 4}}, seed)
        assert found["critical"] == (scan.critical if math.isfinite(scan.critical) else None)
        for n, ok in found["evaluated"]:  # each evaluation is the plain simulation at that N
            assert ok == simulate(RetrievalParams(**cell, N=n), "limit", seed=seed).success
        compared += 1
    assert compared >= 1


def test_the_cli_runs_per_seed_and_reports_the_method(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "toy_task.py").write_text(
        "import math\nimport numpy as np\nimport theorycheck\n\n"
        "def trial(params, seed):\n"
        "    z = np.random.default_rng(seed).standard_normal()\n"
        "    return params['n'] >= params['k'] * 1000.0 * math.exp(0.4 * z)\n\n"
        "TASK = theorycheck.Task('toy-cli', trial, variables={'n': 'integer', 'k': 'integer'},\n"
        "                        resource='n', defaults={'k': 4}, nested=('n',))\n")
    code = main(["check", "--law", "n >= C*k", "--task", "toy_task.py:TASK", "--thresholds", "per-seed",
                 "--out", "out", "--quiet", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code in (0, 1, 3)
    assert {c["threshold"]["method"] for c in data["cells"]} == {"quantile"}
    assert "--thresholds per-seed" in (tmp_path / "out" / "report.md").read_text()


def test_a_rerun_on_the_same_store_reuses_every_seed(tmp_path):
    from theorycheck.sweep import open_store

    task = _task("toy-resume", exact_trial)
    first = check("n >= C*k", task=task, thresholds="per-seed", store=open_store(tmp_path / "s"))
    again = check("n >= C*k", task=task, thresholds="per-seed", store=open_store(tmp_path / "s"))
    assert again.run["computed"] == 0 and again.run["reused"] == first.run["seeds"]
    assert [c["threshold"] for c in again.cells] == [c["threshold"] for c in first.cells]
