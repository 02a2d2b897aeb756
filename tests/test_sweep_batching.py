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
    assert all(isinstance(result["success"], bool) and seconds >= 0 and cpu >= 0
               for result, seconds, cpu in done)
    done, error, _ = execute_batch(planted_trial, items)
    assert len(done) == 4 and error is None


def test_trial_cost_is_cpu_time_with_a_wall_floor():
    planner = _planner()
    planner.observe("busy", 0.030, 0.007)  # a 7 ms CPU trial that took 30 ms on a loaded core
    assert planner.estimate("busy") == pytest.approx(0.0075)  # max(0.007, 0.030 / 4)
    planner.observe("waits", 1.0, 0.001)  # a trial waiting on a GPU or I/O
    assert planner.estimate("waits") == pytest.approx(0.25)
    planner.observe("wall-only", 0.02)
    assert planner.estimate("wall-only") == pytest.approx(0.02)


def _planner(workers=2, **kw):
    planner = BatchPlanner(ThreadPoolExecutor(workers), **kw)
    planner.executor.shutdown()
    return planner


def _groups(name, *sizes):
    """Waiting groups (one cell's round each) of items (name, i)."""
    count = iter(range(10**6))
    return deque([(name, next(count)) for _ in range(size)] for size in sizes)


def _sizes(batches):
    return [len(b) for b in batches]


def _key(item):
    return item[0]


def test_planner_probes_alone_then_fills_batches_to_the_target():
    planner = _planner(target_seconds=0.1)
    waiting = _groups("a", 100)
    # nothing measured: one trial per future, at most depth * workers = 4 in flight
    assert planner.plan(waiting, 0, _key) == [[("a", 0)], [("a", 1)], [("a", 2)], [("a", 3)]]
    assert planner.plan(waiting, 4, _key) == []
    planner.observe("a", 0.01)  # 10 ms a trial -> 10 trials per 0.1 s future
    batches = planner.plan(waiting, 3, _key)
    assert _sizes(batches) == [10] and batches[0][0] == ("a", 4)
    assert len(waiting) == 1 and len(waiting[0]) == 86  # the rest of the cut group waits
    # an unmeasured key costs the mean of all trials; a costlier key makes smaller batches
    planner.observe("b", 0.05)
    assert planner.estimate("c") == pytest.approx(0.03)
    assert _sizes(planner.plan(_groups("b", 40), 3, _key)) == [2]


def test_planner_keeps_rounds_whole_and_spreads_short_work_over_free_slots():
    planner = _planner(target_seconds=0.1)
    planner.observe("a", 0.01)
    # 6 rounds of 2 trials (0.12 s in all), 4 free slots: budget 0.03 s a future,
    # so whole rounds, one per future, and two rounds wait for a free slot
    waiting = _groups("a", 2, 2, 2, 2, 2, 2)
    assert [[i for _, i in b] for b in planner.plan(waiting, 0, _key)] == [[0, 1], [2, 3], [4, 5], [6, 7]]
    assert list(waiting) == [[("a", 8), ("a", 9)], [("a", 10), ("a", 11)]]
    # with work to spare, several rounds share a future up to the target
    assert _sizes(planner.plan(_groups("a", *[4] * 30), 3, _key)) == [8]
    # a single round with the workers free is cut so that both workers get part of it,
    # but not below MIN_SECONDS = 0.02 s of work a future
    assert _sizes(planner.plan(_groups("a", 4), 0, _key)) == [2, 2]
    # microsecond trials: the whole short round in one future
    planner.observe("tiny", 1e-6)
    assert _sizes(planner.plan(_groups("tiny", 4, 4, 4), 0, _key)) == [12]


def test_planner_bounds_and_bad_target():
    planner = _planner(target_seconds=100.0, max_trials=7)
    planner.observe("a", 0.001)
    assert _sizes(planner.plan(_groups("a", 100), 0, _key)) == [7] * 4
    waiting = _groups("a", 5, 5)  # one free slot: 5 + 5 > 7, so one round now, one later
    assert _sizes(planner.plan(waiting, 3, _key)) == [5] and _sizes(planner.plan(waiting, 3, _key)) == [5]
    unbatched = _planner(target_seconds=0)
    assert _sizes(unbatched.plan(_groups("a", 3, 2), 10**6, _key)) == [1] * 5
    for bad in (-1, float("nan"), float("inf"), "0.1"):
        with pytest.raises(ValueError, match="batch_seconds"):
            BatchPlanner(None, target_seconds=bad)


def test_executor_workers_counts_pool_workers_and_dask_threads():
    from theorycheck.sweep.batching import executor_workers

    class FakeClient:
        def nthreads(self):
            return {"tcp://a": 1, "tcp://b": 4}

    class FakeDaskExecutor(ThreadPoolExecutor):  # a ClientExecutor keeps its client in _client
        _client = FakeClient()

    assert executor_workers(None) == 1
    with ThreadPoolExecutor(3) as pool:
        assert executor_workers(pool) == 3
    with FakeDaskExecutor(1) as fake:
        assert executor_workers(fake) == 5
