"""Thresholds as data: one measured threshold per cell with its uncertainty.

What a paper prints, what a bisection produces and what ``theorycheck check`` writes as
``thresholds.csv``: per cell, the variables, the resource's threshold ``R*`` and its
uncertainty, given as

* ``ci_low``/``ci_high`` -- a two-sided confidence interval at level ``ci_level``
  (default 0.95); the log threshold's standard error is
  ``se = log(ci_high/ci_low) / (2 z)``, ``z = Phi^-1((1 + ci_level)/2)``
  (the normal approximation that :attr:`theorycheck.threshold.result.Threshold.log_se`
  uses, so a table written by ``check`` carries exactly the numbers its verdict used);
* ``se`` -- the standard error of ``log R*`` directly;
* ``seed`` -- one row per seed with that seed's critical value: ``log R*`` is the mean
  of the log critical values over the cell's seeds (the geometric mean, = the median
  seed for a symmetric spread) and its standard error ``s/sqrt(n)``, inflated by
  ``t_{n-1}/z`` so that the normal interval the comparator builds is the exact
  t interval (docs/fit.md);
* none of these (point thresholds, as many papers print them) -- every cell gets the same
  standard error, the residual standard deviation ``s`` of the log thresholds about a free
  law ``log R* = a + sum_v (b_v log x_v + k_v log log x_v)`` (ordinary least squares over
  the varied variables; the log factors only for variables above 1 and only while
  ``df >=`` :data:`MIN_SCATTER_DF`, else a plain power law), inflated by ``t_df/z`` as above.
  A truth outside that family inflates ``s``: the errors err on the wide side.

The likelihood of a law is Gaussian in the log thresholds, ``log R*_c ~ N(log K + log f(x_c; C),
se_c^2)`` (:mod:`theorycheck.compare.table_fit`); a cell without a threshold (an empty
``threshold``, as ``check`` writes for a cell with no crossing) is kept as censored and
carries no information; so does a threshold whose CI is open (``ci_low = 0`` or
``ci_high = inf``, as ``check`` writes a model-free bracket ``[0, inf]``): an infinite
standard error, no weight.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import statsmodels.api as sm

from theorycheck.intervals import critical, t_inflation
from theorycheck.compare.data import CellViews, _check_name
from theorycheck.validate import check_positive as _positive_value
from theorycheck.threshold.result import Threshold
from theorycheck.wording import counted

__all__ = ["TableCell", "ThresholdTable", "KINDS"]

#: How the uncertainty of a table was given.
KINDS = {"ci": "ci_low/ci_high", "se": "se of log threshold", "seeds": "per-seed critical values",
         "scatter": "the thresholds' scatter about a free power law with log factors (no errors given)"}


@dataclass(frozen=True)
class TableCell:
    """One cell: its parameters, log threshold (``None``: no threshold) and its standard error."""

    params: tuple[tuple[str, float], ...]
    log_threshold: float | None
    log_se: float
    seeds: int = 0

    @property
    def values(self) -> dict[str, float]:
        return dict(self.params)

    @property
    def trials(self) -> int:
        return 0

    def label(self) -> str:
        return ", ".join(f"{k}={v:g}" for k, v in self.params)


@dataclass(frozen=True)
class ThresholdTable(CellViews):
    """Cells of measured thresholds along one resource (module docstring).

    Same views as :class:`~theorycheck.compare.data.Dataset` (``cells``, ``variables``,
    ``cell_values``, ``varied``, ``span_decades``), so that
    :func:`theorycheck.compare.compare` takes either kind.
    """

    resource: str
    variables: tuple[str, ...]
    cells: tuple[TableCell, ...]
    increasing: bool = True
    kind: str = "ci"
    ci_level: float = 0.95
    #: uncertainty columns given beside the one used (``se`` wins over ``ci_low``/``ci_high``)
    ignored: tuple[str, ...] = ()
    #: kind ``"scatter"``: the residual sd of the log thresholds and its degrees of freedom
    scatter: tuple[float, int] | None = None

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]], *, resource: str, variables: Sequence[str],
                  increasing: bool = True, ci_level: float = 0.95, column: str = "threshold") -> ThresholdTable:
        """From rows ``{var: value, ..., column: R*, "ci_low", "ci_high"}`` (or ``"se"``, or
        ``"seed"`` with one critical value per row); ``column`` names the threshold column
        (``"threshold"`` or the resource's name). ``R* = None`` marks a cell without a threshold."""
        resource = _check_name(resource, "resource")
        names = tuple(sorted(_check_name(v, "variable name") for v in variables))
        if isinstance(ci_level, bool) or not isinstance(ci_level, float | int) or not 0 < ci_level < 1:
            raise ValueError(f"ci_level must be a number in (0, 1), e.g. 0.95, got {ci_level!r}")
        rows = list(rows)
        if not rows:
            raise ValueError("no rows: a thresholds table needs at least one cell")
        keys = set(rows[0])
        kind = "seeds" if "seed" in keys else "se" if "se" in keys else \
            "ci" if {"ci_low", "ci_high"} & keys else "scatter"
        need = {"seeds": [column], "se": [column, "se"], "ci": [column, "ci_low", "ci_high"],
                "scatter": [column]}[kind]
        grouped: dict[tuple[float, ...], list[Mapping[str, Any]]] = {}
        for i, row in enumerate(rows):
            missing = [c for c in (*names, *need) if c not in row]
            if missing:
                raise ValueError(f"row {i} lacks {missing}; each row needs {[*names, *need]}")
            key = tuple(_positive_value(v, row[v], f" (row {i})") for v in names)
            grouped.setdefault(key, []).append(row)
        z = critical(ci_level)
        cells = []
        for key in sorted(grouped):
            group = grouped[key]
            params = tuple(zip(names, key))
            if kind == "seeds":
                cells.append(_seed_cell(params, group, column, ci_level))
                continue
            if len(group) > 1:
                raise ValueError(f"cell {dict(params)} has {len(group)} rows; a thresholds table has one row "
                                 "per cell (or a 'seed' column with one row per seed)")
            cells.append(_single_cell(params, group[0], kind, column, z))
        ignored = tuple(c for c in ("ci_low", "ci_high") if kind == "se" and c in keys)
        scatter = None
        if kind == "scatter":
            cells, scatter = _scatter_errors(cells, names, ci_level)
        return cls(resource, names, tuple(cells), bool(increasing), kind, float(ci_level), ignored, scatter)

    # ----------------------------------------------------------------- views
    @property
    def trials(self) -> int:
        return 0

    def describe(self) -> str:
        """One line for reports: which kind of data this is."""
        found = sum(c.log_threshold is not None for c in self.cells)
        what = KINDS[self.kind] + (f" at {100 * self.ci_level:g}%" if self.kind == "ci" else "")
        text = (f"thresholds table: {counted(len(self.cells), 'cell')}, {found} with a threshold; "
                f"uncertainty from {what}")
        open_ci = sum(c.log_threshold is not None and c.log_se == math.inf for c in self.cells)
        if open_ci:
            text += f"; {counted(open_ci, 'threshold')} with an open CI, kept without weight"
        if self.scatter is not None:
            text += f" (sd {self.scatter[0]:.3g} in log {self.resource}* on {self.scatter[1]} df)"
        if self.ignored:
            text += f" ({'/'.join(self.ignored)} ignored: se is used)"
        big = max((c.log_se for c in self.cells if c.log_threshold is not None), default=0.0)
        if self.kind == "se" and big > 1.0:  # a 95% CI wider than a factor e^3.9 = 50
            text += (f"; se up to {big:.3g} is read as the standard error of log {self.resource}* "
                     f"(a factor e^{big:.3g}): if it is in units of {self.resource}, divide it by the threshold")
        return text

    def thresholds(self, q: float = 0.5) -> list[Threshold]:
        """One :class:`Threshold` per cell (method ``"table"``; CI at :attr:`ci_level`)."""
        z = critical(self.ci_level)
        out = []
        for c in self.cells:
            if c.log_threshold is None:
                out.append(Threshold(None, (0.0, math.inf), q, (), self.ci_level, "censored",
                                     resource=self.resource, increasing=self.increasing,
                                     notes=("no threshold in the table",)))
                continue
            lo, hi = c.log_threshold - z * c.log_se, c.log_threshold + z * c.log_se
            out.append(Threshold(math.exp(c.log_threshold), (math.exp(lo), math.exp(hi)), q, (),
                                 self.ci_level, "table", resource=self.resource, increasing=self.increasing))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"resource": self.resource, "variables": list(self.variables), "increasing": self.increasing,
                "kind": self.kind, "ci_level": self.ci_level,
                "cells": [{"params": c.values, "log_threshold": c.log_threshold, "log_se": c.log_se,
                           "seeds": c.seeds} for c in self.cells]}


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or (
        isinstance(value, float) and math.isnan(value))


