"""Maximising a law fit's likelihood (:func:`theorycheck.compare.law_fit.fit_law`): the start,
the box, the optimiser runs and the check for a supremum at a step.

The likelihood is :mod:`theorycheck.compare.law_fit`'s (the model, its negative log-likelihood
and exact gradient: :mod:`theorycheck.compare.law_model`). Its optimum is not always reached
from one start: a law that misses some cells has several local optima (:func:`maximise`), the
small terms of a sum have no gradient from ``C = 1`` (:func:`best_start`), and where the law
splits successes from failures the supremum lies at an infinite slope (:func:`at_step`).
Parameters are ``[log C..., log K?, trends..., log slope, width trends...]``; ``i_s`` is the
log slope's index.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy.optimize import minimize

from theorycheck.compare.cell_model import MAX_LOG_SLOPE, MAX_WIDTH_TREND
from theorycheck.compare.constant_start import best_least_squares, common_shift
from theorycheck.compare.identifiable import balanced_point
from theorycheck.compare.law_model import LawModel
from theorycheck.threshold.result import Threshold


def start_point(model: LawModel, ths: Sequence[Threshold], log_c0: np.ndarray | None = None) -> np.ndarray:
    """Starting parameters: the constants fitted by least squares to the cells' log thresholds
    from ``log_c0`` (default ``C = 1``) shifted by one common factor, and from ``log_c0`` itself,
    the better kept (docs/methods.md, "an unshifted start"); the cells' median slope."""
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
        def resid(lc: np.ndarray) -> np.ndarray:
            # where the law is not positive at a cell (``C1/(d - C2)`` with ``C2`` past a cell's ``d``)
            # its log is NaN: a residual of 1e3 instead steers the start back, as negllf's 1e300 does
            r = y - model.log_f(lc)[ok]
            return np.where(np.isfinite(r), r, 1e3)

        shift = common_shift(resid, log_c)
        if len(ok) >= nc:
            # least squares from the common shift and from the unshifted point, the better kept
            # (compare/constant_start.py). With as many cells as constants too: the shift alone
            # parked a three-cell pole at its first cell's d
            log_c = best_least_squares(resid, (log_c + shift, log_c)).x
        else:
            log_c = log_c + shift
        log_k: list[float] = []
    else:
        log_k = [float(np.mean(y - model.log_f(log_c)[ok]))]
    slopes = [th.slope for th in ths if th.slope is not None and th.slope > 0]
    log_s = math.log(float(np.median(slopes))) if slopes else math.log(10.0)
    log_s = min(log_s, MAX_LOG_SLOPE - 1.0)
    return np.concatenate([log_c, log_k, np.zeros(len(model.trends)), [log_s],
                           np.zeros(len(model.width_trends))])


def box(model: LawModel, x0: np.ndarray) -> tuple[list[tuple[float, float]], int]:
    """The box of the parameters (constants within 50 of the start, trends within 20, the log
    slope below a step's, width trends within their bound) and the log slope's index."""
    nc = len(model.free) + int(model.with_scale)
    bounds = [(v - 50.0, v + 50.0) for v in x0[:nc]] + [(-20.0, 20.0)] * len(model.trends) \
        + [(-10.0, MAX_LOG_SLOPE)] + [(-MAX_WIDTH_TREND, MAX_WIDTH_TREND)] * len(model.width_trends)
    return bounds, nc + len(model.trends)


def lbfgsb(model: LawModel, start: np.ndarray, bounds: list[tuple[float, float]]):
    """Minimise ``model``'s negative log-likelihood from ``start`` within ``bounds`` (L-BFGS-B,
    exact gradient, tight tolerances): the one optimiser run of every law fit."""
    return minimize(model.negllf, start, jac=model.grad, method="L-BFGS-B", bounds=bounds,
                    options={"maxiter": 2000, "ftol": 1e-12, "gtol": 1e-8})


