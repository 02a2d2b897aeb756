"""Two-sided critical values, and weighted least squares whose scale never narrows an interval.

A two-sided ``level`` interval ``estimate ± c·se`` takes

    c = Φ⁻¹(1/2 + level/2)            (normal; 1.96 at level 0.95)
    c = t_df⁻¹(1/2 + level/2)         (Student t, when the scale is estimated on ``df`` degrees of freedom)

and an error ``se`` estimated on ``df`` degrees of freedom but later used with the normal
``c`` is inflated by ``t_df/z`` (per-seed and point thresholds in a table: docs/fit.md).

Weighted least squares of ``y`` on ``X`` with known errors ``se`` (weights ``1/se²``)
keeps the residual scale only when it exceeds 1: cells that scatter beyond their errors
widen the intervals (t on the residual df), cells that scatter within them never narrow
them (scale fixed at 1, normal): the cross-cell fits of docs/methods.md §4.
"""

from __future__ import annotations

__all__ = ["critical", "t_inflation", "floored_wls"]


def critical(level: float, df: float | None = None) -> float:
    """Two-sided critical value at ``level``: normal, or Student t on ``df`` degrees of freedom."""
    from scipy.stats import norm, t  # imported here: threshold results are read where no heavy import is wanted

    p = 0.5 + level / 2.0
    return float(norm.ppf(p) if df is None else t.ppf(p, df))


def t_inflation(level: float, df: float) -> float:
    """``t_df/z`` at ``level``: what an error estimated on ``df`` degrees of freedom is
    multiplied by so that a normal interval built on it has the t interval's width."""
    return critical(level, df) / critical(level)


def floored_wls(y, x, se, level: float, *,
                within: str = "cells scatter within their errors"):
    """WLS of ``y`` on ``x`` (which holds its own intercept column) with weights ``1/se²``.

    Returns ``(result, crit, how, scale)``: the statsmodels result (its covariance at scale 1
    when the residual scale is below 1 or has no degrees of freedom), the critical value for
    its intervals at ``level``, a note saying which case applied, and ``max(1, scale)``."""
    import numpy as np
    import statsmodels.api as sm

    w = 1.0 / np.asarray(se, dtype=float) ** 2
    res = sm.WLS(y, x, weights=w).fit()
    if res.df_resid <= 0 or res.scale < 1.0:
        scale = 1.0
        res = sm.WLS(y, x, weights=w).fit(cov_type="fixed scale", cov_kwds={"scale": 1.0})
        return res, critical(level), f"fixed scale 1 ({within})", scale
    how = f"residual scale {res.scale:.3g} > 1 (extra scatter), t with {res.df_resid:g} df"
    return res, critical(level, res.df_resid), how, float(res.scale)
