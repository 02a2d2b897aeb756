"""Drive many ask/tell searches (one per cell) through any executor, with a trial store.

Usage (the ``check`` command does this for every cell of a bound's grid)::

    from theorycheck.sweep import CellSpec, SqliteStore, TerminalProgress, make_executor, run_sweep
    from theorycheck.threshold import ThresholdSearch

    cells = {
        f"V={V},d={d}": CellSpec(params={"V": V, "d": d, "L": 8}, resource="N",
                                 search=ThresholdSearch(start=64))
        for V in (64, 128) for d in (16, 32)
    }
    with make_executor(workers=2) as executor:          # None -> serial, in process
        sweep = run_sweep(cells, my_trial, entropy=1, executor=executor,
                          store=SqliteStore("runs/exp1"), progress=TerminalProgress())
    sweep.results["V=64,d=16"]        # that cell's search.result() (a Threshold)

``my_trial(params, seed) -> bool | dict`` must be a picklable top-level function (for
process pools and dask: anything else is a ValueError before any work) returning a bool or
at least ``{"success": bool}``; ``params`` is the cell's
params plus ``{resource: value}``, ``seed`` a ``numpy.random.SeedSequence``. The whole
returned dict is stored (after a JSON round trip). It should not contain wall-clock
times if you want runs to compare equal; the engine records trial time separately.

How it runs. Every cell advances in its own rounds: ``ask()`` gives
``[(resource, n_new), ...]``; each requested trial gets the next replicate indices at
that resource value (asking the same value again continues the numbering); trials
already in the store are reused, the others submitted to the executor; each finished
trial is written to the store at once; when the cell's whole batch is in, the engine
calls ``tell(resource, successes, n_new)`` once per requested entry, in the order
asked, and asks again, until ``ask()`` returns ``[]``. Cells do not wait for each other
(no global barrier), which keeps a pool busy; a cell's searcher only ever sees its own
trials, whose seeds come from (entropy, cell key, resource, replicate) alone
(:mod:`theorycheck.seeding`), so every executor gives identical results. A cell's own
bookkeeping between ask and tell is :mod:`theorycheck.sweep.cell_rounds`; this module is
the loop that drives all cells' trials through the store and the executor.

Batches. With an executor, the trials to compute wait in one queue (across cells and
across the points a search asked at once) and go out several to a future, about
``batch_seconds`` of measured trial time each (:mod:`theorycheck.sweep.batching`): a
future's fixed cost (pickling, messages, dask's scheduler) then stays small beside its
work. The grouping changes neither what runs nor what the searches are told. Every
trial of a finished batch is stored at once; an interruption loses at most the batches
in flight.

Interruption: on Ctrl-C or a failing trial, trials that already finished are stored,
the others are cancelled, and the exception propagates (a trial's exception is wrapped
in :class:`TrialError` naming the cell, parameters and seed). Running again with the
same store recomputes nothing already stored.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Mapping
import queue
from concurrent.futures import BrokenExecutor, Executor, Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from theorycheck.seeding import check_entropy
from theorycheck.sweep.cell_rounds import (
    CellState,
    PendingTrial,
    checked_requests,
    complete_trial,
    cost_key,
    start_round,
)
from theorycheck.sweep.cells import CellSpec, check_cells, check_shippable, describe_trial
from theorycheck.sweep.progress import ProgressReporter, SweepState, as_progress
from theorycheck.sweep.record import SweepIdentity, TrialRecord
from theorycheck.sweep.result import SweepResult
from theorycheck.sweep.store import MemoryStore, TrialStore
from theorycheck.sweep.batching import TARGET_SECONDS, BatchPlanner
from theorycheck.sweep.trial import execute_batch, execute_trial
from theorycheck.sweep.trial_error import TrialError, trial_failed, workers_died
from theorycheck.sweep.version import defined_outside_package, trial_code_version

__all__ = ["SweepResult", "TrialError", "run_sweep"]


def run_sweep(
    cells: Mapping[str, CellSpec],
    trial: Callable[[dict[str, Any], np.random.SeedSequence], Mapping[str, Any]],
    *,
    entropy: int,
    executor: Executor | None = None,
    store: TrialStore | None = None,
    progress: ProgressReporter | None = None,
    code_version: str | None = None,
    trial_id: str | None = None,
    batch_seconds: float = TARGET_SECONDS,
) -> SweepResult:
    """Run every cell's search to completion (see module docstring).

    ``executor``: any ``concurrent.futures.Executor`` (None: serial in this process);
    ``store``: a :class:`TrialStore`, e.g. a :class:`SqliteStore` to persist and resume (None: a fresh
    :class:`MemoryStore`); ``progress``: e.g. :class:`TerminalProgress` (``True`` for one on
    stderr; None or False: silent);
    ``code_version``: defaults to :func:`theorycheck.sweep.version.trial_code_version`
    (the package's code, and a trial's own files when it lives outside the package);
    ``trial_id``: defaults to :func:`describe_trial`. Entropy, code version and trial id
    form the sweep identity a store is bound to. ``batch_seconds``: measured trial time
    to put in one future (0: one trial per future); it changes no result.
    """
    specs = check_cells(cells)
    if not callable(trial):
        raise ValueError(f"trial must be callable trial(params, seed) -> dict, got {trial!r}")
    if executor is not None and not isinstance(executor, Executor):
        raise ValueError(
            f"executor must be a concurrent.futures.Executor or None, got {type(executor).__name__}"
        )
    if executor is not None and not isinstance(executor, ThreadPoolExecutor):
        check_shippable(trial)  # processes (pools, dask) pickle it; a lambda: ValueError before any work
    reporter = as_progress(progress)
    identity = SweepIdentity(
        entropy=check_entropy(entropy),
        code_version=trial_code_version(trial) if code_version is None else str(code_version),
        trial=describe_trial(trial) if trial_id is None else str(trial_id),
    )
    planner: BatchPlanner[PendingTrial] = BatchPlanner(executor, target_seconds=batch_seconds)
    store = MemoryStore() if store is None else store
    store.bind(identity)
    run = _SweepRun(specs, trial, identity, executor, store, reporter, planner)
    try:
        return run.run()
    finally:
        run.progress.close()


class _SweepRun:
    def __init__(
        self,
        specs: dict[str, CellSpec],
        trial: Callable[..., Any],
        identity: SweepIdentity,
        executor: Executor | None,
        store: TrialStore,
        progress: ProgressReporter,
        planner: BatchPlanner[PendingTrial],
    ) -> None:
        self.cells = [CellState(key, spec) for key, spec in specs.items()]
        self.trial, self.identity, self.executor = trial, identity, executor
        self.store, self.progress, self.planner = store, progress, planner
        self.ready: deque[CellState] = deque(self.cells)
        self.waiting: deque[list[PendingTrial]] = deque()  # to compute, not yet submitted, by round
        self.pending: dict[Future[Any], list[PendingTrial]] = {}
        self.running = 0  # trials in the pending futures
        self.finished: queue.SimpleQueue[Future[Any]] = queue.SimpleQueue()
        self.computed = self.reused = self.order = self.futures = 0
        self.trial_seconds = self.worker_cpu_seconds = 0.0
        self.cells_done = self.trials_in_done_cells = 0
        self.start = time.monotonic()
        self.external = defined_outside_package(trial)  # its errors are the user's code's

    def run(self) -> SweepResult:
        try:
            while self.ready or self.waiting or self.pending:
                while self.ready:
                    self._start_batch(self.ready.popleft())
                self._submit_waiting()
                if self.pending:
                    # futures announce themselves when done: O(1) per future, unlike
                    # concurrent.futures.wait, which re-registers on every pending future
                    future = self.finished.get()
                    tasks = self.pending.pop(future)
                    self.running -= len(tasks)
                    self._finish_batch(tasks, future)
        except BaseException:
            self._salvage()
            raise
        return SweepResult(
            results={c.key: c.spec.search.result() for c in self.cells},
            trials={c.key: tuple(c.records) for c in self.cells},
            identity=self.identity,
            computed=self.computed,
            reused=self.reused,
            seconds=time.monotonic() - self.start,
            futures=self.futures,
            trial_seconds=self.trial_seconds,
            worker_cpu_seconds=self.worker_cpu_seconds,
        )

    def _start_batch(self, cell: CellState) -> None:
        requests = checked_requests(cell)
        if not requests:
            cell.done = True
            self.cells_done += 1
            self.trials_in_done_cells += len(cell.records)
            self._report()
            return
        tasks = start_round(cell, requests, self.identity, self.order)
        self.order += len(tasks)
        group = [task for task in tasks if not self._launch(task)]
        if group:
            self.waiting.append(group)  # one cell's round: the batch planner keeps it together

    def _launch(self, task: PendingTrial) -> bool:
        """Reuse a stored trial or run it here (serial): True; False: it is to submit."""
        stored = self.store.get(task.key)
        if stored is not None:
            self.reused += 1
            self._complete(task, stored)
        elif self.executor is not None:
            return False
        else:
            try:
                outcome = execute_trial(self.trial, task.params, task.seed.entropy, task.seed.spawn_key)
            except Exception as exc:
                raise self._trial_error(task, exc) from exc
            self._record(task, *outcome)
        return True

    def _submit_waiting(self) -> None:
        for tasks in self.planner.plan(self.waiting, len(self.pending), cost_key):
            items = [(t.params, t.seed.entropy, t.seed.spawn_key) for t in tasks]
            try:
                future = self.executor.submit(execute_batch, self.trial, items)
            except BrokenExecutor as exc:
                raise workers_died(exc, external=self.external) from exc
            self.pending[future] = tasks
            self.running += len(tasks)
            self.futures += 1
            future.add_done_callback(self.finished.put)

    def _trial_error(self, task: PendingTrial, error: BaseException) -> TrialError:
        return trial_failed(task.cell.key, task.params, task.seed, error, external=self.external)

    def _finish_batch(self, tasks: list[PendingTrial], future: Future[Any]) -> None:
        error = future.exception()
        if isinstance(error, BrokenExecutor):
            raise workers_died(error, cell=tasks[0].cell.key, params=tasks[0].params,
                               external=self.external) from error
        if error is not None:  # the batch itself failed (e.g. could not be pickled)
            raise self._trial_error(tasks[0], error) from error
        done, failure, cpu = future.result()
        self.worker_cpu_seconds += cpu
        for task, (result, elapsed, cpu_seconds) in zip(tasks, done):
            self.planner.observe(cost_key(task), elapsed, cpu_seconds)
            self._record(task, result, elapsed)
        if failure is not None:
            raise self._trial_error(tasks[len(done)], failure) from failure

    def _record(self, task: PendingTrial, result: dict[str, Any], elapsed: float) -> None:
        record = task.make_record(result)
        self.store.put(record, elapsed)
        self.computed += 1
        self.trial_seconds += elapsed
        self._complete(task, record)

    def _complete(self, task: PendingTrial, record: TrialRecord) -> None:
        if complete_trial(task, record):  # the cell's round is in and told: it asks again
            self.ready.append(task.cell)
        self._report()

    def _trials_cap(self) -> int | None:
        """Finished cells' trials plus every other search's ``max_trials`` (None if one has none)."""
        caps = [len(c.records) if c.done else getattr(c.spec.search, "max_trials", None) for c in self.cells]
        return sum(caps) if all(isinstance(x, int) for x in caps) else None

    def _report(self) -> None:
        self.progress.update(
            SweepState(
                cells_total=len(self.cells),
                cells_done=self.cells_done,
                computed=self.computed,
                reused=self.reused,
                running=self.running,
                trials_in_done_cells=self.trials_in_done_cells,
                elapsed=time.monotonic() - self.start,
                trials_cap=self._trials_cap(),
            )
        )

    def _salvage(self) -> None:
        """After an error or Ctrl-C: store the trials that finished, cancel the rest."""
        for future, tasks in self.pending.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                done, _, _ = future.result()
                for task, (result, elapsed, _) in zip(tasks, done):
                    with contextlib.suppress(Exception):  # best effort while unwinding
                        self.store.put(task.make_record(result), elapsed)
            else:
                future.cancel()
        self.pending.clear()
        self.waiting.clear()

