"""Every way a command ends maps to its exit code; a crash is 4, never 0, 1 or 3."""

from __future__ import annotations

import io
import shlex
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from theorycheck.cli.errors import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    run_command,
)


def _raising(exc):
    def func(args):
        raise exc
    return func


def _run(func, args=None):
    err = io.StringIO()
    code = run_command(func, args, stderr=err)
    return code, err.getvalue()


def test_the_command_s_own_code_passes_through():
    for code in (0, 1, 3):
        assert _run(lambda args, c=code: c) == (code, "")


def test_bad_input_is_exit_2_with_one_line():
    code, err = _run(_raising(ValueError("--q must be in (0, 1), got 2.0")))
    assert (code, err) == (EXIT_BAD_INPUT, "theorycheck: error: --q must be in (0, 1), got 2.0\n")


def test_an_internal_error_is_exit_4_with_one_line_and_no_traceback(monkeypatch):
    monkeypatch.delenv("THEORYCHECK_DEBUG", raising=False)
    for exc in (RuntimeError("boom\nsecond line"), KeyError("x"), ZeroDivisionError("division by zero"),
                RecursionError("maximum recursion depth exceeded"), AttributeError(), MemoryError()):
        code, err = _run(_raising(exc))
        assert code == EXIT_INTERNAL not in (0, 1, 3)
        assert err.count("\n") == 1 and "Traceback" not in err, err
        assert err.startswith(f"theorycheck: internal error: {type(exc).__name__}")
        assert err.rstrip().endswith("(a bug: please report; rerun with THEORYCHECK_DEBUG=1 for the traceback)")
    assert "boom / second line" in _run(_raising(RuntimeError("boom\nsecond line")))[1]
    assert _run(lambda args: None)[0] == EXIT_INTERNAL  # a command that forgot its code is a bug too


def test_a_full_disk_is_exit_4_with_one_line_that_says_what_to_do():
    for exc in (sqlite3.OperationalError("database or disk is full"), OSError(28, "No space left on device")):
        code, err = _run(_raising(exc))
        assert code == EXIT_INTERNAL and err.count("\n") == 1
        assert err.startswith("theorycheck: error: the run failed writing or reading its files (")
        assert "free disk space or choose another --out" in err


def test_a_long_message_is_clipped():
    code, err = _run(_raising(RuntimeError("x" * 5000)))
    assert code == EXIT_INTERNAL and len(err) < 500


def test_debug_prints_the_traceback_first(monkeypatch):
    monkeypatch.setenv("THEORYCHECK_DEBUG", "1")
    code, err = _run(_raising(RuntimeError("boom")))
    assert code == EXIT_INTERNAL
    assert err.startswith("Traceback") and err.rstrip().splitlines()[-1].startswith("theorycheck: internal error")


def test_interrupt_and_system_exit():
    assert _run(_raising(KeyboardInterrupt())) == (
        EXIT_INTERRUPTED, "theorycheck: interrupted\n")
    with pytest.raises(SystemExit):
        _run(_raising(SystemExit(2)))


def test_interrupt_names_the_store_only_when_the_run_took_one(tmp_path):
    # the store clause and the resume hint are true only once the command holds its --out
    # (an interrupt while the law is prepared, or of simulate or fit, stored nothing)
    from theorycheck.sweep.lock import held, lock_out

    def command(args):
        lock_out(tmp_path)
        raise KeyboardInterrupt

    assert _run(command) == (
        EXIT_INTERRUPTED,
        f"theorycheck: interrupted (finished trials are kept in the store); resume with --out {shlex.quote(str(tmp_path.resolve()))}\n")
    assert held() == []  # released at the command's end


def test_sigterm_interrupts_a_command_as_ctrl_c_does():
    # timeout(1), kill and batch schedulers stop a run with SIGTERM: the command ends through
    # KeyboardInterrupt (stores what finished, releases its lock) with the interrupted exit code
    def command(args):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises during this sleep
        return 0

    before = signal.getsignal(signal.SIGTERM)
    assert _run(command) == (EXIT_INTERRUPTED, "theorycheck: interrupted\n")
    assert signal.getsignal(signal.SIGTERM) is before  # the previous handler is back


