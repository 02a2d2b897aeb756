"""Hard attention's read-out at infinite ``N`` in parts, and the variances of those parts (no figures; used by
``population_wall.py`` and ``crosstalk_parts.py``). The derivation of the variances is ``crosstalk_parts.py``'s
module docstring (docs/theory.md §7.12, "Why ζ = 2 missed: the cross-talk's 1/d terms")."""

from __future__ import annotations

import math

import numpy as np

from theorycheck.algorithms.attention_readout import attend


def attended_parts(limit, test):
    """Hard attention's read-out of ``test`` in parts, ``(C, b, selected)``: ``C[i, y] = u_yᵀ G₂ e_{x_i}`` (``x_i``
    the token query ``i`` attends to), ``b = U G₂ z_trig`` the trigger's per-label logit (zero with the trigger
    out of the value path), and whether the informative position was attended (where ``b`` is added: labels
    ``argmax_y C[i, y] + selected_i·b_y``, :meth:`~theorycheck.algorithms.limit.LimitFit.predict`'s)."""
    emb = limit.emb
    M = emb.U @ limit.G2
    attended, _ = attend(test.tokens, test.pos, emb.E @ limit.g, limit.trigger_coef, math.inf, 1.0)
    x = test.tokens[np.arange(len(attended)), attended]
    b = M @ emb.z_trig if limit.params.marker_in_value else np.zeros(len(M))
    return emb.E[x] @ M.T, b, attended == test.pos


def parts_accuracy(C: np.ndarray, b: np.ndarray, selected: np.ndarray, labels: np.ndarray) -> float:
    """The accuracy of labels ``argmax_y C[i, y] + selected_i·b[..., y]`` (``b`` one row for every query, or a row
    a query) against ``labels``: :func:`attended_parts`' read-out, with ``b`` as given."""
    return float(np.mean(np.argmax(C + selected[:, None] * b, axis=1) == labels))


def crosstalk_variances(V: int, d: int, zeta: float) -> tuple[float, float]:
    """``(var_c, var_b)`` of a competitor's logit: ``(V + 2d − 2)/d²`` and ``ζ²(V + d − 1)/d²``."""
    return (V + 2 * d - 2) / d**2, zeta**2 * (V + d - 1) / d**2
