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
combination, not derived).

Both together (the joint form, :func:`joint_wall`): the biases fixed per seed and each query's read its own. The
trigger's part of the read, ``m = G₂ z_trig``, is the seed's, so every rival's ``b_j = u_jᵀ m = σ_b ξ_j`` stays
fixed; the query's own read ``h_a`` (the key's part) moves with the fact. Three things tie them (each found by a
prediction that missed: docs/theory.md §7.12, "One model for both effects"): a rival's score ``u_jᵀ(h_a + m)`` is ``c ξ_j``
plus a part of the query's own, with ``c = σ_b + ε``, ``ε = h_aᵀm/(dσ_b)`` (``h_a``'s part along ``m``; it holds
the key's part of the correct score times the label's bias and ``(V + d)/d`` times ``t = e_aᵀz``, which is in that bias); the
correct label's bias ``b_a = ρ²t + m_a`` shares ``t`` with the read's cross-talk; and ``b_a`` scales with ``|u_a|``.
So each query is drawn given ``b_a = β`` (``joint_reads.conditional_read``: ``t``, ``m_a`` and the key's cross-talk along
``u_a`` by Gaussian conditioning, the points weighted by how likely their own bias variance makes ``β``), which over
``β`` is the read form with the trigger in, and ``P_a(b) = E_read [ Π_{j≠a} Φ((S − c ξ_j)/σ) | b_a ]``, ``σ² =
(|h_a|² + |e_a|²)/d − ε²`` (:func:`joint_miss_rate`). Seeds are children of ``--seed``. Docs: docs/theory.md §7.12.
These reads take the rivals' labels as isotropic; ``--gram-reads`` gives them the labels' Gram, which sets the
rivals' slope on their biases in the memory (``bench/joint_reads.py``; docs/theory.md §7.12, "The rivals' slope
with the labels' Gram").

Example: ``python bench/shared_bias_walls.py --V 512`` (117 s on one core at ``--seeds 64``, 68 s with
``--workers 2``; every wall with ``--workers 2``: 26.5 min on 2 cores). ``--workers K`` computes the cells in ``K``
processes (``cell_pool.cell_results``), the largest ``V`` first and within it the smallest ``s`` (the
costliest); each cell's bias vectors depend on ``--seed`` and its ``V`` alone: the rows are a serial run's, in order.
"""

from __future__ import annotations

import argparse
import math
from typing import Callable

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads: one BLAS thread a process, so that K workers use K cores

import numpy as np  # noqa: E402
from numpy.polynomial.hermite_e import hermegauss  # noqa: E402
from scipy import optimize, signal, special, stats  # noqa: E402

from cell_pool import cell_results  # noqa: E402
from extreme_value_walls import allowed_misses, ev_wall, published_walls  # noqa: E402
from joint_reads import conditional_read, fact_draws  # noqa: E402
from memory_read_walls import read_wall  # noqa: E402
from readout_parts import crosstalk_variances  # noqa: E402
from theorycheck.seeding import child_seed, seed_sequence  # noqa: E402

NODES, WEIGHTS = hermegauss(48)  # ∫ f(x) φ(x) dx ≈ Σ w f(x) / √(2π); 48 nodes: a recall to 4e-6
WEIGHTS = WEIGHTS / math.sqrt(2 * math.pi)


def seed_biases(V: int, seeds: int, seed: int) -> np.ndarray:
    """``(seeds, V)`` standard normals, row ``i`` from child ``i`` of ``seed``: each seed's ``ξ``."""
    root = seed_sequence(seed)
    return np.stack([np.random.default_rng(child_seed(root, i)).standard_normal(V) for i in range(seeds)])


