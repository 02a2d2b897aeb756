"""Parallel sweeps: serial vs ``--workers K`` vs ``--dask-local`` on one check. Prints figures.

For each mode, the same ``check`` (default: the CLI's default target on the quick budget)
runs through ``make_executor`` as the CLI does, batched (the default, about
``--batch-seconds`` of trial time per future) and, with ``--before``, unbatched (one future
per trial, all submitted at once: the engine before batching). Printed per run:

* ``wall``: wall time of the check (the executor's start-up, e.g. a dask cluster, apart);
* ``cpu``: CPU time of this process plus all its descendants (pool workers, the fork
  server, dask nannies and workers) over the check, ``cpu/trial`` that over the trials;
  ``this process``: the parent's share (searches, store, submission; with
  ``--dask-local`` also the scheduler, which runs in this process);
* ``in-trial cpu/trial``: CPU the workers spent inside trials (``time.thread_time``
  around each batch), i.e. the work itself;
* ``extra cpu vs serial``: cpu of this run - cpu of the serial run, and that per future:
  pickling, pipes or TCP, dask's scheduler, but also costs that do not scale with the
  futures (worker start-up and caches, dask's heartbeats, which grow with wall time, the
  cost of sharing busy cores); ``--overhead`` isolates the per-future part;
* the 1-, 5- and 15-minute load averages (``os.getloadavg``) before and after: the wall
  times mean little when the machine's cores are shared;
* whether the result (everything but run times and environment) is identical to serial's.

Usage: ``python bench/bench_parallel.py [--target ID] [--budget quick] [--workers 2]
[--modes serial,workers,dask] [--before] [--batch-seconds 0.1]``; ``--overhead`` instead
measures the executors' CPU per future with a trial of microseconds (20 cells x 10 rounds
x 4 trials, unbatched and batched).

Measured on 2 cores (``vural2026.headline``, in regime; every result identical to serial's).
Quick: 2026-11-23 15:45, after the dask workers lost the statistical profiler (commit e10a4bf);
paper: 2026-11-23 morning:

=================  ===================  =========================  ===========================
budget             serial               ``--workers 2``            ``--dask-local``
=================  ===================  =========================  ===========================
quick (260 tr.)    192.9 s              100.1 s, 1.93x             108.1 s, 1.79x
paper (1616 tr.)   967.2 s              490.7 s, 1.97x             536.0 s, 1.80x
=================  ===================  =========================  ===========================

Quick, in CPU: serial 742 ms a trial; ``--workers 2`` 18 ms more a future, ``--dask-local``
78 ms (its scheduler in this process: 6.6 s over the check; start-up 5.1 s, apart).  Earlier
the same day the quick ``--dask-local`` run was 1.64x (101.5 s against 166.3 s serial) with the
profiler sampling every worker, and 1.23x before its workers stopped inheriting dask's
``MALLOC_TRIM_THRESHOLD_`` (theorycheck/sweep/executors.py).

    python bench/bench_parallel.py --modes serial,workers,dask
"""

from __future__ import annotations

import argparse
import json
import os
import time

from blas_threads import set_blas_threads

set_blas_threads()

import psutil  # noqa: E402

import theorycheck.check.runner as runner  # noqa: E402
from theorycheck.check import check  # noqa: E402
from theorycheck.sweep import make_executor  # noqa: E402
from theorycheck.sweep.batching import TARGET_SECONDS  # noqa: E402


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def _tree_cpu() -> dict[int, float]:
    """CPU seconds (user + system) of every live descendant of this process, by pid."""
    out = {}
    for proc in psutil.Process().children(recursive=True):
        try:
            t = proc.cpu_times()
            out[proc.pid] = t.user + t.system
        except psutil.Error:
            pass
    return out


def _numbers(result) -> str:
    """Everything in the result except wall-clock times (as tests/test_check_pipeline.py)."""
    d = result.to_dict()
    d.pop("run")
    d.pop("environment")
    return json.dumps(d, sort_keys=True, default=str)


def run_mode(mode: str, args, batch_seconds: float) -> dict:
    """One check through the mode's executor; the sweep's own counts are captured by
    wrapping ``run_sweep`` where the check calls it."""
    captured = {}
    original = runner.run_sweep

    def capturing(*a, **kw):
        sweep = original(*a, batch_seconds=batch_seconds, **kw)
        captured["sweep"] = sweep
        return sweep

    kwargs = {"serial": {}, "workers": {"workers": args.workers},
              "dask": {"workers": args.workers, "dask_local": True}}[mode]
    load_before = _load()
    t_start = time.perf_counter()
    with make_executor(**kwargs) as executor:
        startup = time.perf_counter() - t_start
        runner.run_sweep = capturing
        try:
            cpu0, tree0 = time.process_time(), _tree_cpu()
            t0 = time.perf_counter()
            result = check(args.target, budget=args.budget, executor=executor)
            wall = time.perf_counter() - t0
            tree1 = _tree_cpu()
            main_cpu = time.process_time() - cpu0
            cpu = main_cpu + sum(v - tree0.get(pid, 0.0) for pid, v in tree1.items())
        finally:
            runner.run_sweep = original
    sweep = captured["sweep"]
    return {"mode": mode, "batch_seconds": batch_seconds, "wall": wall, "startup": startup, "cpu": cpu, "main_cpu": main_cpu,
            "trials": sweep.computed, "futures": sweep.futures, "in_trial_cpu": sweep.worker_cpu_seconds,
            "numbers": _numbers(result), "verdict": result.status,
            "load": f"{load_before} -> {_load()}"}


