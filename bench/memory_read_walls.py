"""The walls with the rivals' spread read off the memory: ``K``'s shortfall at small ``V``, with nothing fitted (prints).

``bench/extreme_value_walls.py`` places the wall where ``1/σ = q_V(p_V(τ))``, the correct label's score and the
``V − 1`` rivals' scores Gaussian, independent and of one variance ``σ² = (sV + (s + 1)d)/d²``; there ``K = 1``
at ``V ≥ 16384`` but ``K`` falls to 0.93 at ``V = 512``. ``bench/miss_counts.py`` found why (docs/theory.md
§7.12, "Where the shortfall comes from"): a seed's misses are binomial, and the rivals' scores ``u_jᵀ h`` are,
given the query's read ``h = W e_a``, i.i.d. Gaussian with the spread ``(|h|² + |e_a|²)/d`` (the second part the
rival's own key, ``|u_j|² e_jᵀe_a``) — but ``h`` holds the correct label's own component, so the rivals' spread
shrinks exactly when the correct score's noise is negative. For the Hebbian memory ``W = Σ_y u_y e_yᵀ`` (the
read-out's wall at ``s = 1``: P77), with ``b = |e_a|²``, ``ρ² = |u_a|²`` (``χ²_d/d`` each), ``C = Σ_{y≠a}
(e_yᵀe_a)² ~ (b/d) χ²_{V−1}``, ``g ~ N(0, 1)`` and ``Q ~ χ²_{d−1}`` (``h − b u_a = Σ_{y≠a} u_y e_yᵀe_a`` is
``N(0, (C/d) I)`` given the keys, and ``g``, ``Q`` are its parts along and across ``u_a``):

    S = bρ² + ρ √(C/d) g,    |h|² = b²ρ² + 2bρ √(C/d) g + (C/d)(g² + Q),

and a fact is recalled with probability ``P_read(V, d) = E[Φ(S / √((|h|² + b)/d))^{V−1}]``
(:func:`read_recall_share`; the expectation by scrambled Sobol points, ``scipy.stats.qmc``, mapped through the
``χ²`` and normal quantiles, so it is smooth in ``d``). The wall at target ``τ`` is the ``d`` where it reaches
``p_V(τ)`` (:func:`read_wall`; half the seeds reach ``τ``, the misses binomial). Nothing is fitted. With the trigger
in the value path (``s > 1``) the query is ``e_a + z`` (:func:`read_recall_share`; checked against
``bench/miss_counts.py --s ... --trigger fresh``), and a seed's misses are no longer binomial, its trigger shared by
all its queries (``bench/shared_bias_walls.py``). The script prints, for every published wall
(:func:`extreme_value_walls.published_walls`), the Gaussian form's ``K = 1`` wall and this one, each against the
measured wall. Docs: docs/theory.md §7.12.

Example: ``python bench/memory_read_walls.py`` (about two minutes on 2 cores).
"""

from __future__ import annotations

import argparse
from functools import lru_cache

import numpy as np
from scipy import optimize, stats
from scipy.stats import qmc

from extreme_value_walls import ev_wall, published_walls, recall_share


@lru_cache(maxsize=4)
def sobol_points(m: int, seed: int, dims: int = 6) -> np.ndarray:
    """``2^m`` scrambled Sobol points in ``[0, 1)^dims`` (``scipy.stats.qmc.Sobol``, seeded): one per fact drawn."""
    return qmc.Sobol(d=dims, scramble=True, seed=seed).random_base2(m)


def read_recall(V: int, score, spread2):
    """A fact's recall given its query's read: ``Φ(S/spread)^{V−1}``, the ``V − 1`` rivals i.i.d.
    ``N(0, spread2)`` and the correct label's score ``S`` (arrays elementwise; through ``logcdf``)."""
    return np.exp((V - 1) * stats.norm.logcdf(score / np.sqrt(spread2)))


