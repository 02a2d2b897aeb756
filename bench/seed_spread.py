"""Where a seed's misses get their spread: the read-out's memory and the joint form side by side (prints).

With the trigger in the value path a seed's miss count is far from binomial: its dispersion is 2.5 at
``(V, d, s) = (512, 222, 2)`` and 8.4 at ``(512, 375, 5)`` (P95, ``bench/data/miss_counts_trigger.csv``). The joint
form (``bench/shared_bias_walls.py``), which fixes each seed's rival biases ``b = σ_b ξ`` with ``ξ`` i.i.d.
``N(0, 1)`` and ``σ_b`` the same for every seed, has the mean miss share within 3% there but less spread, so its
share of seeds reaching 0.99 lies low (docs/theory.md §7.12, "Where the joint form's spread falls short"; at
``s ≥ 8`` it spreads them more, "What spreads a seed's misses"). This script measures three things in both, on the
memory's own seeds (``miss_counts.trigger_memory``, the seed's one trigger: P95's seeds, ``--seed``) and on the joint
form's bias vectors (``--bias-seed``, as the walls script):

* ``B``, a seed's rivals' bias variance ``var_y b_y``, ``b_y = w̃_yᵀ G₂ z`` (centred labels): its mean over
  ``σ_b²`` and its relative variance over seeds (the joint form's is the ``ξ``'s own, about ``2/V``); and, the
  memory's only, what the trigger's direction alone gives it: given a seed's embeddings ``|b|² = zᵀAz``,
  ``A = EᵀW̃_Π W̃ᵀW̃ W̃_ΠᵀE`` (``W̃_Π`` the labels in the facts' order), whose relative variance for ``z`` uniform on
  its sphere is ``2d/(d + 2) (tr A²/(tr A)² − 1/d)`` (the mean over seeds; the quadratic form's variance over a
  sphere), printed as ``gram``;
* the elasticity ``∂ log E[misses | B] / ∂ log B``: in the memory the least-squares slope over seeds of the misses on
  ``log(B/B̄)``, over their mean (an association across seeds, printed with its standard error); in the joint form ``log(r(1.1)/r(0.9)) / log(1.1/0.9)``, each seed's ``ξ`` scaled
  by ``√μ`` at ``μ`` 0.9 and 1.1 (``r`` the mean miss share);
* ``κ``, a query's rivals' slope on their biases: in the memory ``κ_x = Σ_j b_j S_xj / Σ_j b_j²`` over the rivals
  ``j ≠ Π(x)`` (``S`` less the part every label shares), its variance over queries less the fit's own
  (``RSS/((V − 2) Σ_j b_j²)``, averaged: the i.i.d.-residual variance, an approximation, as the residuals lie in the
  labels' ``d``-dimensional span; the slope written out from the memory's parts, without a fit, gave variances within
  15% of it on six seeds at the two 512 points, a reviewer's check, 2026-12-07); in the joint form ``1 + ε/σ_b`` over its reads, each read's bias ``β``
  drawn from its own variance (``joint_reads.drawn_reads``); and their ratio against what the labels' Gram
  would make it (:func:`kappa_gram_ratio`), and against the ``mem-g`` row's (the reads with the Gram's parts).

Five more rows take the form's seeds' biases from elsewhere, the reads as the joint form's but where said:

* ``joint+mu``: each seed's ``ξ`` scaled, ``ξ → √μ ξ`` with ``μ ~ Gamma`` of mean 1 and relative variance the
  memory's less ``2/V`` (what ``ξ`` has already; ``shared_bias_walls.joint_miss_rate``'s ``mu``, the reads still
  drawn given ``β`` at ``σ_b``);
* ``gram``: the labels' Gram in the form's moments, nothing taken from the memory: one drawn spectrum
  (:func:`gram_spectrum`), each seed's ``μ`` and ``κ``'s spread ``ν`` from it (:func:`gram_scales`; ``ξ`` at unit
  sample variance, ``ε``'s spread across ``d`` times ``√ν``) and each query's own spread as the Gram's
  (:func:`gram_reads`): a first attempt, kept as a record, whose ``ν`` scales that term by the whole ``κ``'s ratio
  (:func:`kappa_gram_ratio`), where ``joint_reads`` splits ``κ`` into its parts (``mem-g``);
* ``mem-b``: the memory's own biases, each seed's ``b/std(b)`` as ``ξ`` and ``var(b)/σ_b²`` as ``μ``, with the
  correlation and slope over seeds of the memory's misses on the form's ``V r``;
* ``gram-b``: biases drawn as the labels' Gram makes them, ``b = W̃W̃ᵀw`` with fresh labels and ``w`` a seed
  (``gram_bias_walls.gram_draws``), taken as ``mem-b`` takes the memory's;
* ``mem-g``: ``mem-b`` with the reads of the labels' Gram (``joint_reads.conditional_read``'s ``V``: the rivals'
  slope on their biases as the memory's, docs/theory.md §7.12 "The rivals' slope with the labels' Gram").

Each row prints the mean miss share, the dispersion ``Var(misses)/(V p(1 − p))`` (the form's: ``(V E[r(1 − r)] +
V² Var(r))/(V r̄(1 − r̄))``) and the share of seeds with at most ``k = V − ⌈0.99 V⌉`` misses (the form's:
``P(Binomial(V, r) ≤ k)`` averaged over seeds).

Example: ``python bench/seed_spread.py`` (P95's three points with their seeds; about 10 minutes on one core).
"""

