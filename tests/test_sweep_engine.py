"""Sweep engine: executor-independent results, replicate numbering, reuse, bad input."""

from __future__ import annotations

import math
import sys
import types
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from theorycheck.sweep import (
    CellSpec,
    MemoryStore,
    SqliteStore,
    TrialError,
    make_executor,
    run_sweep,
    trial_seed,
)
from theorycheck.planted import planted_trial, success_probability


import sweep_script as support  # noqa: E402  (tests/ is on sys.path: pytest's prepend import mode)


def sweep_with(executor, store=None):
    store = MemoryStore() if store is None else store
    sweep = run_sweep(
        support.make_cells(), planted_trial, entropy=support.ENTROPY, executor=executor,
        store=store, code_version=support.CODE_VERSION,
    )
    return sweep, [r.to_dict() for r in store.records()]


@pytest.fixture(scope="module")
def serial_run():
    return sweep_with(None)


def test_serial_sweep_follows_the_search_and_records_every_trial(serial_run):
    sweep, records = serial_run
    assert sweep.computed == len(records) > 0
    assert sweep.reused == 0
    for key, threshold in support.THRESHOLDS.items():
        cell_trials = sweep.trials[key]
        points = sweep.results[key]["points"]
        # the search was told exactly the trials the engine ran, no more, no less
        assert sum(n for _, _, n in points) == len(cell_trials)
        assert sum(s for _, s, _ in points) == sum(r.success for r in cell_trials)
        for record in cell_trials:
            assert record.params == {"threshold": threshold, "width": 0.425, "N": record.resource}
            assert isinstance(record.resource, int)  # 128.0 asked -> 128 passed to the trial
            expected_p = float(success_probability(record.resource, threshold, width=0.425))
            assert record.result["p_success"] == pytest.approx(expected_p, rel=1e-12)
            # the stored draw is the first uniform of the trial's own seed
            seed = trial_seed(support.ENTROPY, key, record.resource, record.replicate)
            assert record.seed == seed
            assert record.result["draw"] == np.random.default_rng(seed.seed_sequence()).random()
        # width 0.425: p(T/2) = Phi(-1.63) = 0.052 and p(2T) = 0.948, so a majority-vote bisection with 4
        # trials per point ends within a factor 2 of T unless 2+ of 4 draws go astray
        # at some step; for this fixed entropy it does (deterministic, not a tolerance).
        lo, hi = sweep.results[key]["bracket"]
        assert hi - lo == 1
        assert threshold / 2 <= hi <= 2 * threshold


def test_repeated_resource_continues_replicate_indices(serial_run):
    sweep, _ = serial_run
    for key in support.THRESHOLDS:
        by_resource: dict[int, list[int]] = {}
        for record in sweep.trials[key]:
            by_resource.setdefault(record.resource, []).append(record.replicate)
        for resource, replicates in by_resource.items():
            assert replicates == list(range(len(replicates))), (key, resource)
        # FakeBisection asks its final bracket again (confirm stage): 4 (or 0) + 3 trials
        lo, hi = sweep.results[key]["bracket"]
        assert len(by_resource[hi]) in (3, 7) and len(by_resource[lo]) in (3, 7)
        assert max(len(v) for v in by_resource.values()) == 7  # at least one end re-asked
    seeds = [r.seed.spawn_key for rs in sweep.trials.values() for r in rs]
    assert len(set(seeds)) == len(seeds)


def test_thread_pool_gives_identical_results(serial_run):
    with ThreadPoolExecutor(max_workers=3) as pool:
        sweep, records = sweep_with(pool)
    assert records == serial_run[1]
    assert sweep.results == serial_run[0].results


def test_process_pool_gives_identical_results(serial_run):
    with make_executor(workers=2) as pool:
        sweep, records = sweep_with(pool)
    assert records == serial_run[1]
    assert sweep.results == serial_run[0].results


@pytest.mark.dask
def test_dask_local_cluster_gives_identical_results(serial_run):
    pytest.importorskip("distributed")
    # one worker process keeps the cluster start cheap; completion-order independence is
    # covered by the thread and process pool tests above
    with make_executor(workers=1, dask_local=True) as executor:
        sweep, records = sweep_with(executor)
    assert records == serial_run[1]
    assert sweep.results == serial_run[0].results


def test_second_run_on_same_store_recomputes_nothing(tmp_path, serial_run):
    with SqliteStore(tmp_path) as store:
        first, _ = sweep_with(None, store)
    with SqliteStore(tmp_path) as store:
        second, records = sweep_with(None, store)
    assert first.computed == len(records) and second.computed == 0
    assert second.reused == len(records)
    assert records == serial_run[1]  # disk round trip changes nothing
    assert second.results == serial_run[0].results