SCRIPT = textwrap.dedent("""
    import sqlite3, sys
    from theorycheck.cli.errors import run_command
    kind = sys.argv[1]
    def command(args):
        if kind == "bug":
            raise RuntimeError("injected")
        if kind == "disk":
            raise sqlite3.OperationalError("database or disk is full")
        if kind == "pipe":
            for _ in range(100000):
                print("verdict line " * 8)
        return 1
    sys.exit(run_command(command, None))
""")


@pytest.mark.parametrize("kind, code, first", [
    ("bug", EXIT_INTERNAL, "theorycheck: internal error: RuntimeError: injected"),
    ("disk", EXIT_INTERNAL, "theorycheck: error: the run failed writing or reading its files"),
    ("verdict", 1, None),
])
def test_in_a_subprocess_the_exit_code_is_the_documented_one(kind, code, first):
    env = {k: v for k, v in os.environ.items() if k != "THEORYCHECK_DEBUG"}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, kind], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == code
    if first is None:
        assert proc.stderr == ""
    else:
        assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(first), proc.stderr


def test_a_closed_stdout_exits_quietly_without_a_traceback():
    # The reader (like `head -1`) reads one line and closes the pipe.
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, "pipe"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=60) == EXIT_BROKEN_PIPE
    assert err == ""


def _main_uses_run_command() -> bool:
    import inspect

    from theorycheck.cli import main as cli_main

    return "run_command(" in inspect.getsource(cli_main.main)


CLI_WITH_A_BUG = textwrap.dedent("""
    import sys
    import theorycheck.cli.bounds_cmd as bounds_cmd
    def broken(args):
        raise RuntimeError("injected internal error")
    bounds_cmd.run = broken  # before main() builds its parser, so `bounds` runs it
    from theorycheck.cli.main import main
    sys.exit(main(["bounds", "list"]))
""")


@pytest.mark.skipif(not _main_uses_run_command(),
                    reason="cli/main.py does not call theorycheck.cli.errors.run_command yet (the lead's hook)")
def test_the_cli_exits_4_on_an_injected_internal_error():
    env = {k: v for k, v in os.environ.items() if k != "THEORYCHECK_DEBUG"}
    proc = subprocess.run([sys.executable, "-c", CLI_WITH_A_BUG], capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == EXIT_INTERNAL, proc.stderr
    assert proc.stderr == ("theorycheck: internal error: RuntimeError: injected internal error (a bug: please "
                           "report; rerun with THEORYCHECK_DEBUG=1 for the traceback)\n")


FULL_DISK = textwrap.dedent("""
    import resource, signal, sys
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
    resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))  # files of at most 64 KiB: a "full disk"
    from theorycheck.cli.errors import run_command
    from theorycheck.cli.main import build_parser
    args = build_parser().parse_args(["check", "--law", "N >= C*L*V*log(V)", "--set", "algorithm=one-step",
                                      "--base", "V=48", "--base", "d=96", "--base", "L=4", "--vary", "L",
                                      "--quiet", "--json", "--out", sys.argv[1]])
    sys.exit(run_command(args.func, args))
""")


@pytest.mark.slow  # ~8 s: designs a real check before its store fails
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE/SIGXFSZ as on Linux")
def test_a_real_check_whose_store_cannot_grow_exits_4_with_one_line(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "THEORYCHECK_DEBUG"}
    proc = subprocess.run([sys.executable, "-c", FULL_DISK, str(tmp_path / "out")], capture_output=True,
                          text=True, timeout=300, env=env)
    assert proc.returncode == EXIT_INTERNAL, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("theorycheck: error: the run failed writing or reading its files")
    assert proc.stdout == ""  # no verdict printed