def read_recall_share(V: int, d: float, s: float = 1.0, m: int = 16, seed: int = 0) -> float:
    """``P_read(V, d)``: the probability that a fact is recalled, the rivals i.i.d. Gaussian given the query's read
    (module docstring), averaged over ``2^m`` Sobol points. With the trigger in the value path (``s = 1 + ζ²``) the
    query is ``e_a + z``: the read is ``Σ_y w̃_y e_yᵀ(e_a + z)``, the correct label's coefficient ``b + t`` with
    ``t = e_aᵀz`` (``N(0, ζ² b/d)``), the others' ``N(0, |e_a + z|²/d)`` with ``|e_a + z|² = b + 2t + ζ²``, the
    same ``t``, and each rival's own term ``|u_j|² e_jᵀ(e_a + z)`` of variance ``|e_a + z|²/d``."""
    u = sobol_points(m, seed)
    zeta2 = s - 1.0
    b, rho2 = (stats.chi2.ppf(u[:, i], d) / d for i in (0, 1))
    t = np.sqrt(zeta2 * b / d) * stats.norm.ppf(u[:, 5])  # e_aᵀz
    query2 = np.maximum(b + 2 * t + zeta2, 0.0)  # |e_a + z|²: each e_yᵀ(e_a + z) is N(0, query2/d)
    c = query2 / d * stats.chi2.ppf(u[:, 2], V - 1)  # Σ_{y≠a} (e_yᵀ(e_a + z))²
    g, q = stats.norm.ppf(u[:, 3]), stats.chi2.ppf(u[:, 4], d - 1)
    coef = b + t  # the read's part along u_a, over |u_a|
    spread = c / d  # |h − coef·u_a|²/d, per coordinate
    along = np.sqrt(rho2 * spread) * g  # u_aᵀ(h − coef·u_a)
    score = coef * rho2 + along
    read2 = coef * coef * rho2 + 2 * coef * along + spread * (g * g + q)
    return float(np.mean(read_recall(V, score, (read2 + query2) / d)))


def read_wall(V: int, tau: float, m: int = 16, seed: int = 0, s: float = 1.0) -> float:
    """The ``d`` at which :func:`read_recall_share` reaches ``p_V(τ)`` (``extreme_value_walls.recall_share``: half
    the seeds reach ``τ``, a seed's misses binomial; scipy ``brentq``, ``d`` taken as continuous)."""
    target, gauss = recall_share(V, tau), ev_wall(V, s, tau)
    lo, hi = max(8.0, 0.5 * gauss), 2.0 * gauss
    return optimize.brentq(lambda d: read_recall_share(V, d, s, m, seed) - target, lo, hi, xtol=1e-3)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--points", type=int, default=16, help="2^points Sobol points per expectation (default 16)")
    a = p.parse_args(argv)
    if not 4 <= a.points <= 22:
        p.error(f"--points is a power of 2 between 4 and 22; got {a.points}: give e.g. 16")
    print(f"{'source':9s} {'V':>6s} {'s':>7s} {'target':>6s} {'wall':>8s} {'K=1 wall':>8s} {'ratio':>6s} "
          f"{'read':>8s} {'ratio':>6s}")
    walls = published_walls()
    for r in sorted(walls, key=lambda r: (r["s"] != 1.0, r["target"], r["V"], r["s"], r["source"])):
        V, s, tau, d = r["V"], r["s"], r["target"], r["wall"]
        gauss, read = ev_wall(V, s, tau), read_wall(V, tau, a.points, s=s)
        print(f"{r['source']:9s} {V:6d} {s:7.2f} {tau:6.3f} {d:8.1f} {gauss:8.1f} {d / gauss:6.3f} {read:8.1f} "
              f"{d / read:6.3f}")
    print(f"(read: 2^{a.points} Sobol points; 'ratio' is the measured wall over the form's; {len(walls)} walls; at "
          f"s > 1 the misses taken binomial: bench/shared_bias_walls.py adds the seed's shared trigger)")


if __name__ == "__main__":
    main()