from __future__ import annotations

import argparse
import csv
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads, as miss_counts.py

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

from extreme_value_walls import DATA, allowed_misses  # noqa: E402
from gram_bias_walls import gram_draws, unit_and_scale  # noqa: E402
from miss_counts import trigger_memory  # noqa: E402
from readout_parts import crosstalk_variances  # noqa: E402
from joint_reads import drawn_reads, fact_draws  # noqa: E402
from shared_bias_walls import joint_miss_rate, seed_biases  # noqa: E402
from theorycheck.algorithms.limit import centered_labels  # noqa: E402
from theorycheck.seeding import child_seed, seed_sequence  # noqa: E402


def memory_seed(V: int, d: int, s: float, seed) -> dict:
    """One seed of the read-out's memory with its one trigger: its misses, ``B``, ``B``'s relative variance over the
    trigger's direction given the embeddings (``gram``) and its queries' ``κ`` and fit noise (module docstring);
    per query also ``t = e_aᵀz``, ``m_a = b_a − |w̃_a|² t``, the correct score ``own_s`` and the rivals' residual sum
    of squares ``rss`` (``bench/rival_slope.py``), and the facts ``perm``."""
    E, U, z, perm, _, scores, common = trigger_memory(V, d, seed, s, "shared")
    labels = centered_labels(U)
    half = labels @ (labels[perm].T @ E)  # W̃ W̃_Πᵀ E: G₂ z = Σ_x w̃_{Π(x)} e_xᵀz, so b = half z and |b|² = zᵀAz
    b = half @ z.ravel()  # w̃_yᵀ G₂ z
    small = half @ half.T if V < d else half.T @ half  # A = halfᵀhalf: tr A² = |A|²_F = |half halfᵀ|²_F
    S = scores - common[:, None]
    rows = np.arange(V)
    own_s, own_b = S[rows, perm], b[perm]
    den = b @ b - own_b**2
    kappa = (S @ b - own_s * own_b) / den
    rss = (np.sum(S**2, axis=1) - own_s**2) - kappa**2 * den
    gram = 2 * d / (d + 2) * (np.sum(small**2) / np.trace(small) ** 2 - 1 / d)  # Var(zᵀAz)/E², z on a sphere
    t = E @ z.ravel()
    return {"misses": int(np.sum(scores.argmax(axis=1) != perm)), "B": float(b.var()), "gram": float(gram),
            "kappa": kappa, "b": b, "noise": float(np.mean(rss / ((V - 2) * den))), "t": t, "perm": perm,
            "m_a": own_b - np.sum(labels[perm] ** 2, axis=1) * t, "own_s": own_s, "rss": rss}


