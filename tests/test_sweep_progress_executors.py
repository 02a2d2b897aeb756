"""Progress line (silent off a terminal) and executor construction (errors before work)."""

from __future__ import annotations

import io
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from theorycheck.sweep import (
    CellSpec,
    NullProgress,
    SweepState,
    TerminalProgress,
    format_progress,
    make_executor,
    run_sweep,
)
from theorycheck.planted import planted_trial
from theorycheck.sweep.progress import estimate_seconds_left, format_duration, most_seconds_left


import sweep_script as support  # noqa: E402  (tests/ is on sys.path: pytest's prepend import mode)


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def state(**overrides):
    values = dict(cells_total=10, cells_done=2, computed=150, reused=50, running=2,
                  trials_in_done_cells=100, elapsed=30.0)
    values.update(overrides)
    return SweepState(**values)


def test_time_left_extrapolates_trials_per_finished_cell():
    # 2 cells took 100 trials -> 500 expected in all, 200 done, 300 left;
    # 150 computed in 30 s -> 0.2 s each -> 60 s left
    assert estimate_seconds_left(state()) == pytest.approx(60.0)
    assert estimate_seconds_left(state(cells_done=0)) is None
    assert estimate_seconds_left(state(computed=0)) is None
    assert estimate_seconds_left(state(cells_done=10)) == 0.0


def test_format_progress_shows_cells_trials_and_time_left():
    line = format_progress(state())
    assert line == (
        "sweep: 2/10 cells done | 200 trials (150 computed, 50 reused, 2 running) | "
        "30s elapsed | ~1m00s left"
    )
    assert "time left unknown" in format_progress(state(cells_done=0))


def test_time_left_is_bounded_by_the_searches_trial_budgets():
    # no cell finished yet (a check's cells often all finish near the end): with a cap of
    # 500 trials, 300 are left at most, 0.2 s each at the rate seen -> at most 60 s
    assert most_seconds_left(state(cells_done=0, trials_cap=500)) == pytest.approx(60.0)
    assert format_progress(state(cells_done=0, trials_cap=500)).endswith("| at most ~1m00s left")
    assert most_seconds_left(state(trials_cap=None)) is None
    # the extrapolation (300 left) never exceeds the cap (here 100 left -> 20 s)
    assert format_progress(state(trials_cap=300)).endswith("| ~20s left")
    assert [format_duration(s) for s in (0, 4.6, 65, 7380)] == ["0s", "5s", "1m05s", "2h03m"]


def test_terminal_progress_draws_on_a_tty_only():
    tty = FakeTTY()
    bar = TerminalProgress(tty, min_interval=0.0)
    bar.update(state(cells_done=1))
    bar.update(state(cells_done=2))
    bar.close()
    out = tty.getvalue()
    assert out.startswith("\rsweep: 1/10 cells done") and "\rsweep: 2/10 cells done" in out
    assert out.endswith("left\n")

    quiet_tty = FakeTTY()
    bar = TerminalProgress(quiet_tty, quiet=True, min_interval=0.0)
    bar.update(state())
    bar.close()
    pipe = io.StringIO()  # isatty() is False: a log file or a pipe
    bar = TerminalProgress(pipe, min_interval=0.0)
    bar.update(state())
    bar.close()
    assert quiet_tty.getvalue() == "" and pipe.getvalue() == ""


def test_terminal_progress_pads_over_a_longer_previous_line():
    tty = FakeTTY()
    bar = TerminalProgress(tty, min_interval=0.0)
    bar.update(state(running=123456))
    bar.update(state(running=0))
    first, second = tty.getvalue().split("\r")[1:]
    assert len(second) == len(first)


def test_sweep_reports_progress_to_the_end():
    class Recorder(NullProgress):
        def __init__(self):
            self.states, self.closed = [], False

        def update(self, s):
            self.states.append(s)

        def close(self):
            self.closed = True

    recorder = Recorder()
    sweep = run_sweep(support.make_cells(), planted_trial, entropy=1, progress=recorder, code_version="t")
    last = recorder.states[-1]
    assert recorder.closed
    assert last.cells_done == last.cells_total == 3
    assert last.trials_done == last.trials_in_done_cells == sweep.computed
    assert [s.cells_done for s in recorder.states] == sorted(s.cells_done for s in recorder.states)


def test_default_and_single_worker_are_serial_and_workers_make_a_process_pool():
    with make_executor() as executor:
        assert executor is None
    with make_executor(workers=1) as executor:
        assert executor is None
    with make_executor(workers=2) as executor:
        assert isinstance(executor, ProcessPoolExecutor)
        assert executor.submit(pow, 3, 4).result() == 81


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"workers": 0}, "integer >= 1"),
        ({"workers": 2.5}, "integer >= 1"),
        ({"scheduler": "tcp://127.0.0.1:1", "dask_local": True}, "not both"),
        ({"scheduler": "tcp://127.0.0.1:1", "workers": 2}, "drop workers"),
        ({"scheduler": "  "}, "address"),
    ],
)
def test_bad_executor_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match), make_executor(**kwargs):
        pass


def test_missing_dask_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # makes `import distributed` fail
    with pytest.raises(ValueError, match=r"theorycheck\[dask\]"), make_executor(dask_local=True):
        pass


