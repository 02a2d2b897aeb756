"""Hard attention's read-out at infinite ``N`` in parts, the variances of those parts, and the trigger's bias
replaced query by query (no figures; used by ``population_wall.py``, ``crosstalk_parts.py`` and
``bias_modes.py``). The derivation of the variances is ``crosstalk_parts.py``'s module docstring (docs/theory.md
§7.12, "Why ζ = 2 missed: the cross-talk's 1/d terms"); the bias's modes are :func:`query_bias`'s (§7.12, "Why a
seed's own bias beats fresh draws")."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from theorycheck.algorithms.attention_readout import attend
from theorycheck.algorithms.limit import centered_labels

BIAS_MODES = ("frozen", "share", "fresh", "redraw", "own", "selfless", "retrained")


class Parts(NamedTuple):
    """:func:`attended_parts`' read-out: ``C[i, y] = u_yᵀ G₂ e_{x_i}`` (``x_i = tokens[i]`` the token query ``i``
    attends to), ``b = U G₂ z_trig`` the trigger's per-label logit (zero with the trigger out of the value path),
    ``selected``, whether the informative position was attended (where ``b`` is added), and ``M``, the label
    rows :func:`label_rows` (``b = M z_trig``), kept so the bias's modes reuse them."""
    C: np.ndarray
    b: np.ndarray
    selected: np.ndarray
    tokens: np.ndarray
    M: np.ndarray


def label_rows(limit) -> np.ndarray:
    """``M = U G₂``: row ``y`` gives label ``y``'s logit ``u_yᵀ G₂ k`` of an attended key ``k``."""
    return limit.emb.U @ limit.G2


def attended_parts(limit, test) -> Parts:
    """Hard attention's read-out of ``test`` in parts (:class:`Parts`): labels ``argmax_y C[i, y] +
    selected_i·b_y``, :meth:`~theorycheck.algorithms.limit.LimitFit.predict`'s."""
    emb = limit.emb
    M = label_rows(limit)
    attended, _ = attend(test.tokens, test.pos, emb.E @ limit.g, limit.trigger_coef, math.inf, 1.0)
    x = test.tokens[np.arange(len(attended)), attended]
    b = M @ emb.z_trig if limit.params.marker_in_value else np.zeros(len(M))
    return Parts(emb.E[x] @ M.T, b, attended == test.pos, x, M)


def parts_accuracy(C: np.ndarray, b: np.ndarray, selected: np.ndarray, labels: np.ndarray) -> float:
    """The accuracy of labels ``argmax_y C[i, y] + selected_i·b[..., y]`` (``b`` one row for every query, or a row
    a query) against ``labels``: :func:`attended_parts`' read-out, with ``b`` as given."""
    return float(np.mean(np.argmax(C + selected[:, None] * b, axis=1) == labels))


def crosstalk_variances(V: int, d: int, zeta: float) -> tuple[float, float]:
    """``(var_c, var_b)`` of a competitor's logit: ``(V + 2d − 2)/d²`` and ``ζ²(V + d − 1)/d²``."""
    return (V + 2 * d - 2) / d**2, zeta**2 * (V + d - 1) / d**2


def stored_trigger(limit) -> np.ndarray:
    """``h = U W̃ᵀ c``: the labels' logits per unit of a key's overlap with the stored trigger (``G₂``'s part
    ``W̃ᵀ c z_trigᵀ``, ``c`` the weights by label in ``limit.diagnostics["stored"]``, ``W̃`` the centred labels), so
    ``b = U G₂ z_trig`` holds ``ζ² h``, with ``h_y ≈ c_y − c̄`` plus cross-talk."""
    U = limit.emb.U
    return U @ (centered_labels(U).T @ limit.diagnostics["stored"])


