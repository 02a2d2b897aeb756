"""Fit a law's constants to every cell at once, with residual trends (docs/theory.md §6).

Binomial likelihood of all points of all cells (``t = log R``, ``sign = +1`` if success
grows with the resource):

    log R*_q(x) = log K + log f(x; C) + sum_x tau_x (log x - c_x)
    s(x)        = exp(log s0 + sum_y sigma_y (log y - c_y))
    P(success)  = Phi(z_q + sign * s(x) * (t - log R*_q(x)))

``f`` is the law's threshold, ``C`` its free constants; ``K`` an overall factor, added
only when the constants cannot already scale ``f`` (a law without constants is still
compared "up to a constant", docs/theory.md §5); ``c_x`` is the mean of ``log x`` over cells, so
``K, C`` keep their meaning at the centre. ``tau_x`` is the residual trend -- the
exponent of ``x`` that the data show beyond the law's own local elasticity -- and is 0
when the law holds; ``sigma_y`` lets the transition width drift with the parameters, so
that a width that changes across cells does not masquerade as a threshold trend.
Fitted by maximum likelihood (L-BFGS-B with the exact gradient; ``log C`` kept within 50 of
the start) with the package's one probit likelihood (:mod:`theorycheck.threshold.likelihood`);
covariance from the inverse expected information ``(J^T W J)^-1``, with the exact Jacobian
``J = du/dparams`` of :mod:`theorycheck.compare.law_model`, as for every other probit fit.

The joint likelihood may leave the constants unidentified: the transitions are steps on the
grid (the law splits successes from failures, completely or up to the points where it
crosses: where no cell has a failure above a success, the fit with the slope at its bound is
tried too, and taken if no worse; where only some cells have one, a width trend that lets the
others become steps is dropped), a constant runs to its bound, the information matrix is
singular, or the cells' transitions do not line up on the law's scale (the joint width comes
out more than 10x the widest cell's -- or, when no cell has a width of its own, 10x the width
the cells share in :mod:`theorycheck.compare.cell_model` -- because the optimum flattens every
transition to absorb a wrong law). The constants are then fitted to the cells' log thresholds and their
standard errors instead, as a thresholds table is
(:func:`theorycheck.compare.table_fit.fit_law_table`), and the fit says so
(``constants_from == "thresholds"``); their CIs are ``[0, inf]`` (``"none"``) only when that
fit does not identify them either. A width trend that runs to its bound is dropped and the
law refitted without it. Where the cells scatter around the law beyond their binomial errors,
the covariance is scaled by that dispersion and the CIs are Student t
(:mod:`theorycheck.compare.dispersion`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
from scipy.optimize import least_squares, minimize, minimize_scalar

from theorycheck.intervals import critical
from theorycheck.compare.cell_model import MAX_LOG_SLOPE, MAX_WIDTH_TREND, CellFit, cell_overlaps, fit_cells
from theorycheck.compare.data import Dataset
from theorycheck.compare.dispersion import between_cell_dispersion
from theorycheck.compare.exponents import Exponent
from theorycheck.compare.identifiable import balanced_point, identifiable
from theorycheck.compare.law_fit_result import Estimate, LawFit, exp_or_inf
from theorycheck.threshold.glm import fit_threshold
from theorycheck.compare.law_model import LawModel
from theorycheck.threshold.likelihood import probit_covariance, separated
from theorycheck.threshold.result import Threshold

#: A joint transition width more than this multiple of the widest cell's own width means
#: the fit flattened every transition to absorb thresholds that the law does not order
#: (seen: width 145 in log N against cells of width < 0.1, constant CI 1e-147..1e153).
_MISALIGNED = 10.0


def cell_thresholds(data: Dataset, *, q: float = 0.5, level: float = 0.95) -> list[Threshold]:
    """Per-cell threshold (probit GLM, Fieller CI; bracket or censored when needed)."""
    return [fit_threshold(c.points, q=q, level=level, increasing=data.increasing,
                          resource=data.resource) for c in data.cells]


def _start(model: LawModel, ths: Sequence[Threshold], log_c0: np.ndarray | None = None) -> np.ndarray:
    """Starting parameters: the constants shifted from ``log_c0`` (default ``C = 1``), then
    fitted by least squares to the cells' log thresholds; the cells' median slope."""
    ok = [i for i, th in enumerate(ths) if th.estimate is not None]
    if not ok:
        raise ValueError(
            "no cell has a threshold inside its resource range (every cell succeeds or fails "
            "everywhere): extend the resource grid so that the transitions are covered"
        )
    y = np.log([ths[i].estimate for i in ok])
    nc = len(model.free)
    log_c = np.zeros(nc) if log_c0 is None else np.asarray(log_c0, dtype=float)
    if nc and not model.with_scale:
        shift = minimize_scalar(lambda d: float(np.sum((y - model.log_f(log_c + d)[ok]) ** 2)),
                                bounds=(-60, 60), method="bounded").x
        log_c = log_c + shift

        def resid(lc: np.ndarray) -> np.ndarray:
            return y - model.log_f(lc)[ok]

        if len(ok) > nc:
            log_c = least_squares(resid, log_c, bounds=(log_c - 50, log_c + 50)).x
        log_k: list[float] = []
    else:
        log_k = [float(np.mean(y - model.log_f(log_c)[ok]))]
    slopes = [th.slope for th in ths if th.slope is not None and th.slope > 0]
    log_s = math.log(float(np.median(slopes))) if slopes else math.log(10.0)
    log_s = min(log_s, MAX_LOG_SLOPE - 1.0)
    return np.concatenate([log_c, log_k, np.zeros(len(model.trends)), [log_s],
                           np.zeros(len(model.width_trends))])


def _bounds(model: LawModel, x0: np.ndarray) -> tuple[list[tuple[float, float]], int]:
    """The box of the parameters (constants within 50 of the start, trends within 20, the log
    slope below a step's, width trends within their bound) and the log slope's index."""
    nc = len(model.free) + int(model.with_scale)
    bounds = [(v - 50.0, v + 50.0) for v in x0[:nc]] + [(-20.0, 20.0)] * len(model.trends) \
        + [(-10.0, MAX_LOG_SLOPE)] + [(-MAX_WIDTH_TREND, MAX_WIDTH_TREND)] * len(model.width_trends)
    return bounds, nc + len(model.trends)


def _lbfgsb(model: LawModel, start: np.ndarray, bounds: list[tuple[float, float]]):
    """Minimise ``model``'s negative log-likelihood from ``start`` within ``bounds`` (L-BFGS-B,
    exact gradient, tight tolerances): the one optimiser run of every law fit."""
    return minimize(model.negllf, start, jac=model.grad, method="L-BFGS-B", bounds=bounds,
                    options={"maxiter": 2000, "ftol": 1e-12, "gtol": 1e-8})


def _maximise(model: LawModel, x0: np.ndarray, bounds: list[tuple[float, float]], i_s: int):
    """The best of three L-BFGS-B runs (exact gradient): from ``x0``; from the optimum with the
    slope held at the cells' median and no width trends; from the optimum with no width trends.

    A law that misses some cells has a likelihood with several local optima: one flattens every
    transition (the joint width grows until the misfit costs little), others widen only the
    cells the law misses (a width trend). From ``x0`` L-BFGS-B often ends in the first; fitting
    the constants at the cells' own slope first, then freeing everything, reaches the others,
    and a nested fit started from the simpler fit's optimum is never worse than it. Measured on
    ``bench/data/mlp_storage_uncentred_trigger_out_quick.csv``: negative log-likelihood 196.0
    against 265.7 from ``x0`` alone (and 296.7 with a forward-difference gradient)."""
    pinned = [(v, v) for v in x0[i_s:]]  # the cells' median slope, no width trends
    fits = [_lbfgsb(model, x0, bounds), _lbfgsb(model, _lbfgsb(model, x0, bounds[:i_s] + pinned).x, bounds)]
    if model.width_trends:
        fits.append(_lbfgsb(model, _lbfgsb(model, x0, bounds[:i_s + 1] + pinned[1:]).x, bounds))
    return min(fits, key=lambda f: f.fun)


def _best_start(model: LawModel, ths: Sequence[Threshold]):
    """``(x0, bounds, i_s, optimum)`` of the better of two starts: all constants at 1, and, for
    a law with several free constants, their :func:`~theorycheck.compare.identifiable.balanced_point`.

    From ``C = 1`` the small terms of a sum have no gradient (``N ≥ C1·V² log V + C2/d + C3``:
    ``1/d`` is ~1e-10 of ``V² log V``), so the start's least squares leaves them where they are
    and the likelihood's optimum depends on where L-BFGS-B wanders: on
    ``bench/data/mean_bias_in_regime.csv`` the additive neighbour ended at a negative
    log-likelihood of 377.5 on the data and 477.7 on copies nudged by a few ulps
    (``bench/fit_stability.py``), which flipped its ranking against the law. From the balanced
    point every term starts with an equal share."""
    starts = [_start(model, ths)]
    if len(model.free) > 1:
        balanced = balanced_point(model)
        if np.any(balanced != 0.0):
            starts.append(_start(model, ths, balanced))
    fits = []
    for x0 in starts:
        bounds, i_s = _bounds(model, x0)
        fits.append((x0, bounds, i_s, _maximise(model, x0, bounds, i_s)))
    return min(fits, key=lambda f: f[3].fun)  # the first on a tie: the start from C = 1


def _at_step(model: LawModel, res, bounds: list[tuple[float, float]], i_s: int, overlapping: Sequence[bool]):
    """``res``, or the fit with the probit slope pinned at its bound (a step) when that one's
    likelihood is at least as high: the supremum then lies at an infinite slope.

    A cell with a failure above a success (``overlapping``, :func:`cell_overlaps`) bounds the
    likelihood as its slope grows, whatever the law. Where no cell has one, the law may still
    split every cell's successes from its failures, up to the points where it crosses
    (quasi-complete separation, Albert and Anderson 1984), which :func:`separated` (complete
    separation) does not see: L-BFGS-B then stops at a finite slope that is no maximum. With
    width trends, a cell without one can reach a step while a trend keeps the others' slopes
    finite (``fit_law`` then drops the trends). Called in those two cases only.

    It starts from ``res`` with the slope at its bound and, with width trends, also with the trends
    moved so the overlapping cells keep their slopes (least squares): from the first start alone
    whether L-BFGS-B gets anywhere depended on the BLAS kernels (tests/test_compare_exponents.py)."""
    start = res.x.copy()
    start[i_s] = bounds[i_s][1]
    starts = [start]
    keep = np.flatnonzero(overlapping)
    if model.width_trends and len(keep):
        shift = np.linalg.lstsq(model.wx[:, keep].T, np.full(len(keep), res.x[i_s] - start[i_s]), rcond=None)[0]
        lo, hi = np.array(bounds[i_s + 1:]).T
        starts.append(np.concatenate([start[:i_s + 1], np.clip(res.x[i_s + 1:] + shift, lo, hi)]))
    pinned = bounds[:i_s] + [(bounds[i_s][1], bounds[i_s][1])] + bounds[i_s + 1:]
    step = min((_lbfgsb(model, x, pinned) for x in starts), key=lambda f: f.fun)
    return step if step.fun <= res.fun + 1e-6 else res


def fit_law(
    law: Any,
    data: Dataset,
    *,
    q: float = 0.5,
    level: float = 0.95,
    trends: Sequence[str] = (),
    width_trends: Sequence[str] = (),
    thresholds: Sequence[Threshold] | None = None,
    shared: CellFit | None = None,
) -> LawFit:
    """Maximum-likelihood fit of ``law`` to ``data`` (module docstring). ``thresholds`` and
    ``shared`` (:func:`~theorycheck.compare.cell_model.shared_width`) depend on the data only:
    computed here when not given."""
    model = LawModel(law, data, q, trends, width_trends)
    notes = identifiable(model)
    ths = cell_thresholds(data, q=q, level=level) if thresholds is None else thresholds
    x0, bounds, i_s, res = _best_start(model, ths)
    nc = len(model.free) + int(model.with_scale)
    overlapping = cell_overlaps(data)
    if not all(overlapping) and (model.width_trends or not any(overlapping)):
        res = _at_step(model, res, bounds, i_s, overlapping)  # the supremum may lie at a step
    p = res.x
    stuck = [v for j, v in enumerate(model.width_trends) if abs(p[i_s + 1 + j]) > MAX_WIDTH_TREND - 1e-3]
    why = "ran to its bound"
    if any(overlapping) and model.width_trends and p[i_s] >= MAX_LOG_SLOPE - 1e-3:
        stuck, why = list(model.width_trends), "lets a cell's transition become a step"
    if stuck:  # a nuisance parameter at its bound: no Wald CI holds; fit without it
        fit = fit_law(law, data, q=q, level=level, trends=trends, thresholds=ths, shared=shared,
                      width_trends=[v for v in width_trends if v not in stuck])
        return replace(fit, notes=(f"the transition width's trend in {', '.join(stuck)} {why} "
                                   "(not identified by these cells): fitted without it", *fit.notes))
    identified = bool(res.success) or res.fun <= model.negllf(x0)
    fallback = None
    if p[i_s] >= MAX_LOG_SLOPE - 1e-3 or separated(model.u(p), model.k, model.n, model.zq):
        identified = False
        notes.append("the transitions are steps on this grid (on the law's scale no failure lies above a "
                     "success: the probit slope has no finite maximum): joint likelihood not identified")
    cell_widths = [1.0 / th.slope for th in ths if th.slope is not None and th.slope > 0]
    yardstick = None
    if identified and not cell_widths:  # brackets only: the cells' shared width is the yardstick
        yardstick = shared if shared is not None else fit_cells(data, ths, q=q)
        cell_widths = [math.exp(-yardstick.log_slope)] if yardstick.identified else []
    if identified and cell_widths and math.exp(-p[i_s]) > _MISALIGNED * max(cell_widths):
        identified = False  # the joint optimum flattens every transition to absorb a wrong law
        notes.append(f"the cells' transitions do not line up on the law's scale (joint transition width "
                     f"{math.exp(-p[i_s]):.3g} in log {data.resource} against at most {max(cell_widths):.3g} "
                     "within a cell): joint likelihood not identified")
        p = np.concatenate([x0[:nc], p[nc:i_s], x0[i_s:i_s + 1], p[i_s + 1:]])  # its constants and width mean nothing
    at_bound = [i for i in range(nc) if min(abs(p[i] - bounds[i][0]), abs(p[i] - bounds[i][1])) < 1e-3]
    if at_bound:
        identified = False
        notes.append("a constant ran to its bound: the law's terms are not separated by these cells")
    cov = np.full((len(p), len(p)), np.nan)
    if identified:
        found = probit_covariance(model.u(p), model.n, model.jac_u(p))
        if found is not None:
            cov = found
        else:
            identified = False
            notes.append("the Hessian of the likelihood is singular: parameters not identified")
    if not identified and nc:  # misaligned, steps, a constant at its bound, a singular Hessian
        fallback = _fit_thresholds(law, model, data, ths, level, yardstick)
        if fallback is not None:
            notes.append("constants fitted to the cells' log thresholds and their errors by weighted "
                         "least squares instead")
            p = np.concatenate([_head(fallback, model), p[nc:]])
        else:
            notes.append("the cells' log thresholds do not identify the constants either: their CIs are open")
    notes += [n for n in (fallback.notes if fallback is not None else ()) if n not in notes]
    z = critical(level)
    if identified:  # cells off the law beyond their errors widen every interval (compare/dispersion.py)
        spread = between_cell_dispersion(data, ths, model.u(p), n_location=i_s, q=q, width_trends=model.width_trends)
        if spread.widens:
            cov, z = cov * spread.phi, critical(level, spread.df)
            notes.append(spread.note())

    def est(i: int) -> Estimate:
        if not identified and fallback is not None:
            return fallback.scale if i == len(model.free) else fallback.constants[model.free[i]]
        if not identified:
            return Estimate(exp_or_inf(p[i]), (0.0, math.inf), math.nan)
        se = math.sqrt(cov[i, i])
        return Estimate(exp_or_inf(p[i]), (exp_or_inf(p[i] - z * se), exp_or_inf(p[i] + z * se)), se)

    def expo(name: str, i: int) -> Exponent:
        se = math.sqrt(cov[i, i]) if identified else math.inf
        return Exponent(name, float(p[i]), se, (p[i] - z * se, p[i] + z * se), level)

    constants = {name: est(i) for i, name in enumerate(model.free)}
    return LawFit(
        law=getattr(law, "text", str(law)),
        constants=constants,
        scale=est(len(model.free)) if model.with_scale else None,
        trends={v: expo(v, nc + j) for j, v in enumerate(model.trends)},
        width=float(math.exp(-p[i_s])),
        width_trends={v: expo(v, i_s + 1 + j) for j, v in enumerate(model.width_trends)},
        llf=-float(res.fun) if math.isfinite(res.fun) else -math.inf,
        n_params=len(p),
        nobs=len(model.k),
        identified=identified,
        notes=tuple(notes),
        fitted_constants={name: exp_or_inf(p[i]) for i, name in enumerate(model.free)},
        log_scale=float(p[len(model.free)]) if model.with_scale else 0.0,
        centres=dict(model.centres),
        constants_from="likelihood" if identified else ("thresholds" if fallback is not None else "none"),
    )


def _fit_thresholds(law: Any, model: LawModel, data: Dataset, ths: Sequence[Threshold],
                    level: float, shared: CellFit | None = None) -> LawFit | None:
    """The law fitted to the cells' log thresholds and their standard errors by weighted least
    squares (:func:`theorycheck.compare.table_fit.fit_law_cells`): the fallback when the joint
    likelihood does not identify the constants. The thresholds are the cells' own, or those of
    the ``shared``-width cell model when it is given and identified (it was the yardstick of a
    misaligned fit of cells with brackets only).
    ``None`` if that fit is not identified or identifies other constants than the rows' model
    does (the CIs then stay open)."""
    from theorycheck.compare.table_fit import cell_logs, fit_law_cells  # table_fit builds on this module

    logs = {i: (math.log(th.estimate), th.log_se) for i, th in enumerate(ths) if th.estimate is not None}
    if shared is not None and shared.identified:
        logs = cell_logs(shared.cells, shared.theta, shared.cov)
    fit = fit_law_cells(law, data, logs, level=level)
    same = fit is not None and set(fit.constants) == set(model.free) and (fit.scale is not None) == model.with_scale
    return fit if same and fit.identified else None


def _head(fallback: LawFit, model: LawModel) -> np.ndarray:
    """The log constants (and log overall factor) of a fallback fit, in the rows' model order."""
    return np.array([math.log(fallback.fitted_constants[n]) for n in model.free]
                    + [fallback.log_scale] * model.with_scale)
