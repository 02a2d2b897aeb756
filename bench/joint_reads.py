"""The joint form's reads: one query's read given its label's bias, with the labels isotropic or as the memory's Gram
makes them (no printing; used by ``bench/shared_bias_walls.py``).

A query ``e_a + z`` reads ``h_a + m`` from the read-out's memory (docs/theory.md §7.12): ``h_a`` the key's part,
``m = G₂ z`` the trigger's, the same for every query of a seed. Rival ``j`` scores ``w̃_jᵀ(h_a + m)``, its bias
``b_j = w̃_jᵀm``. The joint form takes each rival's score as ``c ξ_j`` (``b_j = σ_b ξ_j``, ``c = σ_b + ε``) plus
i.i.d. Gaussian noise of variance ``σ²``, and draws ``(S, ε, σ²)`` given the correct label's bias ``β``
(:func:`conditional_read`). Taking the rivals' labels ``w̃_j`` isotropic (``V = None``), its slope on the biases
is ``κ = 1 + ε/σ_b = 1 + h_aᵀm/(dσ_b²)``.

**With the labels' Gram** (``V`` given; derived 2026-12-08, docs/theory.md §7.12 "The rivals' slope with the labels'
Gram"). In the memory the rivals' least-squares slope on their biases has ``κ − 1 = mᵀG'h_a / mᵀG'm``,
``G' = Σ_{j≠a} w̃_j w̃_jᵀ``, and ``m = W̃ᵀw`` lies in ``G``'s range. Write ``m = t w̃_a + m'`` and ``h_a = b w̃_a + h'``
(``t = e_aᵀz``, ``b = |e_a|²``, ``m_a = w̃_aᵀm'``, ``c = d/V``). Three parts differ from the isotropic form's:

* ``b m'ᵀG'w̃_a`` given ``m_a`` is ``b m_a`` times ``m'``'s Rayleigh quotient of ``G'`` (``w̃_a`` is independent of
  ``m'`` and ``G'``). That quotient is what makes ``σ_b² = ζ²(V + d − 1)/d²`` exceed ``|m|²/d``, so in the form's
  units ``m_a``'s part gains ``g = (V + d − 1)/(V − 1)``. The code scales the form's whole ``key m_a/ρ²``
  (``key = bρ² + along``) by ``g``; the ``along`` part, one of ``h'ᵀm'``'s ``d`` coordinates, is not derived, and
  taking ``b m_a`` alone moved the miss share by 0.1-0.25% (2026-12-08, two points).
* ``m'ᵀG'h'`` has mean ``t``, the keys' shared part, times ``w̃_xᵀG'w̃_x = ρ_x⁴ + Σ_{y≠x} (w̃_yᵀw̃_x)²`` averaged over
  the facts. The isotropic form has the second term only, so ``+ t``.
* Its spread has ``tr G'⁴`` where the isotropic form has ``(tr G')⁴/d³``: Marchenko–Pastur's ``μ₄ = 1 + 6c + 6c² + c³``
  (eigenvalues over their mean; ``c = d/V`` for ``G'``'s ``d/(V − 1)``) times the form's ``n3`` variance.
  ``m'ᵀG'w̃_a``'s spread across ``m'`` adds ``c²`` (``μ₃ − μ₂² = c``). The form's i.i.d. rivals add their own
  projection on ``ξ``, ``σ²/(Vσ_b²)``, ``c(1 + c)(1 + 2c)`` of it at ``σ² = (V + 2d)/d²``. So ``n3``'s variance is
  scaled by ``ν = μ₄ + c² − c(1 + c)(1 + 2c) = 1 + 5c + 4c² − c³``, taken as 0 where that is negative (``c > 5.03``).
  There the i.i.d. rivals' projection alone exceeds the memory's whole ``κ`` noise: the form keeps that excess.

Measured on the memory's own seeds by ``bench/rival_slope.py`` (2026-12-08; docs/theory.md §7.12): ``κ − 1``'s
coefficients on ``t`` and ``m_a`` within 0.5% of the derived ``(1 + d/(V + d))/ζ²`` and ``d/(Vζ²)`` at three points
with ``c`` 0.43..0.73 (300-1000 seeds, the points they were derived from) and 0.4-4.7% at three more with ``c`` 1.6
to 7.9 (20 seeds), the Gram reads' within 2.0% of them; ``κ``'s spread given them at 0.99-1.01 of the memory's with
the Gram reads (0.43-0.71 isotropic) at ``c ≤ 2.5``, 1.21 at ``c = 7.9``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from scipy import stats

from memory_read_walls import sobol_points


def fact_draws(V: int, d: float, points: int = 12, seed: int = 0) -> dict:
    """The parts of a query's read that do not depend on its label's bias, at ``2^points`` Sobol points in 7
    dimensions: ``b = |e_a|²``, ``ρ² = |u_a|²`` (``χ²_d/d``), ``x = χ²_{V−1}/d`` (the others' keys' overlaps, in
    units of ``|query|²/d``), ``q`` (``χ²_{d−1}``) and three standard normals."""
    u = sobol_points(points, seed, dims=7)
    b, rho2 = (stats.chi2.ppf(u[:, i], d) / d for i in (0, 1))
    normals = stats.norm.ppf(u[:, 4:])
    return {"b": b, "rho2": rho2, "x": stats.chi2.ppf(u[:, 2], V - 1) / d, "q": stats.chi2.ppf(u[:, 3], d - 1),
            "n1": normals[:, 0], "n2": normals[:, 1], "n3": normals[:, 2]}


class Query(NamedTuple):
    """One query's read given its label's bias (:func:`conditional_read`), arrays over ``[β, point]``."""
    score: np.ndarray  # S, the correct label's score, its bias included
    t: np.ndarray  # t = e_aᵀz, drawn given β (the tests rebuild the read form's whole spread from it)
    rest2: np.ndarray  # σ², the part of it that is the query's own: (|h_a|² + b)/d − ε²
    eps: np.ndarray  # ε = h_aᵀm/(dσ_b): the rivals' fixed biases scale with c = σ_b + ε
    weight: np.ndarray  # ∝ N(β; 0, v)
    bias_var: np.ndarray  # v, the point's own bias variance


def gram_terms(V: int, d: float) -> tuple[float, float]:
    """``(g, ν)`` of the labels' Gram (module docstring): ``g = (V + d − 1)/(V − 1)`` on ``m_a``'s part of ``ε`` and
    ``ν = max(1 + 5c + 4c² − c³, 0)``, ``c = d/V``, on its ``n3`` variance."""
    c = d / V
    return (V + d - 1) / (V - 1), max(1 + 5 * c + 4 * c * c - c**3, 0.0)


def conditional_read(f: dict, d: float, zeta2: float, sigma_b: float, beta: np.ndarray, V: int | None = None) -> Query:
    """A query whose label's bias is ``β`` (``bench/shared_bias_walls.py``'s docstring, "Both together"): the read
    form of ``memory_read_walls.read_recall_share`` with the trigger in, drawn given ``b_a = ρ²t + m_a = β``
    (``t = e_aᵀz``, ``m_a`` the others' trigger overlaps along ``u_a``, ``along`` the key's cross-talk there). The
    weight ``∝ N(β; 0, v)`` is how likely the point's own bias variance ``v = ρ⁴ζ²b/d + ρ² s_m`` makes ``β`` (a
    label's bias scales with ``|u_a|``), so that over ``β`` the weighted points are that form. ``ε`` is the read's
    part along the trigger's ``m`` over ``√d``: each rival's score is ``c ξ_j`` plus a part of variance ``σ²`` of
    the query's own. ``V`` given: ``ε`` with the labels' Gram (module docstring, :func:`gram_terms`)."""
    b, rho2, x = f["b"], f["rho2"], f["x"]
    s_h, s_m = b * x / d, zeta2 * x / d  # per coordinate: the key's and the trigger's cross-talk
    var_t, var_m = zeta2 * b / d, rho2 * s_m  # t and m_a, independent
    v = rho2 * rho2 * var_t + var_m  # the point's own bias variance
    share = rho2 * rho2 * var_t / v
    t = share * beta / rho2 + np.sqrt(var_t * (1 - share)) * f["n1"]
    m_a = beta - rho2 * t
    s_hm = t * x / d  # the two cross-talks' covariance, per coordinate
    along = s_hm / s_m * m_a + np.sqrt(np.maximum(rho2 * (s_h - s_hm * s_hm / s_m), 0.0)) * f["n2"]
    key = b * rho2 + along  # the key's part of the correct score: u_aᵀh_a
    score = key + beta
    # h_aᵀm: along u_a (key/ρ)(β/ρ); across it, d − 1 coordinates of covariance s_hm each
    spread = np.sqrt((d - 1) * (s_h * s_m + s_hm * s_hm)) * f["n3"]
    hm = key * beta / rho2 + (d - 1) * s_hm
    if V is not None:  # the labels' Gram: m_a's part times g, label x's own ρ_x⁴ ≈ 1 in the mean, n3's spread √ν
        g, nu = gram_terms(V, d)
        hm, spread = hm + (g - 1.0) * key * m_a / rho2 + t, math.sqrt(nu) * spread
    eps = (hm + spread) / (d * sigma_b)
    rest2 = (key * key / rho2 + s_h * f["q"] + b) / d - eps * eps
    return Query(score, t, rest2, eps, np.exp(-0.5 * beta * beta / v) / np.sqrt(v), v)


def drawn_reads(f: dict, d: float, zeta2: float, sigma_b: float, rng: np.random.Generator,
                V: int | None = None) -> tuple[np.ndarray, Query]:
    """``(β, read)``: each point's bias ``β`` drawn from its own variance ``v`` (``rng``), and its read given it
    (:func:`conditional_read`): over the points, the read form unweighted."""
    v = conditional_read(f, d, zeta2, sigma_b, np.zeros(1)).bias_var
    beta = np.sqrt(v) * rng.standard_normal(len(v))
    return beta, conditional_read(f, d, zeta2, sigma_b, beta, V)