class _Rounds:
    """A stand-in search: ``rounds`` rounds of ``per_round`` trials at one resource value."""

    def __init__(self, rounds: int, per_round: int) -> None:
        self.left, self.per_round, self.seen = rounds, per_round, 0

    def ask(self):
        return [(1000.0, self.per_round)] if self.left else []

    def tell(self, resource, successes, trials):
        self.left -= 1
        self.seen += trials

    def result(self):
        return self.seen


def overhead(args) -> None:
    """CPU per future with a trial of microseconds (``planted_trial``): the executor's
    fixed cost per submitted future, unbatched and batched."""
    from theorycheck.planted import planted_trial
    from theorycheck.sweep import CellSpec, run_sweep

    for mode, kwargs in (("workers", {"workers": args.workers}),
                         ("dask", {"workers": args.workers, "dask_local": True})):
        for batch_seconds in (0.0, args.batch_seconds):
            cells = {f"c{i}": CellSpec({"threshold": 500, "width": 0.4}, "N", _Rounds(10, 4)) for i in range(20)}
            with make_executor(**kwargs) as executor:
                run_sweep({"warm": CellSpec({"threshold": 5, "width": 0.4}, "N", _Rounds(1, 8))},
                          planted_trial, entropy=1, executor=executor, batch_seconds=0)  # start the workers
                cpu0, tree0, t0 = time.process_time(), _tree_cpu(), time.perf_counter()
                sweep = run_sweep(cells, planted_trial, entropy=1, executor=executor, batch_seconds=batch_seconds)
                wall, tree1 = time.perf_counter() - t0, _tree_cpu()
                cpu = time.process_time() - cpu0 + sum(v - tree0.get(pid, 0.0) for pid, v in tree1.items())
            label = f"{mode} {'unbatched' if batch_seconds == 0 else f'batched {batch_seconds:g} s'}"
            print(f"overhead, {label:<22} {sweep.computed} trials in {sweep.futures} futures: cpu {cpu:.2f} s = "
                  f"{1e3 * cpu / sweep.futures:.2f} ms per future, {1e3 * cpu / sweep.computed:.2f} ms per trial "
                  f"(in-trial {1e3 * sweep.worker_cpu_seconds / sweep.computed:.3f} ms) | wall {wall:.2f} s "
                  f"| load {_load()}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="vural2026.headline")
    ap.add_argument("--budget", default="quick")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--modes", default="serial,workers,dask")
    ap.add_argument("--before", action="store_true", help="also run each parallel mode unbatched")
    ap.add_argument("--batch-seconds", type=float, default=TARGET_SECONDS)
    ap.add_argument("--overhead", action="store_true",
                    help="only measure the CPU per future with a microsecond trial")
    args = ap.parse_args()
    if args.overhead:
        overhead(args)
        return
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if "serial" not in modes:
        modes.insert(0, "serial")
    print(f"check {args.target} budget {args.budget}; {os.cpu_count()} CPUs; workers {args.workers}")
    rows = []
    for mode in modes:
        settings = [args.batch_seconds] if mode == "serial" else (
            [0.0, args.batch_seconds] if args.before else [args.batch_seconds])
        for batch_seconds in settings:
            row = run_mode(mode, args, batch_seconds)
            rows.append(row)
            serial = rows[0]
            label = mode if mode == "serial" else (
                f"{mode} {'unbatched' if batch_seconds == 0 else f'batched {batch_seconds:g} s'}")
            extra = ""
            if mode != "serial":
                over = (row["cpu"] - serial["cpu"]) / max(row["futures"], 1)
                extra = (f" | {row['futures']} futures ({row['trials'] / max(row['futures'], 1):.1f} trials each)"
                         f" | in-trial cpu/trial {1e3 * row['in_trial_cpu'] / max(row['trials'], 1):.2f} ms"
                         f" | extra cpu vs serial {row['cpu'] - serial['cpu']:.2f} s ({1e3 * over:.2f} ms/future)"
                         f" | speed-up vs serial {serial['wall'] / row['wall']:.2f}x wall"
                         + (f" | start-up {row['startup']:.1f} s" if mode == "dask" else ""))
            same = "identical to serial" if row["numbers"] == serial["numbers"] else "DIFFERS from serial"
            print(f"{label:<26} wall {row['wall']:7.2f} s | cpu {row['cpu']:7.2f} s "
                  f"({1e3 * row['cpu'] / max(row['trials'], 1):.2f} ms/trial; this process {row['main_cpu']:.2f} s) | "
                  f"{row['trials']} trials"
                  f"{extra} | verdict {row['verdict']}, {same} | load {row['load']}", flush=True)


if __name__ == "__main__":
    main()