def kappa_gram_ratio(V: int, d: int) -> float:
    """The memory's ``κ`` variance over the joint form's, if the labels' Gram is what sets it apart: ``μ₄/μ₂²``.

    In the memory ``κ_x − 1 = mᵀG h_x / mᵀG m`` with ``G = W̃ᵀW̃`` (``d × d``), the trigger's part ``m = W̃ᵀu`` and the
    key's read ``h_x = W̃ᵀk_x`` (``u``, ``k_x`` the trigger's and the query's overlaps with the keys, i.i.d. over the
    ``V`` labels). Over queries ``Var(mᵀG h_x) ∝ mᵀG³m``, and over ``u`` ``E[mᵀGᵏm] ∝ tr Gᵏ⁺¹``, so
    ``Var κ ∝ tr G⁴/(tr G²)²``, which is ``1/d`` times ``μ₄/μ₂²`` of ``G``'s spectrum normalized to mean 1; the joint
    form's (``G`` isotropic) has ``μ₄/μ₂² = 1``. ``G``'s spectrum is Marchenko–Pastur's at ``c = d/V``:
    ``μ₂ = 1 + c``, ``μ₄ = 1 + 6c + 6c² + c³`` (the Narayana polynomials). Derived here (2026-12-07) after the
    measurement it explains (2.38, 3.14, 2.58 at P95's points against 2.34, 3.00, 2.49); it leaves out the correct
    label's exclusion, the own terms and the overlaps' own non-Gaussian spread. ``joint_reads`` (2026-12-08) derives
    the parts instead, ``κ``'s coupling to the correct label's bias and its spread given it, and with them the form's
    ``κ`` variance is the memory's (the ``mem-g`` row): this ratio is an approximation of the whole."""
    c = d / V
    return (1 + 6 * c + 6 * c * c + c**3) / (1 + c) ** 2


def spread(V: int, misses_or_rates: np.ndarray, k: int, rates: bool) -> dict:
    """Miss share, dispersion and share of seeds with at most ``k`` misses, from counts or (``rates``) from a
    form's per-seed miss rates (module docstring)."""
    x = np.asarray(misses_or_rates, float)
    if rates:
        r = x.mean()
        # Var(misses) = E[V r(1 − r)] + V² Var(r) over the seeds' rates
        return {"miss": r, "dispersion": (V * np.mean(x * (1 - x)) + V * V * x.var(ddof=1)) / (V * r * (1 - r)),
                "success": float(np.mean(stats.binom.cdf(k, V, x)))}
    p = x.mean() / V
    return {"miss": p, "dispersion": x.var(ddof=1) / (V * p * (1 - p)), "success": float(np.mean(x <= k))}


def memory_stats(V: int, d: int, s: float, seeds: int, seed: int) -> dict:
    """The memory's row over ``seeds`` children of ``seed`` (P95's seeds at its ``--seed``)."""
    root = seed_sequence(seed)
    runs = [memory_seed(V, d, s, child_seed(root, i)) for i in range(seeds)]
    m, B = np.array([r["misses"] for r in runs], float), np.array([r["B"] for r in runs])
    if not 0 < m.sum() < V * seeds:
        raise ValueError(f"seed_spread needs some facts missed and some recalled at (V, d, s) = ({V}, {d}, {s:g}); "
                         f"got {int(m.sum())} misses over {seeds} seeds: take d nearer the wall")
    x = np.log(B / B.mean())
    slope, icept = np.polyfit(x, m, 1)
    slope_se = float(np.std(m - (slope * x + icept), ddof=2) / (x.std() * math.sqrt(seeds)))
    kappa = np.concatenate([r["kappa"] for r in runs])
    sigma_b2 = crosstalk_variances(V, d, math.sqrt(s - 1.0))[1]
    return {**spread(V, m, allowed_misses(V, 0.99), rates=False), "B": B.mean() / sigma_b2,
            "B_relvar": B.var() / B.mean() ** 2, "elasticity": slope / m.mean(),
            "elasticity_se": slope_se / m.mean(), "B_gram": float(np.mean([r["gram"] for r in runs])),
            "kappa_var": kappa.var() - float(np.mean([r["noise"] for r in runs])),
            "b": np.stack([r["b"] for r in runs]), "misses": m}


