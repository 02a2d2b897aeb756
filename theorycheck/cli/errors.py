"""How a command's ending becomes an exit code: a crash must never look like a verdict.

``theorycheck`` exit codes:

====  =======================================================================
0     consistent (``check``, ``fit``) / success (other commands)
1     refuted
2     bad input: a ``ValueError`` raised before any work, one line on stderr
3     inconclusive
4     the run failed: an internal error (a bug), an error in a user task's own trial,
      or the machine refused (full disk, store not writable); one line on stderr, no verdict
130   interrupted (Ctrl-C, or SIGTERM: ``timeout``, ``kill``, a batch scheduler's
      time limit); finished trials are kept in the store, and the line says where
      when the run had taken its ``--out`` (else it is ``theorycheck: interrupted``)
141   stdout closed early (``theorycheck ... | head``), as a process killed by
      SIGPIPE would report; nothing more is printed
====  =======================================================================

Before, an unexpected exception escaped as a traceback with Python's exit code 1 --
the code of "refuted" -- so a crash could be read as a verdict. :func:`run_command`
wraps a sub-command and maps every way it can end to the table above. The internal
error line is ``theorycheck: internal error: <Type>: <message> (a bug: please report;
rerun with THEORYCHECK_DEBUG=1 for the traceback)``; with ``THEORYCHECK_DEBUG=1`` the
traceback is printed first (the exit code stays 4). Failures of the machine rather than
the code (``sqlite3.OperationalError`` such as "database or disk is full", ``OSError``
such as ENOSPC, a GPU out of memory after waiting for it,
:mod:`theorycheck.algorithms.device_memory`) get a line saying what to do instead of "a
bug", and so does an error
raised by a trial defined outside theorycheck (a user's task file): ``theorycheck: error in
the task's own trial: <cell, params, seed, error>; fix the trial ...``.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import signal
import sqlite3
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from typing import Any, TextIO

__all__ = ["EXIT_BAD_INPUT", "EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXIT_BROKEN_PIPE",
           "run_command", "internal_error_line"]

# The one exit-code map lives in theorycheck.report.terminal (verdicts 0/1/3, bad input 2,
# internal error 4, Ctrl-C 130, closed stdout 141).
from theorycheck.report.terminal import (  # noqa: E402
    BAD_INPUT as EXIT_BAD_INPUT,
    BROKEN_PIPE as EXIT_BROKEN_PIPE,
    INTERNAL as EXIT_INTERNAL,
    INTERRUPTED as EXIT_INTERRUPTED,
)

#: Longest message kept in the one-line report of an internal error.
MAX_MESSAGE = 300


def _one_line(text: str, longest: int = MAX_MESSAGE) -> str:
    """``text`` on one line, at most ``longest`` characters: a long one keeps its start and
    its end, where a failed trial's message names the cause (the cell, parameters and seed
    come first; on 2026-11-28 a GPU check's line was cut before "OutOfMemoryError")."""
    text = " / ".join(part.strip() for part in str(text).splitlines() if part.strip())
    if len(text) <= longest:
        return text
    head = longest // 3
    return text[:head] + " ... " + text[len(text) - (longest - head - 5):]


def _debug() -> bool:
    return os.environ.get("THEORYCHECK_DEBUG", "").strip() not in ("", "0")


def internal_error_line(exc: BaseException) -> str:
    """The one line printed for an exception that is not bad input (module docstring)."""
    if getattr(exc, "external", False):  # sweep.engine.TrialError from a user's own trial: not our bug
        text = _one_line(exc, 2 * MAX_MESSAGE)
        kept = "" if "finished trials are kept" in text else " (finished trials are kept in the store)"
        return f"theorycheck: error in the task's own trial: {text}; fix the trial and run the same command again{kept}"
    memory = _device_memory_error(exc)
    if memory is not None:
        return f"theorycheck: error: {_one_line(memory, 2 * MAX_MESSAGE)} (finished trials are kept in the store)"
    what = f"{type(exc).__name__}: {_one_line(exc)}" if str(exc).strip() else type(exc).__name__
    if isinstance(exc, sqlite3.OperationalError) or (isinstance(exc, OSError) and not isinstance(
            exc, (BrokenPipeError, ConnectionError))):
        return (f"theorycheck: error: the run failed writing or reading its files ({what}); free disk "
                "space or choose another --out, then rerun the same command to resume "
                "(finished trials are kept in the store)")
    return (f"theorycheck: internal error: {what} (a bug: please report; rerun with "
            "THEORYCHECK_DEBUG=1 for the traceback)")


def _device_memory_error(exc: BaseException | None) -> BaseException | None:
    """The accelerator-memory error (:class:`theorycheck.algorithms.device_memory.DeviceMemoryError`)
    that ``exc`` is or was raised from (a sweep's TrialError carries it as its cause)."""
    from theorycheck.algorithms.device_memory import DeviceMemoryError

    seen = 0
    while exc is not None and seen < 8:
        if isinstance(exc, DeviceMemoryError):
            return exc
        exc, seen = exc.__cause__, seen + 1
    return None


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor
        pass


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM stops the command as Ctrl-C does (``KeyboardInterrupt``): the sweep stores the
    trials that finished, shuts its workers down and releases its ``--out`` lock, instead of
    dying where it stands. Only in the main thread (where Python delivers signals); the
    previous handler comes back afterwards."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_command(func: Callable[[Any], int], args: Any, *, stderr: TextIO | None = None) -> int:
    """``func(args)``'s exit code, or the code of how it failed (table in the module docstring).

    ``SystemExit`` passes through (argparse's own exits). Locks on output directories
    taken during the command (:func:`theorycheck.sweep.lock.lock_out`) are released at its end."""
    err = stderr if stderr is not None else sys.stderr
    try:
        with sigterm_as_interrupt():
            return int(func(args))
    except ValueError as exc:
        print(f"theorycheck: error: {exc}", file=err)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        lock = sys.modules.get("theorycheck.sweep.lock")  # the --out of this run, if it took one
        held = lock.held() if lock is not None else []
        if not held:  # before any --out was taken (or a command without one): nothing stored
            print("theorycheck: interrupted", file=err)
            return EXIT_INTERRUPTED
        where = f"; resume with --out {shlex.quote(str(held[0]))}" if len(held) == 1 else ""
        print(f"theorycheck: interrupted (finished trials are kept in the store){where}", file=err)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 - the point: no crash may exit 0, 1 or 3
        if _debug():
            traceback.print_exc(file=err)
        print(internal_error_line(exc), file=err)
        return EXIT_INTERNAL
    finally:
        # the --out lock taken by prepare_out ends with the command; a command that took
        # none never loaded the lock module (and need not import it: fast exits stay fast)
        lock = sys.modules.get("theorycheck.sweep.lock")
        if lock is not None:
            lock.release_all()
