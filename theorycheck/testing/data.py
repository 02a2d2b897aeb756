"""Threshold data for tests: measure a trial function's thresholds in several cells.

:func:`measure_dataset` runs one :class:`theorycheck.threshold.ThresholdSearch` per cell
(docs/theory.md §4: the resource at which the success probability crosses ``q``) through
:func:`theorycheck.sweep.run_sweep`, on any executor, and returns every evaluated point
as a :class:`theorycheck.compare.Dataset`, ready for
:func:`theorycheck.testing.assert_threshold_consistent`. The trial has the one signature
of the package -- ``trial(params, seed) -> bool | dict`` with ``seed`` a
:class:`numpy.random.SeedSequence` derived by the package from (entropy, cell, resource
value, replicate) -- or is a :class:`theorycheck.Task`. :func:`simulated_trial` builds such
a trial from the token-retrieval simulator (:func:`theorycheck.simulate.simulate`).

For sweeps larger than a test, use :func:`theorycheck.check.check` (design, on-disk
store, report) instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["measure_dataset", "simulated_trial"]

Trial = Callable[[dict, np.random.SeedSequence], Any]


def measure_dataset(trial: Any, cells: Sequence[Mapping[str, float]], *, resource: str | None = None,
                    start: float | Callable[[Mapping[str, float]], float], entropy: int = 0,
                    executor=None, **search_kwargs: Any):
    """Thresholds of ``trial`` in every cell, as a :class:`~theorycheck.compare.Dataset`.

    ``trial(params, seed) -> bool | dict`` runs one trial (``params``: the cell plus
    ``{resource: value}``), or ``trial`` is a :class:`theorycheck.Task` (then ``resource``
    defaults to its resource, integers are rounded by their declared kind, and the search
    is on integers iff the resource is one); ``cells`` are the parameter settings
    (``[{"V": 64, "d": 32, "L": 4}, ...]``); ``start`` is the first resource value of
    each search (a number or a function of the cell, e.g. a law's predicted threshold);
    ``entropy`` seeds every trial; ``executor`` as in :func:`theorycheck.sweep.run_sweep`
    (None: serial; a process pool or dask needs a picklable top-level trial);
    ``search_kwargs`` go to :class:`theorycheck.threshold.ThresholdSearch`
    (``seeds_per_point``, ``max_trials``, ``rel_width``, ``integer``, ``q``...). Give
    ``upper`` (a cap on the resource) when a cell may have no threshold at all: the
    bracketing phase grows the resource geometrically with a doubling log step and would
    otherwise ask for absurd values.

    >>> from theorycheck.planted import success_probability
    >>> def trial(params, seed):   # planted: threshold 10*V, transition width 0.1 in log N
    ...     p = success_probability(params["N"], 10 * params["V"], width=0.1)
    ...     return bool(np.random.default_rng(seed).random() < p)
    >>> data = measure_dataset(trial, [{"V": 16}, {"V": 64}], start=100, max_trials=40)
    >>> data.variables, len(data.cells)
    (('V',), 2)
    """
    from theorycheck.compare import Dataset
    from theorycheck.registry import Task
    from theorycheck.sweep import CellSpec, run_sweep
    from theorycheck.threshold import ThresholdSearch

    task = trial if isinstance(trial, Task) else None
    function = task.trial if task is not None else trial
    if not callable(function):
        raise ValueError(f"trial must be a theorycheck.Task or callable trial(params, seed) -> bool | dict, "
                         f"got {trial!r}")
    resource = resource or (task.resource if task is not None else "N")
    cells = [dict(c) for c in cells] if isinstance(cells, Sequence) and not isinstance(cells, str) else None
    if not cells or not all(isinstance(c, dict) and c for c in cells):
        raise ValueError("cells must be a non-empty list of {variable: value} mappings, "
                         "e.g. [{'V': 64, 'd': 32}, {'V': 128, 'd': 32}]")
    names = sorted(cells[0])
    if any(sorted(c) != names for c in cells):
        raise ValueError(f"every cell must set the same variables {names}; got {[sorted(c) for c in cells]}")
    if resource in names:
        raise ValueError(f"the resource {resource!r} must not be a cell variable (it is what the search varies)")
    if not callable(start) and not (isinstance(start, (int, float)) and not isinstance(start, bool) and start > 0):
        raise ValueError(f"start must be a positive number or a function cell -> number, got {start!r}")
    if task is not None:
        search_kwargs.setdefault("integer", task.kind(resource) != "real")
        cells = [task.coerce(c) for c in cells]  # the values the trial runs are the values recorded
    specs = {}
    for i, cell in enumerate(cells):
        first = float(start(cell)) if callable(start) else float(start)
        key = f"cell{i:02d}:" + ",".join(f"{k}={cell[k]!r}" for k in names)
        specs[key] = CellSpec(cell, resource, ThresholdSearch(start=first, resource=resource, **search_kwargs))
    sweep = run_sweep(specs, function, entropy=entropy, executor=executor)
    return Dataset.from_thresholds([(cell, sweep.results[key]) for cell, key in zip(cells, specs, strict=True)])


def _simulated_success(params: dict[str, Any], seed: np.random.SeedSequence, *, algorithm: str,
                       entropy: int, settings: dict[str, Any]) -> bool:
    """Success of one retrieval trial of ``algorithm`` at ``{**settings, **params}``; the
    simulator's seed mixes ``entropy`` into the package's seed."""
    from theorycheck.seeding import mixed_seed
    from theorycheck.tasks.retrieval_task import retrieval_trial

    return bool(retrieval_trial({**settings, **params, "algorithm": algorithm}, mixed_seed(seed, entropy))["success"])


def simulated_trial(algorithm: str = "limit", *, entropy: int = 0, **settings: Any) -> Trial:
    """A picklable trial ``trial(params, seed) -> bool`` that runs the retrieval simulator.

    ``trial(params, seed)`` simulates ``RetrievalParams(**settings, **params)`` with
    ``algorithm`` (``"limit"``, ``"one-step"``, ...) and returns ``Outcome.success``; its
    randomness comes from ``seed`` (a SeedSequence) and ``entropy`` alone, so the same
    arguments give the same trial in any order, on any executor. ``settings`` hold what
    the cells do not vary (``embeddings``, ``zeta``, ``marker_in_value``, ``target``...).
    Checked once, before any trial.

    >>> trial = simulated_trial("one-step", embeddings="random")
    >>> trial({"V": 32, "d": 32, "L": 4, "N": 4000}, np.random.SeedSequence(0)) in (True, False)
    True
    """
    from theorycheck.registry import get_algorithm
    from theorycheck.seeding import check_entropy
    from theorycheck.tasks.retrieval import RetrievalParams

    get_algorithm(algorithm)  # ValueError naming the valid algorithms
    entropy = check_entropy(entropy)
    fields = set(RetrievalParams.__dataclass_fields__)
    unknown = sorted(set(settings) - fields)
    if unknown:
        raise ValueError(f"unknown retrieval parameter(s) {unknown}; known: {sorted(fields)}")
    return functools.partial(_simulated_success, algorithm=algorithm, entropy=entropy, settings=dict(settings))
