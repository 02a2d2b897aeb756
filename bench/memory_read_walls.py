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
``p_V(τ)`` (:func:`read_wall`; half the seeds reach ``τ``, the misses binomial). Nothing is fitted. The script
prints, for every published wall at ``s = 1`` (:func:`extreme_value_walls.published_walls`), the Gaussian form's
``K = 1`` wall and this one, and each against the measured wall. Docs: docs/theory.md §7.12.

Example: ``python bench/memory_read_walls.py`` (about a minute on 2 cores).
"""

from __future__ import annotations

import argparse
import math
from functools import lru_cache

import numpy as np
from scipy import optimize, stats
from scipy.stats import qmc

from extreme_value_walls import ev_wall, published_walls, recall_share


@lru_cache(maxsize=4)
def sobol_points(m: int, seed: int) -> np.ndarray:
    """``2^m`` scrambled Sobol points in ``[0, 1)^5`` (``scipy.stats.qmc.Sobol``, seeded): one per fact drawn."""
    return qmc.Sobol(d=5, scramble=True, seed=seed).random_base2(m)


def read_recall_share(V: int, d: float, m: int = 16, seed: int = 0) -> float:
    """``P_read(V, d)``: the probability that a fact of the Hebbian memory is recalled, the rivals i.i.d.
    Gaussian given the query's read (module docstring), averaged over ``2^m`` Sobol points."""
    u = sobol_points(m, seed)
    b, rho2 = (stats.chi2.ppf(u[:, i], d) / d for i in (0, 1))
    c = b / d * stats.chi2.ppf(u[:, 2], V - 1)
    g, q = stats.norm.ppf(u[:, 3]), stats.chi2.ppf(u[:, 4], d - 1)
    along = np.sqrt(rho2 * c / d) * g  # ρ √(C/d) g = u_aᵀ(h − b u_a)
    score = b * rho2 + along
    read2 = b * b * rho2 + 2 * b * along + c / d * (g * g + q)
    return float(np.mean(np.exp((V - 1) * stats.norm.logcdf(score / np.sqrt((read2 + b) / d)))))


def read_wall(V: int, tau: float, m: int = 16, seed: int = 0) -> float:
    """The ``d`` at which :func:`read_recall_share` reaches ``p_V(τ)`` (``extreme_value_walls.recall_share``;
    scipy ``brentq``, ``d`` taken as continuous)."""
    target = recall_share(V, tau)
    lo = max(8.0, 0.5 * ev_wall(V, 1.0, tau))
    return optimize.brentq(lambda d: read_recall_share(V, d, m, seed) - target, lo, 2.0 * ev_wall(V, 1.0, tau),
                           xtol=1e-3)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--points", type=int, default=16, help="2^points Sobol points per expectation (default 16)")
    a = p.parse_args(argv)
    print(f"{'source':9s} {'V':>6s} {'target':>6s} {'wall':>8s} {'K=1 wall':>8s} {'ratio':>6s} {'read wall':>9s} "
          f"{'ratio':>6s}")
    walls = [r for r in published_walls() if r["s"] == 1.0]
    for r in sorted(walls, key=lambda r: (r["target"], r["V"], r["source"])):
        V, tau, d = r["V"], r["target"], r["wall"]
        gauss, read = ev_wall(V, 1.0, tau), read_wall(V, tau, a.points)
        print(f"{r['source']:9s} {V:6d} {tau:6.3f} {d:8.1f} {gauss:8.1f} {d / gauss:6.3f} {read:9.1f} "
              f"{d / read:6.3f}")
    print(f"(read walls: 2^{a.points} Sobol points; 'ratio' is the measured wall over the form's; "
          f"{math.nan if not walls else len(walls)} walls at s = 1)")


if __name__ == "__main__":
    main()
