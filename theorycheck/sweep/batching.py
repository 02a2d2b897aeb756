"""How many trials go into one submitted future: sized by measured trial time.

A trial of the quick check takes ~7 ms of CPU. A future costs, in CPU of all processes
together, about 6.5 ms through a dask ``LocalCluster`` (scheduler, TCP messages, worker
bookkeeping) and well under a millisecond through a process pool (measured with
``bench/bench_parallel.py --overhead``): one future per trial doubled the CPU of
``--dask-local``. :class:`BatchPlanner` packs the trials waiting to run into batches of
about ``target_seconds`` of work each (one future each,
:func:`theorycheck.sweep.trial.execute_batch`), so that the fixed cost per future is a few
per cent of the work.

Sizing:

* the cost of a trial is measured on the worker around the trial call: the CPU time of
  the thread that ran it, but at least its wall time / ``WALL_DISCOUNT``. CPU time,
  because the fixed cost a batch amortises is CPU too, and because on a shared machine
  wall time also counts the time other processes held the core (at a load of 4 per
  core a 7 ms trial took 25 ms of wall, and wall-sized batches shrank to 2 trials);
  the wall floor, so that a trial that waits (a GPU, I/O, threads of its own) still
  counts. The estimate at a (cell, resource) is the mean of its finished trials, else
  the mean over all finished trials; before any trial has finished, a trial is sent
  alone (a probe), so an expensive trial never waits behind others;
* the trials a cell asked in one round (all the points and seeds of one ``ask()``) form
  a group, kept in one batch where it fits: the cell can ask again only once its whole
  group is back, so cutting a group buys no parallelism while other groups wait;
* a batch takes whole groups, in the order they were asked (several cells per future),
  while its estimated work stays within the budget: ``target_seconds``, or less when
  the waiting work is short, ``(waiting work) / (free slots)`` but not below
  ``MIN_SECONDS``, so that a short round still gives every worker something to do; a
  group larger than the budget is cut (never below one trial), and no batch holds more
  than ``max_trials``;
* at most ``depth`` futures per worker are in flight; the rest wait in the parent, where
  they join larger batches.

Only the grouping depends on timing; which trials run, their seeds (from the trial's
identity alone, :mod:`theorycheck.seeding`) and what each search is told do not, so the
results equal the serial run's record for record.
"""

from __future__ import annotations

import math
import os
import time
from collections import deque
from collections.abc import Hashable
from concurrent.futures import Executor
from typing import Any, Generic, TypeVar

#: Work per future the planner aims at (seconds of measured trial time).
TARGET_SECONDS = 0.1
#: Spreading short work over the free slots stops at this much work per future: below
#: it a future's fixed cost (~6.5 ms of CPU with a dask LocalCluster) is no longer small.
MIN_SECONDS = 0.02
#: A trial costs at least its wall time over this (module docstring).
WALL_DISCOUNT = 4.0
#: Futures in flight per worker: one running, one queued behind it (no idle gap).
DEPTH = 2
#: A batch never holds more trials than this (bounds what an interruption loses).
MAX_TRIALS = 512

T = TypeVar("T")


def executor_workers(executor: Executor | None) -> int:
    """How many trials ``executor`` runs at once: a pool's ``max_workers``, a dask
    cluster's total worker threads (asked of the scheduler), else the CPU count."""
    if executor is None:
        return 1
    client = getattr(executor, "_client", None)  # distributed's ClientExecutor
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:  # noqa: BLE001 - a count is a hint; fall back to the CPU count
            return os.cpu_count() or 1
    workers = getattr(executor, "_max_workers", None)  # concurrent.futures pools
    return workers if isinstance(workers, int) and workers > 0 else (os.cpu_count() or 1)


