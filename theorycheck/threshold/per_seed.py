"""Per-seed critical values of ``N`` on nested training data (docs/theory.md §4).

For the retrieval task the first ``n`` training sequences of a seed are the same for
every ``N >= n`` (:mod:`theorycheck.tasks.retrieval`), and the embeddings and the test
set do not depend on ``N`` (:mod:`theorycheck.simulate`).  So one seed is one
realisation of a whole success curve ``N ↦ success(N)``, and its *critical value* is the
smallest ``N`` of a grid from which the trial succeeds.  The threshold at ``q`` is the
``q``-quantile of the critical values (:func:`theorycheck.threshold.quantile.quantile_threshold`).

**What is shared across ``N`` and what is not.**  The data are drawn and sorted by
label once, at the grid's largest ``N`` (:class:`~theorycheck.algorithms.label_blocks.SortedTokens`);
every ``N`` then reads a prefix of it.  Of the limit's statistics only pass 1 is a
prefix sum (``C``, ``c`` and so ``N L G₁(N)``).  Pass 2 is not: ``g(N)`` sums
``s_{n,i} = Q_N[y_n, x_i] − mean_j Q_N[y_n, x_j]`` with ``Q_N = W G₁(N) Eᵀ``, and the
per-sequence mean couples ``G₁(N)`` to every token pair of a sequence (a third-order
statistic, ``V³`` or ``d³`` numbers), so ``g(N)`` is recomputed by a pass over the
``N`` sequences; pass 3 needs the attention of ``g(N)``, also recomputed.  Each
evaluation is therefore exact (bit-for-bit the fit :func:`theorycheck.simulate.simulate`
makes at that ``N`` when the data are cached in both) and costs one trial without its
data draw.  The number of evaluations is kept small instead: a galloping search from a
hint (the running median of the seeds done so far) then bisection, ``~2 + 2 log₂``
(distance from the hint in grid steps) evaluations.  This assumes that a seed's success
is monotone in ``N``; ``scan=True`` evaluates every grid point and reports seeds whose
success flips back (non-monotone).

**Measured** (``bench/bench_per_seed.py``, cells (32, 128, 4) and (64, 128, 8), τ = 0.99):
an evaluation costs about one trial (~0.9 trial-equivalents), a seed ~6-7 of them
without ``verify``, and reaching the CI width of a 160-trial Bernoulli search took 37-44 seeds, 190-310
trial-equivalents: no cheaper than the Bernoulli search.  And 6 of 10 seeds scanned over
the whole grid were *not* monotone (with ``V`` test sequences and τ = 0.99 one test
sequence flipping decides success), so the bisection finds *a* crossing and the
quantile of these crossings lies below the Bernoulli threshold (2300 vs 2674 at
(32, 128, 4)).  The exact per-``N`` statistics and the quantile CI are sound; the
premise "success is monotone in ``N`` per seed" is not, at these cells.  Hence
``verify=True`` (default): after the search, ``O(log K)`` points above the critical value
are checked and the search resumes past any failure.  At (32, 128, 4) it saw flips in 9
of 25 seeds and moved the estimate to 2616 (CI 2300-2851, Bernoulli 2674, CI 2391-2986),
at ~15 evaluations per seed (25 seeds: 277 trial-equivalents against 200 for the
Bernoulli search with the same CI width).  **In the paper's regime** ((2048, 512, 128),
``marker_in_value=False``) every scanned seed was monotone, but an evaluation costs 0.91-0.97
trial-equivalents (the ``V²·d`` products dominate), and a seed carries the information of at
most ~1.6 Bernoulli trials at the threshold: per-seed values cannot be cheaper there
(docs/thresholds.md, "Per-seed critical values").
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from theorycheck.algorithms.label_blocks import SortedTokens
from theorycheck.algorithms.limit import check_beta, limit_on_prefix
from theorycheck.algorithms.one_step import one_step_on_prefix
from theorycheck.seeding import seed_record
from theorycheck.tasks.retrieval import RetrievalParams
from theorycheck.simulate import trial_draws
from theorycheck.threshold.first_success import first_success, verified_first_success
from theorycheck.threshold.quantile import quantile_threshold

__all__ = ["SeedCritical", "geometric_grid", "critical_value", "critical_values", "per_seed_threshold"]

NESTED_ALGORITHMS = ("limit", "one-step")


def geometric_grid(start: int, stop: int, per_doubling: int = 8) -> np.ndarray:
    """Integers from ``start`` to ``stop`` (both included), ``per_doubling`` points per
    factor 2 (ratio ``2**(1/per_doubling)``), rounded and de-duplicated."""
    for name, v in (("start", start), ("stop", stop), ("per_doubling", per_doubling)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
            raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
    if stop < start:
        raise ValueError(f"stop must be >= start, got start={start}, stop={stop}")
    count = max(1, math.ceil(per_doubling * math.log2(stop / start))) + 1
    return np.unique(np.rint(np.geomspace(start, stop, count)).astype(np.int64))


@dataclass(frozen=True)
class SeedCritical:
    """One seed's critical value: ``critical`` (smallest grid ``N`` from which the trial
    succeeds; ``inf`` if it never does on the grid), ``evaluated`` ``((N, accuracy,
    success), ...)`` sorted by ``N``, ``monotone`` (``False`` when an evaluated success
    is followed by a failure at a larger ``N``), ``cpu_seconds``."""

    seed: int | dict
    critical: float
    evaluated: tuple[tuple[int, float, bool], ...]
    monotone: bool
    cpu_seconds: float


def _check_grid(grid) -> np.ndarray:
    g = np.asarray(grid)
    if g.ndim != 1 or g.size == 0 or not np.issubdtype(g.dtype, np.integer) or (g < 1).any() \
            or (np.diff(g) <= 0).any():
        raise ValueError(f"grid must be a non-empty increasing 1-d array of integers >= 1, got {grid!r}")
    return g.astype(np.int64)


class _Evaluator:
    """Success of one seed at any grid ``N``, from one draw of the data at ``max(grid)``."""

    def __init__(self, params, seed, n_max, algorithm, beta, threads, cache_bytes):
        self.params, self.algorithm, self.beta = params, algorithm, beta
        emb, train_seed, self.test = trial_draws(params, seed)
        self.data = SortedTokens(params.replace(N=int(n_max)), emb, train_seed,
                                 threads=threads, cache_bytes=cache_bytes)

    def __call__(self, N: int) -> tuple[float, bool]:
        if self.algorithm == "limit":
            fit = limit_on_prefix(self.data, N, beta=self.beta)
        else:
            fit = one_step_on_prefix(self.data, N)
        labels, _ = fit.predict(self.test)
        accuracy = float(np.mean(labels == self.test.labels))
        return accuracy, bool(accuracy >= self.params.target)


def critical_value(params: RetrievalParams, seed, grid, *, algorithm: str = "limit",
                   beta: float = math.inf, hint: int | None = None, scan: bool = False,
                   verify: bool = True, threads: int = 1,
                   cache_bytes: int | None = None) -> SeedCritical:
    """Critical ``N`` of one seed on ``grid`` (see the module docstring).  ``params.N``
    is ignored; ``algorithm`` ``"limit"`` (option ``beta``) or ``"one-step"``;
    ``hint``: grid index to start the search from; ``scan``: evaluate every point;
    ``verify``: after the search, check ``O(log K)`` points above the critical value and
    search again above any failure (catches most flips back at ``O(log K)`` more cost)."""
    if not isinstance(params, RetrievalParams) or params.model != "attention":
        raise ValueError(f"per-seed critical values need RetrievalParams with model='attention', got {params!r}")
    if algorithm not in NESTED_ALGORITHMS:
        raise ValueError(
            f"per-seed critical values support algorithm in {NESTED_ALGORITHMS}, got {algorithm!r}; "
            "use the Bernoulli threshold search for the others"
        )
    beta = check_beta(beta)
    g = _check_grid(grid)
    cpu = time.process_time()
    evaluate = _Evaluator(params, seed, g[-1], algorithm, beta, threads, cache_bytes)
    results: dict[int, tuple[float, bool]] = {}

    def success(i: int) -> bool:
        if i not in results:
            results[i] = evaluate(int(g[i]))
        return results[i][1]

    index = first_success(success, len(g), hint, scan)
    if verify and not scan:
        index = verified_first_success(success, len(g), index)
    evaluated = tuple((int(g[i]), *results[i]) for i in sorted(results))
    flags = [ok for _, _, ok in evaluated]
    monotone = not any(a and not b for a, b in zip(flags, flags[1:]))
    return SeedCritical(seed=seed_record(seed), critical=float(g[index]) if index < len(g) else math.inf,
                        evaluated=evaluated, monotone=monotone,
                        cpu_seconds=time.process_time() - cpu)


def critical_values(params: RetrievalParams, seeds, grid, **options) -> list[SeedCritical]:
    """:func:`critical_value` for every seed in ``seeds``; each search starts from the
    grid index of the running median of the previous seeds' critical values."""
    g = _check_grid(grid)
    out: list[SeedCritical] = []
    for seed in seeds:
        hint = None
        if out:
            med = float(np.median([c.critical for c in out]))
            hint = len(g) - 1 if math.isinf(med) else int(np.searchsorted(g, med))
        out.append(critical_value(params, seed, g, hint=hint, **options))
    return out


def per_seed_threshold(params: RetrievalParams, seeds, grid, *, q: float = 0.5, level: float = 0.95,
                       **options):
    """``(Threshold, [SeedCritical, ...])``: the ``q``-quantile of the seeds' critical
    values with its order-statistic CI (:func:`quantile_threshold`)."""
    g = _check_grid(grid)
    found = critical_values(params, seeds, g, **options)
    result = quantile_threshold([c.critical for c in found], q, level, start=float(g[0]),
                                non_monotone=sum(not c.monotone for c in found))
    return result, found
