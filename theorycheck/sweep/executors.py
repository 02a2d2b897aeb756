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
taken, which ``filterwarnings=error`` turns into failures, ecosystem.md §8) and
``silence_logs=ERROR``. dask is optional: without it you get a ``ValueError`` saying
``pip install 'theorycheck[dask]'``. An unreachable scheduler is a ``ValueError`` after
``connect_timeout`` seconds, before any work.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from theorycheck.validate import check_int


def _start_method() -> str:
    methods = multiprocessing.get_all_start_methods()
    return "forkserver" if "forkserver" in methods else "spawn"


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ValueError(
            "dask.distributed is not installed; install it with "
            "pip install 'theorycheck[dask]' (or run without --scheduler/--dask-local)"
        ) from None
    return distributed


def _check_workers(workers: Any) -> int | None:
    if workers is None:
        return None
    return check_int("workers", workers, 1, " (or None for serial)")


@contextlib.contextmanager
def make_executor(
    workers: int | None = None,
    scheduler: str | None = None,
    dask_local: bool = False,
    *,
    connect_timeout: float = 5.0,
) -> Iterator[Executor | None]:
    """Yield the executor the arguments ask for (table in the module docstring)."""
    workers = _check_workers(workers)
    if scheduler is not None and dask_local:
        raise ValueError(
            "choose either a scheduler address or dask_local (--scheduler or --dask-local), not both"
        )
    if scheduler is not None and workers is not None:
        raise ValueError(
            f"workers={workers} applies to local pools; with scheduler={scheduler!r} the "
            "cluster decides the number of workers: drop workers"
        )
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
        raise ValueError(f"scheduler must be an address like 'tcp://127.0.0.1:8786', got {scheduler!r}")
    if not connect_timeout > 0:
        raise ValueError(f"connect_timeout must be > 0 seconds, got {connect_timeout!r}")

    if scheduler is not None:
        distributed = _import_distributed()
        try:
            client = distributed.Client(scheduler, timeout=connect_timeout, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ValueError(
                f"cannot reach dask scheduler {scheduler!r} within {connect_timeout:g} s ({exc}); "
                "check the address (e.g. tcp://host:8786) and that the scheduler is running"
            ) from None
        with client:
            yield client.get_executor()
    elif dask_local:
        distributed = _import_distributed()
        n_workers = workers if workers is not None else (os.cpu_count() or 1)
        with (
            distributed.LocalCluster(
                n_workers=n_workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
            ) as cluster,
            distributed.Client(cluster, set_as_default=False) as client,
        ):
            yield client.get_executor()
    elif workers is None or workers == 1:
        yield None
    else:
        context = multiprocessing.get_context(_start_method())
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        try:
            yield pool
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
