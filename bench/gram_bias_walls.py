"""The joint form's walls with each seed's biases as the memory's: the labels' Gram's (prints).

The joint form (``bench/shared_bias_walls.py``) gives a seed's rivals i.i.d. normal biases ``σ_b ξ``. The memory's
are ``b = W̃W̃ᵀw``, ``W̃`` the centred labels and ``w = Ez`` the keys' overlaps with the seed's trigger, so ``b`` lies
in the labels' ``d``-dimensional span and its scale ``B = |b|²/V`` varies from seed to seed as the labels' Gram
spectrum makes it. ``bench/seed_spread.py`` showed (docs/theory.md §7.12, "What spreads a seed's misses") that the
form fed the memory's own biases spreads its seeds as the memory does, seed by seed, where its i.i.d. ``ξ`` spread
them less at ``s ≤ 5`` and up to twice as much at ``s ≥ 8``, but misses 4-10% more facts than the memory there.
Here the wall (the ``d`` where half the seeds reach ``τ``, scipy ``brentq``) with those biases (:func:`gram_draws`:
each seed's ``b/std(b)`` as ``ξ`` and ``B/σ_b²`` as its scale ``μ``, ``shared_bias_walls.joint_miss_rate``'s ``mu``)
beside the walls script's joint form (``seed_biases``, ``--bias-seed``) and the published walls at ``s > 1``.

A seed's draws are nested in ``d`` (its ``w`` first, then the labels column by column), so from one integer ``d`` to
the next its biases move little and ``brentq`` sees one function, a step function (``d`` rounded to an integer for
the labels' width: the wall to ±0.5).

Example: ``python bench/gram_bias_walls.py --V 512 1024 2048 --workers 2`` (the 20 published cells at ``s > 1`` with
those ``V``, 36 min on 2 cores; ``--s`` picks cells; ``--workers K`` computes them in ``K`` processes, the largest
``V`` first, the rows a serial run's).
"""

from __future__ import annotations

import argparse
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads, as shared_bias_walls.py

import numpy as np  # noqa: E402

from cell_pool import cell_results  # noqa: E402
from extreme_value_walls import published_walls  # noqa: E402
from readout_parts import crosstalk_variances  # noqa: E402
from shared_bias_walls import joint_wall, seed_biases  # noqa: E402
from theorycheck.algorithms.limit import centered_labels  # noqa: E402
from theorycheck.seeding import child_seed, seed_sequence  # noqa: E402


def gram_biases(V: int, d: int, s: float, seeds: int, seed) -> np.ndarray:
    """``(seeds, V)`` bias vectors ``b = W̃W̃ᵀw``, row ``i`` from child ``i`` of ``seed``: ``w`` i.i.d. ``N(0, ζ²/d)``
    (``ζ² = s − 1``; the memory's ``w = Ez``, ``E`` the ``N(0, 1/d)`` keys, ``|z| = ζ``) drawn first, then the
    labels ``N(0, 1/d)`` column by column, centred over the ``V`` labels: the memory's ``b`` in law, ``O(Vd)`` a seed
    where the memory's scores are ``O(V²d)``, and nested in ``d`` up to the ``1/√d`` scales."""
    root, rows = seed_sequence(seed), []
    for i in range(seeds):
        rng = np.random.default_rng(child_seed(root, i))
        w = math.sqrt((s - 1.0) / d) * rng.standard_normal(V)
        labels = centered_labels(rng.standard_normal((d, V)).T / math.sqrt(d))
        rows.append(labels @ (labels.T @ w))
    return np.stack(rows)


def unit_and_scale(b: np.ndarray, sigma_b2: float) -> tuple[np.ndarray, np.ndarray]:
    """``(ξ, μ)`` of bias vectors ``b`` (a seed a row): each over its own standard deviation, and ``μ = var(b)/σ_b²``,
    so that ``√μ σ_b ξ = b`` (``shared_bias_walls.joint_miss_rate``'s ``mu``)."""
    return b / b.std(axis=1, keepdims=True), b.var(axis=1) / sigma_b2


