"""Exponents without a law: the free power-law fit and a ranking of candidate laws.

``fit_exponents(data)`` answers "what exponents do my data have?" for binomial rows
(:class:`~theorycheck.compare.data.Dataset`) or a thresholds table
(:class:`~theorycheck.compare.threshold_table.ThresholdTable`), in three steps
(docs/fit.md; docs/theory.md §6):

1. **Cell thresholds.** Log threshold ``y_c`` and standard error ``s_c`` of every cell
   (probit + Fieller per cell for binomial rows; from the table otherwise); cells
   without a bounded threshold are left out, with a note.
2. **Free fit.** Weighted least squares ``y_c = log C + sum_i a_i log x_i``
   (+ ``sum_i k_i log log x_i`` with ``log_powers=True``), weights ``1/s_c^2``; CIs
   from the fixed scale 1 when the cells scatter within their errors, else from the
   residual scale with Student t (as :func:`~theorycheck.compare.exponents.fit_power_law_wls`).
3. **Candidate laws.** For every varied ``x_i`` and log power ``k in {0, 1}`` the
   exponent ``a_i - k c_i`` (``c_i``: least-squares slope of ``log log x_i`` on
   ``log x_i`` over the cells, the slope a log factor mimics) is rounded down and up to
   the grid ``step`` (default 1/2); every combination is a law
   ``R >= C prod x_i^{a_i} log(x_i)^{k_i}`` with only ``C`` free, scored by
   ``BIC = chi^2 + sum log(2 pi s_c^2) + 1 * log(n_cells)`` (Gaussian likelihood of the
   log thresholds with their known errors) and ranked; ``delta_bic`` is against the best.
   A difference above 10 is "decisive" on Kass and Raftery's scale. When the cells
   scatter beyond their errors around the free fit (residual scale ``phi > 1``), every
   ``chi^2`` is divided by ``phi`` (quasi-likelihood, as QAIC), so that unmodelled
   scatter does not make small differences look decisive.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import statsmodels.api as sm
import sympy as sp

from theorycheck.intervals import floored_wls
from theorycheck.jsonable import jsonable
from theorycheck.compare.data import Dataset
from theorycheck.compare.direction import check_direction
from theorycheck.compare.identifiable import confounded, confounded_notes
from theorycheck.compare.exponents import Exponent
from theorycheck.compare.law_fit import cell_thresholds
from theorycheck.compare.threshold_table import ThresholdTable
from theorycheck.symbols import symbol
from theorycheck.wording import counted

__all__ = ["Candidate", "FreeFit", "fit_exponents", "MAX_CANDIDATES"]

#: Largest number of candidate laws scored (4 per varied variable, multiplied).
MAX_CANDIDATES = 4096


@dataclass(frozen=True)
class Candidate:
    """One candidate law with fixed exponents and log powers, scored by BIC."""

    law: str
    exponents: dict[str, Fraction]
    log_powers: dict[str, int]
    constant: float
    chi2: float
    bic: float
    delta_bic: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"law": self.law, "exponents": {k: str(v) for k, v in self.exponents.items()},
                "log_powers": dict(self.log_powers), "constant": self.constant, "chi2": self.chi2,
                "bic": self.bic, "delta_bic": self.delta_bic}


@dataclass(frozen=True)
class FreeFit:
    """Result of :func:`fit_exponents` (module docstring)."""

    resource: str
    sense: str
    data_kind: str
    exponents: dict[str, Exponent]
    log_powers: dict[str, Exponent]
    intercept: float
    bic: float
    n_cells: int
    candidates: tuple[Candidate, ...]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Strict JSON (NaN and infinities as ``None``)."""
        return jsonable({"resource": self.resource, "sense": self.sense, "data": self.data_kind,
                "exponents": {k: v.to_dict() for k, v in self.exponents.items()},
                "log_powers": {k: v.to_dict() for k, v in self.log_powers.items()},
                "intercept": self.intercept, "bic": self.bic, "cells": self.n_cells,
                "candidates": [c.to_dict() for c in self.candidates], "notes": list(self.notes)})


