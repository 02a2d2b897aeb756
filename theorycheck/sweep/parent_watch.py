"""Pool workers that die with their parent.

A worker of the pool :func:`theorycheck.sweep.executors.make_executor` builds runs
:func:`die_with_parent` as its initializer: a daemon thread that checks every
:data:`PARENT_POLL_SECONDS` whether the process that made the pool is still alive (same
pid, same start time, not a zombie: :func:`alive`) and ends the worker with ``os._exit``
when it is not.

Polling, not Linux's ``PR_SET_PDEATHSIG``: with ``forkserver`` a worker's parent is the
fork server, not the main process, so a parent-death signal would not fire when the main
process dies (measured: after SIGKILL of the main process the fork server and both workers
were still running; with the watchdog every one of them was gone within 5 s -- the fork
server and the resource tracker exit once no worker holds their pipes;
``tests/test_workers_die.py``). dask workers already exit with their nanny
(``distributed.process``). POSIX only: on Windows the watchdog is not started
(``os.kill(pid, 0)`` there sends a console event).
"""

from __future__ import annotations

import os
import threading
import time

#: How often a pool worker checks that the process that made the pool is alive (seconds):
#: an orphaned worker computes at most this long (plus the check) after its parent died.
PARENT_POLL_SECONDS = 0.5


def start_time(pid: int) -> str | None:
    """The start time of process ``pid`` (Linux: field 22 of /proc/PID/stat), to tell a
    reused pid from the original; ``None`` where /proc is not available."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def alive(pid: int, started: str | None) -> bool:
    """Whether process ``pid`` still runs: it exists, is not a zombie and (where /proc
    tells) started at ``started``, its :func:`start_time` when the pool was made."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by another user: pid reused
        return False
    if started is None:
        return True
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z" and fields[19] == started


def die_with_parent(parent_pid: int, started: str | None, interval: float) -> None:
    """Pool-worker initializer: a daemon thread ends this process once ``parent_pid`` (which
    started at ``started``) is gone, checking every ``interval`` seconds.

    Not on Windows, where ``os.kill(pid, 0)`` would not probe but signal the parent."""
    if os.name == "nt":  # pragma: no cover
        return

    def watch() -> None:
        while True:
            time.sleep(interval)
            if not alive(parent_pid, started):
                os._exit(1)

    threading.Thread(target=watch, name="theorycheck-parent-watch", daemon=True).start()
