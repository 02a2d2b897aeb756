"""Sweep engine figures: per-trial overhead, store throughput, parallel speed-up, resume.

    /work/venv/bin/python bench/bench_sweep.py [--trials 2000] [--work-ms 20] [--workers 2] [--dask]

Prints one line per measurement; asserts nothing (docs/architecture.md: speed targets live here).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from typing import Any

import numpy as np

from theorycheck.planted import planted_trial
from theorycheck.sweep import CellSpec, SqliteStore, make_executor, run_sweep


class GridSearch:
    """Asks every grid point once with ``per_point`` trials, then stops (no adaptivity)."""

    def __init__(self, grid: list[int], per_point: int) -> None:
        self.grid, self.per_point, self.asked = grid, per_point, False
        self.told: list[tuple[float, int, int]] = []

    def ask(self) -> list[tuple[float, int]]:
        if self.asked:
            return []
        self.asked = True
        return [(float(r), self.per_point) for r in self.grid]

    def tell(self, resource: float, successes: int, trials: int) -> None:
        self.told.append((resource, successes, trials))

    def result(self) -> list[tuple[float, int, int]]:
        return self.told


def busy_trial(params: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """planted_trial plus ``work_ms`` of pure-Python CPU work (holds the GIL)."""
    deadline = time.perf_counter() + params["work_ms"] / 1000.0
    x = 0.0
    while time.perf_counter() < deadline:
        x += sum(i * i for i in range(200))
    return planted_trial(params, seed)


def cells(n_trials: int, extra: dict[str, Any] | None = None) -> dict[str, CellSpec]:
    n_cells, per_point = 10, 10
    grid = [int(g) for g in np.geomspace(8, 1024, max(n_trials // (n_cells * per_point), 1))]
    grid = sorted(set(grid))
    return {
        f"cell{i}": CellSpec({"threshold": 40 + 20 * i, "width": 0.425, **(extra or {})}, "N",
                             GridSearch(grid, per_point))
        for i in range(n_cells)
    }


def timed(label: str, n: int, fn) -> Any:
    t0 = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t0
    print(f"{label:<48s} {n:6d} trials {dt:8.3f} s  {1e6 * dt / max(n, 1):9.1f} us/trial")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--trials", type=int, default=2000)
    parser.add_argument("--work-ms", type=float, default=20.0)
    parser.add_argument("--work-trials", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dask", action="store_true")
    args = parser.parse_args()

    n = sum(len(c.search.grid) * c.search.per_point for c in cells(args.trials).values())

    def sweep(store=None, executor=None):
        return run_sweep(cells(args.trials), planted_trial, entropy=1, store=store,
                         executor=executor, code_version="b")

    timed("serial, MemoryStore (engine overhead)", n, sweep)
    with tempfile.TemporaryDirectory() as tmp:
        with SqliteStore(tmp) as store:
            timed("serial, SqliteStore (commit every trial)", n, lambda: sweep(store))
        t0 = time.perf_counter()
        with SqliteStore(tmp) as store:
            resumed = sweep(store)
        dt = time.perf_counter() - t0
        print(f"{'resume: open+verify+reuse everything':<48s} {resumed.reused:6d} trials {dt:8.3f} s  "
              f"{1e6 * dt / max(resumed.reused, 1):9.1f} us/trial  (computed {resumed.computed})")
    with make_executor(workers=args.workers) as pool:
        timed(f"ProcessPool({args.workers}), trivial trials (dispatch)", n, lambda: sweep(executor=pool))

    work = {"work_ms": args.work_ms}
    m = sum(len(c.search.grid) * c.search.per_point for c in cells(args.work_trials, work).values())
    serial = timed(f"serial, {args.work_ms:g} ms trials", m,
                   lambda: run_sweep(cells(args.work_trials, work), busy_trial, entropy=1, code_version="b"))
    with make_executor(workers=args.workers) as pool:
        pooled = timed(f"ProcessPool({args.workers}), {args.work_ms:g} ms trials", m,
                       lambda: run_sweep(cells(args.work_trials, work), busy_trial, entropy=1,
                                         executor=pool, code_version="b"))
    print(f"  identical to serial: {pooled.trials == serial.trials}")
    if args.dask:
        t0 = time.perf_counter()
        with make_executor(workers=args.workers, dask_local=True) as ex:
            print(f"{'dask LocalCluster start':<48s} {time.perf_counter() - t0:8.3f} s")
            dasked = timed(f"dask LocalCluster({args.workers}), {args.work_ms:g} ms trials", m,
                           lambda: run_sweep(cells(args.work_trials, work), busy_trial, entropy=1,
                                             executor=ex, code_version="b"))
        print(f"  identical to serial: {dasked.trials == serial.trials}")
    t0 = time.perf_counter()
    try:
        with make_executor(scheduler="tcp://127.0.0.1:1", connect_timeout=1.0):
            pass
    except ValueError as exc:
        print(f"unreachable scheduler -> ValueError after {time.perf_counter() - t0:.2f} s: {exc}")


if __name__ == "__main__":
    main()
