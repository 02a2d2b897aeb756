"""The walls scripts' cells computed in a pool of processes, read back in the rows' order (no printing).

``bench/shared_bias_walls.py`` and ``bench/gram_bias_walls.py`` print one row a published wall, and several rows share
a cell. With ``--workers 1`` each cell is computed when its first row asks for it (the rows print as they come); with
more, every cell is submitted at once (``theorycheck.sweep.make_executor``), the costliest first, and each row waits
for its own. Either way a cell's numbers depend on its arguments alone: the rows are a serial run's.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Hashable, Iterator

from theorycheck.sweep import make_executor


@contextmanager
def cell_results(workers: int, task: Callable, args: dict[Hashable, tuple],
                 first: Callable | None = None) -> Iterator[Callable[[Hashable], object]]:
    """Yield ``get``, with ``get(cell) = task(*args[cell])``, each cell computed once: in ``workers`` processes every
    cell submitted on entry in the order of ``sorted(args, key=first)``, or (``workers == 1``) when first asked for."""
    with make_executor(workers) as pool:
        jobs = {} if pool is None else {c: pool.submit(task, *args[c]) for c in sorted(args, key=first)}
        done: dict = {}

        def get(cell: Hashable) -> object:
            if cell not in done:
                done[cell] = jobs[cell].result() if jobs else task(*args[cell])
            return done[cell]

        yield get
