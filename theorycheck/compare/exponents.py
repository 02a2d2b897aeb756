"""Free power-law fits of thresholds across cells, and the data-collapse test.

Joint binomial GLM (docs/methods.md §3, "the parametric collapse"):

    probit P = b0 + b_R log R + sum_x b_x log x  (+ sum_x g_x log log x)

so that the q-threshold is ``log R* = (z_q - b0 - sum b_x log x - ...)/b_R`` and the
exponent of ``x`` is ``a_x = -b_x / b_R`` (log power ``k_x = -g_x / b_R``), with CIs by
the delta method from ``cov_params``. Cross-check: weighted least squares of per-cell
``log R*`` on ``log x`` (weights ``1/se^2`` from each cell's CI; the residual scale is
kept when it exceeds 1, i.e. extra scatter widens the CI but never narrows it).
Collapse: likelihood-ratio test of the joint model against free per-cell probit fits
(own intercept and slope per cell), ``2 (llf_cells - llf_joint)`` vs chi^2 with
``2 n_cells - n_params`` degrees of freedom.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import statsmodels.api as sm
from scipy.optimize import isotonic_regression
from scipy.stats import chi2, norm

from theorycheck.intervals import critical, floored_wls
from theorycheck.compare.data import Dataset
from theorycheck.compare.identifiable import confounded, confounded_notes
from theorycheck.threshold.glm import binomial_glm, fit_probit, overlaps
from theorycheck.threshold.likelihood import binomial_constant
from theorycheck.threshold.points import pool_points
from theorycheck.threshold.result import Threshold
from theorycheck.wording import counted


@dataclass(frozen=True)
class Exponent:
    """A fitted exponent with its standard error and two-sided ``level`` CI."""

    variable: str
    estimate: float
    se: float
    ci: tuple[float, float]
    level: float

    def interval(self, level: float) -> tuple[float, float]:
        """Normal-approximation CI at another level."""
        z = critical(level)
        return (self.estimate - z * self.se, self.estimate + z * self.se)

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "se": self.se, "ci": list(self.ci), "level": self.level}


@dataclass(frozen=True)
class PowerLawFit:
    """``log R* = intercept + sum_x a_x log x`` (+ log powers) fitted across cells."""

    method: str
    exponents: dict[str, Exponent]
    intercept: float
    log_powers: dict[str, Exponent] = field(default_factory=dict)
    slope: float | None = None
    llf: float | None = None
    n_params: int = 0
    nobs: int = 0
    notes: tuple[str, ...] = ()

    @property
    def aic(self) -> float | None:
        return None if self.llf is None else -2.0 * self.llf + 2.0 * self.n_params

    @property
    def bic(self) -> float | None:
        return None if self.llf is None else -2.0 * self.llf + self.n_params * math.log(max(self.nobs, 1))

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "exponents": {k: v.to_dict() for k, v in self.exponents.items()},
            "log_powers": {k: v.to_dict() for k, v in self.log_powers.items()},
            "intercept": self.intercept,
            "slope": self.slope,
            "llf": self.llf,
            "aic": self.aic,
            "bic": self.bic,
            "n_params": self.n_params,
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class LRTest:
    """Likelihood-ratio test: ``statistic = 2 (llf_full - llf_restricted)`` ~ chi^2(df)."""

    statistic: float
    df: int
    p_value: float
    description: str

    def to_dict(self) -> dict[str, Any]:
        return {"statistic": self.statistic, "df": self.df, "p_value": self.p_value,
                "description": self.description}


def _ratio(num: int, den: int, params: np.ndarray, cov: np.ndarray) -> tuple[float, float]:
    """``-b_num/b_den`` and its delta-method standard error."""
    bn, bd = params[num], params[den]
    est = -bn / bd
    grad = np.zeros(len(params))
    grad[num], grad[den] = -1.0 / bd, bn / bd**2
    return float(est), float(math.sqrt(max(grad @ cov @ grad, 0.0)))


def _exponent(name: str, est: float, se: float, level: float) -> Exponent:
    z = critical(level)
    return Exponent(name, est, se, (est - z * se, est + z * se), level)


def fit_power_law(
    data: Dataset,
    *,
    q: float = 0.5,
    level: float = 0.95,
    variables: Sequence[str] | None = None,
    loglog: Sequence[str] = (),
) -> PowerLawFit:
    """Joint probit GLM across all cells (module docstring). ``variables`` default to the
    varied ones; ``loglog`` adds ``log log x`` terms (needs ``x > e``)."""
    names, moved = confounded({v: np.log(data.cell_values(v))
                               for v in (data.varied if variables is None else variables)})
    cols = data.columns()
    t = np.log(cols[data.resource])
    covariates = [np.log(cols[v]) for v in names]
    for v in loglog:
        if v not in names:
            raise ValueError(f"loglog variable {v!r} must be one of the fitted variables {names}")
        if np.any(cols[v] <= math.e):
            raise ValueError(f"log log {v} needs {v} > e in every cell")
        covariates.append(np.log(np.log(cols[v])))
    x = np.column_stack([t - t.mean()] + [c - c.mean() for c in covariates])
    exog = sm.add_constant(x, has_constant="add")
    k, n = cols["successes"], cols["trials"]
    res = binomial_glm(k, n, exog, "probit")
    if res.separated:
        raise ValueError(
            "the joint GLM is perfectly separated (every cell switches sharply): "
            "exponents are not identified from it; use fit_power_law_wls on per-cell thresholds"
        )
    params, cov = res.params, res.cov
    exps = {v: _exponent(v, *_ratio(2 + i, 1, params, cov), level) for i, v in enumerate(names)}
    logs = {v: _exponent(v, *_ratio(2 + len(names) + j, 1, params, cov), level) for j, v in enumerate(loglog)}
    zq = float(norm.ppf(q))
    # log R* at the centre of the covariates, then shifted back to the origin
    centre = (zq - params[0]) / params[1] + t.mean()
    intercept = centre - sum(e.estimate * c.mean() for e, c in zip([*exps.values(), *logs.values()], covariates))
    return PowerLawFit(
        method="glm", exponents=exps, intercept=float(intercept), log_powers=logs,
        slope=float(params[1]), llf=float(res.llf), n_params=len(params), nobs=len(k),
        notes=tuple(confounded_notes(moved)),
    )


def fit_power_law_wls(
    thresholds: Sequence[Threshold],
    values: Mapping[str, Sequence[float]],
    *,
    level: float = 0.95,
) -> PowerLawFit:
    """WLS of ``log R*`` on ``log x`` over cells (module docstring); cells without a
    finite estimate and CI are skipped, with a note."""
    keep = [i for i, th in enumerate(thresholds)
            if th.estimate is not None and math.isfinite(th.log_ci_width) and th.log_ci_width > 0]
    names, moved = confounded({v: np.log([values[v][i] for i in keep])
                               for v in values if len({values[v][i] for i in keep}) > 1})
    notes = confounded_notes(moved)
    if len(keep) < len(thresholds):
        notes.append(f"{counted(len(thresholds) - len(keep), 'cell')} without a bounded threshold CI skipped")
    if len(keep) < len(names) + 2:
        raise ValueError(
            f"only {counted(len(keep), 'cell')} with bounded thresholds for {counted(len(names), 'exponent')}: "
            "need at least two more cells than exponents"
        )
    y = np.log([thresholds[i].estimate for i in keep])
    se = np.array([thresholds[i].log_se for i in keep])
    x = np.column_stack([np.log([values[v][i] for i in keep]) for v in names])
    res, crit, df_note, _ = floored_wls(y, sm.add_constant(x, has_constant="add"), se, level,
                                        within="scatter within the thresholds' CIs")
    exps = {}
    for i, v in enumerate(names):
        est, se = float(res.params[1 + i]), float(res.bse[1 + i])
        exps[v] = Exponent(v, est, se, (est - crit * se, est + crit * se), level)
    return PowerLawFit(method="wls", exponents=exps, intercept=float(res.params[0]),
                       n_params=len(res.params), nobs=len(keep), notes=(*notes, df_note))


def _cell_sup_llf(points: Sequence[tuple[float, int, int]], increasing: bool) -> float:
    """Largest log-likelihood of a free per-cell probit (binomial constants included)."""
    pts = pool_points(points, increasing=increasing)
    const = binomial_constant(pts.k, pts.n)
    if overlaps(pts):
        fit = fit_probit(pts.t, pts.k, pts.n)
        if fit is not None:
            return fit.llf
    # not identified (separated or one-sided): the supremum is the monotone saturated fit
    p = isotonic_regression(pts.k / pts.n, weights=pts.n.astype(float), increasing=True).x
    with np.errstate(divide="ignore", invalid="ignore"):
        ll = np.where(pts.k > 0, pts.k * np.log(p), 0.0) + np.where(
            pts.n - pts.k > 0, (pts.n - pts.k) * np.log1p(-p), 0.0)
    return const + float(ll.sum())


def collapse_test(data: Dataset, *, q: float = 0.5, joint_llf: float | None = None,
                  joint_params: int | None = None) -> LRTest:
    """LR test of one multiplicative law with a common transition shape (the joint
    power-law GLM, or the model given by ``joint_llf``/``joint_params``) against free
    per-cell probit fits. A small p-value says the cells do not collapse: either the
    thresholds do not follow the fitted law or the transition width changes with the
    parameters. With huge data it rejects tiny, irrelevant deviations: it is a
    diagnostic, not the verdict."""
    if joint_llf is None:
        fit = fit_power_law(data, q=q)
        joint_llf, joint_params = fit.llf, fit.n_params
    full = sum(_cell_sup_llf(c.points, data.increasing) for c in data.cells)
    df = 2 * len(data.cells) - int(joint_params)  # type: ignore[arg-type]
    stat = max(0.0, 2.0 * (full - float(joint_llf)))
    p = float(chi2.sf(stat, df)) if df > 0 else float("nan")
    return LRTest(stat, df, p, "joint law with common probit width vs free per-cell probit fits")
