"""The joint probit model of a law fit: its linear predictor, likelihood and exact Jacobian.

Every point ``i`` of every cell (``t = log R``, ``sign = +1`` if success grows with the
resource) has, in the notation of :mod:`theorycheck.compare.law_fit`,

    lt(x)  = log f(x; C) + log K + sum_x tau_x (log x - c_x)        (log threshold of its cell)
    s(x)   = exp(log s0 + sum_y sigma_y (log y - c_y))               (probit slope of its cell)
    u_i    = z_q + sign * s(x) * (t_i - lt(x))

and the Jacobian of ``u`` follows by the chain rule:

    du/d log C_j   = -sign * s * d log f / d log C_j     (symbolic: Law.elasticities(of_constants=True))
    du/d log K     = -sign * s
    du/d tau_x     = -sign * s * (log x - c_x)
    du/d log s0    =  sign * s * (t - lt)                (0 where the slope is clipped at e^50)
    du/d sigma_y   =  sign * s * (t - lt) * (log y - c_y)

The gradient of the log-likelihood is ``score(u)ᵀ J`` (:func:`theorycheck.threshold.likelihood.probit_score_u`).
An exact gradient matters beyond speed: a forward-difference gradient divides the
likelihood's last-bit rounding (which differs between CPUs: numpy's vectorised ``exp`` and
``log`` differ in the last ulp) by a step of ~1e-8, and on a flat likelihood the optimiser
then ends at a different point on another machine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.stats import norm

from theorycheck.compare.data import Dataset
from theorycheck.law.at_values import LawAtValues
from theorycheck.threshold.likelihood import binomial_constant, probit_loglik, probit_score_u

_MAX_LOG_SLOPE_CELL = 50.0  # a cell's log slope is clipped here so that exp() stays finite


def log_threshold_at(at: LawAtValues, constants: dict[str, float], n_cells: int) -> np.ndarray:
    """``log f`` of a law at every cell (``at``: the law at each variable's value per cell,
    :meth:`theorycheck.law.Law.at_values`; a law without variables gives one value, repeated),
    as a fresh float64 array."""
    out = np.asarray(at.log_evaluate(constants), dtype=float).reshape(-1)
    return np.broadcast_to(out, (n_cells,)).copy()


def constant_elasticities(at: LawAtValues, constants: dict[str, float], names: Sequence[str],
                          n_cells: int) -> np.ndarray:
    """``d log f / d log C`` for the constants ``names`` at every cell, shape ``(cells, names)``:
    the law's symbolic derivatives (:meth:`theorycheck.law.Law.elasticities`)."""
    if not names:
        return np.zeros((n_cells, 0))
    el = at.constant_elasticities(constants, names)
    return np.column_stack([np.broadcast_to(np.asarray(el[n], dtype=float), (n_cells,)) for n in names])


class LawAtCells:
    """``log f`` of ``law`` at fixed cells as a function of its free constants, and its exact
    Jacobian: what :func:`theorycheck.compare.identifiable.identifiable` reads (``names``,
    ``dlog_f``; it sets ``free`` and ``with_scale``), shared by the binomial fit's
    :class:`LawModel` and the thresholds table's fit (:mod:`theorycheck.compare.table_fit`).
    ``values``: each variable's value per cell. The constants not ``free`` stay at 1."""

    def __init__(self, law: Any, values: dict[str, np.ndarray], n_cells: int) -> None:
        self.law, self.names = law, tuple(law.constants)
        self.values, self.n_cells = values, n_cells
        self.at = law.at_values(values)
        self.free: list[str] = list(self.names)
        self.with_scale = True

    def _consts(self, log_c: np.ndarray) -> dict[str, float]:
        return {name: math.exp(v) for name, v in zip(self.free, log_c)}

    def log_f(self, log_c: np.ndarray) -> np.ndarray:
        """``log f`` per cell at the free constants ``exp(log_c)``; cached (do not modify it)."""
        key = (tuple(self.free), tuple(np.asarray(log_c, dtype=float).tolist()))
        if key != getattr(self, "_key", None):
            self._key, self._val = key, log_threshold_at(self.at, self._consts(log_c), self.n_cells)
        return self._val

    def dlog_f(self, log_c: np.ndarray) -> np.ndarray:
        """``d log f / d log C`` per cell and free constant, shape ``(cells, free)``."""
        return constant_elasticities(self.at, self._consts(log_c), self.free, self.n_cells)


