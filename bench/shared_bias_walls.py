"""The walls with the trigger's bias shared by every query of a seed: the rest of ``K``'s shortfall at ``s > 1`` (prints).

With the trigger in the value path (``s = 1 + ζ²``) a label's logit carries the bias ``b_y = u_yᵀ G₂ z_trig``, the
same for every query of a seed (docs/theory.md §7.12, "Why a seed's own bias beats fresh draws"): the Gaussian form
(``bench/extreme_value_walls.py``) draws it afresh for each query, which gives the wall of the error averaged over
seeds, where a threshold follows the median seed. Here each seed's biases are fixed, ``b = σ_b ξ`` with ``ξ`` a
seed's ``V`` standard normals and ``σ_b² = ζ²(V + d − 1)/d²``, and each query adds the key's part, Gaussian with
``σ_c² = (V + 2d − 2)/d²`` (``crosstalk_parts.py``'s ``var_b`` and ``var_c``). Fact ``a`` is recalled with

    P_a(b) = E_n [ Π_{j≠a} Φ((1 + b_a + n − b_j)/σ_c) ],    n ~ N(0, σ_c²)

(the product as ``exp`` of ``G(t) = Σ_j log Φ((t − b_j)/σ_c)``, the ``b_j`` counted on a lattice of step ``σ_c/64``
and ``G`` their convolution with ``log Φ``, the ``n``-expectation by Gauss-Hermite nodes), a seed's misses are binomial at ``r(b) = 1 − mean_a P_a(b)``, and the wall is the ``d``
where half the seeds reach ``τ``: :func:`fixed_bias_wall`. With fresh biases the same model is the Gaussian form
(to ``(s + 1)/d²`` in ``σ²``: the two count ``V − 1`` and ``V − 2`` others), so ``fixed_bias_wall/ev_wall`` is the
shared bias's part of the shortfall; the read's dependence (``bench/memory_read_walls.py``) is the other, and the
script prints their product as a combined form against every published wall at ``s > 1`` (a first-order
combination, not derived). Seeds are children of ``--seed``. Docs: docs/theory.md §7.12.

Example: ``python bench/shared_bias_walls.py`` (14 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from numpy.polynomial.hermite_e import hermegauss
from scipy import optimize, signal, special, stats

from extreme_value_walls import allowed_misses, ev_wall, published_walls
from memory_read_walls import read_wall
from readout_parts import crosstalk_variances
from theorycheck.seeding import child_seed, seed_sequence

NODES, WEIGHTS = hermegauss(48)  # ∫ f(x) φ(x) dx ≈ Σ w f(x) / √(2π); 48 nodes: a recall to 4e-6
WEIGHTS = WEIGHTS / math.sqrt(2 * math.pi)


def seed_biases(V: int, seeds: int, seed: int) -> np.ndarray:
    """``(seeds, V)`` standard normals, row ``i`` from child ``i`` of ``seed``: each seed's ``ξ``."""
    root = seed_sequence(seed)
    return np.stack([np.random.default_rng(child_seed(root, i)).standard_normal(V) for i in range(seeds)])


def miss_rate(xi: np.ndarray, sigma_b: float, sigma_c: float, per: int = 64) -> float:
    """``r(b)``: one seed's share of facts missed, its biases ``b = σ_b ξ`` fixed (module docstring). The ``b_j``
    are spread over a lattice of step ``h = σ_c/per`` (each split linearly between its two nearest points) and ``G``
    on the same lattice is those weights convolved with ``log Φ(jh/σ_c)`` (scipy ``fftconvolve``; the kernel
    floored at −60, where ``exp(G)`` is 0 anyway)."""
    b = sigma_b * xi
    h = sigma_c / per
    base = b.min() - 12 * sigma_c
    x = (b - base) / h
    low = np.floor(x).astype(np.int64)
    size = int(low.max()) + 2
    weights = np.bincount(low, 1.0 - (x - low), minlength=size) + np.bincount(low + 1, x - low, minlength=size)
    n = len(weights) + 24 * per  # t over the lattice, to b.max() + about 24σ_c
    j = np.arange(-(len(weights) - 1), n)  # t − b in lattice steps
    kernel = np.maximum(special.log_ndtr(j * h / sigma_c), -60.0)
    table = signal.fftconvolve(weights, kernel)[len(weights) - 1:len(weights) - 1 + n]
    grid = base + h * np.arange(n)
    t = 1.0 + b[:, None] + sigma_c * NODES[None, :]  # [fact, node]
    own = special.log_ndtr((1.0 + sigma_c * NODES) / sigma_c)  # the j = a term, removed from G
    recall = np.exp(np.minimum(np.interp(t, grid, table) - own[None, :], 0.0)) @ WEIGHTS
    return float(1.0 - recall.mean())