def _single_cell(params: tuple, row: Mapping[str, Any], kind: str, column: str, z: float) -> TableCell:
    where = f" (cell {dict(params)})"
    if _missing(row[column]):
        return TableCell(params, None, math.inf)
    est = _positive_value(column, row[column], where)
    if kind == "se":
        se = _positive_value("se", row["se"], where)
        return TableCell(params, math.log(est), se)
    if kind == "scatter":  # its error comes from all cells (_scatter_errors)
        return TableCell(params, math.log(est), math.nan)
    low, high = row["ci_low"], row["ci_high"]
    if not _missing(low) and low == 0 and _missing(high):
        high = math.inf  # an open upper end as check wrote it before it wrote ``inf``: ``0.0,,``
    if _missing(low) or _missing(high):
        raise ValueError(f"ci_low/ci_high are empty{where} although {column} = {est:g}; give both (an open "
                         f"end as 0 or inf) or leave {column} empty for a cell without a threshold")
    lo = 0.0 if low == 0 else _positive_value("ci_low", low, where)
    hi = _positive_value("ci_high", high, where, allow_inf=True)
    if not lo < hi or not lo <= est <= hi:
        raise ValueError(f"need ci_low < ci_high with {column} between them{where}, got "
                         f"{lo:g}, {est:g}, {hi:g}")
    if lo == 0 or hi == math.inf:  # an open CI (e.g. a model-free bracket [0, inf]): no weight
        return TableCell(params, math.log(est), math.inf)
    return TableCell(params, math.log(est), math.log(hi / lo) / (2.0 * z))