def test_other_entropy_gives_other_draws(serial_run):
    sweep = run_sweep(support.make_cells(), planted_trial, entropy=support.ENTROPY + 1,
                      code_version=support.CODE_VERSION)
    def draws(result):
        return {(r.cell, r.resource, r.replicate): r.result["draw"]
                for records in result.trials.values() for r in records}

    first, ref = draws(sweep), draws(serial_run[0])
    common = set(first) & set(ref)
    assert common  # both start with the same end points
    assert all(first[k] != ref[k] for k in common)


def test_trial_seed_is_a_pure_function_of_the_trial_name():
    assert trial_seed(1, "c", 128, 3) == trial_seed(1, "c", 128.0, 3)
    assert trial_seed(1, "c", 128, 3) != trial_seed(1, "c", 128, 4)
    assert trial_seed(1, "c", 128, 3) != trial_seed(1, "d", 128, 3)
    assert trial_seed(1, "c", 128, 3) != trial_seed(1, "c", 128.5, 3)
    assert trial_seed(1, "c", 128, 3).spawn_key[-1] == 3
    with pytest.raises(ValueError, match="finite"):
        trial_seed(1, "c", math.inf, 0)
    with pytest.raises(ValueError, match="entropy"):
        trial_seed(-1, "c", 1, 0)


def _boom(params, seed):
    if params["N"] >= 64:
        raise ZeroDivisionError("planted failure")
    return planted_trial(params, seed)


def test_failing_trial_is_reported_with_its_cell_params_and_seed_and_done_trials_are_kept():
    store = MemoryStore()
    cells = {"x": CellSpec({"threshold": 40}, "N", support.FakeBisection(8, 512))}
    with pytest.raises(TrialError, match=r"cell 'x'.*'N': 512.*SeedSequence\(7.*planted failure"):
        run_sweep(cells, _boom, entropy=7, store=store, code_version="t")
    assert [r.resource for r in store.records()] == [8] * 4  # the trials that succeeded


def _no_success_key(params, seed):
    return {"accuracy": 1.0}


@pytest.mark.parametrize(
    ("cells", "match"),
    [
        ([("x", 1)], "mapping"),
        ({"": CellSpec({}, "N", support.FakeBisection(1, 4))}, "non-empty"),
        ({"x": CellSpec({"N": 3}, "N", support.FakeBisection(1, 4))}, "without the resource"),
        ({"x": CellSpec({"f": object()}, "N", support.FakeBisection(1, 4))}, "JSON"),
        ({"x": CellSpec({}, "N", object())}, "ask"),
    ],
)
def test_bad_cells_are_rejected_before_any_work(cells, match):
    with pytest.raises(ValueError, match=match):
        run_sweep(cells, planted_trial, entropy=1, code_version="t")


def test_bad_trial_output_and_bad_asks_are_reported():
    cells = {"x": CellSpec({"threshold": 4}, "N", support.FakeBisection(1, 8))}
    with pytest.raises(TrialError, match="'success': bool"):
        run_sweep(cells, _no_success_key, entropy=1, code_version="t")

    class ZeroAsk(support.FakeBisection):
        def ask(self):
            return [(4.0, 0)]

    cells = {"x": CellSpec({"threshold": 4}, "N", ZeroAsk(1, 8))}
    with pytest.raises(ValueError, match="integer >= 1"):
        run_sweep(cells, planted_trial, entropy=1, code_version="t")
    with pytest.raises(ValueError, match="entropy"):
        run_sweep({}, planted_trial, entropy=1.5, code_version="t")
    with pytest.raises(ValueError, match="Executor"):
        run_sweep({}, planted_trial, entropy=1, executor=object(), code_version="t")


def test_workers_that_cannot_import_the_trial_give_a_helpful_error(monkeypatch):
    # the trial lives in a module only this process has (like a function typed into an
    # interactive session): pickling by reference works here, unpickling kills the worker
    ghost = types.ModuleType("theorycheck_test_ghost_module")

    def ghost_trial(params, seed):  # pragma: no cover - never runs
        return {"success": True}

    ghost_trial.__module__ = ghost.__name__
    ghost_trial.__qualname__ = "ghost_trial"
    ghost.ghost_trial = ghost_trial
    monkeypatch.setitem(sys.modules, ghost.__name__, ghost)
    cells = {"x": CellSpec({"threshold": 40}, "N", support.FakeBisection(8, 512))}
    with make_executor(workers=2) as pool, pytest.raises(TrialError, match="could not import the trial"):
        run_sweep(cells, ghost_trial, entropy=1, executor=pool, code_version="t")