def gram_spectrum(V: int, d: int, seed) -> np.ndarray:
    """The labels' Gram ``G = W̃ᵀW̃``'s ``d`` eigenvalues over their mean, from one draw of centred Gaussian labels:
    Marchenko–Pastur's at ``d/V`` with its finite-size edges (zeros where ``d ≥ V``), so rigid that one draw serves
    every seed."""
    labels = centered_labels(np.random.default_rng(seed).standard_normal((V, d)))
    ell = np.linalg.eigvalsh(labels.T @ labels)
    return np.maximum(ell, 0.0) / ell.mean()


def gram_scales(ell: np.ndarray, seeds: int, seed) -> tuple[np.ndarray, np.ndarray]:
    """Each seed's ``(μ, ν)`` in the Gram form: the trigger's part ``m = W̃ᵀw``, ``w`` i.i.d., is ``√ℓ_i g_i`` in
    ``G``'s eigenbasis (``g`` a seed's ``d`` standard normals), so the rivals' bias variance ``mᵀGm/V`` is ``σ_b²μ``
    with ``μ = Σℓ²g²/Σℓ²`` (relative variance ``(2/d) μ₄/μ₂²``) and a query's slope ``κ − 1 = mᵀG h/mᵀG m``, ``h =
    √ℓ η``, varies ``ν = d Σℓ⁴g²/(Σℓ²g²)²`` times as much as with ``G`` isotropic (on average ``μ₄/μ₂²``,
    :func:`kappa_gram_ratio`)."""
    g2 = np.random.default_rng(seed).standard_normal((seeds, len(ell))) ** 2
    B = g2 @ ell**2
    return B / np.sum(ell**2), len(ell) * (g2 @ ell**4) / B**2


def gram_reads(f: dict, d: int, ell: np.ndarray) -> dict:
    """The reads with the Gram's spread in each query's own: the rivals' per-query variance is ``kᵀP²k/V`` (``k``
    the query's overlaps with the keys, ``P = W̃W̃ᵀ``), relative variance ``(2/d) μ₄/μ₂²`` over queries, where the
    form's ``|h|²/d`` is ``kᵀPk/d``'s, ``(2/d) μ₂`` (``q``'s ``χ²_{d−1}`` and ``x``'s ``χ²_{V−1}``): ``q`` becomes
    the Gamma of its mean and relative variance ``2/(d − 1) + (2/d)(μ₄/μ₂² − μ₂)`` (``μ_k`` of ``ell``, its mean 1;
    the quantile at ``q``'s own)."""
    mu2 = float(np.mean(ell**2))
    relvar = 2 / (d - 1) + 2 / d * max(float(np.mean(ell**4)) / mu2**2 - mu2, 0.0)
    return dict(f, q=stats.gamma.ppf(stats.chi2.cdf(f["q"], d - 1), 1 / relvar, scale=(d - 1) * relvar))


def joint_stats(V: int, d: int, s: float, xis: np.ndarray, points: int, seed: int, mu: np.ndarray | None = None,
                nu: np.ndarray | None = None, ell: np.ndarray | None = None, elasticity: bool = True,
                gram: bool = False) -> dict:
    """The joint form's row over the bias vectors ``xis``, each seed's biases scaled by ``√μ`` where ``mu`` is given
    (``shared_bias_walls.joint_miss_rate``'s ``mu``), its reads' part along them (``ε``'s spread across ``d``, the
    ``n3`` term) by ``√ν`` where ``nu`` is, the reads :func:`gram_reads` where ``ell`` is and the Gram's reads
    (``joint_reads``) where ``gram``; the reads' ``β`` for
    ``κ`` from child ``len(xis) + 1`` of ``seed`` (each read the ``ν`` of seed ``i mod len(xis)``)."""
    zeta2 = s - 1.0
    sigma_b = math.sqrt(crosstalk_variances(V, d, math.sqrt(zeta2))[1])
    f = fact_draws(V, d, points) if ell is None else gram_reads(fact_draws(V, d, points), d, ell)
    mu = np.ones(len(xis)) if mu is None else np.asarray(mu, float)
    nu = np.ones(len(xis)) if nu is None else np.asarray(nu, float)

    def rates(factor: float) -> np.ndarray:
        return np.array([joint_miss_rate(xi, sigma_b, dict(f, n3=f["n3"] * math.sqrt(k)), d, zeta2, mu=factor * m,
                                         gram=gram) for xi, m, k in zip(xis, mu, nu)])

    row = spread(V, r := rates(1.0), allowed_misses(V, 0.99), rates=True) | {"rates": r}
    B = mu * xis.var(axis=1)  # over σ_b²
    row.update(B=float(B.mean()), B_relvar=float(B.var() / B.mean() ** 2))
    if elasticity:
        row["elasticity"] = math.log(rates(1.1).mean() / rates(0.9).mean()) / math.log(1.1 / 0.9)
    reads = dict(f, n3=f["n3"] * np.sqrt(np.resize(nu, len(f["n3"]))))
    rng = np.random.default_rng(child_seed(seed_sequence(seed), len(xis) + 1))
    row["kappa_var"] = float(np.var(drawn_reads(reads, d, zeta2, sigma_b, rng, V if gram else None)[1].eps / sigma_b))
    return row