class BatchPlanner(Generic[T]):
    """Groups waiting trials into batches (module docstring). ``key(item)`` gives an
    item's (cell, resource), the unit at which trial times are averaged."""

    def __init__(self, executor: Executor | None, *, target_seconds: float = TARGET_SECONDS,
                 depth: int = DEPTH, max_trials: int = MAX_TRIALS, refresh_seconds: float = 5.0) -> None:
        if not (isinstance(target_seconds, (int, float)) and target_seconds >= 0 and math.isfinite(target_seconds)):
            raise ValueError(f"batch_seconds must be a finite number >= 0 (0: one trial per future), "
                             f"got {target_seconds!r}")
        self.executor, self.target, self.depth, self.max_trials = executor, float(target_seconds), depth, max_trials
        self.refresh_seconds = refresh_seconds
        self._workers, self._counted = executor_workers(executor), time.monotonic()
        self._sums: dict[Hashable, list[float]] = {}
        self._total, self._count = 0.0, 0

    def workers(self) -> int:
        """The executor's worker count, re-asked every ``refresh_seconds`` (a dask
        cluster may grow or shrink while a sweep runs)."""
        if time.monotonic() - self._counted > self.refresh_seconds and hasattr(self.executor, "_client"):
            self._workers, self._counted = executor_workers(self.executor), time.monotonic()
        return self._workers

    def observe(self, key: Hashable, seconds: float, cpu_seconds: float | None = None) -> None:
        """Record one finished trial at ``key``: its wall time and, where known, the CPU
        time of the thread that ran it. Its cost is ``max(cpu, wall / WALL_DISCOUNT)``
        (module docstring)."""
        cost = seconds if cpu_seconds is None else max(cpu_seconds, seconds / WALL_DISCOUNT)
        entry = self._sums.setdefault(key, [0.0, 0])
        entry[0] += cost
        entry[1] += 1
        self._total += cost
        self._count += 1

    def estimate(self, key: Hashable) -> float | None:
        """Estimated seconds of one trial at ``key`` (None before any trial finished)."""
        entry = self._sums.get(key)
        if entry is not None:
            return entry[0] / entry[1]
        return self._total / self._count if self._count else None

    def plan(self, waiting: deque[list[T]], in_flight: int, key: Any) -> list[list[T]]:
        """Take batches off the front of ``waiting`` (groups: the trials one cell asked in
        one round) for the free slots (``in_flight`` futures already submitted); what
        does not fit stays in ``waiting``. With ``target_seconds=0`` every trial is its
        own future, all submitted at once (the engine's behaviour before batching)."""
        if self.target == 0:
            batches = [[item] for group in waiting for item in group]
            waiting.clear()
            return batches
        slots = self.depth * self.workers() - in_flight
        if slots <= 0 or not waiting:
            return []
        costs = [[self.estimate(key(item)) for item in group] for group in waiting]
        known = [c for group in costs for c in group if c is not None]
        spread = max(sum(known) / slots, MIN_SECONDS) if known else self.target
        budget = min(self.target, spread)
        batches: list[list[T]] = []
        while waiting and len(batches) < slots:
            batches.append(self._take(waiting, budget, key))
        return batches

    def _take(self, waiting: deque[list[T]], budget: float, key: Any) -> list[T]:
        """One batch: whole groups while their estimated work fits ``budget``; a group
        that alone exceeds it is cut (at least one trial); an unmeasured trial alone."""
        batch: list[T] = []
        work = 0.0
        while waiting:
            group = waiting[0]
            costs = [self.estimate(key(item)) for item in group]
            if None in costs:
                if not batch:  # a probe
                    batch.append(group.pop(0))
                    if not group:
                        waiting.popleft()
                break
            room = self.max_trials - len(batch)
            if work + sum(costs) <= budget and len(group) <= room:
                batch.extend(waiting.popleft())
                work += sum(costs)
                continue
            if batch:  # the group goes whole into the next batch
                break
            take = 1  # a group larger than the budget alone: cut
            while take < min(len(group), room) and sum(costs[:take + 1]) <= budget:
                take += 1
            batch.extend(group[:take])
            del group[:take]
            if not group:
                waiting.popleft()
            break
        return batch