@pytest.mark.dask
def test_unreachable_scheduler_is_a_value_error_before_any_work():
    pytest.importorskip("distributed")
    with pytest.raises(ValueError, match=r"cannot reach dask scheduler 'tcp://127.0.0.1:1' within 1 s"):
        with make_executor(scheduler="tcp://127.0.0.1:1", connect_timeout=1.0):
            pytest.fail("the body must not run")  # pragma: no cover


@pytest.mark.dask
def test_scheduler_address_gives_a_working_executor():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        with make_executor(scheduler=cluster.scheduler_address, connect_timeout=5.0) as executor:
            sweep = run_sweep(one_cell(), planted_trial, entropy=5, executor=executor, code_version="t")
    serial = run_sweep(one_cell(), planted_trial, entropy=5, code_version="t")
    assert sweep.computed > 0
    assert sweep.trials == serial.trials and sweep.results == serial.results


def one_cell():
    return {"x": CellSpec({"threshold": 20, "width": 0.425}, "N", support.FakeBisection(8, 64))}


def test_throttled_updates_are_skipped_but_the_last_one_is_drawn_at_close():
    tty = FakeTTY()
    bar = TerminalProgress(tty, min_interval=3600.0)
    bar.update(state(cells_done=1))
    bar.update(state(cells_done=2))  # within min_interval: not drawn now
    assert "2/10" not in tty.getvalue()
    bar.close()
    assert tty.getvalue().count("\r") == 2 and "2/10 cells done" in tty.getvalue()


def test_eta_says_estimating_until_enough_is_known():
    # first cell done with 10 trials while 9 others ran 90: the extrapolation (100) is
    # already reached with work outstanding; it must not say "~0s left"
    early = state(cells_done=1, computed=100, reused=0, trials_in_done_cells=10, running=9)
    assert estimate_seconds_left(early) is None
    assert "estimating" in format_progress(early) and "~0s" not in format_progress(early)
    # 3 trials computed: too few for a rate
    assert estimate_seconds_left(state(computed=3, reused=197)) is None
    # less than 5% of the expected trials done (1 cell of 100 after 10 of its 10 trials,
    # expected 1000): still estimating
    assert estimate_seconds_left(state(cells_total=100, cells_done=1, computed=10, reused=0,
                                       trials_in_done_cells=10)) is None


def test_off_a_terminal_a_log_line_every_interval(monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr("theorycheck.sweep.progress.time.monotonic", lambda: clock[0])
    pipe = io.StringIO()
    bar = TerminalProgress(pipe, log_interval=10.0)
    bar.update(state(cells_done=1))
    clock[0] += 5
    bar.update(state(cells_done=2))
    assert pipe.getvalue() == ""  # nothing before the first interval
    clock[0] += 6
    bar.update(state(cells_done=3))
    clock[0] += 2
    bar.update(state(cells_done=4))  # within the interval: not logged now
    bar.close()  # but the last state is logged at the end
    lines = pipe.getvalue().splitlines()
    assert len(lines) == 2 and "\r" not in pipe.getvalue()
    assert lines[0].startswith("sweep: 3/10 cells done") and lines[1].startswith("sweep: 4/10 cells done")
    quiet = io.StringIO()
    bar = TerminalProgress(quiet, quiet=True, log_interval=0.0)
    bar.update(state())
    bar.close()
    assert quiet.getvalue() == ""


def _malloc_trim_threshold(_):
    import os

    return os.environ.get("MALLOC_TRIM_THRESHOLD_")


@pytest.mark.dask
def test_dask_local_workers_keep_glibcs_dynamic_mmap_threshold(monkeypatch):
    # dask's nanny would set MALLOC_TRIM_THRESHOLD_=65536, which costs an in-regime trial
    # ~40% more CPU (executors.LOCAL_WORKER_CONFIG); the workers must not inherit it.
    pytest.importorskip("distributed")
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    with make_executor(workers=1, dask_local=True) as executor:
        assert list(executor.map(_malloc_trim_threshold, [0])) == [None]


def _profiling(_):
    import dask.config

    return dask.config.get("distributed.worker.profile.enabled")


@pytest.mark.dask
def test_dask_local_workers_do_not_run_the_statistical_profiler():
    # the profiler samples the running trial's stack every 10 ms for dask's dashboard, which
    # theorycheck never shows: ~30-45 ms of CPU per in-regime trial (executors.LOCAL_WORKER_CONFIG)
    pytest.importorskip("distributed")
    with make_executor(workers=1, dask_local=True) as executor:
        assert list(executor.map(_profiling, [0])) == [False]


def test_progress_may_be_given_as_a_flag():
    # check(..., progress=True) used to fail after the sweep started ('bool' has no 'close')
    from theorycheck.sweep.progress import NullProgress, as_progress

    assert isinstance(as_progress(True), TerminalProgress) and isinstance(as_progress(False), NullProgress)
    with pytest.raises(ValueError, match="progress must be True, False, None or an object with update"):
        as_progress("yes")


def _worker_log_level(_):
    import logging

    return logging.getLogger("distributed.worker").getEffectiveLevel()


@pytest.mark.dask
def test_dask_local_workers_log_only_critical_errors():
    # under load a worker's heartbeat could meet the scheduler already closing after a
    # Ctrl-C and log "Failed to communicate with scheduler during heartbeat" (ERROR, with a
    # CommClosedError traceback) under the one-line "interrupted" (executors.LOCAL_WORKER_CONFIG)
    pytest.importorskip("distributed")
    import logging

    with make_executor(workers=1, dask_local=True) as executor:
        assert list(executor.map(_worker_log_level, [0])) == [logging.CRITICAL]
