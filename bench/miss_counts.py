"""Where the walls' shortfall at small ``V`` comes from: the Hebbian memory's misses, fact by fact and seed by seed (prints).

``bench/extreme_value_walls.py`` reads every published wall as ``d² = K q_V(p_V(τ))² (sV + (s + 1)d)`` with ``K = 1``
for Gaussian, independent scores (docs/theory.md §7.12, "Where the constant comes from"); the walls at ``V ≥ 16384``
have ``K`` 0.99..1.01, but ``K`` falls to 0.93 at ``V = 512``. That form makes two assumptions, and this script
measures each on the ``hebbian`` control (the read-out's wall at ``s = 1``, to 0.4%: P77), whose memory
``W = Σ_x u_{Π(x)} e_xᵀ`` gives label ``y`` the score ``u_yᵀ W e_x`` (``theorycheck.tasks.linear_am``):

* **the fact** — each fact is missed with the probability ``1 − P(max_{j<V} Z_j − Z_0 < 1/σ)``,
  ``σ² = (V + 2d)/d²`` (:func:`extreme_value_walls.margin_cdf`). Measured: the share of all facts missed, pooled
  over seeds, against that; and the scores' own spread (the rivals' score variance per query and the correct
  label's score) against ``σ²`` and the signal 1.
* **the count** — a seed's misses are ``Binomial(V, 1 − p)``, so half the seeds reach ``τ`` where
  ``p = p_V(τ)`` (:func:`extreme_value_walls.recall_share`). Measured: the variance of the per-seed count
  against ``V p̂(1 − p̂)`` (its dispersion), and the share of seeds with at most ``k = V − ⌈τV⌉`` misses against
  ``P(Binomial(V, p̂_miss) ≤ k)``.

``K`` splits into the two: ``K_fact = d²/(q_V(1 − p̂_miss)² (V + 2d))`` is the ``K`` the pooled miss share implies
(1 where each fact is missed as often as the Gaussian form says), and ``K/K_fact`` is the count's part (1 where
the count is binomial). With ``--s`` above 1 the same is measured on the read-out's memory with the trigger in the
value path (:func:`trigger_memory`; ``σ² = (sV + (s + 1)d)/d²``), the seed's one trigger or a fresh one per query
(``--trigger``). Seeds are children of ``--seed`` (``theorycheck.seeding.child_seed``); a seed's data at ``d`` are
``linear_am``'s (nested in ``d``). Docs: docs/theory.md §7.12, "Where the shortfall comes from" and "With the trigger
in the value path".

Example: ``python bench/miss_counts.py --V 512 --d 152 --seeds 2000 --seed 13787`` (about 30 s on 2 cores).
"""

from __future__ import annotations

import argparse
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

from crosstalk_parts import implied_k2  # noqa: E402
from extreme_value_walls import allowed_misses, implied_K, margin_cdf, margin_quantile, recall_probability  # noqa: E402
from memory_read_walls import read_recall  # noqa: E402
from readout_parts import sphere_directions  # noqa: E402
from theorycheck.algorithms.limit import centered_labels  # noqa: E402
from theorycheck.seeding import child_seed, seed_sequence  # noqa: E402
from theorycheck.tasks.linear_am import LinearAMParams, draw_coordinates, make_memory  # noqa: E402


RIVALS = ("memory", "fresh")
TRIGGERS = ("shared", "fresh")


def trigger_memory(V: int, d: int, seed, s: float, trigger: str):
    """``(E, U, z, perm, reads, scores, common)`` of the read-out's memory at infinite ``N`` with the trigger in the
    value path (``s = 1 + ζ²``): ``G₂ = Σ_x w̃_{Π(x)} (e_x + z)ᵀ`` with centred labels ``w̃_y = u_y − ū``
    (docs/theory.md §7.12), queried with ``e_x + z``. ``trigger="shared"``: the seed's one ``z`` (child 98 of
    ``seed``, norm ``ζ``; ``z`` one row), as in a trial; ``"fresh"``: each query its own (child 97; ``z`` a row a
    query), the bias drawn afresh. The embeddings and facts are ``linear_am``'s; ``common = ūᵀ G₂ (e_x + z)`` is the
    part every label shares."""
    ze, zu, perm = draw_coordinates(V, d, seed)
    E, U = ze / math.sqrt(d), zu / math.sqrt(d)
    rng = np.random.default_rng(child_seed(seed_sequence(seed), 98 if trigger == "shared" else 97))
    z = sphere_directions(1 if trigger == "shared" else V, d, math.sqrt(s - 1.0), rng)
    reads = (E @ E.T + z @ E.T) @ centered_labels(U)[perm]  # [x]: G₂ (e_x + z), the ζ² and zᵀe_x parts cancelled
    return E, U, z, perm, reads, reads @ U.T, reads @ U.mean(axis=0)


