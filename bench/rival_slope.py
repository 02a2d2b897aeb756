"""The rivals' slope on their biases in the read-out's memory, against the joint form's reads (prints).

With the trigger in the value path a query reads ``h_a + m`` (``bench/joint_reads.py``), and its rivals' scores
have a slope ``κ`` on their biases ``b_j``: in the memory ``κ = Σ_{j≠a} b_j S_j / Σ_{j≠a} b_j²`` over the rivals,
``S`` the scores less the part every label shares. Here, per point, over the memory's seeds
(``miss_counts.trigger_memory``, the seed's one trigger; P95's seeds at ``--seed 13792``):

* ``κ − 1``'s least-squares coefficients on the query's ``t = e_aᵀz`` and ``m_a = b_a − |w̃_a|² t`` (the parts of
  the correct label's bias) and its variance given them, ``spread``;
* the same over the joint form's reads drawn given ``β`` (``2^14`` points, ``β`` from each point's own variance),
  isotropic (``iso``) and with the labels' Gram (``gram``), each ``spread`` with the form's i.i.d. rivals' projection
  on ``ξ`` added, ``σ²/(Vσ_b²)``, which the memory's ``κ`` holds;
* ``derived``: the coefficients ``(1 + d/(V + d))/ζ²`` and ``d/(Vζ²)`` (``joint_reads``' module docstring);
* the miss share: the memory's, and with its own per-query ``(S_a, κ, σ)`` but i.i.d. Gaussian rivals
  (``1 − Π_{j≠a} Φ((S_a − κ b_j)/σ)``, ``σ²`` the residuals' mean square), ``gauss``: what the form's rivals assume.

Example: ``python bench/rival_slope.py`` (three points, 14 s on one core beside another run, 2026-12-08). Docs: docs/theory.md §7.12, "The
rivals' slope with the labels' Gram".
"""

from __future__ import annotations

import argparse
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads, as miss_counts.py

import numpy as np  # noqa: E402
from scipy import special  # noqa: E402

from joint_reads import drawn_reads, fact_draws  # noqa: E402
from readout_parts import crosstalk_variances  # noqa: E402
from seed_spread import memory_seed, parse_point  # noqa: E402
from theorycheck.seeding import child_seed, seed_sequence  # noqa: E402

POINTS = ((512, 222, 2.0, 100), (512, 375, 5.0, 100), (1024, 656, 8.0, 40))  # (V, d, s, seeds): P95's and P131's


def slope_fit(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """Least squares of ``y`` (``κ − 1``) on ``X``'s columns (``t``, ``m_a``) and an intercept: the two
    coefficients and the residuals' variance."""
    A = np.column_stack([X, np.ones(len(y))])
    coef = np.linalg.lstsq(A, y, rcond=None)[0]
    return coef[:2], float(np.var(y - A @ coef))


def memory_slopes(V: int, d: int, s: float, seeds: int, seed: int) -> dict:
    """The memory's row over ``seeds`` children of ``seed`` (``seed_spread.memory_seed``): ``coef`` and ``spread``
    (:func:`slope_fit` over every query), ``miss`` and ``gauss`` (module docstring)."""
    root, X, y, miss, gauss = seed_sequence(seed), [], [], 0.0, 0.0
    for i in range(seeds):
        m = memory_seed(V, d, s, child_seed(root, i))
        X.append(np.stack([m["t"], m["m_a"]], axis=1))
        y.append(m["kappa"] - 1.0)
        logs = special.log_ndtr((m["own_s"][:, None] - m["kappa"][:, None] * m["b"][None, :])
                                / np.sqrt(m["rss"] / (V - 2))[:, None])
        logs[np.arange(V), m["perm"]] = 0.0  # j = a
        miss += m["misses"] / (V * seeds)
        gauss += float(1.0 - np.mean(np.exp(logs.sum(axis=1)))) / seeds
    coef, spread = slope_fit(np.concatenate(X), np.concatenate(y))
    return {"coef": coef, "spread": spread, "miss": miss, "gauss": gauss}


def form_slopes(V: int, d: int, s: float, gram: bool, points: int = 14) -> dict:
    """The joint form's row (``gram``: with the labels' Gram): ``coef`` and ``spread`` over its reads."""
    sigma_b = math.sqrt(crosstalk_variances(V, d, math.sqrt(s - 1.0))[1])
    f = fact_draws(V, d, points)
    beta, q = drawn_reads(f, d, s - 1.0, sigma_b, np.random.default_rng(1), V if gram else None)
    coef, spread = slope_fit(np.stack([q.t, beta - f["rho2"] * q.t], axis=1), q.eps / sigma_b)
    return {"coef": coef, "spread": spread + float(q.rest2.mean()) / (V * sigma_b**2)}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--point", nargs="+", default=[], help="V,d,s points (default three: P95's two at 512, P131's "
                   "(1024, 656, 8))")
    p.add_argument("--seeds", type=int, help="the memory's seeds a point (default 100, 100, 40)")
    p.add_argument("--seed", type=int, default=13792, help="their root (default P95's, 13792)")
    a = p.parse_args(argv)
    if (a.seeds is not None and a.seeds < 2) or a.seed < 0:
        p.error(f"--seeds needs at least 2 and --seed an integer >= 0; got {a.seeds}, {a.seed}: give e.g. --seeds "
                f"100 --seed 13792")
    try:
        points = [(*parse_point(t), a.seeds or 100) for t in a.point] if a.point else [
            (V, d, s, a.seeds or n) for V, d, s, n in POINTS]
    except ValueError as err:
        p.error(str(err))
    print(f"{'point':18s} {'source':8s} {'coef t':>8s} {'coef m_a':>8s} {'spread':>9s} {'miss':>8s} {'gauss':>8s}")
    for V, d, s, seeds in points:
        mem = memory_slopes(V, d, s, seeds, a.seed)
        zeta2, name = s - 1.0, f"({V}, {d}, s={s:g})"
        rows = [("memory", mem), ("derived", {"coef": ((1 + d / (V + d)) / zeta2, d / (V * zeta2))}),
                ("iso", form_slopes(V, d, s, False)), ("gram", form_slopes(V, d, s, True))]
        for source, r in rows:
            spread = f"{r['spread']:9.4g}" if "spread" in r else ""
            miss = f"{r['miss']:8.5f} {r['gauss']:8.5f}" if "miss" in r else ""
            print(f"{name:18s} {source:8s} {r['coef'][0]:8.4f} {r['coef'][1]:8.4f} {spread:>9s} {miss}", flush=True)


if __name__ == "__main__":
    main()
