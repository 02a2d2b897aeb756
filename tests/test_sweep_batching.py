"""Batched submission (sweep/batching.py): several trials per future, results unchanged.

The grouping depends on measured times; the tests force it either way (``batch_seconds``
large: as many trials per future as the planner allows; 0: one per future) and check
that the records, the searches' results and the store are those of the serial run.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor

import pytest

from theorycheck.planted import planted_trial
from theorycheck.sweep import CellSpec, MemoryStore, SqliteStore, TrialError, make_executor, run_sweep
from theorycheck.sweep.batching import BatchPlanner
from theorycheck.sweep.trial import execute_batch

import sweep_script as support  # noqa: E402  (tests/ is on sys.path: pytest's prepend import mode)

TRIAL_ID = "batching-test:planted"


def sweep_with(executor, store=None, trial=planted_trial, **kw):
    store = MemoryStore() if store is None else store
    sweep = run_sweep(support.make_cells(), trial, entropy=support.ENTROPY, executor=executor,
                      store=store, code_version=support.CODE_VERSION, trial_id=TRIAL_ID, **kw)
    return sweep, [r.to_dict() for r in store.records()]


@pytest.fixture(scope="module")
def serial_run():
    return sweep_with(None)


def test_batched_process_pool_equals_serial_record_for_record(serial_run):
    with make_executor(workers=2) as pool:
        sweep, records = sweep_with(pool, batch_seconds=10.0)
    assert records == serial_run[1]
    assert sweep.results == serial_run[0].results
    assert {k: [r.to_dict() for r in v] for k, v in sweep.trials.items()} == \
        {k: [r.to_dict() for r in v] for k, v in serial_run[0].trials.items()}
    # batched: fewer futures than trials (a round's trials share futures once timed)
    assert sweep.computed == len(records)
    assert 0 < sweep.futures < sweep.computed
    assert serial_run[0].futures == 0


def test_unbatched_sends_one_future_per_trial(serial_run):
    with ThreadPoolExecutor(2) as pool:
        sweep, records = sweep_with(pool, batch_seconds=0)
    assert records == serial_run[1]
    assert sweep.futures == sweep.computed == len(records)


def test_batched_run_resumes_from_its_store(tmp_path, serial_run):
    with ThreadPoolExecutor(2) as pool, SqliteStore(tmp_path) as store:
        first, _ = sweep_with(pool, store, batch_seconds=10.0)
    with ThreadPoolExecutor(2) as pool, SqliteStore(tmp_path) as store:
        second, records = sweep_with(pool, store, batch_seconds=10.0)
    assert second.computed == second.futures == 0 and second.reused == first.computed
    assert records == serial_run[1] and second.results == serial_run[0].results


_FAIL = {"on": False}


def _flaky(params, seed):
    """planted_trial, but failing in cell c at its first midpoint N = 260 while ``_FAIL['on']`` (threads only)."""
    if _FAIL["on"] and params["threshold"] == 150 and params["N"] == 260:  # cell c's first midpoint
        raise ZeroDivisionError("planted failure")
    return planted_trial(params, seed)


def test_interrupted_batched_sweep_keeps_finished_trials_and_resumes_identically(tmp_path):
    reference = sweep_with(None, trial=_flaky)
    _FAIL["on"] = True
    try:
        with ThreadPoolExecutor(2) as pool, SqliteStore(tmp_path) as store, \
                pytest.raises(TrialError, match=r"'threshold': 150.*'N': 260.*planted failure"):
            sweep_with(pool, store, trial=_flaky, batch_seconds=10.0)
    finally:
        _FAIL["on"] = False
    with SqliteStore(tmp_path) as store:
        store.bind(reference[0].identity)
        kept = [r.to_dict() for r in store.records()]
    # what was kept are trials of the reference run, exactly (nothing partial or foreign)
    assert kept and all(r in reference[1] for r in kept)
    with ThreadPoolExecutor(2) as pool, SqliteStore(tmp_path) as store:
        resumed, records = sweep_with(pool, store, trial=_flaky, batch_seconds=10.0)
    assert resumed.reused == len(kept) and resumed.computed == len(reference[1]) - len(kept)
    assert records == reference[1] and resumed.results == reference[0].results


def test_failing_trial_inside_a_batch_keeps_the_trials_before_it():
    # one worker: the first trial goes alone (a probe), then the others share one future
    # [8, 8, 8, 512, ...]; the first 512 fails, the trials at 8 before it are stored
    store = MemoryStore()
    cells = {"x": CellSpec({"threshold": 40}, "N", support.FakeBisection(8, 512))}
    with ThreadPoolExecutor(1) as pool, \
            pytest.raises(TrialError, match=r"cell 'x'.*'N': 512.*SeedSequence\(7.*planted failure"):
        run_sweep(cells, _boom, entropy=7, executor=pool, store=store, code_version="t", batch_seconds=10.0)
    assert [r.resource for r in store.records()] == [8] * 4


def _boom(params, seed):
    if params["N"] >= 64:
        raise ZeroDivisionError("planted failure")
    return planted_trial(params, seed)


def test_execute_batch_returns_done_trials_and_the_failure():
    items = [({"threshold": 40, "N": n}, 7, (i,)) for i, n in enumerate((8, 16, 64, 8))]
    done, error, cpu = execute_batch(_boom, items)
    assert len(done) == 2 and isinstance(error, ZeroDivisionError) and cpu >= 0
    assert all(isinstance(result["success"], bool) for result, _ in done)
    done, error, _ = execute_batch(planted_trial, items)
    assert len(done) == 4 and error is None


def _planner(workers=2, **kw):
    planner = BatchPlanner(ThreadPoolExecutor(workers), **kw)
    planner.executor.shutdown()
    return planner


def test_planner_probes_alone_then_fills_batches_to_the_target():
    planner = _planner(target_seconds=0.1)
    waiting = deque(("a", i) for i in range(100))
    key = lambda item: item[0]  # noqa: E731
    # nothing measured: one trial per future, at most depth * workers = 4 in flight
    assert planner.plan(waiting, 0, key) == [[("a", 0)], [("a", 1)], [("a", 2)], [("a", 3)]]
    assert planner.plan(waiting, 4, key) == []
    planner.observe("a", 0.01)  # 10 ms a trial -> 10 trials per 0.1 s future
    batches = planner.plan(waiting, 3, key)
    assert [len(b) for b in batches] == [10] and batches[0][0] == ("a", 4)
    # a short round is spread over the free slots: 6 waiting, 4 slots -> 2, 2, 2
    assert [len(b) for b in planner.plan(deque(("a", i) for i in range(6)), 0, key)] == [2, 2, 2]
    # an unmeasured key costs the mean of all trials; a costlier key makes smaller batches
    planner.observe("b", 0.05)
    assert planner.estimate("c") == pytest.approx(0.03)
    assert [len(b) for b in planner.plan(deque(("b", i) for i in range(40)), 3, key)] == [2]


def test_planner_bounds_and_bad_target():
    planner = _planner(target_seconds=100.0, max_trials=7)
    planner.observe("a", 0.001)
    assert [len(b) for b in planner.plan(deque(("a", i) for i in range(100)), 0, lambda i: i[0])] == [7] * 4
    for bad in (-1, float("nan"), float("inf"), "0.1"):
        with pytest.raises(ValueError, match="batch_seconds"):
            BatchPlanner(None, target_seconds=bad)
