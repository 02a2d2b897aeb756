"""Synthetic success/failure data from a known ("planted") threshold law.

The control of docs/architecture.md ("Planted laws"): data drawn from a law whose
exponents, constant and transition width are known must come back ``consistent`` with
it. The planted model is the **probit** in log resource, the same model the threshold
fits assume (docs/theory.md §4): a trial at resource ``r`` in a cell with planted
threshold ``r*`` (the resource at success probability ``q``) succeeds with

    P(success) = Phi(z_q + (log r - log r*) / width)        (``-`` if success decreases)

so ``width`` is the probit transition width in log resource: P goes from
``Phi(z_q - 1)`` to ``Phi(z_q + 1)`` over ``r* e^{-width} .. r* e^{width}``.

* :func:`planted_trial` is the one generator: a trial ``(params, seed) -> dict`` in the
  form every sweep and check runs (bind it to ``(resource, replicate) -> bool`` for a
  bare :class:`~theorycheck.threshold.ThresholdSearch` with
  :func:`theorycheck.seeding.seeded_trial`);
* :func:`planted_dataset` draws whole binomial datasets from the same probability.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from scipy.stats import norm

from theorycheck.seeding import seed_sequence
from theorycheck.validate import check_bool, check_int, check_open_unit, check_positive

if TYPE_CHECKING:  # for the annotation only: planted_dataset imports it when called
    from theorycheck.compare.data import Dataset

ThresholdFunction = Callable[[Mapping[str, np.ndarray]], np.ndarray]


DEFAULT_WIDTH = 0.25
"""Probit width of :func:`planted_trial` when ``params`` give none: ``P(T/2) = Phi(-2.8)``."""


def _check_width_q(width: object, q: object) -> tuple[float, float]:
    return (check_positive("width", width, " (probit width in log resource)"),
            check_open_unit("q", q))


def success_probability(
    resource: Any, threshold: Any, *, width: float, q: float = 0.5, increasing: bool = True
) -> np.ndarray:
    """``Phi(z_q +- (log r - log r*)/width)`` (see module docstring), vectorised."""
    width, q = _check_width_q(width, q)
    x = (np.log(np.asarray(resource, dtype=float)) - np.log(np.asarray(threshold, dtype=float))) / width
    return norm.cdf(norm.ppf(q) + (x if increasing else -x))


def planted_trial(params: Mapping[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """One Bernoulli draw with the planted probit probability (module docstring).

    ``params``: ``threshold`` (the planted ``r*``, required), the resource value under
    ``params[params.get("resource_name", "N")]``, optional ``width`` (default
    :data:`DEFAULT_WIDTH`), ``q`` (0.5), ``increasing`` (True) and ``sleep`` (seconds of
    simulated work, for benchmarks and interruption tests). Returns ``{"success",
    "p_success", "draw"}`` where ``draw`` is the first uniform of ``default_rng(seed)``
    and ``success = draw < p_success``. Pure apart from the optional sleep.
    """
    name = params.get("resource_name", "N")
    threshold = check_positive("threshold", params.get("threshold"), " (the planted r*)")
    resource = check_positive(f"resource {name}", params.get(name))
    p = float(success_probability(
        resource, threshold, width=params.get("width", DEFAULT_WIDTH), q=params.get("q", 0.5),
        increasing=check_bool("increasing", params.get("increasing", True)),
    ))
    sleep = float(params.get("sleep", 0.0))
    if sleep > 0:
        time.sleep(sleep)
    draw = float(np.random.default_rng(seed).random())
    return {"success": draw < p, "p_success": p, "draw": draw}


def _threshold_function(law: Any, constants: Mapping[str, float] | None) -> tuple[ThresholdFunction, tuple[str, ...], bool | None, str | None]:
    if isinstance(law, str):  # a law string or catalogue id, as check() and the testing helpers take
        from theorycheck.catalogue import as_law

        law = as_law(law)[0]
    if hasattr(law, "evaluate") and hasattr(law, "variables"):
        names = tuple(law.variables)

        def f(values: Mapping[str, np.ndarray]) -> np.ndarray:
            return np.asarray(law.evaluate({v: values[v] for v in names}, constants), dtype=float)

        return f, names, getattr(law, "sense", ">=") == ">=", law.resource
    if callable(law):
        if constants:
            raise ValueError("constants apply to a Law; bake them into the threshold function instead")
        return law, (), None, None
    raise ValueError(f"law must be a theorycheck Law or a function values -> threshold, got {law!r}")


def _cells(grid: Mapping[str, Sequence[float]] | None, cells: Sequence[Mapping[str, float]] | None) -> list[dict[str, float]]:
    if (grid is None) == (cells is None):
        raise ValueError("give exactly one of grid={var: values} (Cartesian product) or cells=[{var: value}, ...]")
    if grid is not None:
        if not isinstance(grid, Mapping) or not grid:
            raise ValueError(f"grid must be a non-empty mapping var -> values, got {grid!r}")
        names = sorted(grid)
        for name in names:
            if isinstance(grid[name], (str, bytes)) or not isinstance(grid[name], Iterable) \
                    or len(list(grid[name])) == 0:
                raise ValueError(f"grid[{name!r}] must be a non-empty sequence of values, got {grid[name]!r}")
        return [dict(zip(names, combo)) for combo in itertools.product(*(list(grid[n]) for n in names))]
    out = [dict(c) for c in cells]  # type: ignore[union-attr]
    if not out:
        raise ValueError("cells must be a non-empty sequence of {var: value} mappings")
    return out


def planted_dataset(
    law: Any,
    *,
    grid: Mapping[str, Sequence[float]] | None = None,
    cells: Sequence[Mapping[str, float]] | None = None,
    constants: Mapping[str, float] | None = None,
    width: float = 0.1,
    q: float = 0.5,
    multipliers: Sequence[float] | None = None,
    resources: Sequence[float] | None = None,
    trials: int = 8,
    seed: int = 0,
    resource: str | None = None,
    increasing: bool | None = None,
    integer: bool = False,
) -> Dataset:
    """Binomial data from a planted threshold law (see module docstring).

    ``law``: a :class:`theorycheck.law.Law` (evaluated with ``constants``) or a function
    ``values -> threshold`` (then name the ``resource``). Cells: ``grid`` (Cartesian
    product) or explicit ``cells``; parameters the law does not use are allowed (their
    true exponent is 0). Resource values per cell: the planted threshold times
    ``multipliers`` (default ``exp(width * [-2, -1.5, ..., 2])``), or absolute
    ``resources`` shared by all cells; ``integer`` rounds them. ``trials`` per point.
    """
    width, q = _check_width_q(width, q)
    f, needed, law_increasing, law_resource = _threshold_function(law, constants)
    resource = resource or law_resource or "N"
    increasing = law_increasing if increasing is None else bool(increasing)
    increasing = True if increasing is None else increasing
    trials = check_int("trials", trials, 1)
    cell_list = _cells(grid, cells)
    names = sorted(cell_list[0])
    for c in cell_list:
        if sorted(c) != names:
            raise ValueError(f"every cell must give the same parameters {names}, got {sorted(c)}")
    missing = [v for v in needed if v not in names]
    if missing:
        raise ValueError(f"the law needs {missing}, which the grid/cells do not give; add them (a single value is fine)")
    values = {n: np.asarray([c[n] for c in cell_list], dtype=float) for n in names}
    thresholds = np.asarray(f(values), dtype=float)
    if thresholds.shape != (len(cell_list),) or not np.all(np.isfinite(thresholds) & (thresholds > 0)):
        raise ValueError("the threshold function must return one positive finite value per cell")
    if resources is not None and multipliers is not None:
        raise ValueError("give multipliers (relative to each cell's threshold) or resources (absolute), not both")
    rel = np.exp(width * np.linspace(-2.0, 2.0, 9)) if multipliers is None else np.asarray(multipliers, float)
    rng = np.random.default_rng(seed_sequence(seed))
    rows = []
    for i, cell in enumerate(cell_list):
        grid_r = thresholds[i] * rel if resources is None else np.asarray(resources, dtype=float)
        if integer:
            grid_r = np.unique(np.maximum(np.round(grid_r), 1.0))
        if not np.all(np.isfinite(grid_r) & (grid_r > 0)):
            raise ValueError("resource values must be positive and finite")
        p = success_probability(grid_r, thresholds[i], width=width, q=q, increasing=increasing)
        k = rng.binomial(int(trials), p)
        for r, kk in zip(grid_r, k):
            rows.append({**cell, resource: float(r), "successes": int(kk), "trials": int(trials)})
    from theorycheck.compare.data import Dataset

    return Dataset.from_rows(rows, resource=resource, variables=names, increasing=increasing)
