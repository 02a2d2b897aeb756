"""Binomial GLM of success on log resource, and the threshold it implies.

Model (docs/theory.md §4; docs/thresholds.md): with ``t = log r`` (``-log r`` when
success decreases with the resource) and a link ``F``,

    P(success | r) = F(b0 + b1 * t),        t*_q = (F^-1(q) - b0) / b1,

fitted by ``statsmodels`` GLM (Binomial family, two-column endog ``[successes,
failures]``) for each candidate link (:data:`LINK_CANDIDATES`; the calibrated set
:data:`CALIBRATED_LINKS` is probit, logit, complementary log-log and log-log). Real transitions need not be probit-shaped in ``log r``
(extreme-value tails: coupon collector, maxima, waiting times), and a wrong link biases
``t*`` by about 1% and its CI misses the truth up to 3 times as often as it should
(docs/thresholds.md). So the links are averaged, weighted by their likelihoods
(:mod:`theorycheck.threshold.link_average`): the estimate is the mixture median of the
per-link sampling distributions and the CI their mixture's tail quantiles, so the link
choice is part of the uncertainty.

Fieller's interval for one link is the set of ``theta`` where ``g(theta) = b0 +
b1*theta - eta_q`` is not rejected, ``g(theta)^2 <= z^2 Var(g(theta))`` with ``Var(g) =
v00 + 2 theta v01 + theta^2 v11``. Unlike the delta method it is exact for a normally
distributed ``(b0, b1)`` and turns honestly unbounded when the slope is not
significantly positive; it is then replaced by the model-free binomial bracket
(:func:`bracket_interval`). The MLE does not exist under (quasi-)perfect separation (no
failure above a success): the bracket is used too, with a note.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import statsmodels.api as sm

from theorycheck.intervals import critical
from theorycheck.threshold.isotonic import (
    bracket_interval,
    isotonic_crossing,
    monotonicity_violation,
)
from theorycheck.threshold.link_average import LinkAverage, average_links
from theorycheck.threshold.links import LINKS, link_quantile, link_slope_at
from theorycheck.threshold.points import PooledPoints, pool_points
from theorycheck.threshold.result import Threshold


@dataclass(frozen=True)
class GLMFit:
    """A binomial GLM fit: coefficients, covariance (inverse expected information, the
    IRLS default of statsmodels), log-likelihood (binomial constant included), and whether
    statsmodels warned of (quasi-)perfect separation."""

    params: np.ndarray
    cov: np.ndarray
    llf: float
    separated: bool


def binomial_glm(k: np.ndarray, n: np.ndarray, exog: np.ndarray, link: str = "probit") -> GLMFit:
    """The one binomial GLM wrapper: ``k`` successes of ``n`` on the columns of ``exog``
    with ``link`` (a key of :data:`theorycheck.threshold.links.LINKS`); statsmodels errors propagate."""
    endog = np.column_stack([k, np.asarray(n) - np.asarray(k)]).astype(float)
    family = sm.families.Binomial(link=LINKS[link]())
    # statsmodels computes llf and cov_params lazily: read them inside the block too (a
    # log-log or cloglog link far in its tail overflows exp to the right limit, 0 or 1,
    # with a RuntimeWarning that must not escape as an error)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = sm.GLM(endog, exog, family=family).fit()
        fit = GLMFit(np.asarray(res.params, dtype=float), np.asarray(res.cov_params(), dtype=float),
                     float(res.llf), False)
    separated = any("separation" in str(w.message).lower() for w in caught)
    return GLMFit(fit.params, fit.cov, fit.llf, separated)


@dataclass(frozen=True)
class ProbitFit:
    """``P = F(b0 + b1 t)`` for ``link`` ``F`` (probit unless said otherwise):
    coefficients, covariance, log-likelihood."""

    b0: float
    b1: float
    cov: np.ndarray
    llf: float
    link: str = "probit"

    def probit_slope(self, q: float = 0.5) -> float:
        """The probit slope with the same ``dP/dt`` at ``P = q``: comparable across links."""
        return self.b1 * link_slope_at(self.link, q) / link_slope_at("probit", q)


def check_q_level(q: object, level: object) -> tuple[float, float]:
    """Validate the success probability ``q`` and the confidence ``level``."""
    for name, value in (("q", q), ("level", level)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{name} must be a number strictly between 0 and 1, got {value!r}")
        if not 0.0 < float(value) < 1.0:
            raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}")
    return float(q), float(level)  # type: ignore[arg-type]


def overlaps(pts: PooledPoints) -> bool:
    """Whether some failure lies strictly above some success in ``t`` (MLE exists)."""
    fail_t = pts.t[pts.k < pts.n]
    succ_t = pts.t[pts.k > 0]
    return bool(fail_t.size and succ_t.size and fail_t.max() > succ_t.min())


def fit_link(t: np.ndarray, k: np.ndarray, n: np.ndarray, link: str = "probit") -> ProbitFit | None:
    """GLM ``P = F(b0 + b1 t)`` of ``k`` successes out of ``n``; ``None`` if it fails."""
    exog = sm.add_constant(np.asarray(t, dtype=float), has_constant="add")
    try:
        res = binomial_glm(k, n, exog, link)
    except (ValueError, np.linalg.LinAlgError, FloatingPointError):
        return None
    if res.separated or not (np.all(np.isfinite(res.params)) and np.all(np.isfinite(res.cov))
                             and math.isfinite(res.llf)):
        return None
    return ProbitFit(b0=float(res.params[0]), b1=float(res.params[1]), cov=res.cov, llf=res.llf, link=link)


def fit_probit(t: np.ndarray, k: np.ndarray, n: np.ndarray) -> ProbitFit | None:
    """Probit GLM of ``k`` successes out of ``n`` on ``[1, t]``; ``None`` if it fails."""
    return fit_link(t, k, n, "probit")


def fieller_interval(fit: ProbitFit, q: float, level: float) -> tuple[float, float] | None:
    """Fieller CI of ``(eta_q - b0)/b1`` in ``t``; ``None`` when it is unbounded."""
    z = critical(level)
    zq = link_quantile(fit.link, q)
    c0 = fit.b0 - zq
    v00, v01, v11 = fit.cov[0, 0], fit.cov[0, 1], fit.cov[1, 1]
    a = fit.b1**2 - z**2 * v11
    if fit.b1 <= 0 or a <= 0:
        return None
    b = 2.0 * (c0 * fit.b1 - z**2 * v01)
    c = c0**2 - z**2 * v00
    disc = b * b - 4.0 * a * c
    if disc < 0:  # cannot happen for a > 0 up to rounding; treat as degenerate
        disc = 0.0
    root = math.sqrt(disc)
    return (-b - root) / (2.0 * a), (-b + root) / (2.0 * a)


#: The links of the calibrated fit (docs/thresholds.md: with the link average, coverage
#: 0.93-0.97 on planted and extreme-value transitions where the probit alone gives 0.82-0.93).
CALIBRATED_LINKS: tuple[str, ...] = ("probit", "logit", "cloglog", "loglog")
#: Links tried for every cell, read at call time (the default: :data:`CALIBRATED_LINKS`;
#: ``("probit",)`` gives the probit-only fit of before).
LINK_CANDIDATES: tuple[str, ...] = CALIBRATED_LINKS


def link_crossing(fit: ProbitFit, q: float) -> float:
    """``t*_q = (eta_q - b0) / b1`` of one link's fit."""
    return (link_quantile(fit.link, q) - fit.b0) / fit.b1


