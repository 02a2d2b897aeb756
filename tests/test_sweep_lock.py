"""One run per --out: a live holder refuses a second run; a dead one leaves no lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from theorycheck.sweep.lock import LOCK_NAME, OutLock, appending, hold_out_lock, lock_out

pytestmark = pytest.mark.skipif(not OutLock(".").enforced, reason="no fcntl: the lock is not enforced here")

HOLDER = textwrap.dedent("""
    import sys, time
    from theorycheck.sweep.lock import lock_out
    lock_out(sys.argv[1])
    print("held", flush=True)
    time.sleep(600)
""")


def _start_holder(directory):
    proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(directory)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_second_acquisition_fails_while_the_holder_lives_and_succeeds_after_sigkill(tmp_path):
    holder = _start_holder(tmp_path)
    try:
        with pytest.raises(ValueError) as info:
            OutLock(tmp_path).acquire()
        message = str(info.value)
        assert "\n" not in message
        assert message.startswith(f"output directory {str(tmp_path)!r} is in use by another theorycheck run")
        assert f"pid {holder.pid} " in message  # names the holder
        assert "choose another --out" in message
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        holder.stdout.close()
    # The kernel dropped the dead holder's flock; the lock file is still there (never deleted).
    assert (tmp_path / LOCK_NAME).exists()
    lock = OutLock(tmp_path).acquire()
    assert lock.held and f"pid {os.getpid()} " in (tmp_path / LOCK_NAME).read_text()
    lock.release()


def test_two_locks_in_one_process_conflict_and_release_is_idempotent(tmp_path):
    with hold_out_lock(tmp_path) as first:
        assert first.held
        with pytest.raises(ValueError, match="in use by another theorycheck run"):
            OutLock(tmp_path).acquire()
    assert not first.held
    first.release()  # no error
    with hold_out_lock(tmp_path):  # free again
        pass


def test_lock_out_is_held_until_exit_and_reentrant(tmp_path):
    lock = lock_out(tmp_path)
    assert lock_out(tmp_path) is lock  # the same process may ask again
    with pytest.raises(ValueError):
        OutLock(tmp_path).acquire()
    lock.release()
    assert lock_out(tmp_path) is not lock and lock_out(tmp_path).held  # a released lock is taken anew
    lock_out(tmp_path).release()


def test_unwritable_directory_is_a_one_line_value_error(tmp_path):
    missing = tmp_path / "does-not-exist"
    with pytest.raises(ValueError, match=r"cannot create the lock file .*choose a writable output directory"):
        OutLock(missing).acquire()


def test_a_holder_that_exits_normally_leaves_no_lock(tmp_path):
    script = "import sys; from theorycheck.sweep.lock import lock_out; lock_out(sys.argv[1])"
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True, timeout=60)
    start = time.monotonic()
    OutLock(tmp_path).acquire().release()
    assert time.monotonic() - start < 5


ARGS = ["check", "--law", "N >= C*L*V*log(V)", "--set", "algorithm=one-step", "--base", "V=48",
        "--base", "d=96", "--base", "L=4", "--vary", "L", "--seed", "11", "--quiet", "--json"]


def test_cli_refuses_an_out_that_another_run_holds(tmp_path, capsys):
    from theorycheck.cli.main import main

    out = tmp_path / "out"
    out.mkdir()
    with hold_out_lock(out):
        code = main([*ARGS, "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "is in use by another theorycheck run" in err[0]
    assert not (out / "trials.sqlite").exists()  # refused before any work


@pytest.mark.slow  # two real runs; ~15 s
def test_two_cli_runs_on_one_out_the_second_exits_2(tmp_path):
    out = tmp_path / "out"
    cmd = [sys.executable, "-c", "import sys; from theorycheck.cli.main import main; sys.exit(main())",
           *ARGS, "--out", str(out)]
    first = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        while not (out / LOCK_NAME).exists() or not (out / LOCK_NAME).read_text():
            assert first.poll() is None and time.time() < deadline, "the first run ended before it was seen"
            time.sleep(0.05)
        second = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        assert first.poll() is None, "the first run finished before the second asked: make it longer"
        assert second.returncode == 2
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and f"pid {first.pid} " in lines[0], second.stderr
    finally:
        first.kill()
        first.wait(timeout=30)
        first.stderr.close()


def test_two_runs_appending_to_a_new_rows_file_write_one_header(tmp_path):
    # two `simulate --rows` runs on one new file that finish together (the bench line
    # scripts' two workers did, 2026-12-02) used to both find it empty and both write the
    # header. Here one holds the append lock on the empty file, as a run about to write its
    # header does: the other run's append must wait (a second of it: without the lock it
    # writes in milliseconds), then add its row under the first one's header and no other.
    import threading

    from theorycheck.cli.rows_file import append_row

    path = tmp_path / "rows.csv"
    settings = {"V": 64, "N": 100}
    with appending(path) as handle:
        other = threading.Thread(target=append_row, args=(str(path), settings, 1, [7]))
        other.start()
        other.join(timeout=1.0)
        assert other.is_alive() and path.stat().st_size == 0
        handle.write("V,N,successes,trials,seeds\n64,100,0,1,6\n")
    other.join(timeout=10)
    assert not other.is_alive()
    assert path.read_text().splitlines() == ["V,N,successes,trials,seeds", "64,100,0,1,6", "64,100,1,1,7"]
