"""One BLAS thread a process, set before NumPy loads: the bench scripts call :func:`set_blas_threads` ahead of
their first ``import numpy`` (it imports nothing that loads NumPy).

The count path runs its own worker threads (``threads=2`` in :func:`theorycheck.algorithms.limit.run_limit`,
the read-outs' default), and OpenBLAS starts its own threads in each of them unless told otherwise. On a 2-core
machine that oversubscribes the cores: harmless alone (0.104 against 0.105 s a label block of ``T @ E`` at
``V = 65536``, 1 against 2 Python threads), but beside another process (a CI run) the read-out's first pass at
``V = 65536`` ran about 25 times slower than alone (6 s a block against 0.23 s). The CLI sets one thread for the
same reason (``theorycheck/cli/main.py``). One thread changed none of the published numbers it was checked on:
read-outs at ``V = 2048`` (``ζ = 3``, ``d = 976, 992``) and ``V = 8192`` (trigger out, ``d = 570, 586``), seeds
13680-81, gave the accuracies of their published rows (run with OpenBLAS's default threads) to the last bit
(2026-12-06; docs/theory.md §7.12).

``set_blas_threads()`` leaves a value already in the environment alone (``OPENBLAS_NUM_THREADS=2 python
bench/...`` still asks for two); ``force=True`` overrides it (``bench_limit.py --blas-threads``, whose memory
subprocesses inherit it).
"""

from __future__ import annotations

import os

#: The variables OpenBLAS, OpenMP builds and MKL read when they load.
VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def set_blas_threads(n: str = "1", *, force: bool = False, variables: tuple[str, ...] = VARIABLES) -> None:
    """Set each of ``variables`` (by default :data:`VARIABLES`) to ``n``, where unset, or always with ``force``.
    ``bench_gpu.py`` sets OpenBLAS's alone: PyTorch's CPU threads (OpenMP) are among what it measures."""
    for var in variables:
        if force:
            os.environ[var] = n
        else:
            os.environ.setdefault(var, n)
