"""Preloaded into every worker of a local dask cluster (``--dask-local``; the
``distributed.worker.preload`` setting of :data:`theorycheck.sweep.executors.LOCAL_WORKER_CONFIG`):
the worker ignores SIGINT from here on.

A terminal's Ctrl-C reaches the whole process group. The parent handles it (the one line
"interrupted", exit 130) and closes the cluster, which ends the workers; a worker that
handled it too printed its KeyboardInterrupt traceback (~67 lines) first.
"""

from __future__ import annotations

import signal
from typing import Any


def dask_setup(worker: Any) -> None:
    """dask's preload hook, run in the worker's process as it starts."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
