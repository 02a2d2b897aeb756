"""How far the cells scatter around a fitted law beyond their binomial errors.

A law fitted to every cell at once (:mod:`theorycheck.compare.law_fit`) gets its constants'
covariance from the binomial information. That covariance assumes the law places every
cell's threshold exactly; when it does not (cells off the law by factors of 2 while each is
measured to 5%), the constant is a compromise between cells and its Wald CI is far too
narrow -- seen: ``C4 = 4.23 [3.90, 4.58]`` from five cells whose ``N*·d/(V² log V)`` spread
over 0.98..2.6x (docs/mlp_phase.md).

The between-cell lack of fit is the likelihood-ratio statistic of the law against the model
with one free log threshold per cell and the same transition-width model
(:func:`theorycheck.compare.cell_model.fit_cells`), on the rows of the cells with a crossing:

    LR = 2 (llf_cells - llf_law),    df = cells - (law's location parameters),
    phi = LR / df

``phi`` estimates the dispersion of the cells about the law in units of their binomial
variance (the Birge ratio; the quasi-likelihood scale of McCullagh & Nelder, *Generalized
Linear Models*, 2nd ed., §4.5.2, estimated between cells). When the law orders the cells
right, ``LR ~ chi2(df)`` and ``phi`` is near 1. When ``phi > 1`` the fit's covariance is
multiplied by ``phi`` and its intervals use Student t on ``df`` degrees of freedom -- what
:func:`theorycheck.compare.table_fit.fit_law_table` does with ``chi2/df`` for a table of
thresholds, so binomial rows and their thresholds table get intervals of the same kind.
``phi <= 1`` is read as no excess scatter (the estimate is noise) and leaves the fit alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from theorycheck.compare.cell_model import fit_cells
from theorycheck.compare.data import Dataset
from theorycheck.threshold.likelihood import probit_loglik
from theorycheck.threshold.result import Threshold

__all__ = ["Dispersion", "between_cell_dispersion"]


@dataclass(frozen=True)
class Dispersion:
    """``lr`` on ``df`` degrees of freedom and ``phi = lr/df`` (module docstring)."""

    lr: float
    df: int
    phi: float

    @property
    def widens(self) -> bool:
        """Whether the fit's intervals must widen (``phi > 1`` on at least one df)."""
        return self.df > 0 and self.phi > 1.0

    def note(self) -> str:
        return (f"the cells scatter around the fitted law beyond their binomial errors (LR {self.lr:.1f} "
                f"on {self.df} df, dispersion {self.phi:.3g}): CIs widened by sqrt({self.phi:.3g}), "
                f"with Student t on {self.df} df")


def between_cell_dispersion(data: Dataset, thresholds: Sequence[Threshold], u_law: np.ndarray, *,
                            n_location: int, q: float = 0.5, width_trends: Sequence[str] = ()) -> Dispersion:
    """The dispersion of ``data``'s cells about a law whose fit gives the probit predictor
    ``u_law`` at every row of ``data.columns()``, with ``n_location`` parameters that place
    thresholds (constants, overall factor, residual trends) and the width model
    ``width_trends``. ``df = 0`` (nothing to estimate) when the free-cell model has no
    finite maximum or the law leaves no degrees of freedom."""
    try:
        cells = fit_cells(data, thresholds, q=q, width_trends=width_trends)
    except ValueError:  # no cell with a crossing
        return Dispersion(0.0, 0, 1.0)
    df = len(cells.cells) - int(n_location)
    if not cells.identified or df <= 0:
        return Dispersion(0.0, max(df, 0) if cells.identified else 0, 1.0)
    cols = data.columns()
    rows = np.isin(cols["cell"], cells.cells)
    k, n = cols["successes"][rows].astype(float), cols["trials"][rows].astype(float)
    law_llf = probit_loglik(np.asarray(u_law)[rows], k, n)
    lr = max(0.0, 2.0 * (cells.llf - law_llf))  # both without the binomial constant, which cancels
    return Dispersion(lr, df, lr / df)
