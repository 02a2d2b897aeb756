"""Adaptive search for the resource at which success probability crosses ``q``.

The search works on ``t = log r`` (``-log r`` if success decreases with ``r``) in
three phases, each answered through ask/tell so that a sweep engine can run many
searches in parallel (``ask`` returns ``[(resource, n_new_trials), ...]``; ``tell``
gives the outcome of each):

1. **Bracket.** Evaluate ``start``; step outwards geometrically (factor ``growth``,
   the log step doubling each time) until the isotonic fit of the success rates has
   a point below ``q`` and one above ``q``; towards larger resource values, where a
   trial costs more, one step multiplies by at most ``max_growth``
   (:mod:`theorycheck.threshold.bracket`).
2. **Enter the transition.** While the data are perfectly separated (no failure
   above a success: the GLM has no MLE) bisect in ``t`` between the last failure and
   the first success (:mod:`theorycheck.threshold.zone`), so that points land inside
   the transition instead of ending in separation. Only if the zone shrinks below
   ``rel_width / 4`` (a transition sharper than the target) or the grid runs out
   (integers) first, trials are added at its two ends until each alone excludes the
   crossing by an exact binomial test: the result is then an honest model-free
   bracket, narrower than the target.
3. **Refine.** Fit the GLM ``P = F(b0 + b1 t)`` to every point (the link ``F`` with
   the largest likelihood, :mod:`theorycheck.threshold.glm`); put the next points at
   ``t*_q +- spread/b1`` with ``b1`` its probit-equivalent slope, where the success
   probability is about ``Phi(z_q +- spread)``. The Fisher information about ``t*_q`` per trial is
   ``b1^2 phi(u)^2 / (Phi(u)(1-Phi(u)))``, maximal at the crossing (``u = z_q``) and
   still 85 % of it at ``|u - z_q| = 0.67``; a symmetric pair at ``spread ~ 0.7-1``
   also pins down the slope, which Fieller's CI and the stopping rule need
   (:mod:`theorycheck.threshold.placement`, which also says why the pair stays centred on the
   crossing at ``q != 1/2``). Stop when the CI of
   ``log r*`` is narrower than ``rel_width`` (``hi/lo <= exp(rel_width)``), once the
   search has enough trials and the slope is known well enough
   (:mod:`theorycheck.threshold.stopping`), or after ``max_trials`` trials. The stopping rule reads the best link's CI; the reported CI
   also spans the other plausible links and may be wider (docs/thresholds.md).

All points, including the bracketing ones, feed the final fit
(:func:`theorycheck.threshold.glm.fit_threshold`).
"""

from __future__ import annotations

import math

from scipy.optimize import isotonic_regression

from theorycheck.threshold.axis import ResourceAxis
from theorycheck.threshold import stopping
from theorycheck.threshold.bracket import bracket_step
from theorycheck.threshold.glm import check_q_level, fit_threshold, glm_threshold_t, overlaps
from theorycheck.threshold.placement import refine_points
from theorycheck.threshold.points import PooledPoints, check_point, pool_points
from theorycheck.threshold.result import Threshold
from theorycheck.threshold.zone import certify_requests, transition_zone
from theorycheck.validate import check_int, check_positive