def query_bias(mode: str, limit, parts: Parts, labels: np.ndarray, seed: int) -> np.ndarray:
    """The trigger's per-label logit under ``mode`` (one row for every query, or a row a query), in place of
    ``parts.b`` in :func:`parts_accuracy`:

    - ``frozen``: ``b = U G₂ z_trig`` itself, one draw a seed that every query shares;
    - ``share``: each query its own permutation of ``b`` (``[seed, 2]``);
    - ``fresh``: i.i.d. ``N(0, ζ²(V + d − 1)/d²)``, the cross-talk formula's variance (``[seed, 3]``);
    - ``redraw``: ``U G₂ z′_i``, each query its own ``z′_i`` uniform on the sphere of radius ``ζ`` (``[seed, 4]``);
    - ``own``: ``fresh``'s draws, with the part of ``z_trig`` along the query's key kept: ``z_trig = s_i e_{x_i} +
      z_⊥`` with ``s_i = e_{x_i}ᵀ z_trig/|e_{x_i}|²`` gives the logits ``(1 + s_i) C_i + U G₂ z_⊥``, so the own part
      rescales the key's whole row; ``own`` adds ``s_i C_i`` and shrinks the correct label's draw to the formula
      without its own-fact term, ``ζ²(V − 1)/d²``;
    - ``selfless``: ``b − ζ² h`` (:func:`stored_trigger`), the frozen bias without the stored trigger's self-overlap;
    - ``retrained``: ``U G₂′ z′_i`` with ``redraw``'s ``z′_i`` and ``G₂′`` storing ``z′_i`` in place of ``z_trig``:
      ``redraw``'s bias plus ``(ζ² − z_trigᵀ z′_i) h``.
    """
    if mode not in BIAS_MODES:
        raise ValueError(f"bias mode: expected one of {', '.join(BIAS_MODES)}; got {mode!r}")
    n, V = parts.C.shape
    zeta, d = limit.params.zeta, limit.G2.shape[0]
    if mode == "frozen":
        return parts.b
    if mode == "share":
        return parts.b[np.random.default_rng([seed, 2]).permuted(np.tile(np.arange(V), (n, 1)), axis=1)]
    if mode == "selfless":
        return parts.b - zeta**2 * stored_trigger(limit)
    if mode in ("redraw", "retrained"):
        z = sphere_directions(n, d, zeta, np.random.default_rng([seed, 4]))
        b = z @ parts.M.T
        if mode == "redraw":
            return b
        return b + (zeta**2 - z @ limit.emb.z_trig)[:, None] * stored_trigger(limit)
    _, var_b = crosstalk_variances(V, d, zeta)
    g = np.random.default_rng([seed, 3]).standard_normal((n, V)) * math.sqrt(var_b)
    if mode == "fresh":
        return g
    keys = limit.emb.E[parts.tokens]
    s = keys @ limit.emb.z_trig / np.einsum("ij,ij->i", keys, keys)
    g[np.arange(n), labels] *= math.sqrt((V - 1) / (V + d - 1))
    return g + s[:, None] * parts.C


def sphere_directions(k: int, d: int, zeta: float, rng: np.random.Generator) -> np.ndarray:
    """``k`` rows uniform on the sphere of radius ``zeta`` in ``d`` dimensions (Gaussian rows, rescaled)."""
    z = rng.standard_normal((k, d))
    return z * (zeta / np.linalg.norm(z, axis=1, keepdims=True))


def direction_errors(limit, parts: Parts, labels: np.ndarray, zs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(error, var_b)`` for each trigger direction ``z`` in the rows of ``zs``, shared by every query as ``z_trig``
    is (``b = U G₂ z``; with every ``c_y = 1`` the stored trigger cancels from ``G₂``, so ``z`` moves only the bias):
    the test error of :func:`parts_accuracy` and the variance of ``b`` over the labels."""
    bs = zs @ parts.M.T
    errors = [1.0 - parts_accuracy(parts.C, b, parts.selected, labels) for b in bs]
    return np.array(errors), bs.var(axis=1)