def _link_fits(pts: PooledPoints) -> list[ProbitFit]:
    """The fits of every :data:`LINK_CANDIDATES` link that succeeds (none without overlap)."""
    if not overlaps(pts):
        return []
    return [f for f in (fit_link(pts.t, pts.k, pts.n, lk) for lk in LINK_CANDIDATES) if f is not None]


def averaged_fit(pts: PooledPoints, q: float, level: float) -> tuple[LinkAverage, ProbitFit] | None:
    """The likelihood-weighted average of every :data:`LINK_CANDIDATES` fit and the fit of
    largest likelihood; ``None`` if no GLM is usable (no overlap, every fit failed, or the
    links without a bounded Fieller CI weigh too much, :func:`average_links`)."""
    fits = _link_fits(pts)
    if not fits:
        return None
    avg = average_links(np.array([link_crossing(f, q) for f in fits]),
                        [fieller_interval(f, q, level) for f in fits],
                        np.array([f.llf for f in fits]), level)
    if avg is None:
        return None
    return avg, max(fits, key=lambda f: f.llf)


def glm_threshold_t(
    pts: PooledPoints, q: float, level: float, *, average: bool = True
) -> tuple[float, tuple[float, float], ProbitFit] | None:
    """(estimate, CI, fit of largest likelihood) in ``t``, or ``None`` if no GLM is usable.

    With ``average`` the estimate and CI are the link average (:func:`averaged_fit`: the
    mixture median and tail quantiles); without it, the best link's crossing and Fieller CI
    alone (a stopping rule that does not spend trials on the link question).
    """
    if not average:
        fits = _link_fits(pts)
        best = max(fits, key=lambda f: f.llf) if fits else None
        ci = None if best is None else fieller_interval(best, q, level)
        return None if ci is None else (link_crossing(best, q), ci, best)
    got = averaged_fit(pts, q, level)
    if got is None:
        return None
    avg, best = got
    return avg.median, avg.ci, best


