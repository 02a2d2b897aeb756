"""Check observed thresholds against a lower bound (docs/theory.md §5, ``lower``).

A lower bound ``R >= f_lb(x)`` says no method succeeds below ``f_lb``. Two checks:

* **cells** (needs the bound's constants): a cell whose threshold CI lies entirely
  below ``f_lb`` violates the bound (for a bound of the form ``R <= f``, e.g. a
  capacity, entirely above it);
* **exponents**: observed thresholds must not scale better than the bound: if the CI
  of the observed exponent of ``x`` lies entirely below the bound's local exponent
  minus the tolerance, then ``R*/f_lb ~ x^(a - p) -> 0`` and the observed law would
  cross the bound as ``x`` grows; the crossing point is extrapolated when the bound's
  constants are known.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from theorycheck.compare.data import Dataset
from theorycheck.threshold.result import Threshold


@dataclass(frozen=True)
class LowerBoundCheck:
    """``violated`` if any cell or exponent violates the bound."""

    bound: str
    violated: bool
    cell_violations: tuple[str, ...]
    exponent_violations: tuple[str, ...]
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"bound": self.bound, "violated": self.violated,
                "cell_violations": list(self.cell_violations),
                "exponent_violations": list(self.exponent_violations), "notes": list(self.notes)}


def design_exponents(law: Any, data: Dataset, variables: Sequence[str],
                     constants: Mapping[str, float] | None = None) -> dict[str, float]:
    """The law's exponents as the cells see them: OLS slope of ``log f`` on the
    ``log x`` of the tested ``variables`` across cells (exact for monomials; the
    average local elasticity for polylogs and sums)."""
    if not variables:
        return {}
    logf = np.asarray(law.log_evaluate({v: data.cell_values(v) for v in law.variables}, constants),
                      dtype=float).reshape(-1)
    if logf.size == 1:
        logf = np.full(len(data.cells), float(logf[0]))
    x = np.column_stack([np.ones(len(data.cells))] + [np.log(data.cell_values(v)) for v in variables])
    coef, *_ = np.linalg.lstsq(x, logf, rcond=None)
    return {v: float(coef[1 + i]) for i, v in enumerate(variables)}


def check_lower_bound(
    bound: Any,
    data: Dataset,
    thresholds: Sequence[Threshold],
    *,
    exponents: Mapping[str, tuple[float, tuple[float, float]]] | None = None,
    constants: Mapping[str, float] | None = None,
    tolerance: float = 0.25,
) -> LowerBoundCheck:
    """Cells and exponents against ``bound`` (module docstring).

    ``thresholds``: one per cell of ``data``; ``exponents``: observed ``var -> (estimate,
    (lo, hi))``; ``constants``: values of the bound's constants (all needed for the cell
    check).
    """
    if bound.resource != data.resource:
        raise ValueError(f"the bound is about {bound.resource!r} but the data vary {data.resource!r}")
    missing = [v for v in bound.variables if v not in data.variables]
    if missing:
        raise ValueError(f"the bound needs {missing}, which the data do not have")
    if len(thresholds) != len(data.cells):
        raise ValueError(f"need one threshold per cell ({len(data.cells)}), got {len(thresholds)}")
    lower_sense = getattr(bound, "sense", ">=") == ">="
    constants = dict(constants or {})
    unknown = [c for c in bound.constants if c not in constants]
    notes, cells, expo = [], [], []
    lb = None
    if unknown:
        notes.append(f"constants {unknown} of the bound are unknown: cells not checked, only exponents")
    else:
        lb = np.asarray(bound.evaluate({v: data.cell_values(v) for v in bound.variables}, constants),
                        dtype=float).reshape(-1)
        if lb.size == 1:
            lb = np.full(len(data.cells), float(lb[0]))
        for cell, th, f in zip(data.cells, thresholds, lb):
            lo, hi = th.ci
            if (lower_sense and hi < f) or (not lower_sense and lo > f):
                side = "below" if lower_sense else "above"
                cells.append(
                    f"{cell.label()}: observed {data.resource}* CI [{lo:.4g}, {hi:.4g}] lies entirely "
                    f"{side} the bound's {f:.4g}"
                )
    tested = [v for v in (exponents or {}) if v in data.varied]
    predicted = design_exponents(bound, data, tested, constants if not unknown else None)
    for v in tested:
        a, (lo, hi) = exponents[v]  # type: ignore[index]
        p = predicted[v]
        if (lower_sense and hi < p - tolerance) or (not lower_sense and lo > p + tolerance):
            msg = (f"{v}: observed exponent {a:.3g} [{lo:.3g}, {hi:.3g}] scales better than the "
                   f"bound's {p:.3g} allows (tolerance {tolerance:g})")
            if lb is not None:
                obs = np.log([th.estimate if th.estimate else math.nan for th in thresholds])
                gap = float(np.nanmedian(obs - np.log(lb)))
                if math.isfinite(gap) and a != p:
                    centre = float(np.exp(np.mean(np.log(data.cell_values(v)))))
                    msg += f"; extrapolated, it crosses the bound near {v} ~ {centre * math.exp(-gap / (a - p)):.3g}"
            expo.append(msg)
    return LowerBoundCheck(bound=getattr(bound, "text", str(bound)), violated=bool(cells or expo),
                           cell_violations=tuple(cells), exponent_violations=tuple(expo), notes=tuple(notes))