def measured_points() -> list[tuple[int, int, float, int, int]]:
    """``(V, d, s, seeds, seed)`` of P95's shared-trigger rows (``bench/data/miss_counts_trigger.csv``)."""
    with open(DATA / "miss_counts_trigger.csv", newline="") as f:
        return [(int(r["V"]), int(r["d"]), float(r["s"]), int(r["seeds"]), int(r["seed"]))
                for r in csv.DictReader(f) if r["shared"] == "1"]


def parse_point(text: str) -> tuple[int, int, float]:
    """``"V,d,s"`` as ``(V, d, s)``; a ValueError naming the text."""
    try:
        V, d, s = text.split(",")
        point = int(V), int(d), float(s)
    except ValueError:
        raise ValueError(f"--point takes V,d,s (e.g. 512,222,2); got {text!r}") from None
    if point[0] < 4 or point[1] < 2 or not point[2] > 1.0:
        raise ValueError(f"--point needs V >= 4, d >= 2 and s > 1 (the trigger in the value path); got {text!r}")
    return point


def point_rows(V: int, d: int, s: float, seeds: int, seed: int, a: argparse.Namespace) -> list[tuple]:
    """``(source, seeds, row)`` of the memory, the joint form and its four other rows (module docstring) at one
    point; ``a`` the parsed arguments (the forms' draws are children of ``--bias-seed``: ``ξ`` ``0..vectors − 1``,
    ``joint+mu``'s ``μ`` ``vectors``, ``gram``'s ``vectors + 2`` and ``+ 3``, ``gram-b``'s ``vectors + 4``; each row's
    reads for ``κ`` child ``n + 1``, ``n`` its seeds)."""
    mem = memory_stats(V, d, s, seeds, seed)
    xis = seed_biases(V, a.vectors, a.bias_seed)
    mu_var = max(mem["B_relvar"] - 2.0 / V, 1e-12)  # what ξ's own sample variance lacks
    root = seed_sequence(a.bias_seed)
    mu = np.random.default_rng(child_seed(root, a.vectors)).gamma(1 / mu_var, mu_var, a.vectors)  # ξ: 0..vectors-1
    ell = gram_spectrum(V, d, child_seed(root, a.vectors + 3))
    mu_g, nu_g = gram_scales(ell, a.vectors, child_seed(root, a.vectors + 2))
    unit = unit_and_scale(xis, 1.0)[0]  # B = σ_b²μ exactly: the memory's B has no sample variance of its own
    own = unit_and_scale(mem["b"], crosstalk_variances(V, d, math.sqrt(s - 1.0))[1])  # the memory's own, scale as μ
    drawn = gram_draws(V, d, s, a.vectors, child_seed(root, a.vectors + 4))
    return [("memory", seeds, mem), ("joint", a.vectors, joint_stats(V, d, s, xis, a.joint_points, a.bias_seed)),
            ("joint+mu", a.vectors, joint_stats(V, d, s, xis, a.joint_points, a.bias_seed, mu, elasticity=False)),
            ("gram", a.vectors, joint_stats(V, d, s, unit, a.joint_points, a.bias_seed, mu_g, nu_g, ell,
                                            elasticity=False)),
            ("mem-b", seeds, joint_stats(V, d, s, own[0], a.joint_points, a.bias_seed, own[1], elasticity=False)),
            ("gram-b", a.vectors, joint_stats(V, d, s, drawn[0], a.joint_points, a.bias_seed, drawn[1],
                                              elasticity=False)),
            ("mem-g", seeds, joint_stats(V, d, s, own[0], a.joint_points, a.bias_seed, own[1], elasticity=False,
                                         gram=True))]


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--point", nargs="+", default=[], help="V,d,s points (default: P95's three, with their seeds)")
    p.add_argument("--seeds", type=int, help="the memory's seeds a point (default P95's: 1000, 1000, 100)")
    p.add_argument("--seed", type=int, default=13792, help="the memory's seeds' root (default P95's, 13792)")
    p.add_argument("--vectors", type=int, default=256, help="the joint form's bias vectors (default 256)")
    p.add_argument("--bias-seed", type=int, default=13788, help="their root (default the walls script's, 13788)")
    p.add_argument("--joint-points", type=int, default=12, help="2^k reads for the joint form (default 12)")
    a = p.parse_args(argv)
    if (a.seeds is not None and a.seeds < 3) or a.vectors < 3:
        p.error(f"--seeds and --vectors need at least 3 each (a variance over seeds); got {a.seeds}, {a.vectors}")
    try:
        points = ([(*parse_point(t), a.seeds or 1000, a.seed) for t in a.point] if a.point else
                  [(V, d, s, a.seeds or n, seed) for V, d, s, n, seed in measured_points()])
    except ValueError as err:
        p.error(str(err))
    if not 4 <= a.joint_points <= 16:
        p.error(f"--joint-points is the exponent of 2, between 4 and 16; got {a.joint_points}: give e.g. 12")
    for i, (V, d, s, seeds, seed) in enumerate(points):
        try:
            rows = point_rows(V, d, s, seeds, seed, a)
        except ValueError as err:  # a point where nothing or everything is missed: before any row
            p.error(str(err))
        if i == 0:
            print(f"{'point':18s} {'source':8s} {'seeds':>5s} {'miss':>8s} {'disp':>6s} {'success':>7s} "
                  f"{'B/sb^2':>6s} {'B relvar':>8s} {'gram':>6s} {'elast':>10s} {'kappa var':>9s}")
        for name, n, r in rows:
            elast = f"{r['elasticity']:.2f}" if "elasticity" in r else ""
            elast += f"±{r['elasticity_se']:.2f}" if "elasticity_se" in r else ""
            print(f"{f'({V}, {d}, s={s:g})':18s} {name:8s} {n:5d} {r['miss']:8.5f} {r['dispersion']:6.2f} "
                  f"{r['success']:7.3f} {r['B']:6.3f} {r['B_relvar']:8.4f} {r.get('B_gram', math.nan):6.4f} "
                  f"{elast:>10s} {r['kappa_var']:9.5f}",
                  flush=True)
        mem, own = rows[0][2]["misses"], V * next(r for name, _, r in rows if name == "mem-b")["rates"]
        slope = np.polyfit(own, mem, 1)[0]
        print(f"{'':18s} per seed, the memory's misses on the form's with the memory's own biases (mem-b): "
              f"correlation {np.corrcoef(own, mem)[0, 1]:.2f}, slope {slope:.2f}", flush=True)
        kappa = {name: r["kappa_var"] for name, _, r in rows}
        print(f"{'':18s} kappa var, memory over joint {kappa['memory'] / kappa['joint']:.2f}; the labels' Gram "
              f"(Marchenko-Pastur mu4/mu2^2 at d/V = {d / V:.3f}) {kappa_gram_ratio(V, d):.2f}; memory over the "
              f"Gram's reads (mem-g) {kappa['memory'] / kappa['mem-g']:.2f}", flush=True)


if __name__ == "__main__":
    main()