def maximise(model: LawModel, x0: np.ndarray, bounds: list[tuple[float, float]], i_s: int):
    """The best of three L-BFGS-B runs (exact gradient): from ``x0``; from the optimum with the
    slope held at the cells' median and no width trends; from the optimum with no width trends.

    A law that misses some cells has a likelihood with several local optima: one flattens every
    transition (the joint width grows until the misfit costs little), others widen only the
    cells the law misses (a width trend). From ``x0`` L-BFGS-B often ends in the first; fitting
    the constants at the cells' own slope first, then freeing everything, reaches the others,
    and a nested fit started from the simpler fit's optimum is never worse than it. Measured on
    ``bench/data/mlp_storage_uncentred_trigger_out_quick.csv``: negative log-likelihood 196.0
    against 265.7 from ``x0`` alone (and 296.7 with a forward-difference gradient).

    With width trends, a fourth run holds the constants at ``x0`` (the cells' least-squares
    placement) and fits the width alone; the best of it and the full fit from it is a
    candidate too. A law with a pole (``N ≥ C0 + C1/(d − C2)``) stalls L-BFGS-B at ``x0``: a
    step in ``C2`` past a cell's ``d`` is infinitely bad, and the search stops where it began,
    with the width trend at 0. On the five cells of
    ``bench/data/limit_beta10_zeta05_trigger_in_2048_*_L128.csv`` that left the law 85 units of
    log-likelihood below the free cells, whose thresholds it placed within 0.6%."""
    pinned = [(v, v) for v in x0[i_s:]]  # the cells' median slope, no width trends
    fits = [lbfgsb(model, x0, bounds), lbfgsb(model, lbfgsb(model, x0, bounds[:i_s] + pinned).x, bounds)]
    if model.width_trends:
        fits.append(lbfgsb(model, lbfgsb(model, x0, bounds[:i_s + 1] + pinned[1:]).x, bounds))
        width = lbfgsb(model, x0, [(v, v) for v in x0[:i_s]] + bounds[i_s:])  # the constants held
        fits += [width, lbfgsb(model, width.x, bounds)]
    return min(fits, key=lambda f: f.fun)


def best_start(model: LawModel, ths: Sequence[Threshold]):
    """``(x0, bounds, i_s, optimum)`` of the better of two starts: all constants at 1, and, for
    a law with several free constants, their :func:`~theorycheck.compare.identifiable.balanced_point`.

    From ``C = 1`` the small terms of a sum have no gradient (``N ≥ C1·V² log V + C2/d + C3``:
    ``1/d`` is ~1e-10 of ``V² log V``), so the start's least squares leaves them where they are
    and the likelihood's optimum depends on where L-BFGS-B wanders: on
    ``bench/data/mean_bias_in_regime.csv`` the additive neighbour ended at a negative
    log-likelihood of 377.5 on the data and 477.7 on copies nudged by a few ulps
    (``bench/fit_stability.py``), which flipped its ranking against the law. From the balanced
    point every term starts with an equal share."""
    starts = [start_point(model, ths)]
    if len(model.free) > 1:
        balanced = balanced_point(model)
        if np.any(balanced != 0.0):
            starts.append(start_point(model, ths, balanced))
    fits = []
    for x0 in starts:
        bounds, i_s = box(model, x0)
        fits.append((x0, bounds, i_s, maximise(model, x0, bounds, i_s)))
    return min(fits, key=lambda f: f[3].fun)  # the first on a tie: the start from C = 1


def at_step(model: LawModel, res, bounds: list[tuple[float, float]], i_s: int, overlapping: Sequence[bool]):
    """``res``, or the fit with the probit slope pinned at its bound (a step) when that one's
    likelihood is at least as high: the supremum then lies at an infinite slope.

    A cell with a failure above a success (``overlapping``,
    :func:`~theorycheck.compare.cell_model.cell_overlaps`) bounds the likelihood as its slope grows,
    whatever the law. Where no cell has one, the law may still split every cell's successes from
    its failures, up to the points where it crosses (quasi-complete separation, Albert and
    Anderson 1984), which :func:`~theorycheck.threshold.likelihood.separated` (complete separation)
    does not see: L-BFGS-B then stops at a finite slope that is no maximum. With width trends, a
    cell without one can reach a step while a trend keeps the others' slopes
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
    step = min((lbfgsb(model, x, pinned) for x in starts), key=lambda f: f.fun)
    return step if step.fun <= res.fun + 1e-6 else res