def _to_resource(t: float, increasing: bool) -> float:
    if math.isinf(t):
        return (math.inf if t > 0 else 0.0) if increasing else (0.0 if t > 0 else math.inf)
    return math.exp(t) if increasing else math.exp(-t)


def _ci_to_resource(lo_t: float, hi_t: float, increasing: bool) -> tuple[float, float]:
    a, b = _to_resource(lo_t, increasing), _to_resource(hi_t, increasing)
    return (min(a, b), max(a, b))


def fit_threshold(
    points: Iterable[object],
    *,
    q: float = 0.5,
    level: float = 0.95,
    increasing: bool = True,
    resource: str = "N",
    notes: Iterable[str] = (),
) -> Threshold:
    """Threshold at success probability ``q`` from binomial points (see module doc).

    >>> th = fit_threshold([(10, 0, 8), (20, 2, 8), (30, 6, 8), (40, 8, 8)])
    >>> th.method, 20 < th.estimate < 30
    ('glm', True)

    With half as many trials the slope is not significant and the CI is the model-free
    bracket:

    >>> fit_threshold([(10, 0, 4), (20, 1, 4), (30, 3, 4), (40, 4, 4)]).method
    'bracket'
    """
    q, level = check_q_level(q, level)
    pts = pool_points(points, increasing=increasing)
    warns: list[str] = []
    note_list = list(notes)
    violation = monotonicity_violation(pts)
    if violation:
        warns.append(violation)
    iso_t = isotonic_crossing(pts, q)
    iso = None if iso_t is None else _to_resource(iso_t, increasing)
    common = dict(
        q=q, level=level, points=pts.as_tuples(), isotonic_estimate=iso,
        monotone=violation is None, resource=resource, increasing=increasing,
    )
    glm = glm_threshold_t(pts, q, level)
    if glm is not None:
        est_t, (lo_t, hi_t), fit = glm
        if len(LINK_CANDIDATES) > 1:
            note_list.append(f"links {', '.join(LINK_CANDIDATES)} averaged by likelihood "
                             f"(largest: {fit.link})")
        return Threshold(
            estimate=_to_resource(est_t, increasing),
            ci=_ci_to_resource(lo_t, hi_t, increasing),
            method="glm", link=fit.link, slope=fit.probit_slope(q),
            slope_se=math.sqrt(fit.cov[1, 1]) * fit.probit_slope(q) / fit.b1,
            warnings=tuple(warns), notes=tuple(note_list), **common,
        )
    lo_t, hi_t = bracket_interval(pts, q, level)
    if not (pts.k > 0).any() or not (pts.k < pts.n).any():
        all_success = bool((pts.k > 0).any())
        censored = "below" if all_success == increasing else "above"
        note_list.append(
            f"{'every' if all_success else 'no'} trial succeeded: the threshold lies "
            f"{censored} the explored range"
        )
        return Threshold(
            estimate=None, ci=_ci_to_resource(lo_t, hi_t, increasing), method="censored",
            censored=censored, warnings=tuple(warns), notes=tuple(note_list), **common,
        )
    if overlaps(pts):
        note_list.append(
            "GLM gave no bounded CI (slope not significantly positive): "
            "model-free binomial bracket used"
        )
    else:
        note_list.append(
            "perfect separation (no failure above a success): GLM not identified, "
            "model-free binomial bracket used"
        )
    fail_t = pts.t[pts.k < pts.n].max()
    succ_t = pts.t[pts.k > 0].min()
    est_t = iso_t if iso_t is not None else (fail_t + succ_t) / 2.0
    return Threshold(
        estimate=_to_resource(est_t, increasing),
        ci=_ci_to_resource(lo_t, hi_t, increasing), method="bracket",
        warnings=tuple(warns), notes=tuple(note_list), **common,
    )