class LawModel(LawAtCells):
    """The rows of ``data`` under ``law`` with residual ``trends`` and ``width_trends``;
    :mod:`theorycheck.compare.identifiable` sets ``free`` and ``with_scale``."""

    def __init__(self, law: Any, data: Dataset, q: float, trends: Sequence[str],
                 width_trends: Sequence[str]) -> None:
        super().__init__(law, {v: data.cell_values(v) for v in law.variables}, len(data.cells))
        self.data = data
        cols = data.columns()
        self.cell = cols["cell"]
        self.t = np.log(cols[data.resource])
        self.k, self.n = cols["successes"].astype(float), cols["trials"].astype(float)
        self.const = binomial_constant(self.k, self.n)
        self.sign = 1.0 if data.increasing else -1.0
        self.zq = float(norm.ppf(q))
        self.trends, self.width_trends = tuple(trends), tuple(width_trends)
        logs = {v: np.log(data.cell_values(v)) for v in {*trends, *width_trends}}
        self.centres = {v: float(logs[v].mean()) for v in logs}
        self.tx = np.array([logs[v] - self.centres[v] for v in self.trends]).reshape(len(self.trends), self.n_cells)
        self.wx = np.array([logs[v] - self.centres[v] for v in self.width_trends]).reshape(
            len(self.width_trends), self.n_cells)

    def split(self, p: np.ndarray) -> tuple[np.ndarray, float, np.ndarray, float, np.ndarray]:
        """``(log C, log K, tau, log s0, sigma)`` from the parameter vector."""
        nc = len(self.free)
        i = nc + int(self.with_scale)
        log_k = p[nc] if self.with_scale else 0.0
        tau = p[i:i + len(self.trends)]
        j = i + len(self.trends)
        return p[:nc], log_k, tau, p[j], p[j + 1:]

    def log_threshold(self, p: np.ndarray) -> np.ndarray:
        log_c, log_k, tau, _, _ = self.split(p)
        return self.log_f(log_c) + log_k + (tau @ self.tx if len(tau) else 0.0)

    def _log_slope(self, p: np.ndarray) -> np.ndarray:
        _, _, _, log_s, sig = self.split(p)
        return log_s + (sig @ self.wx if len(sig) else np.zeros(self.n_cells))

    def u(self, p: np.ndarray) -> np.ndarray:
        """Probit linear predictor of every point."""
        lt = self.log_threshold(p)
        s = np.exp(np.minimum(self._log_slope(p), _MAX_LOG_SLOPE_CELL))
        return self.zq + self.sign * s[self.cell] * (self.t - lt[self.cell])

    def jac_u(self, p: np.ndarray) -> np.ndarray:
        """``du/dp``, shape ``(points, params)`` (module docstring)."""
        log_c, _, _, _, _ = self.split(p)
        ls = self._log_slope(p)
        s = np.exp(np.minimum(ls, _MAX_LOG_SLOPE_CELL))[self.cell]
        down = -self.sign * s  # d u / d (log threshold)
        gap = self.sign * s * (self.t - self.log_threshold(p)[self.cell]) * (ls[self.cell] < _MAX_LOG_SLOPE_CELL)
        cols = [down[:, None] * self.dlog_f(log_c)[self.cell]]
        if self.with_scale:
            cols.append(down[:, None])
        cols += [down[:, None] * self.tx.T[self.cell], gap[:, None], gap[:, None] * self.wx.T[self.cell]]
        return np.hstack(cols)

    def negllf(self, p: np.ndarray) -> float:
        value = -probit_loglik(self.u(p), self.k, self.n) - self.const
        return value if math.isfinite(value) else 1e300

    def grad(self, p: np.ndarray) -> np.ndarray:
        """Gradient of :meth:`negllf` (exact; 0 where the likelihood is not finite)."""
        g = -(probit_score_u(self.u(p), self.k, self.n) @ self.jac_u(p))
        return g if np.all(np.isfinite(g)) else np.zeros_like(g)
