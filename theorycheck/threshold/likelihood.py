"""The one binomial probit likelihood of the package, its score and its information.

Every model of success against the resource (one cell, a free threshold per cell, a
law fitted to all cells) is a probit in a linear predictor ``u_i(params)`` (docs/theory.md §4):

    P(success at point i) = Phi(u_i),
    log L = sum_i k_i log Phi(u_i) + (n_i - k_i) log Phi(-u_i)      (+ binomial constant),
    d log L / d u_i = k_i phi/Phi(u_i) - (n_i - k_i) phi/Phi(-u_i),
    I(params) = J^T diag(n_i phi(u_i)^2 / (Phi(u_i) Phi(-u_i))) J,   J = du/dparams.

The covariance kept everywhere is the inverse **expected** (Fisher) information ``I^-1``:
it is what the statsmodels GLM fit reports for its Fisher-scoring (IRLS) solution, so the
per-cell GLM, the joint per-cell model and the law fit now agree; it is positive
semi-definite by construction and needs only first derivatives of ``u`` (the observed
Hessian needed second differences of the whole likelihood, with a step to choose).
``log_ndtr`` keeps the tails exact (``log Phi(-40)`` is finite).
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln, log_ndtr

_U_CLIP = 1e8
_LOG_SQRT_2PI = float(np.log(np.sqrt(2 * np.pi)))


def log_phi(u: np.ndarray) -> np.ndarray:
    """``log phi(u) = -u²/2 - log sqrt(2 pi)``, the standard normal log-density: the expression of
    ``scipy.stats.norm.logpdf`` (equal to the last bit), without its per-call argument handling,
    which cost more than the arithmetic in a fit's thousands of gradient calls."""
    return -u**2 / 2.0 - _LOG_SQRT_2PI


def binomial_constant(k: np.ndarray, n: np.ndarray) -> float:
    """``sum log C(n_i, k_i)``: the constant that makes ``log L`` a true log-probability."""
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    return float(np.sum(gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)))


def probit_loglik(u: np.ndarray, k: np.ndarray, n: np.ndarray) -> float:
    """``sum k log Phi(u) + (n-k) log Phi(-u)`` (no binomial constant)."""
    u = np.clip(np.asarray(u, dtype=float), -_U_CLIP, _U_CLIP)
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    return float(np.sum(k * log_ndtr(u) + (n - k) * log_ndtr(-u)))


def inverse_mills(u: np.ndarray) -> np.ndarray:
    """``phi(u) / Phi(u)``, stable for very negative ``u`` (where it tends to ``-u``)."""
    u = np.clip(np.asarray(u, dtype=float), -_U_CLIP, _U_CLIP)
    return np.exp(log_phi(u) - log_ndtr(u))


def probit_score_u(u: np.ndarray, k: np.ndarray, n: np.ndarray) -> np.ndarray:
    """``d log L / d u_i`` per point."""
    k, n = np.asarray(k, dtype=float), np.asarray(n, dtype=float)
    return k * inverse_mills(u) - (n - k) * inverse_mills(-np.asarray(u, dtype=float))


def probit_weights(u: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Fisher weight per point, ``n phi(u)^2 / (Phi(u) Phi(-u))``."""
    u = np.clip(np.asarray(u, dtype=float), -_U_CLIP, _U_CLIP)
    return np.asarray(n, dtype=float) * np.exp(2 * log_phi(u) - log_ndtr(u) - log_ndtr(-u))


def probit_covariance(u: np.ndarray, n: np.ndarray, jac: np.ndarray) -> np.ndarray | None:
    """Inverse expected information ``(J^T W J)^-1`` (module doc); ``None`` when it is
    singular or not a covariance (non-finite, non-positive diagonal)."""
    info = jac.T @ (probit_weights(u, n)[:, None] * jac)
    try:
        cov = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(cov)) or np.any(np.diag(cov) <= 0):
        return None
    return cov


def separated(u: np.ndarray, k: np.ndarray, n: np.ndarray, zq: float) -> bool:
    """True when the fitted model splits the points perfectly: every point is all
    successes or all failures, and ``u - z_q`` (the slope times the signed distance from
    the threshold) is positive at every all-success point and negative at every
    all-failure one. Scaling the slope up then raises the likelihood without end: the
    maximum lies at an infinite slope (a step), so an optimizer that stopped at a finite
    slope has no maximum to report and its information matrix no covariance (Albert and
    Anderson 1984, complete separation in binary regression)."""
    u, k, n = (np.asarray(a, dtype=float) for a in (u, k, n))
    live = n > 0
    u, k, n = u[live], k[live], n[live]
    if np.any((k > 0) & (k < n)):
        return False
    return bool(np.all(u[k == n] > zq) and np.all(u[k == 0] < zq))