def lattice_sums(b: np.ndarray, sigmas: np.ndarray, per: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """``(grid, G)``: ``G[k, i] = Σ_j log Φ((grid_i − b_j)/σ_k)`` for each ``σ_k`` of ``sigmas``, ``grid`` a lattice
    of step ``h = min σ/per`` from ``min b − 12 max σ`` to about ``max b + 24 max σ``. The ``b_j`` are spread over the
    lattice (each split linearly between its two nearest points) and each row is those weights convolved with
    ``log Φ(jh/σ_k)`` (scipy ``fftconvolve``; the kernel floored at −60, where ``exp(G)`` is 0 anyway)."""
    h, top = float(np.min(sigmas)) / per, float(np.max(sigmas))
    base = b.min() - 12 * top
    x = (b - base) / h
    low = np.floor(x).astype(np.int64)
    size = int(low.max()) + 2
    weights = np.bincount(low, 1.0 - (x - low), minlength=size) + np.bincount(low + 1, x - low, minlength=size)
    n = len(weights) + int(np.ceil(24 * top / h))  # t over the lattice, to b.max() + about 24 max σ
    j = np.arange(-(len(weights) - 1), n)  # t − b in lattice steps
    kernels = np.maximum(special.log_ndtr(j[None, :] * h / np.asarray(sigmas, float)[:, None]), -60.0)
    G = signal.fftconvolve(weights[None, :], kernels, axes=1)[:, len(weights) - 1:len(weights) - 1 + n]
    return base + h * np.arange(n), G


def miss_rate(xi: np.ndarray, sigma_b: float, sigma_c: float, per: int = 64) -> float:
    """``r(b)``: one seed's share of facts missed, its biases ``b = σ_b ξ`` fixed (module docstring), ``G`` from
    :func:`lattice_sums` at the one ``σ_c``."""
    b = sigma_b * xi
    grid, table = lattice_sums(b, np.array([sigma_c]), per)
    t = 1.0 + b[:, None] + sigma_c * NODES[None, :]  # [fact, node]
    own = special.log_ndtr((1.0 + sigma_c * NODES) / sigma_c)  # the j = a term, removed from G
    recall = np.exp(np.minimum(np.interp(t, grid, table[0]) - own[None, :], 0.0)) @ WEIGHTS
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


def lattice_read(xi: np.ndarray, t: np.ndarray, width: np.ndarray, step: float) -> np.ndarray:
    """``Σ_j log Φ((t − ξ_j)/width)`` at each element of ``t`` and ``width``: :func:`lattice_sums` over ``ξ`` on a
    geometric grid of widths (steps of ``step``, relative), read bilinearly in ``t`` and ``log width``."""
    span = float(np.log(width.max() / width.min()))
    K = max(2, int(math.ceil(span / step)) + 1)
    grid, G = lattice_sums(xi, width.min() * np.exp(np.linspace(0.0, span, K)))
    pos = np.log(width / width.min()) / max(span, 1e-300) * (K - 1)
    k = np.minimum(pos.astype(np.int64), K - 2)
    w = pos - k
    x = (t - grid[0]) / (grid[1] - grid[0])  # in lattice steps
    i = np.clip(x.astype(np.int64), 0, G.shape[1] - 2)
    f = np.clip(x - i, 0.0, 1.0)
    flat, n = G.ravel(), G.shape[1]
    below, above = k * n + i, (k + 1) * n + i
    return (1 - w) * ((1 - f) * flat[below] + f * flat[below + 1]) + w * ((1 - f) * flat[above] + f * flat[above + 1])


def joint_miss_rate(xi: np.ndarray, sigma_b: float, f: dict, d: float, zeta2: float, betas: int = 64,
                    step: float = 0.02, widest: float = 8.0, mu: float = 1.0, gram: bool = False) -> float:
    """``r(b)`` with each query's read its own as well (module docstring, "Both together"): ``1 − mean_a F(b_a)``,

        F(β) = E_read [ exp(G(S; c, σ) − log Φ((S − cβ/σ_b)/σ)) | b_a = β ],    G(t; c, σ) = Σ_j log Φ((t − c ξ_j)/σ),

    ``(S, σ², ε)`` from ``joint_reads.conditional_read`` at ``β`` (the expectation weighted by its ``w``), ``c = σ_b + ε``;
    the last term removes ``j = a``. ``G(t; c, σ) = G(t/|c|; ±1, σ/|c|)``, from :func:`lattice_read` over ``ξ``
    (``c > 0``) or ``−ξ`` (``c < 0``), or summed over the ``V`` rivals where ``σ/|c| > widest``; ``F`` on ``betas``
    points over ``b``'s range, interpolated at each ``b_a``. ``mu`` scales the biases to ``√μ σ_b ξ`` and (assumed,
    ``κ`` kept) ``c``: rivals ``√μ c ξ_j``, their share of the query's spread ``μ ε²``, reads given ``β`` at ``σ_b``.
    ``gram``: the reads with the labels' Gram (``conditional_read``'s ``V``, ``V = len(xi)``)."""
    b = math.sqrt(mu) * sigma_b * xi
    beta = np.linspace(b.min(), b.max(), betas)[:, None]  # [β, point]
    q = conditional_read(f, d, zeta2, sigma_b, beta, V=len(xi) if gram else None)
    rest2 = q.rest2 + (1.0 - mu) * q.eps**2  # σ² − (μ − 1)ε²: the same total spread
    if np.any(rest2 <= 0):
        raise ValueError(f"the joint form needs each query's own spread above 0; got {float(rest2.min()):.3g} at "
                         f"σ_b = {sigma_b:.3g}, d = {d}, μ = {mu:.3g}: take d nearer a wall, or μ nearer 1")
    sigma, c = np.sqrt(rest2), math.sqrt(mu) * (sigma_b + q.eps)
    g = np.full_like(sigma, np.nan)
    wide = sigma > widest * np.abs(c)
    for sign in (1.0, -1.0):
        sel = ~wide & (np.sign(c) == sign)
        if sel.any():
            g[sel] = lattice_read(sign * xi, q.score[sel] / np.abs(c[sel]), sigma[sel] / np.abs(c[sel]), step)
    if wide.any():
        g[wide] = special.log_ndtr((q.score[wide][:, None] - c[wide][:, None] * xi[None, :])
                                   / sigma[wide][:, None]).sum(axis=1)
    own = special.log_ndtr((q.score - c * beta / (math.sqrt(mu) * sigma_b)) / sigma)  # j = a, removed from G
    F = (q.weight * np.exp(np.minimum(g - own, 0.0))).sum(axis=1) / q.weight.sum(axis=1)
    return float(1.0 - np.interp(b, beta[:, 0], F).mean())


def joint_success(V: int, d: float, s: float, tau: float, xis: np.ndarray | Callable, points: int = 12,
                  gram: bool = False) -> float:
    """:func:`seed_success` with each query's read its own: the share of seeds reaching ``τ``, a seed's misses
    binomial at :func:`joint_miss_rate`, the reads at ``2^points`` Sobol points (shared by every seed); ``xis`` a
    seed's ``ξ`` a row, or a function of ``d`` giving ``(ξ, μ)`` (``bench/gram_bias_walls.py``); ``gram``
    :func:`joint_miss_rate`'s."""
    _, var_b = crosstalk_variances(V, d, math.sqrt(s - 1.0))
    f, k = fact_draws(V, d, points), allowed_misses(V, tau)
    xis, mus = xis(d) if callable(xis) else (xis, np.ones(len(xis)))
    rates = [joint_miss_rate(xi, math.sqrt(var_b), f, d, s - 1.0, mu=m, gram=gram) for xi, m in zip(xis, mus)]
    return float(np.mean(stats.binom.cdf(k, V, np.array(rates))))


def joint_wall(V: int, s: float, tau: float, xis: np.ndarray | Callable, points: int = 12,
               guess: float | None = None, gram: bool = False) -> float:
    """The ``d`` where half the seeds reach ``τ``, the bias fixed per seed and the read per query (scipy ``brentq``,
    ``d`` continuous), bracketed ±3% about ``guess`` (default the read form's wall), widened until it holds; ``gram``
    :func:`joint_miss_rate`'s."""
    guess = guess or read_wall(V, tau, points, s=s)
    seen: dict[float, float] = {}  # brentq evaluates the bracket's ends again: each d once

    def f(d: float) -> float:
        if d not in seen:
            seen[d] = joint_success(V, d, s, tau, xis, points, gram) - 0.5
        return seen[d]

    width = 0.03
    while f(guess * (1 - width)) > 0 or f(guess * (1 + width)) < 0:
        width *= 2
        if width > 0.5:
            raise ValueError(f"joint_wall found no wall within ±50% of d = {guess:.1f} at (V, s, τ) = ({V}, {s}, "
                             f"{tau}); give a guess nearer the read form's wall")
    return optimize.brentq(f, guess * (1 - width), guess * (1 + width), xtol=1e-3 * guess)


def combined_wall(V: int, s: float, tau: float, xis: np.ndarray, points: int = 16) -> tuple[float, float, float]:
    """``(fixed, read, combined)``: the fixed-bias wall and the read form's wall (``memory_read_walls.read_wall``
    at ``2^points`` Sobol points), each over the Gaussian form's ``K = 1`` wall, and the combined form, the Gaussian
    wall times both ratios (a first-order combination, not derived; module docstring)."""
    gauss = ev_wall(V, s, tau)
    fixed, read = fixed_bias_wall(V, s, tau, xis) / gauss, read_wall(V, tau, points, s=s) / gauss
    return fixed, read, gauss * fixed * read


def cell_forms(V: int, s: float, tau: float, seeds: int, seed: int, points: int, joint_points: int,
               gram: bool = False) -> tuple[float, float, float, float]:
    """``(fixed, read, combined, joint)`` at one cell (:func:`combined_wall` and :func:`joint_wall`, its ``gram``),
    its bias vectors :func:`seed_biases` ``(V, seeds, seed)``: a worker's task, the same numbers in any process."""
    xis = seed_biases(V, seeds, seed)
    fixed, read, combined = combined_wall(V, s, tau, xis, points)
    return fixed, read, combined, joint_wall(V, s, tau, xis, joint_points, guess=combined, gram=gram)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", type=int, default=256, help="seeds (bias vectors) per wall (default 256; 32 leave "
                   "the large-s walls 3%% apart from one set to the next)")
    p.add_argument("--seed", type=int, default=13788)
    p.add_argument("--V", type=int, nargs="*", help="only the walls at these V (default: every wall at s > 1)")
    p.add_argument("--points", type=int, default=16, help="2^points Sobol points for the read form (default 16)")
    p.add_argument("--joint-points", type=int, default=12, help="2^points Sobol points for the joint form's reads "
                   "(default 12, at most 16)")
    p.add_argument("--workers", type=int, default=1, help="processes computing cells at once (default 1)")
    p.add_argument("--gram-reads", action="store_true", help="the joint form with the reads of the labels' Gram "
                   "(joint_reads.conditional_read's V; default the isotropic reads)")
    a = p.parse_args(argv)
    walls = [r for r in published_walls() if r["s"] > 1.0 and (not a.V or r["V"] in a.V)]
    if a.seeds < 2 or a.seed < 0:
        p.error(f"--seeds needs at least 2 bias vectors (a median over seeds) and --seed an integer >= 0; got "
                f"{a.seeds}, {a.seed}: give e.g. --seeds 256 --seed 13788")
    for flag, value, top, default in (("--points", a.points, 22, 16), ("--joint-points", a.joint_points, 16, 12)):
        if not 4 <= value <= top:
            p.error(f"{flag} is the exponent of 2 (points = 2^k), between 4 and {top}; got {value}: give e.g. "
                    f"{default}")
    if a.workers < 1:
        p.error(f"--workers is a number of processes, at least 1; got {a.workers}: give e.g. 2")
    if not walls:
        p.error(f"--V {a.V} names no published wall with the trigger in; give one of "
                f"{sorted({r['V'] for r in published_walls() if r['s'] > 1.0})}")
    print(f"{'source':9s} {'V':>6s} {'s':>7s} {'target':>6s} {'wall':>8s} {'K=1 wall':>8s} {'ratio':>6s} "
          f"{'fixed/K=1':>9s} {'read/K=1':>8s} {'combined':>8s} {'ratio':>6s} {'joint':>8s} {'ratio':>6s}")
    walls.sort(key=lambda r: (r["target"], r["V"], r["s"]))
    # a read-out and a check share a cell; in a pool the costliest first (module docstring)
    args = {(r["V"], r["s"], r["target"]): (r["V"], r["s"], r["target"], a.seeds, a.seed, a.points, a.joint_points,
                                             a.gram_reads) for r in walls}
    with cell_results(a.workers, cell_forms, args, first=lambda c: (-c[0], c[1])) as forms:
        for r in walls:
            V, s, tau, d = r["V"], r["s"], r["target"], r["wall"]
            fixed, read, combined, joint = forms((V, s, tau))
            gauss = ev_wall(V, s, tau)
            print(f"{r['source']:9s} {V:6d} {s:7.2f} {tau:6.3f} {d:8.1f} {gauss:8.1f} {d / gauss:6.3f} {fixed:9.4f} "
                  f"{read:8.4f} {combined:8.1f} {d / combined:6.3f} {joint:8.1f} {d / joint:6.3f}", flush=True)


if __name__ == "__main__":
    main()
