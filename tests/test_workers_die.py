"""Pool workers die with the process that made the pool, whatever kills it.

SIGKILL cannot be caught, so nothing in the main process can clean up: the workers must
notice by themselves (theorycheck.sweep.parent_watch.die_with_parent).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from theorycheck.sweep.parent_watch import alive, start_time

psutil = pytest.importorskip("psutil")  # installed with dask.distributed (the test extra)

# A small check whose sweep runs long enough to be killed midway (as in test_check_resume.py).
ARGS = ["check", "--law", "N >= C*L*V*log(V)", "--set", "algorithm=one-step", "--base", "V=48",
        "--base", "d=96", "--base", "L=4", "--vary", "L", "--seed", "11", "--quiet", "--json"]

#: How long orphaned workers get to notice (PARENT_POLL_SECONDS is 0.5 s; the rest is
#: slack for a loaded CI machine).
GRACE_SECONDS = 10.0


def _descendants(pid: int) -> list:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _running(procs: list) -> list:
    return [p for p in procs if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.parametrize("pool, at_least", [
    (["--workers", "2"], 3),  # fork server + 2 workers
    pytest.param(["--dask-local"], 2, marks=[pytest.mark.dask, pytest.mark.slow]),  # 2 worker processes (their nannies run inside the main process)
])
def test_sigkill_of_the_main_process_leaves_no_worker(tmp_path, pool, at_least):
    cmd = [sys.executable, "-c", "import sys; from theorycheck.cli.main import main; sys.exit(main())",
           *ARGS, *pool, "--out", str(tmp_path / "out")]
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    with open(tmp_path / "log", "w") as log:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log, env=env)
    everything: list = []
    try:
        # Wait until the pool is up: at least the two workers below the fork server.
        deadline = time.time() + 120
        workers = []
        while time.time() < deadline and proc.poll() is None:
            workers = [p for p in _descendants(proc.pid) if "resource_tracker" not in " ".join(p.cmdline())]
            if len(workers) >= at_least:
                break
            time.sleep(0.1)
        assert proc.poll() is None, "the check finished before the pool was seen; make it longer"
        assert len(workers) >= at_least, f"expected {at_least} pool processes, saw {workers}"
        time.sleep(1.0)  # the workers are computing trials now
        everything = _descendants(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)

        deadline = time.time() + GRACE_SECONDS
        while _running(everything) and time.time() < deadline:
            time.sleep(0.2)
        left = [(p.pid, " ".join(p.cmdline())[:80]) for p in _running(everything)]
        assert left == [], f"still running {GRACE_SECONDS:g} s after SIGKILL of the main process: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
        for p in _running(everything or _descendants(proc.pid)):  # orphans of a failed run
            p.kill()


def test_an_interrupt_does_not_wait_for_the_running_trials(tmp_path):
    # Ctrl-C or SIGTERM (the CLI turns it into the same KeyboardInterrupt) while both workers
    # run a long trial: the pool's workers are terminated, not waited for (until 2026-11-28
    # the pool's shutdown waited, and a check whose trials took minutes ran on for minutes).
    # The task sleeps 600 s; the 60 s below only tell "stops" from "waits for the trials".
    code = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler)\n"
            "from theorycheck.sweep.executors import make_executor\n"
            "from sweep_script import mark_then_sleep\n"
            "with make_executor(workers=2) as pool:\n"
            f"    futures = [pool.submit(mark_then_sleep, {str(tmp_path)!r} + f'/started{{i}}', 600) for i in range(2)]\n"
            "    [f.result() for f in futures]\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.path.dirname(__file__), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    marks = [tmp_path / "started0", tmp_path / "started1"]
    workers: list = []
    try:
        deadline = time.time() + 120
        while not all(m.exists() and m.read_text() for m in marks) and time.time() < deadline:
            time.sleep(0.05)
        assert all(m.exists() for m in marks), "the workers did not start their tasks"
        workers = [psutil.Process(int(m.read_text())) for m in marks]
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert "KeyboardInterrupt" in err.decode()
        deadline = time.time() + GRACE_SECONDS
        while _running(workers) and time.time() < deadline:
            time.sleep(0.2)
        assert _running(workers) == []
    finally:
        if proc.poll() is None:
            proc.kill()
        for p in _running(workers):
            p.kill()


def test_alive_tells_a_live_process_from_a_dead_or_zombie_one():
    me = os.getpid()
    assert alive(me, start_time(me))
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    while psutil.Process(child.pid).status() != psutil.STATUS_ZOMBIE:  # exited, not yet reaped
        time.sleep(0.01)
    assert not alive(child.pid, start_time(child.pid) or "0")  # a zombie is dead
    child.wait()
    assert not alive(child.pid, None)  # reaped: gone
    if start_time(me) is not None:  # Linux: a pid reused by another process is not the parent
        assert not alive(me, "not-the-start-time")