def seed_misses(V: int, d: int, seed, rivals: str = "memory", s: float = 1.0, trigger: str = "shared") -> dict:
    """One seed's memory at ``(V, d)``: its misses, the mean over queries of the rivals' score variance, the mean
    and variance over facts of the correct label's score (the signal, 1 on average) and the per-fact miss given
    the read (``read_miss``). At ``s = 1`` the Hebbian memory (``linear_am``); ``rivals="fresh"`` scores the rivals
    with label embeddings drawn afresh (child 99 of ``seed``), independent of the memory: the correct label's score
    is kept, and each rival's is then Gaussian given ``W e_x``, independently of the others. At ``s > 1``
    :func:`trigger_memory`."""
    rows = np.arange(V)
    if s > 1.0:
        E, _, z, perm, reads, scores, common = trigger_memory(V, d, seed, s, trigger)
        correct = scores[rows, perm] - common
        own = np.sum((E + z) ** 2, axis=1)  # |e_x + z|²: a rival's own term |u_j|² e_jᵀ(e_x + z) has it over d
    else:
        memory, _ = make_memory(LinearAMParams(V=V, d=d), seed)
        E, perm = memory.E, memory.perm
        reads = E @ memory.W.T  # [x]: h_x = W e_x, whose length the rivals' scores see
        scores = reads @ memory.U.T  # [x, y]: u_yᵀ W e_x
        correct = scores[rows, perm]
        own = np.sum(E**2, axis=1)
        if rivals == "fresh":
            fresh = np.random.default_rng(child_seed(seed_sequence(seed), 99)).standard_normal((V, d)) / math.sqrt(d)
            scores = reads @ fresh.T
            scores[rows, perm] = correct
            own = 0.0
    spread2 = (np.sum(reads**2, axis=1) + own) / d
    read_miss = 1.0 - read_recall(V, correct, spread2)
    others = scores.copy()
    others[rows, perm] = np.nan
    return {"misses": int(np.sum(scores.argmax(axis=1) != perm)),
            "rival_var": float(np.mean(np.nanvar(others, axis=1))),
            "signal_mean": float(correct.mean()), "signal_var": float(correct.var()),
            "read_miss": float(read_miss.mean())}