class ThresholdSearch:
    """Ask/tell search for the threshold of one cell (see module docstring).

    Parameters
    ----------
    start : first resource value to try (a guess of the threshold).
    lower, upper : hard limits of the resource (default: 1 for integer resources, else
        none; no upper limit).
    q : success probability that defines the threshold (default 1/2).
    seeds_per_point : trials per requested point.
    integer : round requested resources to integers (N, d, V).
    max_trials : budget; the search stops when it is spent.
    rel_width : target width of the CI of ``log r*``.
    level : confidence level of the CI.
    growth : initial bracketing factor.
    max_growth : largest factor of one bracketing step towards a larger resource value,
        where trials cost more (default ``growth**2``; ``inf``: the log step doubles
        uncapped both ways).
    increasing : success grows with the resource (``False`` for e.g. the capacity in V).
    resource : name of the resource, recorded in the result.
    points_per_round : points asked per round in the refine phase.
    spread : refine points sit at ``u = z_q +- spread`` on the fitted probit scale.
    bracket_seeds : trials per point while bracketing and entering the transition
        (default ``seeds_per_point``; 2 saves ~15 % of trials at the price of slightly
        lower CI coverage on small budgets).

    >>> import numpy as np
    >>> from scipy.stats import norm
    >>> rng = np.random.default_rng(0)
    >>> s = ThresholdSearch(start=100)
    >>> while (req := s.ask()):
    ...     for r, n in req:
    ...         s.tell(r, int(rng.binomial(n, norm.cdf(np.log(r / 300) / 0.1))), n)
    >>> th = s.result(); th.ci[0] < 300 < th.ci[1]
    True
    """

    def __init__(
        self,
        *,
        start: float,
        lower: float | None = None,
        upper: float | None = None,
        q: float = 0.5,
        seeds_per_point: int = 4,
        integer: bool = True,
        max_trials: int = 400,
        rel_width: float = 0.1,
        level: float = 0.95,
        growth: float = 2.0,
        increasing: bool = True,
        resource: str = "N",
        points_per_round: int = 2,
        spread: float = 0.8,
        bracket_seeds: int | None = None,
        max_growth: float | None = None,
    ) -> None:
        self.q, self.level = check_q_level(q, level)
        start_v = check_positive("start", start)
        self.axis = ResourceAxis.checked(lower=lower, upper=upper, integer=integer, increasing=increasing)
        if not self.axis.contains(start_v):
            raise ValueError(
                f"start={start_v:g} lies outside [lower, upper] = [{self.axis.lower:g}, {self.axis.upper:g}]"
            )
        self.seeds_per_point = check_int("seeds_per_point", seeds_per_point, 1)
        self.max_trials = check_int("max_trials", max_trials, 1)
        self.points_per_round = check_int("points_per_round", points_per_round, 1)
        self.bracket_seeds = (
            self.seeds_per_point if bracket_seeds is None
            else check_int("bracket_seeds", bracket_seeds, 1)
        )
        self.rel_width = check_positive("rel_width", rel_width)
        self.growth = check_positive("growth", growth)
        if self.growth <= 1.0:
            raise ValueError(f"growth must be > 1, got {growth!r}")
        self.max_growth = (self.growth ** 2 if max_growth is None
                           else check_positive("max_growth", max_growth, allow_inf=True))
        if self.max_growth < self.growth:
            raise ValueError(f"max_growth must be >= growth = {self.growth:g}, got {max_growth!r}")
        self.spread = check_positive("spread", spread)
        if not isinstance(resource, str) or not resource:
            raise ValueError(f"resource must be a variable name such as 'N', got {resource!r}")
        self.resource = resource
        self.start = self.axis.snap(start_v)
        self._points: dict[float, list[int]] = {}
        self._pending: list[tuple[float, int]] = []
        self._owed: dict[float, int] = {}
        self._steps = {"down": 0, "up": 0}
        self._done = False
        self._notes: list[str] = []

    # ----------------------------------------------------------------- protocol
    @property
    def done(self) -> bool:
        """True once the search has stopped (``ask()`` then returns ``[]``)."""
        return self._done

    @property
    def trials(self) -> int:
        """Trials told so far."""
        return sum(n for _, n in self._points.values())

    def ask(self) -> list[tuple[float, int]]:
        """Next requests ``[(resource, n_new_trials), ...]``; ``[]`` when done.

        Asking again before every request has been told returns the outstanding
        requests (asking is idempotent until ``tell``).
        """
        if self._done:
            return []
        if self._pending:
            return [(r, self._owed[r]) for r, _ in self._pending if self._owed.get(r, 0) > 0]
        requests = self._plan()
        if not requests:
            self._done = True
            return []
        merged: dict[float, int] = {}
        for r, n in requests:
            merged[r] = merged.get(r, 0) + n
        self._pending = list(merged.items())
        self._owed = dict(merged)
        return list(self._pending)

    def tell(self, resource: float, successes: int, trials: int) -> None:
        """Record ``successes`` out of ``trials`` at ``resource``.

        Results at resources that were not asked for are accepted too (e.g. trials
        already in a store); they count towards the budget.
        """
        r, k, n = check_point(resource, successes, trials)
        slot = self._points.setdefault(r, [0, 0])
        slot[0] += k
        slot[1] += n
        if r in self._owed:
            self._owed[r] = max(0, self._owed[r] - n)
        if all(v == 0 for v in self._owed.values()):
            self._pending, self._owed = [], {}

    def result(self) -> Threshold:
        """The threshold from every point told so far (may be called at any time)."""
        if not self._points or self.trials == 0:
            raise ValueError("no trials told yet: call ask() and tell() before result()")
        notes = list(self._notes)
        th = fit_threshold(
            self._point_list(), q=self.q, level=self.level, increasing=self.axis.increasing,
            resource=self.resource, notes=notes,
        )
        if th.log_ci_width > self.rel_width and th.method != "censored":
            extra = (
                f"CI of log {self.resource}* has width {th.log_ci_width:.3g} > target "
                f"{self.rel_width:g}"
            )
            if self.trials >= self.max_trials:
                extra += f" (budget max_trials={self.max_trials} spent)"
            return Threshold(**{**th.__dict__, "warnings": th.warnings + (extra,)})
        return th

    # ----------------------------------------------------------------- planning
    def _point_list(self) -> list[tuple[float, int, int]]:
        return [(r, k, n) for r, (k, n) in sorted(self._points.items())]

    def _budgeted(self, wanted: list[float], per: int | None = None) -> list[tuple[float, int]]:
        left = self.max_trials - self.trials
        if left <= 0:
            self._notes.append(f"stopped: budget of {self.max_trials} trials spent")
            return []
        out, per = [], self.seeds_per_point if per is None else per
        for r in wanted:
            n = min(per, left)
            if n <= 0:
                break
            out.append((r, n))
            left -= n
        return out

    def _plan(self) -> list[tuple[float, int]]:
        if not self._points:
            return self._budgeted([self.start], self.bracket_seeds)
        pts = pool_points(self._point_list(), increasing=self.axis.increasing)
        rate = pts.k / pts.n
        fit = isotonic_regression(rate, weights=pts.n.astype(float), increasing=True).x
        wanted: list[float] = []
        mixed = (pts.k > 0) & (pts.k < pts.n)
        if not (fit < self.q).any():
            r = self._extend(pts.t.min(), "down", bool(mixed[0]))
            if r is None:
                return []
            wanted.append(r)
        if not (fit > self.q).any():
            r = self._extend(pts.t.max(), "up", bool(mixed[-1]))
            if r is None:
                return []
            wanted.append(r)
        if wanted:
            return self._budgeted(wanted, self.bracket_seeds)
        glm = glm_threshold_t(pts, self.q, self.level, average=stopping.STOP_ON_AVERAGE)
        if glm is not None:
            est, (lo, hi), probit = glm
            if stopping.may_stop(hi - lo, self.rel_width, self.trials, self.max_trials, probit):
                self._notes.append(f"stopped: CI of log {self.resource}* narrower than {self.rel_width:g}")
                return []
            return self._budgeted(self._refine(pts, est, probit.probit_slope(self.q)))
        return self._narrow(pts)

    def _extend(self, t_edge: float, side: str, mixed: bool) -> float | None:
        """Next bracketing point beyond ``t_edge`` (:func:`~theorycheck.threshold.bracket.bracket_step`)."""
        going_down_in_r = (side == "down") == self.axis.increasing
        step = bracket_step(self.growth, self.max_growth, self._steps[side], mixed=mixed,
                            towards_larger=not going_down_in_r)
        self._steps[side] += 0 if mixed else 1
        t_new = t_edge - step if side == "down" else t_edge + step
        if self.axis.r(t_new) == self.axis.r(t_edge):
            limit = "lower" if going_down_in_r else "upper"
            self._notes.append(
                f"stopped: the crossing lies beyond the {limit} limit of {self.resource}"
            )
            return None
        return self.axis.r(t_new)

    def _refine(self, pts: PooledPoints, est: float, slope: float) -> list[float]:
        ts = refine_points(pts.t, est, slope, q=self.q, spread=self.spread, count=self.points_per_round)
        return [self.axis.r(t) for t in ts]

    def _narrow(self, pts: PooledPoints) -> list[tuple[float, int]]:
        """No usable GLM yet: sample inside the zone between pure failures and successes."""
        zone = transition_zone(pts)
        if overlaps(pts):
            # the GLM fits but its slope is not significant: more trials across the zone,
            # and one step beyond it where no all-failure / all-success point exists yet
            step = math.log(self.growth)
            cands = list(zone.candidates)
            if not ((pts.k == 0) & (pts.t < zone.b)).any():
                cands.append(float(pts.t.min()) - step)
            if not ((pts.k == pts.n) & (pts.t > zone.a)).any():
                cands.append(float(pts.t.max()) + step)
            return self._budgeted(sorted({self.axis.r(c) for c in cands}), self.bracket_seeds)
        fresh = sorted({self.axis.r(c) for c in zone.candidates} - set(self._points))
        if fresh and zone.width > self.rel_width / 4.0:
            return self._budgeted(fresh, self.bracket_seeds)
        left = self.max_trials - self.trials
        out = certify_requests(pts, zone, self.q, self.level, left)
        if not out:
            self._notes.append(
                f"stopped: the resolution of the {self.resource} grid is reached inside the "
                "transition; the CI is the model-free binomial bracket"
            )
        return out