def _cells(data: Dataset | ThresholdTable, q: float, level: float) -> tuple[list[int], np.ndarray, np.ndarray]:
    if isinstance(data, ThresholdTable):
        keep = [i for i, c in enumerate(data.cells)
                if c.log_threshold is not None and math.isfinite(c.log_se) and c.log_se > 0]
        return keep, np.array([data.cells[i].log_threshold for i in keep]), \
            np.array([data.cells[i].log_se for i in keep])
    if not isinstance(data, Dataset):
        raise ValueError(f"data must be a Dataset or ThresholdTable, got {type(data).__name__}")
    ths = cell_thresholds(data, q=q, level=level)
    keep = [i for i, th in enumerate(ths)
            if th.estimate is not None and math.isfinite(th.log_ci_width) and th.log_ci_width > 0]
    return keep, np.log([ths[i].estimate for i in keep]), np.array([ths[i].log_se for i in keep])


def _wls(y: np.ndarray, se: np.ndarray, cols: list[np.ndarray], names: list[str], level: float
         ) -> tuple[dict[str, Exponent], float, str, float]:
    x = sm.add_constant(np.column_stack(cols), has_constant="add") if cols else np.ones((len(y), 1))
    res, crit, how, scale = floored_wls(y, x, se, level)
    out = {}
    for i, name in enumerate(names):
        est, s = float(res.params[1 + i]), float(res.bse[1 + i])
        out[name] = Exponent(name, est, s, (est - crit * s, est + crit * s), level)
    return out, float(res.params[0]), how, scale


def _score(y: np.ndarray, se: np.ndarray, offset: np.ndarray, n_params: int,
           phi: float = 1.0) -> tuple[float, float, float]:
    """``(log C, chi2, BIC)`` of ``y = log C + offset`` with known errors ``se`` (``chi2/phi`` in the BIC)."""
    w = 1.0 / se ** 2
    log_c = float(np.sum(w * (y - offset)) / np.sum(w))
    chisq = float(np.sum(w * (y - offset - log_c) ** 2))
    bic = chisq / phi + float(np.sum(np.log(2 * math.pi * se ** 2))) + n_params * math.log(len(y))
    return log_c, chisq, bic


def _law_text(resource: str, sense: str, exps: dict[str, Fraction], logs: dict[str, int]) -> str:
    expr = symbol("C")
    for v in exps:
        x = symbol(v)
        expr = expr * x ** sp.Rational(exps[v].numerator, exps[v].denominator) * sp.log(x) ** logs[v]
    rel = sp.Ge if sense == ">=" else sp.Le
    return sp.sstr(rel(symbol(resource), expr, evaluate=False))


def _grid(value: float, step: Fraction) -> list[Fraction]:
    lo = Fraction(math.floor(value / float(step))) * step
    return sorted({lo, lo + step})


