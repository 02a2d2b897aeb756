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
the start; several starts: :mod:`theorycheck.compare.law_maximise`) with the package's one
probit likelihood (:mod:`theorycheck.threshold.likelihood`);
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
(:mod:`theorycheck.compare.dispersion`). With one cell and one constant (a probe's point)
the constant is the cell's threshold over ``f`` and its CI the cell's own
(``constants_from == "cell"``, :func:`_one_cell`), not a Wald interval on the same number.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from theorycheck.intervals import critical
from theorycheck.compare.cell_model import CellFit, cell_overlaps, fit_cells
from theorycheck.compare.data import Dataset
from theorycheck.compare.dispersion import between_cell_dispersion
from theorycheck.compare.exponents import Exponent
from theorycheck.compare.identifiable import covariance_columns, identifiable, runaway_notes
from theorycheck.compare.law_fit_result import Estimate, LawFit, exp_or_inf
from theorycheck.compare.law_maximise import at_step, best_start
from theorycheck.threshold.glm import fit_threshold
from theorycheck.compare.law_model import LawModel
from theorycheck.threshold.likelihood import probit_covariance, separated
from theorycheck.threshold.result import Threshold

#: A joint transition width more than this multiple of the widest cell's own width means
#: the fit flattened every transition to absorb thresholds that the law does not order
#: (seen: width 145 in log N against cells of width < 0.1, constant CI 1e-147..1e153).
_MISALIGNED = 10.0

#: The note of a fit whose constants come from the cells' thresholds instead of the likelihood.
_FALLBACK_NOTE = "constants fitted to the cells' log thresholds and their errors by weighted least squares instead"


def cell_thresholds(data: Dataset, *, q: float = 0.5, level: float = 0.95) -> list[Threshold]:
    """Per-cell threshold (probit GLM, Fieller CI; bracket or censored when needed)."""
    return [fit_threshold(c.points, q=q, level=level, increasing=data.increasing,
                          resource=data.resource) for c in data.cells]


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
    x0, bounds, i_s, res = best_start(model, ths)
    nc = len(model.free) + int(model.with_scale)
    overlapping = cell_overlaps(data)
    if not all(overlapping) and (model.width_trends or not any(overlapping)):
        res = at_step(model, res, bounds, i_s, overlapping)  # the supremum may lie at a step
    p = res.x
    step_slope = bounds[i_s][1]  # the box of law_maximise: a slope there is a step, a trend there is stuck
    stuck = [v for j, v in enumerate(model.width_trends) if abs(p[i_s + 1 + j]) > bounds[i_s + 1 + j][1] - 1e-3]
    why = "ran to its bound"
    if any(overlapping) and model.width_trends and p[i_s] >= step_slope - 1e-3:
        stuck, why = list(model.width_trends), "lets a cell's transition become a step"
    if stuck:  # a nuisance parameter at its bound: no Wald CI holds; fit without it
        fit = fit_law(law, data, q=q, level=level, trends=trends, thresholds=ths, shared=shared,
                      width_trends=[v for v in width_trends if v not in stuck])
        return replace(fit, notes=(f"the transition width's trend in {', '.join(stuck)} {why} "
                                   "(not identified by these cells): fitted without it", *fit.notes))
    identified = bool(res.success) or res.fun <= model.negllf(x0)
    fallback = None
    if p[i_s] >= step_slope - 1e-3 or separated(model.u(p), model.k, model.n, model.zq):
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
    if identified:  # a constant whose term vanished: the covariance of the law without it
        keep, vanished_notes = covariance_columns(model, p)
        found = probit_covariance(model.u(p), model.n, model.jac_u(p)[:, keep])
        if found is not None:
            cov[np.ix_(keep, keep)] = found
            notes += vanished_notes
        else:
            identified = False
            notes.append("the Hessian of the likelihood is singular: parameters not identified")
    if not identified and nc:  # misaligned, steps, a constant at its bound, a singular Hessian
        fallback = _fit_thresholds(law, model, data, ths, level, yardstick)
        if fallback is not None:
            notes.append(_FALLBACK_NOTE)
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
        if not identified or not math.isfinite(cov[i, i]):  # not identified, or its term vanished
            return Estimate(exp_or_inf(p[i]), (0.0, math.inf), math.nan)
        se = math.sqrt(cov[i, i])
        return Estimate(exp_or_inf(p[i]), (exp_or_inf(p[i] - z * se), exp_or_inf(p[i] + z * se)), se)

    def expo(name: str, i: int) -> Exponent:
        se = math.sqrt(cov[i, i]) if identified else math.inf
        return Exponent(name, float(p[i]), se, (p[i] - z * se, p[i] + z * se), level)

    constants = {name: est(i) for i, name in enumerate(model.free)}
    notes += [n for n in runaway_notes(constants) if n not in notes]
    scale = est(len(model.free)) if model.with_scale else None
    source = "likelihood" if identified else ("thresholds" if fallback is not None else "none")
    one = _one_cell(model, p, bounds, ths[0]) if model.n_cells == 1 and nc == 1 and not model.trends else None
    if one is not None:  # the cell's own threshold and CI, not a Wald interval on the same number
        p, head = one
        constants, scale = ({}, head) if model.with_scale else ({model.free[0]: head}, None)
        source = "cell"
        notes = [n for n in notes if n != _FALLBACK_NOTE]  # the cell's threshold supersedes that fallback
        notes.append("one cell: its constant is the cell's threshold over the law's f, with the cell's own CI")
    return LawFit(
        law=getattr(law, "text", str(law)),
        constants=constants,
        scale=scale,
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
        constants_from=source,
    )


def _one_cell(model: LawModel, p: np.ndarray, bounds: Sequence[tuple[float, float]],
              th: Threshold) -> tuple[np.ndarray, Estimate] | None:
    """With one cell and one free head parameter ``h`` (a constant's log, or ``log K``), the
    law's threshold ``exp(lt(h))`` is that cell's threshold: ``h`` solves ``lt(h) = log R*`` at
    the cell's estimate and at each end of its CI (:func:`cell_thresholds`: the GLM's Fieller
    CI, a bracket), so the constant and its CI are the cell's, mapped through ``f``. The joint
    fit's Wald interval for the same number ignores the slope's uncertainty and is narrower
    (on a 24-trial probe, 1.23x against the cell's 1.51x, 2026-12-02). ``(p, Estimate)``, the
    parameters with the head moved to it; ``None`` where the cell has no estimate or a CI end
    cannot be mapped (an open end, or ``f`` not monotone in ``h`` within its bounds)."""
    from scipy.optimize import brentq

    lo, hi = th.ci
    if th.estimate is None or not 0 < lo <= th.estimate <= hi < math.inf:
        return None
    q = np.array(p, dtype=float)

    def gap(h: float, log_r: float) -> float:
        q[0] = h
        return float(model.log_threshold(q)[0]) - log_r

    a, b = bounds[0]
    heads = []
    for r in (th.estimate, lo, hi):
        ga, gb = gap(a, math.log(r)), gap(b, math.log(r))
        if not ga * gb < 0:
            return None
        heads.append(brentq(gap, a, b, args=(math.log(r),), xtol=1e-12))
    h, ends = heads[0], sorted(heads[1:])
    q[0] = h
    se = (ends[1] - ends[0]) / (2.0 * critical(th.level))  # as Threshold.log_se reads the cell's CI
    return q, Estimate(exp_or_inf(h), (exp_or_inf(ends[0]), exp_or_inf(ends[1])), se)


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
