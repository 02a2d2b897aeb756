"""Joint fit of one free threshold per cell with a shared transition-width model.

For cell ``c`` with log threshold ``theta_c`` (at success probability ``q``) and
``t = log R``:

    P(success) = Phi(z_q + sign * s_c * (t - theta_c)),
    log s_c    = log s0 + sum_y sigma_y (log y_c - mean log y)

(``sign = +1`` when success grows with the resource). No law is assumed: the
``theta_c`` are free, so functionals of them (exponents as the design sees them,
:mod:`theorycheck.compare.verdict`) stay unbiased when the law is wrong, while the
shared width model borrows strength across cells (a cell with only a few points in its
transition still gets a finite, honest threshold). Maximum likelihood by L-BFGS-B with
the analytic gradient; covariance from the inverse expected information
``sum_i n_i phi(u)^2 / (Phi(u) Phi(-u)) g_i g_i^T``, ``g_i = du_i/dparams``
(the package's one probit likelihood, :mod:`theorycheck.threshold.likelihood`).
Cells where every trial succeeded, or every trial failed, have no threshold and are
left out. Where no cell has a failure above a success (complete or quasi-complete
separation: each cell's successes and failures split, up to trials at the one point where it
crosses), the likelihood rises without end as the shared slope grows: the model is not
identified, however finite the slope the optimiser stopped at (Albert and Anderson 1984).
Where the exponents are read from this model, each cell's ``exp(theta_c)`` and its Wald
interval ``exp(theta_c ± z·se_c)`` are reported beside the cell's own threshold
(:func:`shared_width_thresholds`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.stats import norm

from theorycheck.compare.data import Dataset
from theorycheck.compare.identifiable import independent_variables
from theorycheck.compare.threshold_table import ThresholdTable
from theorycheck.intervals import critical
from theorycheck.threshold.glm import overlaps
from theorycheck.threshold.likelihood import probit_covariance, probit_loglik, probit_score_u, separated
from theorycheck.threshold.points import pool_points
from theorycheck.threshold.result import Threshold
from theorycheck.wording import counted

MAX_LOG_SLOPE = math.log(1e4)  # probit slope per unit log R; beyond it a cell is a step
MAX_WIDTH_TREND = 10.0  # |d log width / d log x|; at it, the width's trend is not identified


@dataclass(frozen=True)
class CellFit:
    """``theta``: log thresholds of the ``cells`` (indices into ``data.cells``), ``cov``
    their covariance; ``identified`` False when the likelihood has no finite maximum."""

    cells: tuple[int, ...]
    theta: np.ndarray
    cov: np.ndarray
    log_slope: float
    width_trends: dict[str, tuple[float, float]]
    llf: float
    identified: bool
    notes: tuple[str, ...] = ()


def cell_overlaps(data: Dataset) -> list[bool]:
    """Whether each cell of ``data`` has a failure strictly above a success in its resource
    (:func:`~theorycheck.threshold.glm.overlaps`): only such a cell bounds a probit
    likelihood as its slope grows; with none, the maximum may lie at a step."""
    return [overlaps(pool_points(c.points, increasing=data.increasing)) for c in data.cells]


def fit_cells(
    data: Dataset,
    thresholds: Sequence[Threshold],
    *,
    q: float = 0.5,
    width_trends: Sequence[str] = (),
) -> CellFit:
    """Fit the model of the module docstring; ``thresholds`` (one per cell) give the
    starting values and tell which cells are censored."""
    keep = [i for i, th in enumerate(thresholds) if th.estimate is not None]
    notes = []
    if len(keep) < len(thresholds):
        notes.append(f"{counted(len(thresholds) - len(keep), 'cell')} with no crossing in their resource range "
                     "left out")
    if not keep:
        raise ValueError("no cell has a crossing inside its resource range: extend the resource grid")
    cols = data.columns()
    index = {c: j for j, c in enumerate(keep)}
    rows = np.flatnonzero(np.isin(cols["cell"], keep))
    cell = np.array([index[c] for c in cols["cell"][rows]])
    t = np.log(cols[data.resource][rows])
    k = cols["successes"][rows].astype(float)
    n = cols["trials"][rows].astype(float)
    sign = 1.0 if data.increasing else -1.0
    zq = float(norm.ppf(q))
    trends = [v for v in width_trends if len(set(data.cell_values(v)[keep])) > 1]
    wx = np.array([np.log(data.cell_values(v)[keep]) - np.log(data.cell_values(v)[keep]).mean()
                   for v in trends]).reshape(len(trends), len(keep))
    m = len(keep)

    def pieces(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        log_s = p[m] + (p[m + 1:] @ wx if trends else np.zeros(m))
        s = np.exp(np.minimum(log_s, 50.0))
        u = np.clip(zq + sign * s[cell] * (t - p[:m][cell]), -1e8, 1e8)
        return u, s

    def negllf(p: np.ndarray) -> float:
        u, _ = pieces(p)
        return -probit_loglik(u, k, n)

    def jac_u(p: np.ndarray, u: np.ndarray, s: np.ndarray) -> np.ndarray:
        g = np.zeros((len(u), len(p)))
        g[np.arange(len(u)), cell] = -sign * s[cell]
        g[:, m] = u - zq
        for j in range(len(trends)):
            g[:, m + 1 + j] = (u - zq) * wx[j][cell]
        return g

    def grad(p: np.ndarray) -> np.ndarray:
        u, s = pieces(p)
        return -(probit_score_u(u, k, n) @ jac_u(p, u, s))

    slopes = [th.slope for th in thresholds if th.slope is not None and th.slope > 0]
    log_s0 = min(math.log(float(np.median(slopes))) if slopes else math.log(10.0), MAX_LOG_SLOPE - 1.0)
    x0 = np.concatenate([[math.log(thresholds[i].estimate) for i in keep], [log_s0], np.zeros(len(trends))])
    bounds = ([(v - 20.0, v + 20.0) for v in x0[:m]] + [(-10.0, MAX_LOG_SLOPE)]
              + [(-MAX_WIDTH_TREND, MAX_WIDTH_TREND)] * len(trends))
    res = minimize(negllf, x0, jac=grad, method="L-BFGS-B", bounds=bounds,
                   options={"maxiter": 5000, "ftol": 1e-13, "gtol": 1e-9})
    p = res.x
    u, s = pieces(p)
    # a cell with no failure above a success (one mixed point at most) lets the slope grow
    # without loss; only a cell with an overlap bounds the shared slope
    overlapping = cell_overlaps(data)
    stepped = [not overlapping[i] for i in keep]
    step_cell = bool(trends) and any(separated(u[cell == c], k[cell == c], n[cell == c], zq) for c in range(m))
    loose = [v for j, v in enumerate(trends) if step_cell or abs(p[m + 1 + j]) > MAX_WIDTH_TREND - 1e-3]
    identified = p[m] < MAX_LOG_SLOPE - 1e-3 and not all(stepped)  # all stepped: complete separation too
    full = probit_covariance(u, n, jac_u(p, u, s)) if identified else None
    if trends and not loose and identified:  # a trend the cells do not determine: CI wider than the bound
        loose = [v for j, v in enumerate(trends)
                 if full is None or not math.sqrt(max(full[m + 1 + j, m + 1 + j], 0.0)) <= MAX_WIDTH_TREND]
    if loose:  # a cell's own slope left free to run to a step: its threshold has no information
        fit = fit_cells(data, thresholds, q=q, width_trends=[v for v in width_trends if v not in loose])
        return replace(fit, notes=(f"cells' thresholds: a trend of the transition width in {', '.join(loose)} "
                                   "is not identified (a cell's own transition is a step on its grid, or "
                                   "the trend ran to its bound or has a standard error beyond it): one "
                                   "shared width", *fit.notes))
    cov = np.full((m, m), np.nan)
    if not identified:
        notes.append("every transition is a step on its grid (no cell has a failure above a success: "
                     "the shared probit slope has no finite maximum): joint per-cell fit not identified")
    else:
        if full is None:
            identified = False
            notes.append("information matrix of the per-cell fit is singular")
        else:
            cov = full[:m, :m]
    wt = {v: (float(p[m + 1 + j]), float(math.sqrt(full[m + 1 + j, m + 1 + j])) if identified else math.inf)
          for j, v in enumerate(trends)}
    return CellFit(tuple(keep), p[:m].copy(), cov, float(p[m]), wt, -float(res.fun), bool(identified),
                   tuple(notes))


def shared_width(data: Dataset, thresholds: Sequence[Threshold], *, q: float = 0.5) -> CellFit | None:
    """:func:`fit_cells` without width trends when no cell has a transition width of its own
    (every crossing a model-free bracket), else ``None``. It is the yardstick
    :func:`theorycheck.compare.law_fit.fit_law` holds the joint width against, and it assumes no
    law: a comparison of several laws on the same data computes it once and passes it to each."""
    if any(th.slope is not None and th.slope > 0 for th in thresholds) or \
            all(th.estimate is None for th in thresholds):
        return None
    return fit_cells(data, thresholds, q=q)


def shared_width_thresholds(cells: Sequence[int], theta: np.ndarray, cov: np.ndarray, level: float
                            ) -> dict[int, dict[str, Any]]:
    """``{cell: {"threshold": exp θ, "ci": [exp(θ - z·se), exp(θ + z·se)]}}`` of the joint cell
    model, the thresholds the exponents were read from (Wald interval on the log scale at
    ``level``; ``None`` where it overflows)."""
    z = critical(level)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    with np.errstate(over="ignore"):  # a cell the model barely pins: its upper end is unbounded
        ends = np.exp(np.column_stack([theta, theta - z * se, theta + z * se]))
    out = {}
    for i, row in zip(cells, ends):
        est, lo, hi = (float(x) if np.isfinite(x) else None for x in row)
        out[int(i)] = {"threshold": est, "ci": [lo, hi]}
    return out


def log_thresholds(data: Dataset | ThresholdTable, ths: Sequence[Threshold], q: float, width_vars: Sequence[str]
                   ) -> tuple[str, tuple[int, ...], np.ndarray, np.ndarray, list[str]]:
    """Log thresholds of the cells and their covariance, by the best-calibrated route.

    * every cell with a crossing has a probit fit with a bounded Fieller CI: use them
      (cells are independent; the Fieller interval carries each cell's own slope
      uncertainty, which keeps CIs honest on the concentrated designs of the adaptive
      search);
    * otherwise the joint per-cell model with a shared width
      (:mod:`~theorycheck.compare.cell_model`), which gives every cell a finite
      threshold from few trials;
    * if that has no finite maximum (every transition a step), or gives some cell a larger
      error than the cell's own bounded model-free bracket (:func:`_looser_than_brackets`),
      the cells with a bounded threshold of their own (docs/methods.md §4).
    """
    found = [i for i, th in enumerate(ths) if th.estimate is not None]
    bounded = tuple(i for i in found if math.isfinite(ths[i].log_ci_width))

    def per_cell(notes: list[str]) -> tuple[str, tuple[int, ...], np.ndarray, np.ndarray, list[str]]:
        theta = np.log([ths[i].estimate for i in bounded])
        return "per-cell", bounded, theta, np.diag([ths[i].log_se ** 2 for i in bounded]), notes

    if isinstance(data, ThresholdTable) or (found and all(ths[i].method == "glm" for i in found)
                                            and len(bounded) == len(found)):
        return per_cell([])
    cellfit = fit_cells(data, ths, q=q, width_trends=width_vars)
    looser = _looser_than_brackets(cellfit, ths) if cellfit.identified else []
    if cellfit.identified and not looser:
        return "joint", cellfit.cells, cellfit.theta, cellfit.cov, list(cellfit.notes)
    why = [f"the cells' shared-width model pins {counted(len(looser), 'cell')} less tightly than their own "
           "model-free brackets (their transitions are sharper than the shared width)"] if looser else []
    return per_cell([*cellfit.notes, *why,
                     "exponents from per-cell thresholds and their CIs (cells treated as independent)"])


@dataclass(frozen=True)
class DesignThresholds:
    """The cells' log thresholds the exponents are read from (:func:`design_thresholds`): the
    width's trends fitted (``width_vars``), the route (``method``: "joint" or "per-cell"), the
    ``cells`` with their ``theta``/``cov``, and where the route is "joint" each cell's
    shared-width threshold and CI (``shared``, :func:`shared_width_thresholds`)."""

    width_vars: tuple[str, ...]
    method: str
    cells: tuple[int, ...]
    theta: np.ndarray
    cov: np.ndarray
    shared: dict[int, dict[str, Any]]
    notes: tuple[str, ...]


def design_thresholds(data: Dataset | ThresholdTable, ths: Sequence[Threshold], *, q: float = 0.5,
                      level: float = 0.95, width_trends: bool = True) -> DesignThresholds:
    """:func:`log_thresholds` with the width's trends in ``data``'s varied variables that are
    identified apart (:func:`~theorycheck.compare.identifiable.independent_variables`; none for
    a table or with ``width_trends`` False), and the shared-width thresholds where it takes the
    joint route. No law enters: the same for every law compared on ``data``."""
    table = isinstance(data, ThresholdTable)
    width_vars, notes = independent_variables(data, data.varied if width_trends and not table else ())
    method, cells, theta, cov, more = log_thresholds(data, ths, q, width_vars)
    shared = shared_width_thresholds(cells, theta, cov, level) if method == "joint" else {}
    return DesignThresholds(tuple(width_vars), method, cells, theta, cov, shared, (*notes, *more))


def _looser_than_brackets(cellfit: Any, ths: Sequence[Threshold]) -> list[int]:
    """The cells whose log threshold the joint model gives a larger standard error than their
    own bounded model-free bracket does (``Threshold.log_se``: its log width over 2·z): there
    the joint model knows less than the cell's own trials, and the brackets are read instead.
    Happens when every transition is sharp on its grid but a mixed point keeps the shared
    slope finite: its Wald errors then run to 10^±13 (2026-11-27, plain GD at ζ = 1/2)."""
    se = np.sqrt(np.clip(np.diag(cellfit.cov), 0.0, None))
    return [i for i, s in zip(cellfit.cells, se)
            if ths[i].method == "bracket" and math.isfinite(ths[i].log_ci_width) and not s <= ths[i].log_se]
