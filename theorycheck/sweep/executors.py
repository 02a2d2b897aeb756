"""Executors for :func:`theorycheck.sweep.run_sweep`, from the CLI's three options.

``make_executor(workers, scheduler, dask_local)`` is a context manager yielding a
``concurrent.futures.Executor`` or ``None`` (serial), and tearing it down on exit:

=====================================  ==================================================
arguments                              executor
=====================================  ==================================================
nothing, or ``workers=1``              ``None``: serial, in this process
``workers=K`` (K >= 2)                 ``ProcessPoolExecutor(K)``, ``forkserver`` start
                                       method where available, else ``spawn``
``scheduler="tcp://host:port"``        ``Client(address).get_executor()`` (dask)
``dask_local=True`` (``workers=K``)    a ``LocalCluster`` of K single-threaded worker
                                       processes (default: one per CPU)
=====================================  ==================================================

Why not ``fork``: the parent may hold threads (BLAS pools, dask's event loop) and
forking a threaded process can deadlock the child; ``forkserver`` forks from a clean
single-threaded server (fast), ``spawn`` starts fresh interpreters (portable). Either
way the trial function must be importable: define it at module top level, and guard
scripts with ``if __name__ == "__main__":``. For numpy-heavy trials, consider
``OMP_NUM_THREADS=1`` so K workers do not each start a BLAS pool on every core.

The dask ``LocalCluster`` uses processes (trials are CPU-bound Python: threads would
share one GIL) with ``dashboard_address=":0"`` (a free port: the default 8787 warns when
taken, which ``filterwarnings=error`` turns into failures, docs/methods.md §8) and
``silence_logs=ERROR`` (which quiets the nanny, not the worker process it spawns: the
workers' own ``distributed`` loggers are set to CRITICAL through their environment, since
a worker whose heartbeat meets a scheduler already closing logs an ERROR with a
traceback, and under load a Ctrl-C or the end of a check printed it; a trial's own failure
still reaches the sweep through its future), without the ``MALLOC_TRIM_THRESHOLD_`` that dask's nanny
puts in a worker's environment (it cost an in-regime trial ~40% more CPU) and without the
workers' statistical profiler (~5% more CPU), and with dask's health checks less often:
:data:`LOCAL_WORKER_CONFIG`. On a cluster of your own, put the same settings in the
workers' dask configuration (e.g. ``distributed.worker.profile.enabled: false``). dask is optional: without it you get a ``ValueError`` saying
``pip install 'theorycheck[dask]'``.

A scheduler address is probed before the ``Client`` is built: a TCP connection plus
dask's handshake, the whole under ``connect_timeout`` seconds. Needed because
``Client(address, timeout=...)`` bounds the TCP connection but not the handshake read
that follows it (distributed 2026.8, ``distributed.comm.core.connect``): a port that
accepts and says nothing (a silent listener, an HTTP server) hung it for ever. An
unreachable address, or one that does not speak dask, is a one-line ``ValueError``
after at most ``connect_timeout`` seconds, before any work.

Workers die with their parent (:mod:`theorycheck.sweep.parent_watch`). A run that ends by an
exception (Ctrl-C, SIGTERM, a failed trial) terminates the pool's workers before it shuts
the pool down, rather than waiting for the trials they are running.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from theorycheck.sweep.parent_watch import PARENT_POLL_SECONDS, die_with_parent, start_time
from theorycheck.validate import check_int


def _start_method() -> str:
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


def _probe_scheduler(distributed: Any, address: str, timeout: float) -> None:
    """Open a dask comm to ``address`` (TCP connection and handshake) and close it, all
    within ``timeout`` seconds; raise ValueError when that fails. Runs its own event
    loop in a helper thread, so it also works where a loop is running (Jupyter)."""

    async def connect_and_close() -> None:
        comm = await asyncio.wait_for(distributed.comm.connect(address, timeout=timeout), timeout)
        await comm.close()

    with ThreadPoolExecutor(1) as helper:
        try:
            helper.submit(asyncio.run, connect_and_close()).result()
        except Exception as exc:  # noqa: BLE001 - any failure means: no dask scheduler there
            what = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise ValueError(
                f"cannot reach dask scheduler {address!r} within {timeout:g} s ({what}); "
                "check the address (e.g. tcp://host:8786) and that a dask scheduler listens there"
            ) from None


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ValueError(
            "dask.distributed is not installed; install it with "
            "pip install 'theorycheck[dask]' (or run without --scheduler/--dask-local)"
        ) from None
    return distributed


#: dask configuration for a ``LocalCluster`` (its scheduler runs in this process, its workers
#: in their own): settings that cost CPU and buy this toolkit nothing:
#:
#: * dask's nanny sets ``MALLOC_TRIM_THRESHOLD_=65536`` in a worker's environment by default
#:   (``distributed.nanny.pre-spawn-environ``), and setting it at all turns off glibc's
#:   dynamic mmap threshold, so that every large NumPy temporary is mapped and unmapped
#:   afresh. Measured on an in-regime trial ((V, d, L, N) = (2048, 512, 128, 25000),
#:   ``limit``): 0.60 s of CPU without it, 0.83 s with it, the difference system time
#:   (page faults). ``None`` unsets the variable (dask's documented way).
#: * the worker's statistical profiler (``distributed.worker.profile``) samples the running
#:   task's stack every 10 ms for the dashboard. Measured on the same trial, one worker, 20
#:   trials, 2026-11-23 (CPU of the worker process outside the trials, per future): 50-67 ms
#:   with it, 20-23 ms without, of ~0.72 s a trial.
#: * every process checks its event loop's health every 20 ms (``distributed.admin.tick``),
#:   and samples its host every 0.5 s (``distributed.admin.system-monitor``), both for
#:   warnings and the dashboard. An idle 2-worker cluster held 7.5% of a core in this
#:   process and 2.8% in each worker; with ticks every 1 s and samples every 5 s, 1.9-3.2%
#:   and 1.0-1.2% (30 s idle, 2026-11-23). A blocked event loop is still reported (after
#:   ``distributed.admin.tick.limit``, 3 s). Work stealing, which also costs ~2.5% of a core
#:   idle, is kept: it moves queued trials to an idle worker.
#: * each worker ignores SIGINT from its preload on (:mod:`theorycheck.sweep.dask_worker`):
#:   the parent handles a Ctrl-C and closes the cluster.
LOCAL_WORKER_CONFIG = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
                       "distributed.nanny.pre-spawn-environ.DASK_LOGGING__DISTRIBUTED": "critical",
                       "distributed.worker.profile.enabled": False,
                       "distributed.admin.tick.interval": "1s",
                       "distributed.admin.system-monitor.interval": "5s",
                       "distributed.worker.preload": ["theorycheck.sweep.dask_worker"]}


def check_executor_arguments(
    workers: Any = None,
    scheduler: Any = None,
    dask_local: bool = False,
    *,
    connect_timeout: float = 5.0,
    cli: bool = False,
) -> int | None:
    """Every check :func:`make_executor` makes before it starts anything: ``workers`` is
    ``None`` or an integer >= 1, a scheduler excludes ``dask_local`` and ``workers``, and a
    scheduler answers at its address within ``connect_timeout`` seconds. Returns ``workers``
    as an int (or ``None``); a ValueError names the arguments as the command line does
    when ``cli`` (``theorycheck check`` calls this before its output directory exists)."""
    w_name, s_name, l_name = ("--workers", "--scheduler", "--dask-local") if cli else (
        "workers", "scheduler", "dask_local")
    if workers is not None:
        workers = check_int(w_name, workers, 1, "" if cli else " (or None for serial)")
    if scheduler is not None and dask_local:
        raise ValueError(f"choose either a scheduler address or {l_name} ({s_name}), not both")
    if scheduler is not None and workers is not None:
        raise ValueError(
            f"{w_name} {workers} applies to local pools; with {s_name} {scheduler!r} the "
            f"cluster decides the number of workers: drop {w_name}"
        )
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise ValueError(f"{s_name} must be an address like 'tcp://127.0.0.1:8786', got {scheduler!r}")
    if not connect_timeout > 0:
        raise ValueError(f"connect_timeout must be > 0 seconds, got {connect_timeout!r}")
    if scheduler is not None:
        _probe_scheduler(_import_distributed(), scheduler, connect_timeout)
    return workers


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[list[int]]:
    """A SIGINT recorded, not raised, while a ``LocalCluster`` starts in dask's thread (an
    interrupt there left it half-built, and its teardown printed dask's tracebacks); the
    caller re-raises a recorded one (:func:`signal.raise_signal`) once the cluster can be
    closed, and reads a failed start after one as the interrupt. Until 2026-11-27 SIGINT was
    *ignored* here, so that the worker processes inherited the ignore: a Ctrl-C in those
    1-3 s was lost and the check ran on for minutes. The workers now ignore it from their
    preload on (:mod:`theorycheck.sweep.dask_worker`; one hit during its own start can still
    print its traceback). Main thread only (elsewhere Python delivers no signals)."""
    got: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield got
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: got.append(signum))
    try:
        yield got
    except Exception:
        if got:  # a worker hit by the same Ctrl-C during its start fails the cluster's start
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def make_executor(
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: bool = False,
    *,
    connect_timeout: float = 5.0,
) -> Iterator[Executor | None]:
    """Yield the executor the arguments ask for (table in the module docstring); the
    arguments are checked first (:func:`check_executor_arguments`)."""
    workers = check_executor_arguments(workers, scheduler, dask_local, connect_timeout=connect_timeout)
    if scheduler is not None:
        distributed = _import_distributed()
        try:
            client = distributed.Client(scheduler, timeout=connect_timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ValueError(
                f"cannot reach dask scheduler {scheduler!r} within {connect_timeout:g} s ({exc}); "
                "check the address (e.g. tcp://host:8786) and that a dask scheduler listens there"
            ) from None
        with client:
            yield client.get_executor()
    elif dask_local:
        distributed = _import_distributed()
        import dask.config  # installed with distributed

        n_workers = workers if workers is not None else (os.cpu_count() or 1)
        with dask.config.set(LOCAL_WORKER_CONFIG):
            with _sigint_deferred() as interrupted:
                cluster = distributed.LocalCluster(
                    n_workers=n_workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
            with cluster, distributed.Client(cluster, set_as_default=False) as client:
                if interrupted:  # a Ctrl-C during the start, raised now that the cluster closes cleanly
                    signal.raise_signal(signal.SIGINT)
                yield client.get_executor()
    elif workers is None or workers == 1:
        yield None
    else:
        context = multiprocessing.get_context(_start_method())
        pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=die_with_parent,
            initargs=(os.getpid(), start_time(os.getpid()), PARENT_POLL_SECONDS),
        )
        try:
            yield pool
        except BaseException:  # Ctrl-C, SIGTERM or an error: the running trials could not be stored
            _stop_workers(pool)
            raise
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the pool's workers, so that a stopped run does not wait for its running
    trials (a check stopped by SIGTERM while its workers ran minute-long trials ran on until
    they ended, 2026-11-28); ``terminate_workers`` where Python has it (3.14), else the pool's
    own table of processes."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.terminate()
