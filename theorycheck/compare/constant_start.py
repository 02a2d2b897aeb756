"""Least squares for a law's log constants from two starts: shifted together, and unshifted.

Both law fits begin with least squares on log thresholds: the binomial fit for its start
(:func:`theorycheck.compare.law_maximise.start_point`, residuals ``y_c − log f(x_c; C)``) and
the thresholds-table fit for its answer (:func:`theorycheck.compare.table_fit.fit_law_table`,
residuals weighted by ``1/s_c``). The constants start at ``log C = x`` (``C = 1`` unless the
caller has another start). First :func:`common_shift` moves every constant by one factor ``e^δ``
to the data's level,

    δ = argmin_δ Σ_c r_c(x + δ)²,   |δ| ≤ 60,

then :func:`best_least_squares` runs least squares from ``x + δ`` and from ``x`` (each
within 50 of its start, in log units) and keeps the lower cost, the shifted one on a tie.
A common shift also moves a constant in an exponent (``C2·(L/128)^a``) and can park a pole
``C1/(d − C2)`` at a cell, from which least squares does not leave: hence the second start
(docs/methods.md, "A width run, and an unshifted start").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy.optimize import OptimizeResult, least_squares, minimize_scalar

__all__ = ["common_shift", "best_least_squares"]

#: How far the common shift and each least-squares run may move a log constant.
SHIFT_BOUND, BOX = 60.0, 50.0


def common_shift(resid: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> float:
    """``δ`` minimising ``Σ resid(x + δ)²`` over ``|δ| ≤ 60`` (bounded Brent, scipy)."""
    return float(minimize_scalar(lambda d: float(np.sum(resid(x + d) ** 2)),
                                 bounds=(-SHIFT_BOUND, SHIFT_BOUND), method="bounded").x)


def best_least_squares(resid: Callable[[np.ndarray], np.ndarray], starts: Sequence[np.ndarray],
                       jac: Callable[[np.ndarray], np.ndarray] | str = "2-point") -> OptimizeResult | None:
    """The lowest-cost ``scipy.optimize.least_squares`` run of ``resid`` over ``starts``
    (each within ``BOX`` of its start; the first on a tie). Starts with no parameter or a
    non-finite residual are skipped; ``None`` when every start is."""
    runs = [least_squares(resid, x, jac=jac, bounds=(x - BOX, x + BOX)) for x in starts
            if len(x) and np.all(np.isfinite(resid(x)))]
    return min(runs, key=lambda r: r.cost) if runs else None
