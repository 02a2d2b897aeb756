"""Exponents as the design sees them, and the residual trend of a law (docs/theory.md §6).

With log thresholds ``theta_c`` of the cells (covariance ``S``) and the design matrix
``X = [1, log x_1, ..., log x_m]`` over the same cells, the least-squares slopes
``A theta`` (``A = (X^T X)^-1 X^T``, slope rows) are the **observed exponents**: for a
power law they are its exponents; for anything else, the average local elasticity over
the design. Applying the same ``A`` to the law, ``p = A log f(x_c; C)`` gives the
**predicted exponents** on the same footing (exact for monomials; for polylogs and sums
of terms, their local elasticities averaged the same way). The **residual trend**
``tau = A (theta - log K f(x; C))`` is the slope of the residual on ``log x``; it is 0
when the law holds. Fitting the law's constants absorbs whatever they can explain, so
its covariance is ``J S J^T`` with ``J = A (I - P_G)``, ``P_G`` the projection on the
columns of ``G = [1, d log f / d log C_j]`` (Gauss-Newton linearisation; exact for a
monomial, whose slopes do not depend on the constant at all).

**Cell-to-cell scatter.** Each cell's variance in ``S`` is its own binomial (or
model-based) uncertainty; a transition whose shape the probit does not describe, or
any cell-level effect the law does not have, adds scatter that ``S`` does not know
(exponent CIs across cells were narrower than the sweep-to-sweep spread). It is
estimated by the method of moments of a random effect per cell (DerSimonian-Laird,
generalised to a design): with ``r = M (theta - log f)``, ``M = I - P_[G, X, Q]`` (``X``
the segment basis when local trends are used, ``Q`` the squares and products of the
centred logs: a wrong law's misfit is smooth in the logs and stays signal),
``W = S^-1``, ``E[r^T W r] = tr(W M S M) + tau^2 tr(W M)``, so
``tau^2 = max(0, (r^T W r - tr(W M S M)) / tr(W M))`` and every slope uses
``S + tau^2 I`` (docs/thresholds.md). Zero when the cells scatter no more than their CIs
say; not estimable (taken as 0) when ``[G, X]`` leaves no residual degree of freedom.

**Local trends.** A law with several terms has local exponents that change across the
sweep (docs/theory.md §6), and its fitted constants can move a crossover until the *average*
slope matches data whose local slopes do not. So each variable with ``K >= 3`` values
also gets one slope per segment between consecutive values: the same construction with
``X`` holding, per variable, the segment basis ``clip(log x - log x_j, 0, log x_{j+1} -
log x_j)`` (an additive piecewise-linear surface in the logs; its coefficients are the
local slopes). Used when that design has full rank. Knots closer than a factor
:data:`MIN_SEGMENT_RATIO` are merged (the inner one dropped): a slope read over a narrower
window has a CI too wide to decide anything -- over a factor sqrt(2) it would take
thresholds known to +-2% for a +-0.25 band -- so such segments could only ever make a
verdict inconclusive.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from theorycheck.intervals import critical
from theorycheck.compare.data import Dataset
from theorycheck.compare.exponents import Exponent
from theorycheck.compare.identifiable import Relation, confounded, confounded_notes
from theorycheck.compare.law_model import constant_elasticities, log_threshold_at
from theorycheck.wording import counted


#: Narrowest window (max/min of a variable) over which a local slope is tested.
MIN_SEGMENT_RATIO = 1.9


def coarse_knots(knots: np.ndarray, min_gap: float = math.log(MIN_SEGMENT_RATIO)) -> np.ndarray:
    """Sorted log-values with inner knots dropped until neighbours are >= ``min_gap`` apart
    (the two ends are always kept)."""
    if len(knots) <= 2:
        return knots
    kept = [knots[0]]
    for x in knots[1:-1]:
        if x - kept[-1] >= min_gap and knots[-1] - x >= min_gap:
            kept.append(x)
    kept.append(knots[-1])
    return np.asarray(kept)


@dataclass(frozen=True)
class Segment:
    """Local slope of one variable between two consecutive swept values."""

    lo: float
    hi: float
    observed: Exponent
    predicted: float
    trend: Exponent

    def to_dict(self) -> dict[str, Any]:
        return {"range": [self.lo, self.hi], "observed": self.observed.to_dict(),
                "predicted": self.predicted, "trend": self.trend.to_dict()}


@dataclass(frozen=True)
class DesignTrends:
    """Observed and predicted design exponents and the residual trends (module doc)."""

    variables: tuple[str, ...]
    observed: dict[str, Exponent]
    predicted: dict[str, float]
    trends: dict[str, Exponent]
    cells: tuple[int, ...]
    segments: dict[str, tuple[Segment, ...]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    #: varied variables not identified apart from the others, with the relation they follow
    confounded: dict[str, Relation] = field(default_factory=dict)


def _law_log(law: Any, data: Dataset, cells: Sequence[int], constants: Mapping[str, float]) -> np.ndarray:
    values = {v: data.cell_values(v)[list(cells)] for v in law.variables}
    return log_threshold_at(law.at_values(values), dict(constants), len(cells))


def constant_jacobian(law: Any, data: Dataset, cells: Sequence[int],
                      constants: Mapping[str, float]) -> np.ndarray:
    """``G = [1, d log f / d log C_j]`` over ``cells`` (the law's symbolic derivatives)."""
    values = {v: data.cell_values(v)[list(cells)] for v in law.variables}
    base = {c: float(constants.get(c, 1.0)) for c in law.constants}
    return np.column_stack([np.ones(len(cells)),
                            constant_elasticities(law.at_values(values), base, law.constants, len(cells))])


def excess_scatter(resid: np.ndarray, cov: np.ndarray, basis: np.ndarray) -> float:
    """Between-cell variance ``tau^2`` beyond ``cov`` left in ``resid`` after projecting
    out the columns of ``basis`` (module docstring, "Cell-to-cell scatter")."""
    m = np.eye(len(resid)) - basis @ np.linalg.pinv(basis, rcond=1e-6)
    if np.trace(m) < 0.5:  # no residual degree of freedom
        return 0.0
    w = np.linalg.pinv(cov)
    r = m @ resid
    excess = float(r @ w @ r) - float(np.trace(w @ m @ cov @ m))
    scale = float(np.trace(w @ m))
    return max(0.0, excess / scale) if scale > 0 else 0.0


def design_trends(
    law: Any,
    constants: Mapping[str, float],
    data: Dataset,
    theta: np.ndarray,
    cov: np.ndarray,
    cells: Sequence[int],
    variables: Sequence[str],
    level: float,
) -> DesignTrends:
    """Observed/predicted exponents and trends of ``variables`` (module docstring)."""
    cells = tuple(int(c) for c in cells)
    varied = {v: np.log(data.cell_values(v)[list(cells)]) for v in variables
              if len(set(data.cell_values(v)[list(cells)])) > 1}
    tested, moved = confounded(varied)
    if len(cells) < len(tested) + 1:
        raise ValueError(f"{counted(len(cells), 'cell')} cannot determine {counted(len(tested), 'exponent')}: "
                         "add cells")
    logs = {v: varied[v] for v in tested}
    x = np.column_stack([np.ones(len(cells))] + [logs[v] for v in tested])
    logf = _law_log(law, data, cells, constants)
    g = constant_jacobian(law, data, cells, constants)
    residual_maker = np.eye(len(cells)) - g @ np.linalg.pinv(g, rcond=1e-6)  # rank-revealing: G may repeat 1
    z = critical(level)
    def exponent(name: str, est: float, var: float) -> Exponent:
        se = math.sqrt(max(var, 0.0)) if math.isfinite(var) else math.inf
        return Exponent(name, float(est), se, (est - z * se, est + z * se), level)

    def slopes(design: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        a = np.linalg.pinv(design)[1:]
        j = a @ residual_maker
        pred = a @ logf  # a variable the law does not contain: 0 up to rounding (printed 2.7e-15)
        pred[np.abs(pred) < 1e-9] = 0.0
        return a @ theta, pred, a @ (theta - logf), a @ cov @ a.T, j @ cov @ j.T

    segments: dict[str, tuple[Segment, ...]] = {}
    notes: list[str] = confounded_notes(moved, extra=" (observed and predicted alike)")
    knots = {v: coarse_knots(np.unique(logs[v])) for v in tested}
    seg_x, owner = None, []
    if any(len(k) >= 3 for k in knots.values()):
        cols = [np.ones(len(cells))]
        for v in tested:
            kv = knots[v]
            for lo, hi in zip(kv[:-1], kv[1:]):
                cols.append(np.clip(logs[v] - lo, 0.0, hi - lo))
                owner.append((v, lo, hi))
        seg_x = np.column_stack(cols)
        if np.linalg.matrix_rank(seg_x) < seg_x.shape[1]:
            seg_x = None
            notes.append("the cells do not form a design with one slope per segment: local trends skipped")
    # scatter beyond the CIs, after the law's constants, every (local) trend the verdict
    # tests and a quadratic surface in the logs are projected out: a wrong law's misfit
    # is smooth in the logs and stays signal; only rough cell-to-cell scatter is noise
    centred = [logs[v] - logs[v].mean() for v in tested]
    quad = [a * b for i, a in enumerate(centred) for b in centred[i:]]
    basis = np.column_stack([g, x if seg_x is None else seg_x, *quad])
    tau2 = excess_scatter(theta - logf, cov, basis) if np.all(np.isfinite(cov)) else 0.0
    if tau2 > 0:
        cov = cov + tau2 * np.eye(len(cells))
        notes.append(f"cells scatter more than their threshold CIs allow (extra sd {math.sqrt(tau2):.2g} "
                     "in log threshold): exponent CIs widened accordingly")
    obs, pred, tau, cov_obs, cov_tau = slopes(x)
    if seg_x is not None:
        s_obs, s_pred, s_tau, s_cov_obs, s_cov_tau = slopes(seg_x)
        for i, (v, lo, hi) in enumerate(owner):
            if len(knots[v]) < 3:
                continue
            seg = Segment(float(math.exp(lo)), float(math.exp(hi)),
                          exponent(v, s_obs[i], s_cov_obs[i, i]), float(s_pred[i]),
                          exponent(v, s_tau[i], s_cov_tau[i, i]))
            segments[v] = (*segments.get(v, ()), seg)
    return DesignTrends(
        variables=tuple(tested),
        observed={v: exponent(v, obs[i], cov_obs[i, i]) for i, v in enumerate(tested)},
        predicted={v: float(pred[i]) for i, v in enumerate(tested)},
        trends={v: exponent(v, tau[i], cov_tau[i, i]) for i, v in enumerate(tested)},
        cells=cells,
        segments=segments,
        notes=tuple(notes),
        confounded=moved,
    )


def inestimable_trends(law: Any, constants: Mapping[str, float], data: Dataset,
                       variables: Sequence[str], level: float) -> DesignTrends:
    """Trends with infinite standard errors (too few usable cells), predictions kept where the
    cells' values identify them: when the varied variables move together (two cells with
    both ``V`` and ``d`` changed), a least-squares split of the law's slope between them is
    arbitrary (it moved with the data's last bits), so each is NaN."""
    cells = tuple(range(len(data.cells)))
    tested = [v for v in variables if len(set(data.cell_values(v))) > 1]
    x = np.column_stack([np.ones(len(cells))] + [np.log(data.cell_values(v)) for v in tested])
    if np.linalg.matrix_rank(x) == x.shape[1]:
        pred = np.linalg.pinv(x)[1:] @ _law_log(law, data, cells, constants)
    else:
        pred = np.full(len(tested), math.nan)
    unknown = {v: Exponent(v, math.nan, math.inf, (-math.inf, math.inf), level) for v in tested}
    return DesignTrends(tuple(tested), unknown, {v: float(pred[i]) for i, v in enumerate(tested)},
                        dict(unknown), cells)