def gram_draws(V: int, d: float, s: float, seeds: int, seed) -> tuple[np.ndarray, np.ndarray]:
    """``(ξ, μ)`` for ``shared_bias_walls.joint_success``: :func:`unit_and_scale` of :func:`gram_biases` at
    ``round(d)`` (``σ_b²`` ``readout_parts.crosstalk_variances``' at ``d``). The success share is then a step
    function of ``d``, its steps at half-integers: ``brentq`` ends on one, ±0.5 in ``d``."""
    b = gram_biases(V, int(round(d)), s, seeds, seed)
    return unit_and_scale(b, crosstalk_variances(V, d, math.sqrt(s - 1.0))[1])


def cell_walls(V: int, s: float, tau: float, seeds: int, seed: int, bias_seed: int, points: int,
               reads: bool = False) -> tuple[float, float]:
    """``(joint, gram)``: the joint form's wall with i.i.d. ``ξ`` (``seed_biases(V, seeds, bias_seed)``, the walls
    script's) and with :func:`gram_draws` (``seed``), the second bracketed about the first, both with the reads of
    the labels' Gram where ``reads`` (``joint_reads``): a worker's task."""
    joint = joint_wall(V, s, tau, seed_biases(V, seeds, bias_seed), points, gram=reads)
    return joint, joint_wall(V, s, tau, lambda d: gram_draws(V, d, s, seeds, seed), points, guess=joint, gram=reads)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--V", type=int, nargs="+", required=True, help="the cells' V (published walls at s > 1)")
    p.add_argument("--s", type=float, nargs="*", help="only these s (default: every published s > 1 at those V)")
    p.add_argument("--seeds", type=int, default=256, help="seeds (bias vectors) per wall (default 256)")
    p.add_argument("--seed", type=int, default=13797, help="the Gram biases' root (default 13797)")
    p.add_argument("--bias-seed", type=int, default=13788, help="the i.i.d. biases' root (the walls script's)")
    p.add_argument("--joint-points", type=int, default=12, help="2^k reads (default 12, at most 16)")
    p.add_argument("--workers", type=int, default=1, help="processes computing cells at once (default 1)")
    p.add_argument("--gram-reads", action="store_true", help="both forms with the reads of the labels' Gram "
                   "(joint_reads.conditional_read's V; default the isotropic reads)")
    a = p.parse_args(argv)
    try:
        seed_sequence(a.seed), seed_sequence(a.bias_seed)
    except ValueError as err:
        p.error(f"--seed and --bias-seed: {err}")
    if a.seeds < 2 or a.workers < 1 or not 4 <= a.joint_points <= 16:
        p.error(f"--seeds needs at least 2, --workers at least 1 and --joint-points 4..16; got {a.seeds}, "
                f"{a.workers}, {a.joint_points}: give e.g. --seeds 256 --workers 2 --joint-points 12")
    walls = [r for r in published_walls() if r["s"] > 1.0 and r["target"] == 0.99 and r["V"] in a.V
             and (not a.s or any(math.isclose(r["s"], s, rel_tol=1e-3) for s in a.s))]
    if not walls:
        p.error(f"--V {a.V} --s {a.s} names no published wall with the trigger in at target 0.99; give V among "
                f"{sorted({r['V'] for r in published_walls() if r['s'] > 1.0})}")
    walls.sort(key=lambda r: (r["V"], r["s"]))
    print(f"{'source':9s} {'V':>6s} {'s':>7s} {'wall':>8s} {'joint':>8s} {'ratio':>6s} {'gram':>8s} {'ratio':>6s} "
          f"{'gram/joint':>10s}")
    args = {(r["V"], r["s"]): (r["V"], r["s"], 0.99, a.seeds, a.seed, a.bias_seed, a.joint_points, a.gram_reads)
            for r in walls}
    with cell_results(a.workers, cell_walls, args, first=lambda c: (-c[0], c[1])) as forms:
        for r in walls:
            c = (r["V"], r["s"])
            joint, gram = forms(c)
            print(f"{r['source']:9s} {c[0]:6d} {c[1]:7.2f} {r['wall']:8.1f} {joint:8.1f} {r['wall'] / joint:6.3f} "
                  f"{gram:8.1f} {r['wall'] / gram:6.3f} {gram / joint:10.4f}", flush=True)


if __name__ == "__main__":
    main()
