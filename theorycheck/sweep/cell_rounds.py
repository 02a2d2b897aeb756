"""One cell's rounds of ask/tell: the bookkeeping of a cell between its search's ``ask()``
and ``tell()``, apart from the loop that drives trials through an executor
(:mod:`theorycheck.sweep.engine`).

A round: :func:`checked_requests` takes the search's ``ask()`` (``[(resource, n_new),
...]``, checked); :func:`start_round` turns it into :class:`PendingTrial` s, each requested
trial taking the next replicate index at its resource value (asking the same value again
continues the numbering), its seed from (entropy, cell key, resource, replicate) alone
(:mod:`theorycheck.seeding`) and its store key from the sweep identity
(:func:`theorycheck.sweep.record.trial_key`); :func:`complete_trial` records each
trial's outcome and, once the whole round is in, tells the search
``tell(resource, successes, n_new)`` once per requested entry, in the order asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from theorycheck.seeding import SeedIdentity, normalise_resource, trial_seed
from theorycheck.sweep.cells import CellSpec
from theorycheck.sweep.record import SweepIdentity, TrialRecord, trial_key
from theorycheck.validate import check_int

__all__ = ["CellState", "PendingTrial", "checked_requests", "complete_trial", "cost_key", "start_round"]


@dataclass(eq=False)
class PendingTrial:
    """One requested trial of a cell: where it runs, its seed and store key, and (once in)
    its record."""

    cell: CellState
    resource: int | float
    replicate: int
    params: dict[str, Any]
    order: int
    seed: SeedIdentity
    key: str
    record: TrialRecord | None = None

    def make_record(self, result: dict[str, Any]) -> TrialRecord:
        return TrialRecord(
            key=self.key,
            cell=self.cell.key,
            resource=self.resource,
            replicate=self.replicate,
            params=self.params,
            seed=self.seed,
            result=result,
        )


@dataclass(eq=False)
class CellState:
    """A cell during the sweep: the next replicate index at each resource value, the round
    in flight (``batch``: the requested entries with their trials; ``outstanding``: how
    many are not in yet) and the records told to its search so far."""

    key: str
    spec: CellSpec
    next_replicate: dict[str, int] = field(default_factory=dict)
    batch: list[tuple[Any, list[PendingTrial]]] = field(default_factory=list)
    outstanding: int = 0
    records: list[TrialRecord] = field(default_factory=list)
    done: bool = False


def checked_requests(cell: CellState) -> list[tuple[Any, int]]:
    """The search's next requests ``[(resource, n_new), ...]`` (``[]`` when it is done),
    each checked: a valid resource value and an integer ``n_new >= 1``."""
    if getattr(cell.spec.search, "done", False):
        return []
    requests = cell.spec.search.ask()
    checked = []
    for item in requests:
        try:
            resource, n_new = item
            normalise_resource(resource)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"cell {cell.key!r}: ask() must return [(resource, n_new_trials), ...]; "
                f"got item {item!r} ({exc})"
            ) from None
        n_new = check_int(f"cell {cell.key!r}: the number of new trials ask() requested at "
                          f"{resource!r}", n_new, 1)
        checked.append((resource, n_new))
    return checked


def start_round(cell: CellState, requests: list[tuple[Any, int]], identity: SweepIdentity,
                first_order: int) -> list[PendingTrial]:
    """The trials of one round, in the order asked (numbered from ``first_order`` on),
    with their replicate indices, seeds and store keys; the cell now waits for all of them."""
    tasks: list[PendingTrial] = []
    order = first_order
    for resource, n_new in requests:
        value = normalise_resource(resource)
        token = repr(value)
        first = cell.next_replicate.get(token, 0)
        cell.next_replicate[token] = first + n_new
        entry = []
        for replicate in range(first, first + n_new):
            params = {**cell.spec.params, cell.spec.resource: value}
            seed = trial_seed(identity.entropy, cell.key, value, replicate)
            key = trial_key(identity, cell.key, params, seed)
            entry.append(PendingTrial(cell, value, replicate, params, order, seed, key))
            order += 1
        cell.batch.append((resource, entry))
        tasks.extend(entry)
    cell.outstanding = len(tasks)
    return tasks


def complete_trial(task: PendingTrial, record: TrialRecord) -> bool:
    """Record one trial's outcome; when it was the round's last, tell the search every
    requested entry (successes, trials) in the order asked and return True; a search with
    ``tell_results(resource, [result dict, ...])`` is given the trials' dicts instead."""
    task.record = record
    cell = task.cell
    cell.outstanding -= 1
    if cell.outstanding != 0:
        return False
    tell_results = getattr(cell.spec.search, "tell_results", None)
    for resource, entry in cell.batch:
        records = [t.record for t in entry if t.record is not None]
        if callable(tell_results):  # a search that reads the trials' dicts (per-seed values)
            tell_results(resource, [r.result for r in records])
        else:
            cell.spec.search.tell(resource, int(sum(r.success for r in records)), len(records))
        cell.records.extend(records)
    cell.batch = []
    return True


def cost_key(task: PendingTrial) -> tuple[str, str]:
    """Trials of one cell at one resource value cost alike (the batch planner's unit)."""
    return task.cell.key, repr(task.resource)
