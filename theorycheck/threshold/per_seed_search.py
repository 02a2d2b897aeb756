"""Thresholds from per-seed critical values, for the sweep engine (``check --thresholds per-seed``).

For a task whose data are nested in the resource (``Task(nested=("N",))``: the first
``n`` samples of a seed are the same for every ``N >= n``), one seed is one realisation of
a whole success curve, and its critical value ``c`` is the smallest resource value of a
lattice from which it succeeds.  The threshold at ``q`` is the ``q``-quantile of the
seeds' critical values, with the distribution-free order-statistic CI
(:mod:`theorycheck.threshold.quantile`): no link function, no shape assumed for the
success curve; only that each seed's success is monotone, which
:func:`~theorycheck.threshold.first_success.verified_first_success` checks near the
crossing (``horizon``: one doubling above it by default).

Two pieces, one per side of the sweep engine (:mod:`theorycheck.sweep`):

* :class:`CriticalTrial` wraps the task's trial: one call is one seed's whole search
  (galloping from a hint, then bisection, then the check), each evaluation the task's own
  trial at a lattice value with the *same* seed.  Nothing task-specific: any task that
  declares its data nested can use it.
* :class:`PerSeedSearch` asks for rounds of seeds and reads their critical values
  (``tell_results``).  The value it asks at is the hint (the running estimate, on the
  lattice): it starts the seed's search there, and it is part of the seed's identity, so
  serial, parallel and resumed sweeps run the same seeds.

**Lattice.** ``start * 2**(k / per_doubling)`` for integer ``k``, between ``low`` and
``high``, rounded for an integer resource; ``per_doubling`` defaults to a step of a third
of the target CI width (``rel_width``), so the rounding (a critical value is rounded *up*
to the lattice) costs little: the reported CI's lower end is moved down by one step to
cover it.

**Cost** (docs/thresholds.md, "Per-seed critical values: when they pay"): a seed costs
~5-15 evaluations, each about one trial, and carries the information of at most ~1.6
Bernoulli trials at the threshold; so per-seed thresholds are *slower* than the
Bernoulli search for the same CI width.  What they buy is a CI that holds for any shape of
the success curve, and a per-seed record of where each seed crossed.  A task that grows the
resource in one pass (``Task(scan=...)``, e.g. the linear memory in ``d``) is read by
ascending scans instead, about 1.7-2.5x cheaper a seed, still dearer than the Bernoulli
search from ``V = 1024`` on (docs/thresholds.md, "Per-seed in ``d``").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import numpy as np

from theorycheck.seeding import SeedIdentity
from theorycheck.sweep.trial import execute_trial
from theorycheck.threshold.first_success import first_success, scanned_first_success, verified_first_success
from theorycheck.threshold.glm import check_q_level
from theorycheck.threshold.quantile import quantile_threshold
from theorycheck.threshold.result import Threshold
from theorycheck.validate import check_int, check_positive

__all__ = ["LATTICE_KEY", "lattice", "CriticalTrial", "PerSeedSearch"]

#: The trial parameter that carries the lattice (the wrapper removes it before the task sees it).
LATTICE_KEY = "per_seed_lattice"
#: A scanning task's coarse pass reads about this many lattice points per doubling, its fine
#: pass every point of the last step (each point read costs a pass over the scan's state).
SCAN_PER_DOUBLING = 8
#: The lattice reaches this factor below the start at most (a law's constant may be far off).
REACH_BELOW = 1024.0


def lattice(start: float, low: float, high: float, per_doubling: int, integer: bool) -> np.ndarray:
    """The values ``start * 2**(k / per_doubling)`` in ``[low, high]``, increasing
    (rounded and de-duplicated when ``integer``)."""
    k = np.arange(math.ceil(per_doubling * math.log2(low / start) - 1e-9),
                  math.floor(per_doubling * math.log2(high / start) + 1e-9) + 1)
    values = start * np.exp2(k / per_doubling)
    if integer:
        values = np.unique(np.rint(values).astype(np.int64))
        values = values[(values >= low) & (values <= high)]
    if values.size == 0:
        raise ValueError(f"the lattice from {start!r} between {low!r} and {high!r} is empty; "
                         "widen the range")
    return values


class CriticalTrial:
    """``trial(params, seed)`` -> one seed's critical value on the lattice in
    ``params[LATTICE_KEY]``, searched from ``params[resource]`` by calling the task's
    ``trial`` with the same seed at each lattice value it needs.  Returns ``{"success":
    a critical value was found, "critical": it or None, "monotone": no evaluated
    failure above an evaluated success, "evaluated": [[value, success], ...]}``.
    Picklable when ``trial`` is (worker processes, dask)."""

    def __init__(self, trial: Callable[[dict, Any], Any], resource: str,
                 scan: Callable[..., Any] | None = None, cost: Callable[..., float] | None = None) -> None:
        from theorycheck.sweep.cells import describe_trial

        self.trial, self.resource, self.scan, self.cost = trial, str(resource), scan, cost
        # what the sweep identity (and so the trial store) names this by
        self.__module__ = __name__
        self.__qualname__ = (f"CriticalTrial[{describe_trial(trial)},{self.resource}"
                             f"{',scan' if scan is not None else ''}]")

    def __reduce__(self):
        return (CriticalTrial, (self.trial, self.resource, self.scan, self.cost))

    def __call__(self, params: dict, seed: np.random.SeedSequence) -> dict[str, Any]:
        params = dict(params)
        spec = dict(params.pop(LATTICE_KEY))
        horizon = spec.pop("horizon")
        grid = lattice(**spec)
        K = len(grid)
        hint = int(np.clip(np.searchsorted(grid, params[self.resource]), 0, K - 1))
        identity = SeedIdentity(seed.entropy, tuple(seed.spawn_key))
        scanned = self._scanned(params, identity, grid, hint, horizon, spec["per_doubling"])
        if scanned is not None:
            return scanned
        outcomes: dict[int, bool] = {}

        def success(i: int) -> bool:
            if i not in outcomes:
                value = grid[i].item()
                result, _ = execute_trial(self.trial, {**params, self.resource: value}, identity.entropy,
                                          identity.spawn_key)
                outcomes[i] = bool(result["success"])
            return outcomes[i]

        index = verified_first_success(success, K, first_success(success, K, hint), horizon)
        return _critical_result(grid, index, outcomes, float(len(outcomes)))

    def _scanned(self, params: dict, identity: SeedIdentity, grid: np.ndarray, hint: int,
                 horizon: int, per_doubling: int) -> dict[str, Any] | None:
        """The search by ascending scans (``Task(scan=...)``,
        :func:`~theorycheck.threshold.first_success.scanned_first_success`): a coarse pass
        (``SCAN_PER_DOUBLING`` points a doubling) from half a doubling below the hint, then
        the fine points of its last step; None where the task has no scan for these params.  Its
        ``cost`` is in trials at the hint: each scan's cost by the task's ``cost`` at the
        last value it reached (one trial there; one per scan without a ``cost``)."""
        if self.scan is None:
            return None
        if self.scan(params, identity.seed_sequence(), self.resource, grid[hint:hint + 1].tolist()) is None:
            return None
        index, outcomes, tops = scanned_first_success(
            lambda indices: self.scan(params, identity.seed_sequence(), self.resource, grid[indices].tolist()),
            len(grid), hint, horizon, max(1, per_doubling // 2), max(1, per_doubling // SCAN_PER_DOUBLING))
        at = lambda i: {**params, self.resource: grid[i].item()}  # noqa: E731
        cost = (sum(self.cost(at(t)) for t in tops) / self.cost(at(hint)) if self.cost is not None
                else float(len(tops)))
        return _critical_result(grid, index, outcomes, cost)


def _critical_result(grid: np.ndarray, index: int, outcomes: Mapping[int, bool], cost: float) -> dict[str, Any]:
    """A seed's result (:class:`CriticalTrial`'s dict) from the lattice index found (``len(grid)``:
    none), the outcomes read by lattice index, and their cost in trials."""
    read = sorted(outcomes)
    flags = [outcomes[i] for i in read]
    return {
        "success": index < len(grid),
        "critical": grid[index].item() if index < len(grid) else None,
        "monotone": not any(a and not b for a, b in zip(flags, flags[1:])),
        "evaluated": [[grid[i].item(), outcomes[i]] for i in read],
        "cost": cost,
    }


class PerSeedSearch:
    """Ask/tell search of one cell's threshold from per-seed critical values (module
    docstring).  ``start``: the first hint; ``lower``/``upper``: the resource's range
    (the lattice reaches ``start / REACH_BELOW`` at most); ``seeds_per_round``: seeds asked
    per round; ``max_evaluations``: stop once the seeds so far cost this many trials (the
    budget; a seed costs its evaluations, or a scanning task's ``cost``); ``rel_width``: stop
    once ``log(hi/lo)`` of the CI is at most this; ``min_seeds``: never stop on the width
    before this many seeds."""

    def __init__(self, start: float, *, lower: float | None = None, upper: float | None = None,
                 q: float = 0.5, level: float = 0.95, seeds_per_round: int = 4,
                 max_evaluations: int = 480, rel_width: float = 0.06, integer: bool = True,
                 resource: str = "N", per_doubling: int | None = None, horizon: int | None = None,
                 min_seeds: int = 8) -> None:
        self.q, self.level = check_q_level(q, level)
        start = check_positive("start", start)
        self.rel_width = check_positive("rel_width", rel_width)
        self.per_doubling = check_int("per_doubling", per_doubling, 1) if per_doubling is not None \
            else max(4, math.ceil(3 * math.log(2) / self.rel_width))
        self.horizon = check_int("horizon", horizon, 1) if horizon is not None else self.per_doubling
        self.seeds_per_round = check_int("seeds_per_round", seeds_per_round, 1)
        self.max_evaluations = check_int("max_evaluations", max_evaluations, 1)
        self.min_seeds = check_int("min_seeds", min_seeds, 1)
        low = max(float(lower) if lower else (1.0 if integer else 0.0), start / REACH_BELOW)
        high = float(upper) if upper is not None and math.isfinite(upper) else start * REACH_BELOW
        self.spec = {"start": float(start), "low": low, "high": max(high, low),
                     "per_doubling": self.per_doubling, "integer": bool(integer)}
        self.grid = lattice(**self.spec)
        self.resource = resource
        self.critical: list[float] = []
        self.points: dict[float, list[int]] = {}
        self.flips = 0
        self.spent = 0.0  # the seeds' cost in trials (CriticalTrial's "cost")
        self.done = False
        self._hint = float(start)

    @property
    def trial_params(self) -> dict[str, Any]:
        """The parameter :class:`CriticalTrial` reads the lattice from."""
        return {LATTICE_KEY: {**self.spec, "horizon": self.horizon}}

    @property
    def evaluations(self) -> int:
        return sum(n for _, n in self.points.values())

    def ask(self) -> list[tuple[float, int]]:
        if self.done:
            return []
        i = int(np.clip(np.searchsorted(self.grid, self._hint), 0, len(self.grid) - 1))
        return [(self.grid[i].item(), self.seeds_per_round)]

    def tell(self, resource: float, successes: int, trials: int) -> None:
        raise TypeError("PerSeedSearch reads each seed's critical value: the sweep calls tell_results")

    def tell_results(self, resource: float, results: list[Mapping[str, Any]]) -> None:
        """Record the seeds' results (:class:`CriticalTrial`'s dicts) and decide whether to stop."""
        for r in results:
            self.spent += float(r.get("cost", len(r["evaluated"])))
            self.critical.append(math.inf if r["critical"] is None else float(r["critical"]))
            self.flips += not r["monotone"]
            for value, ok in r["evaluated"]:
                point = self.points.setdefault(float(value), [0, 0])
                point[0] += bool(ok)
                point[1] += 1
        current = self.result()
        if current.estimate is not None:
            self._hint = current.estimate
        elif any(math.isfinite(c) for c in self.critical):
            self._hint = max(c for c in self.critical if math.isfinite(c))
        n = len(self.critical)
        self.done = (self.spent >= self.max_evaluations
                     or (n >= self.min_seeds and (current.censored is not None
                                                 or current.log_ci_width <= self.rel_width)))

    def result(self) -> Threshold:
        """The ``q``-quantile of the critical values so far; the CI's lower end moved down
        by one lattice step (a critical value is rounded up to the lattice)."""
        points = tuple((r, k, n) for r, (k, n) in sorted(self.points.items()))
        if not self.critical:
            return Threshold(estimate=None, ci=(0.0, math.inf), q=self.q, points=points, level=self.level,
                             method="quantile", resource=self.resource,
                             warnings=("no seed has been run yet",))
        th = quantile_threshold(self.critical, self.q, self.level, start=float(self.grid[0]),
                                resource=self.resource, non_monotone=self.flips)
        step = 2.0 ** (1.0 / self.per_doubling)
        note = (f"lattice of {self.per_doubling} values per doubling; the CI's lower end is moved down "
                f"one step ({step:.4f}x) for the rounding; {self.evaluations} evaluations over "
                f"{len(self.critical)} seeds")
        if self.spent != self.evaluations:
            note += f", costing about {self.spent:.0f} trials (the task scans the resource)"
        return replace(th, ci=(th.ci[0] / step, th.ci[1]), points=points, notes=(*th.notes, note))