def _seed_cell(params: tuple, rows: Sequence[Mapping[str, Any]], column: str, ci_level: float) -> TableCell:
    where = f" (cell {dict(params)})"
    logs = np.log([_positive_value(column, r[column], where) for r in rows])
    seeds = [r["seed"] for r in rows]
    if len(set(map(str, seeds))) != len(seeds):
        raise ValueError(f"a seed appears twice{where}: one critical value per seed and cell")
    n = len(logs)
    if n < 2:
        raise ValueError(f"only {n} seed{where}: a per-seed table needs at least 2 seeds per cell")
    sd = float(np.std(logs, ddof=1))
    if sd == 0.0:
        raise ValueError(f"every seed has the same critical value{where}: no spread to estimate an error from")
    se = sd / math.sqrt(n) * t_inflation(ci_level, n - 1)
    return TableCell(params, float(np.mean(logs)), se, n)


#: Residual degrees of freedom the scatter must keep for the free law to take a log factor per variable.
MIN_SCATTER_DF = 3


def _scatter_errors(cells: list[TableCell], names: Sequence[str], ci_level: float
                    ) -> tuple[list[TableCell], tuple[float, int]]:
    """Point thresholds: every cell's standard error is the residual sd of a free power law
    fitted to the log thresholds, times ``t_df/z`` (module docstring)."""
    found = [c for c in cells if c.log_threshold is not None]
    varied = [v for v in names if len({c.values[v] for c in found}) > 1]
    logs = {v: np.log([c.values[v] for c in found]) for v in varied}
    X = np.column_stack([np.ones(len(found))] + [logs[v] for v in varied])
    with_logs = [v for v in varied if np.all(logs[v] > 0)]  # a log factor (log x)^k needs x > 1
    if with_logs and len(found) - X.shape[1] - len(with_logs) >= MIN_SCATTER_DF:
        X = np.column_stack([X] + [np.log(logs[v]) for v in with_logs])
    y = np.array([c.log_threshold for c in found])
    fit = sm.OLS(y, X).fit() if len(found) else None
    df = int(round(fit.df_resid)) if fit is not None else 0
    if df < 1:
        raise ValueError(f"{counted(len(found), 'threshold')} without errors and "
                         f"{counted(len(varied), 'varied variable')}: "
                         f"their scatter stands in for the errors and needs at least {X.shape[1] + 1} cells "
                         "with a threshold; or give ci_low,ci_high or se")
    sd = math.sqrt(fit.scale)
    if not sd > 1e-9:
        raise ValueError("the thresholds lie exactly on a power law: no scatter to stand in for their errors; "
                         "give ci_low,ci_high or se")
    se = sd * t_inflation(ci_level, df)
    return [TableCell(c.params, c.log_threshold, se) if c.log_threshold is not None else c for c in cells], (sd, df)