def miss_counts(V: int, d: int, seeds: int, seed: int, tau: float = 0.99, rivals: str = "memory", s: float = 1.0,
                trigger: str = "shared") -> dict:
    """The fact's and the count's parts of ``K`` at ``(V, d)`` over ``seeds`` seeds (module docstring)."""
    root = seed_sequence(seed)
    runs = [seed_misses(V, d, child_seed(root, i), rivals, s, trigger) for i in range(seeds)]
    m = np.array([r["misses"] for r in runs], dtype=float)
    k = allowed_misses(V, tau)
    p_miss = m.mean() / V
    if not 0.0 < p_miss < 1.0:
        raise ValueError(f"miss_counts needs some facts missed and some recalled at (V, d) = ({V}, {d}); got a miss "
                         f"share of {p_miss} over {seeds} seeds: take d nearer the wall")
    sigma2 = 1.0 / implied_k2(d, V, s)  # (sV + (s + 1)d)/d², the Gaussian form's score variance
    k_fact = implied_k2(d, V, s) / margin_quantile(V, 1.0 - p_miss) ** 2
    rival_var, signal_var = (float(np.mean([r[key] for r in runs])) for key in ("rival_var", "signal_var"))
    signal_mean = float(np.mean([r["signal_mean"] for r in runs]))
    return {"V": V, "d": d, "seeds": seeds, "k": k,
            "miss_share": p_miss, "miss_share_se": m.std(ddof=1) / math.sqrt(seeds) / V,
            "gauss_miss_share": 1.0 - margin_cdf(V, 1.0 / math.sqrt(sigma2)),
            "measured_gauss_miss_share": 1.0 - recall_probability(V, signal_mean, signal_var, rival_var),
            "read_miss_share": float(np.mean([r["read_miss"] for r in runs])),
            "rival_var_ratio": rival_var / sigma2, "signal_mean": signal_mean, "signal_var_ratio": signal_var / sigma2,
            "dispersion": m.var(ddof=1) / (V * p_miss * (1.0 - p_miss)),
            "success_share": float(np.mean(m <= k)),
            "binomial_success_share": float(stats.binom.cdf(k, V, p_miss)),
            "K": implied_K(V, s, d, tau), "K_fact": k_fact}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--V", type=int, nargs="+", default=[512])
    p.add_argument("--d", type=int, nargs="+", default=[152], help="one d per V (a wall: hebbian_target_099.csv)")
    p.add_argument("--seeds", type=int, default=2000)
    p.add_argument("--seed", type=int, default=13787)
    p.add_argument("--target", type=float, default=0.99)
    p.add_argument("--rivals", choices=RIVALS, default="memory",
                   help="fresh: the rivals' label embeddings drawn independently of the memory (seed_misses)")
    p.add_argument("--s", type=float, default=1.0, help="the trigger's share s = 1 + zeta^2 (1: the Hebbian memory)")
    p.add_argument("--trigger", choices=TRIGGERS, default="shared",
                   help="s > 1: the seed's one trigger for every query, or each query its own (trigger_memory)")
    a = p.parse_args(argv)
    if len(a.V) != len(a.d):
        p.error(f"--V and --d need one d per V; got {len(a.V)} V and {len(a.d)} d: give as many of each")
    if a.seeds < 2 or min(a.V) < 2 or min(a.d) < 2:
        p.error(f"--seeds, --V and --d need at least 2 each; got --seeds {a.seeds}, --V {a.V}, --d {a.d}")
    if not 0.0 < a.target <= 1.0:
        p.error(f"--target is an accuracy in (0, 1]; got {a.target}: give e.g. 0.99")
    if not a.s >= 1.0:
        p.error(f"--s is the trigger's share 1 + zeta^2, at least 1; got {a.s}: give 1 (trigger out) or more")
    if a.s > 1.0 and a.rivals == "fresh":
        p.error("--rivals fresh is for the Hebbian memory (s = 1); got --s "
                f"{a.s}: drop --rivals or give --s 1")
    try:
        rows = [miss_counts(V, d, a.seeds, a.seed, a.target, a.rivals, a.s, a.trigger) for V, d in zip(a.V, a.d)]
    except ValueError as err:
        p.error(str(err))
    print(f"{'V':>6s} {'d':>5s} {'seeds':>5s} {'miss':>8s} {'+-se':>7s} {'gauss':>8s} {'rivvar':>6s} {'sig':>6s} "
          f"{'sigvar':>6s} {'g_meas':>8s} {'read':>8s} {'disp':>5s} {'succ':>5s} {'binom':>5s} {'K':>6s} {'K_fact':>6s} "
          f"{'count':>6s}")
    for r in rows:
        print(f"{r['V']:6d} {r['d']:5d} {a.seeds:5d} {r['miss_share']:8.5f} {r['miss_share_se']:7.5f} "
              f"{r['gauss_miss_share']:8.5f} {r['rival_var_ratio']:6.3f} {r['signal_mean']:6.3f} "
              f"{r['signal_var_ratio']:6.3f} {r['measured_gauss_miss_share']:8.5f} {r['read_miss_share']:8.5f} "
              f"{r['dispersion']:5.2f} {r['success_share']:5.3f} "
              f"{r['binomial_success_share']:5.3f} {r['K']:6.4f} {r['K_fact']:6.4f} {r['K'] / r['K_fact']:6.4f}")


if __name__ == "__main__":
    main()
