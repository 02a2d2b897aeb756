"""Fit a law's constants to a thresholds table (Gaussian likelihood in log thresholds).

For a :class:`~theorycheck.compare.threshold_table.ThresholdTable` the data of cell ``c``
are its log threshold ``y_c`` and standard error ``s_c``; the model is

    y_c ~ N(log K + log f(x_c; C), s_c^2)

(the binomial likelihood of :mod:`theorycheck.compare.law_fit` integrated down to the
cells' thresholds, docs/theory.md §4 and §6). ``K`` is added only when the constants
cannot already scale ``f`` and constants the cells do not identify are fixed at 1 (the
same rule as the binomial fit, :func:`theorycheck.compare.identifiable.identifiable`).
Weighted least squares (``scipy.optimize.least_squares`` from two starts,
:mod:`theorycheck.compare.constant_start`); the covariance is
``(J^T W J)^-1`` scaled by the residual chi-square per degree of freedom when that
exceeds 1 (extra scatter between cells), the intervals then Student t on those degrees of
freedom (as :func:`~theorycheck.compare.exponents.fit_power_law_wls`).
:func:`table_goodness_of_fit` is the chi-square of the residuals: the table's analogue of
the binomial collapse test; :func:`compare_models_table` ranks laws by AIC/BIC of this
likelihood (as :func:`~theorycheck.compare.model_selection.compare_models` does for binomial rows).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from scipy.stats import chi2

from theorycheck.intervals import critical
from theorycheck.compare.constant_start import best_least_squares, common_shift
from theorycheck.compare.data import Dataset
from theorycheck.compare.exponents import LRTest
from theorycheck.compare.identifiable import covariance_columns, identifiable, runaway_notes
from theorycheck.compare.law_model import LawAtCells
from theorycheck.compare.law_fit_result import Estimate, LawFit, exp_or_inf
from theorycheck.compare.model_selection import ModelComparison, ModelScore
from theorycheck.compare.threshold_table import TableCell, ThresholdTable

__all__ = ["fit_law_table", "fit_law_cells", "cells_table", "cell_logs", "table_goodness_of_fit", "compare_models_table"]


def _usable(table: ThresholdTable) -> list[int]:
    return [i for i, c in enumerate(table.cells)
            if c.log_threshold is not None and math.isfinite(c.log_se) and c.log_se > 0]


def fit_law_table(law: Any, table: ThresholdTable, *, level: float = 0.95) -> LawFit:
    """Weighted least-squares fit of ``law`` to ``table`` (module docstring)."""
    cells = _usable(table)
    if not cells:
        raise ValueError("no cell of the thresholds table has a threshold with a finite uncertainty: nothing to fit")
    model = LawAtCells(law, {v: table.cell_values(v)[cells] for v in law.variables}, len(cells))
    notes = list(identifiable(model))
    y = np.array([table.cells[i].log_threshold for i in cells])
    w = 1.0 / np.array([table.cells[i].log_se for i in cells])
    nc = len(model.free)

    def resid(p: np.ndarray) -> np.ndarray:
        log_k = p[nc] if model.with_scale else 0.0
        return (y - model.log_f(p[:nc]) - log_k) * w

    starts = [np.zeros(nc)]
    if nc and not model.with_scale:  # shifted together to the data's level, and unshifted (compare/constant_start.py)
        starts.insert(0, starts[0] + common_shift(resid, starts[0]))
    if model.with_scale:
        starts = [np.append(x, np.average(y - model.log_f(x[:nc]), weights=w ** 2)) for x in starts]

    def jac(p: np.ndarray) -> np.ndarray:  # exact: a forward difference's error depends on the CPU
        cols = [model.dlog_f(p[:nc])] + ([np.ones((len(cells), 1))] if model.with_scale else [])
        return -np.hstack(cols) * w[:, None]

    sol = best_least_squares(resid, starts, jac)
    p = sol.x if sol is not None else starts[0]
    r = resid(p)
    chisq, df = float(r @ r), len(cells) - len(p)
    identified = len(p) <= len(cells)
    cov = np.full((len(p), len(p)), np.nan)
    if identified and len(p):
        j = jac(p)
        # J^T J is singular to float64 when cond(J) > 1e8 (cond(J^T J) > 1e16); a constant whose term has
        # vanished from every cell leaves the others the covariance of the law without it
        keep, vanished_notes = covariance_columns(model, p)
        if not keep or np.linalg.cond(j[:, keep]) > 1e8:
            identified = False
            notes.append("the constants are not identified by these cells (singular information matrix)")
        else:
            jk = j[:, keep]
            cov[np.ix_(keep, keep)] = np.linalg.inv(jk.T @ jk) * (max(1.0, chisq / df) if df > 0 else 1.0)
            notes += vanished_notes
    z = critical(level)
    if df > 0 and chisq / df > 1.0:  # the scale is estimated from df residuals: Student t, as fit_power_law_wls
        z = critical(level, df)
        notes.append(f"thresholds scatter beyond their errors around the fitted law (chi2/df = {chisq / df:.3g}); "
                     f"constant CIs widened by that factor, with Student t on {df} df")

    def est(i: int) -> Estimate:
        if not identified or not math.isfinite(cov[i, i]):
            return Estimate(exp_or_inf(p[i]), (0.0, math.inf), math.nan)
        se = math.sqrt(cov[i, i])
        return Estimate(exp_or_inf(p[i]), (exp_or_inf(p[i] - z * se), exp_or_inf(p[i] + z * se)), se)

    llf = -0.5 * chisq - float(np.sum(np.log(math.sqrt(2 * math.pi) / w)))
    constants = {name: est(i) for i, name in enumerate(model.free)}
    notes += runaway_notes(constants)
    return LawFit(
        law=getattr(law, "text", str(law)),
        constants=constants,
        scale=est(nc) if model.with_scale else None,
        trends={}, width=math.nan, width_trends={},
        llf=llf, n_params=len(p), nobs=len(cells), identified=identified, notes=tuple(notes),
        fitted_constants={name: exp_or_inf(p[i]) for i, name in enumerate(model.free)},
        log_scale=float(p[nc]) if model.with_scale else 0.0,
    )


def cell_logs(cells: Sequence[int], theta: Sequence[float], cov: np.ndarray) -> dict[int, tuple[float, float]]:
    """``{cell index: (log R*, se)}`` for :func:`fit_law_cells` from a joint fit of the
    cells' log thresholds ``theta`` with covariance ``cov`` (the diagonal: each cell's own
    error)."""
    return {i: (float(y), math.sqrt(cov[j, j])) for j, (i, y) in enumerate(zip(cells, theta))}


def fit_law_cells(law: Any, data: Dataset, logs: Mapping[int, tuple[float, float]], *,
                  level: float = 0.95) -> LawFit | None:
    """:func:`fit_law_table` on the cells of binomial ``data`` with the log thresholds and
    standard errors ``logs`` (cell index -> ``(log R*, se)``; other cells censored), as the
    binomial fit's fallback uses it (:mod:`theorycheck.compare.law_fit`). ``None`` when no
    cell has a finite standard error."""
    try:
        return fit_law_table(law, cells_table(data, logs), level=level)
    except ValueError:  # no cell with a finite standard error
        return None


def cells_table(data: Dataset, logs: Mapping[int, tuple[float, float]]) -> ThresholdTable:
    """The cells of binomial ``data`` as a :class:`ThresholdTable` with the log thresholds and
    standard errors ``logs`` (cell index -> ``(log R*, se)``; other cells censored)."""
    cells = tuple(TableCell(c.params, *logs[i]) if i in logs else TableCell(c.params, None, math.inf)
                  for i, c in enumerate(data.cells))
    return ThresholdTable(data.resource, tuple(data.variables), cells, data.increasing)


def table_goodness_of_fit(law: Any, table: ThresholdTable, fit: LawFit) -> LRTest:
    """Chi-square of the standardised residuals on ``cells - parameters`` df: does the
    fitted law pass through the thresholds within their errors?"""
    cells = _usable(table)
    values = {v: table.cell_values(v)[cells] for v in law.variables}
    pred = np.asarray(law.log_evaluate(values, fit.fitted_constants), dtype=float).reshape(-1) + fit.log_scale
    y = np.array([table.cells[i].log_threshold for i in cells])
    s = np.array([table.cells[i].log_se for i in cells])
    stat = float(np.sum(((y - pred) / s) ** 2))
    df = len(cells) - fit.n_params
    p = float(chi2.sf(stat, df)) if df > 0 else math.nan
    return LRTest(stat, df, p, "law fitted to the table's log thresholds vs free per-cell thresholds (chi-square)")


def compare_models_table(laws: dict[str, Any], table: ThresholdTable, *, level: float = 0.95) -> ModelComparison:
    """Fit every law (name -> Law) to ``table``; rank by AIC and BIC of the Gaussian likelihood."""
    if not laws:
        raise ValueError("give at least one law to compare")
    scores = []
    for name, law in laws.items():
        fit = fit_law_table(law, table, level=level)
        scores.append(ModelScore.of(name, fit))
    scores.sort(key=lambda s: s.aic)
    return ModelComparison(tuple(scores), scores[0].name, min(scores, key=lambda s: s.bic).name)
