"""Threshold data for tests: measure a trial function's thresholds in several cells.

:func:`measure_dataset` runs one :func:`theorycheck.threshold.find_threshold` search per
cell (THEORY §4: the resource at which the success probability crosses ``q``) and
returns every evaluated point as a :class:`theorycheck.compare.Dataset`, ready for
:func:`theorycheck.testing.assert_threshold_consistent`. :func:`simulated_trial` builds
a deterministic trial function from the token-retrieval simulator
(:func:`theorycheck.simulate.simulate`) whose seeds depend only on the cell, the
resource value and the replicate index (never on call order).

For sweeps larger than a test, use :func:`theorycheck.check.check` (parallel executors,
on-disk store, report) instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["measure_dataset", "simulated_trial"]

Trial = Callable[[Mapping[str, Any], float, int], bool]


def measure_dataset(trial: Trial, cells: Sequence[Mapping[str, float]], *, resource: str = "N",
                    start: float | Callable[[Mapping[str, float]], float], **search_kwargs: Any):
    """Thresholds of ``trial`` in every cell, as a :class:`~theorycheck.compare.Dataset`.

    ``trial(cell, resource_value, replicate) -> bool`` runs one trial (success or not);
    ``cells`` are the parameter settings (``[{"V": 64, "d": 32, "L": 4}, ...]``);
    ``start`` is the first resource value of each search (a number or a function of the
    cell, e.g. a law's predicted threshold); ``search_kwargs`` go to
    :class:`theorycheck.threshold.ThresholdSearch` (``seeds_per_point``, ``max_trials``,
    ``rel_width``, ``integer``, ``q``...). Give ``upper`` (a cap on the resource) when a
    cell may have no threshold at all: the bracketing phase grows the resource
    geometrically with a doubling log step and would otherwise ask for absurd values.

    >>> from theorycheck.planted import planted_trial
    >>> from theorycheck.seeding import seeded_trial
    >>> def trial(cell, n, rep):   # planted: threshold 10*V, transition width 0.1 in log N
    ...     return seeded_trial(planted_trial, {"threshold": 10 * cell["V"], "width": 0.1}, entropy=int(cell["V"]))(n, rep)
    >>> data = measure_dataset(trial, [{"V": 16}, {"V": 64}], start=100, max_trials=40)
    >>> data.variables, len(data.cells)
    (('V',), 2)
    """
    from theorycheck.compare import Dataset
    from theorycheck.threshold import find_threshold

    if not callable(trial):
        raise ValueError(f"trial must be callable trial(cell, resource_value, replicate) -> bool, got {trial!r}")
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
    pairs = []
    for cell in cells:
        first = float(start(cell)) if callable(start) else float(start)
        th = find_threshold(lambda r, i, cell=cell: bool(trial(cell, r, i)), start=first, resource=resource,
                            **search_kwargs)
        pairs.append((cell, th))
    return Dataset.from_thresholds(pairs)


def simulated_trial(algorithm: str = "limit", *, entropy: int = 0, resource: str = "N", **settings: Any) -> Trial:
    """A trial function for :func:`measure_dataset` that runs the retrieval simulator.

    ``trial(cell, value, replicate)`` simulates ``RetrievalParams(**settings, **cell,
    resource=value)`` with ``algorithm`` (``"limit"``, ``"one-step"``, ...) and returns
    ``Outcome.success``. The seed is :func:`theorycheck.seeding.trial_seed` of
    ``(entropy, cell, value, replicate)`` (the cell named by its canonical JSON): the same
    cell, value and replicate give the same trial in any order. ``settings`` hold what the cells do not vary (``embeddings``, ``zeta``,
    ``marker_in_value``, ``target``...). Checked once, before any trial.

    >>> trial = simulated_trial("one-step", embeddings="random")
    >>> trial({"V": 32, "d": 32, "L": 4}, 4000, 0) in (True, False)
    True
    """
    from theorycheck.jsonable import canonical_json
    from theorycheck.registry import get_algorithm, get_task
    from theorycheck.seeding import check_entropy, trial_seed
    from theorycheck.simulate import simulate
    from theorycheck.tasks.retrieval import RetrievalParams

    get_algorithm(algorithm)  # ValueError naming the valid algorithms
    entropy = check_entropy(entropy)
    fields = set(RetrievalParams.__dataclass_fields__)
    unknown = sorted(set(settings) - fields)
    if unknown or resource not in fields:
        raise ValueError(f"unknown retrieval parameter(s) {unknown or [resource]}; known: {sorted(fields)}")
    task = get_task("retrieval")

    def trial(cell: Mapping[str, Any], value: float, replicate: int) -> bool:
        params = task.coerce({**settings, **cell, resource: value})
        seed = trial_seed(entropy, canonical_json(cell), params[resource], replicate).seed_sequence()
        return bool(simulate(RetrievalParams(**params), algorithm, seed=seed).success)

    return trial