def fit_exponents(data: Dataset | ThresholdTable, *, variables: Sequence[str] | None = None,
                  log_powers: bool = False, step: float | str = "1/2", level: float = 0.95,
                  q: float = 0.5, top: int = 5) -> FreeFit:
    """Free power-law fit of the cells' thresholds with CIs, and the ``top`` candidate
    laws by BIC (module docstring). ``variables``: which to fit (names, or one string
    ``"V,d"``; default: the varied ones); ``log_powers``: also fit a free power of ``log x``
    per variable; ``step``: exponent grid of the candidates."""
    try:
        grid_step = Fraction(str(step))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"step must be a positive number such as '1/2' or 0.25, got {step!r}") from None
    if grid_step <= 0:
        raise ValueError(f"step must be positive, got {step!r}")
    if isinstance(level, bool) or not isinstance(level, float | int) or not 0 < level < 1:
        raise ValueError(f"level must be a number in (0, 1), e.g. 0.95, got {level!r}")
    if isinstance(top, bool) or not isinstance(top, int) or top < 1:
        raise ValueError(f"top must be a positive whole number of candidate laws, got {top!r}")
    if isinstance(variables, str):  # "V,d" as --vary takes it; list("Vd") would be ['V', 'd']
        variables = [v.strip() for v in variables.split(",") if v.strip()]
    names = list(data.varied if variables is None else variables)
    unknown = [v for v in names if v not in data.variables]
    if unknown:
        raise ValueError(f"variables {unknown} are not in the data (it has {list(data.variables)})")
    if isinstance(data, Dataset):
        check_direction(data)
    keep, y, se = _cells(data, q, level)
    notes = [] if len(keep) == len(data.cells) else [
        f"{counted(len(data.cells) - len(keep), 'cell')} without a bounded threshold left out"]
    names, moved = confounded({v: np.log(data.cell_values(v)[keep]) for v in names})
    notes += confounded_notes(moved, extra=", and the candidate laws leave it out")
    if len(keep) < len(names) * (2 if log_powers else 1) + 2:
        raise ValueError(f"only {counted(len(keep), 'cell')} with a bounded threshold for "
                         f"{counted(len(names), 'variable')}: "
                         "need at least two more cells than fitted exponents; measure more cells, fit "
                         "fewer variables (variables=, fit --params), or check a law (compare, fit --law)")
    logx = {v: np.log(data.cell_values(v)[keep]) for v in names}
    loggable = [v for v in names if np.all(logx[v] > 0)]
    if log_powers and len(loggable) < len(names):
        raise ValueError(f"log powers need every value > 1; {sorted(set(names) - set(loggable))} "
                         "have values <= 1")
    cols, col_names = [logx[v] for v in names], list(names)
    if log_powers:
        cols += [np.log(logx[v]) for v in names]
    fitted, intercept, how, phi = _wls(y, se, cols, col_names + [f"log {v}" for v in names if log_powers], level)
    notes.append(how)
    exps = {v: fitted[v] for v in names}
    logs = {v: fitted[f"log {v}"] for v in names} if log_powers else {}
    free_bic = _score(y, se, np.column_stack(cols) @ np.array([e.estimate for e in fitted.values()])
                      if cols else np.zeros(len(y)), 1 + len(cols), phi)[2]
    base = _wls(y, se, [logx[v] for v in names], names, level)[0] if log_powers else exps
    options = []
    for v in names:
        opts = [(a, 0) for a in _grid(base[v].estimate, grid_step)]
        if v in loggable:
            slope = float(np.polyfit(logx[v], np.log(logx[v]), 1)[0]) if len(set(logx[v])) > 1 else 0.0
            opts += [(a, 1) for a in _grid(base[v].estimate - slope, grid_step)]
        options.append(opts)
    if math.prod(len(o) for o in options) > MAX_CANDIDATES:
        raise ValueError(f"{math.prod(len(o) for o in options)} candidate laws exceed {MAX_CANDIDATES}; "
                         "fit fewer variables at once (variables=...)")
    sense = ">=" if data.increasing else "<="
    scored = []
    for combo in itertools.product(*options):
        offset = sum((float(a) * logx[v] + k * np.log(logx[v]) if k else float(a) * logx[v])
                     for v, (a, k) in zip(names, combo)) if names else np.zeros(len(y))
        log_c, chisq, bic = _score(y, se, np.asarray(offset, dtype=float), 1, phi)
        e = {v: a for v, (a, _) in zip(names, combo)}
        k = {v: kk for v, (_, kk) in zip(names, combo)}
        scored.append(Candidate(_law_text(data.resource, sense, e, k), e, k, math.exp(log_c), chisq, bic))
    scored.sort(key=lambda c: (c.bic, c.law))
    best = scored[0].bic
    ranked = tuple(Candidate(c.law, c.exponents, c.log_powers, c.constant, c.chi2, c.bic, c.bic - best)
                   for c in scored[:top])
    if phi > 1.0:
        notes.append(f"candidate chi-squares divided by the free fit's residual scale {phi:.3g} (extra scatter)")
    if best - free_bic > 10:
        notes.append(f"free exponents fit decisively better than every candidate on the {grid_step} grid "
                     f"(ΔBIC = {best - free_bic:.1f}); try a finer step, or forms the candidates cannot "
                     "take (they are products of single-variable powers and logs; e.g. log(n/k)) with --law")
    kind = data.describe()
    return FreeFit(data.resource, sense, kind, exps, logs, intercept, free_bic, len(keep), ranked, tuple(notes))