def seed_success(V: int, d: float, s: float, tau: float, xis: np.ndarray) -> float:
    """The share of seeds reaching accuracy ``τ``: the mean over ``xis``' seeds of ``P(Binomial(V, r(b)) ≤ k)``,
    ``σ_c²`` and ``σ_b²`` ``readout_parts.crosstalk_variances``."""
    var_c, var_b = crosstalk_variances(V, d, math.sqrt(s - 1.0))
    k = allowed_misses(V, tau)
    return float(np.mean([stats.binom.cdf(k, V, miss_rate(xi, math.sqrt(var_b), math.sqrt(var_c))) for xi in xis]))


def fixed_bias_wall(V: int, s: float, tau: float, xis: np.ndarray) -> float:
    """The ``d`` where half the seeds reach ``τ`` with their biases fixed (scipy ``brentq``; ``d`` continuous)."""
    gauss = ev_wall(V, s, tau)
    return optimize.brentq(lambda d: seed_success(V, d, s, tau, xis) - 0.5, 0.7 * gauss, 1.3 * gauss, xtol=0.05)


def combined_wall(V: int, s: float, tau: float, xis: np.ndarray, points: int = 16) -> tuple[float, float, float]:
    """``(fixed, read, combined)``: the fixed-bias wall and the read form's wall (``memory_read_walls.read_wall``
    at ``2^points`` Sobol points), each over the Gaussian form's ``K = 1`` wall, and the combined form, the Gaussian
    wall times both ratios (a first-order combination, not derived; module docstring)."""
    gauss = ev_wall(V, s, tau)
    fixed, read = fixed_bias_wall(V, s, tau, xis) / gauss, read_wall(V, tau, points, s=s) / gauss
    return fixed, read, gauss * fixed * read


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=256, help="seeds (bias vectors) per wall (default 256; 32 leave "
                   "the large-s walls 3%% apart from one set to the next)")
    p.add_argument("--seed", type=int, default=13788)
    p.add_argument("--V", type=int, nargs="*", help="only the walls at these V (default: every wall at s > 1)")
    p.add_argument("--points", type=int, default=16, help="2^points Sobol points for the read form (default 16)")
    a = p.parse_args(argv)
    walls = [r for r in published_walls() if r["s"] > 1.0 and (not a.V or r["V"] in a.V)]
    if a.seeds < 2:
        p.error(f"--seeds needs at least 2 bias vectors (a median over seeds); got {a.seeds}: give e.g. 256")
    if not 4 <= a.points <= 22:
        p.error(f"--points is a power of 2 between 4 and 22; got {a.points}: give e.g. 16")
    if not walls:
        p.error(f"--V {a.V} names no published wall with the trigger in; give one of "
                f"{sorted({r['V'] for r in published_walls() if r['s'] > 1.0})}")
    print(f"{'source':9s} {'V':>6s} {'s':>7s} {'target':>6s} {'wall':>8s} {'K=1 wall':>8s} {'ratio':>6s} "
          f"{'fixed/K=1':>9s} {'read/K=1':>8s} {'combined':>8s} {'ratio':>6s}")
    xis: dict[int, np.ndarray] = {}
    for r in sorted(walls, key=lambda r: (r["target"], r["V"], r["s"])):
        V, s, tau, d = r["V"], r["s"], r["target"], r["wall"]
        if V not in xis:  # one set of bias vectors for every wall at this V
            xis[V] = seed_biases(V, a.seeds, a.seed)
        gauss = ev_wall(V, s, tau)
        fixed, read, combined = combined_wall(V, s, tau, xis[V], a.points)
        print(f"{r['source']:9s} {V:6d} {s:7.2f} {tau:6.3f} {d:8.1f} {gauss:8.1f} {d / gauss:6.3f} {fixed:9.4f} "
              f"{read:8.4f} {combined:8.1f} {d / combined:6.3f}", flush=True)


if __name__ == "__main__":
    main()
