"""The read-out's walls against the Gaussian maximum: where ``vural2026.readout_wall``'s constant comes from (prints).

A fact is recalled when its label's score beats the ``V − 1`` other labels'. With the cross-talk Gaussian and of
variance ``σ² = (sV + (s + 1)d)/d²`` per score (docs/theory.md §7.12, "Why ζ = 2 missed": ``var_c + var_b`` with
``ζ² = s − 1``) and a signal of 1, a fact is recalled with probability ``P(max_{j<V} Z_j − Z_0 < 1/σ)``, ``Z``
i.i.d. ``N(0, 1)``. A trial succeeds when its accuracy over the ``V`` facts reaches the target ``τ`` (0.99), that
is with at most ``k = V − ⌈τV⌉`` facts missed, and the wall is where half the seeds do: where the facts are each
recalled with the probability ``p_V(τ)`` at which ``P(Binomial(V, 1 − p) ≤ k) = 1/2`` (:func:`recall_share`;
about ``1 − (k + 2/3)/V``, so 0.99836 for ``τ = 0.999`` at ``V = 1024``, where one miss is allowed, and ``τ``
itself to 0.0001 once ``(1 − τ)V`` is in the tens). So ``1/σ = q_V(p)``, the ``p``-quantile of ``max_{j<V} Z_j − Z_0``
(:func:`margin_quantile`), and the wall is

    d² = K · q_V(p_V(τ))² · (sV + (s + 1)d),    K = 1 for Gaussian, independent scores       (:func:`ev_wall`).

No constant is fitted. ``q_V² ~ 2 log V`` as ``V → ∞``, but slowly: ``q_V(p_V(0.99))²/log V`` falls from 4.87 at
``V = 512`` to 4.07 at 65536 (3.0 at ``2⁶⁰``). The law ``d² ≥ C log V (sV + (s + 1)d)`` with one ``C`` therefore
reads its ``C`` falling with ``V`` (4.40 fitted at ``V ≤ 4096``; its ``V`` exponent 0.454 against 0.470 over every
simulated wall). :func:`implied_K` is a wall's ``K``; this script prints, for every published wall (the pooled
``readout_wall`` checks, the read-outs' per-seed medians, and :data:`OTHER_TABLES`: the ``hebbian`` control and the
read-out's checks at other targets), its ``C`` (``d²/(log V (sV + (s + 1)d))``), ``q_V²/log V`` and ``K``. Docs:
docs/theory.md §7.12, "Where the constant comes from".

Example: ``python bench/extreme_value_walls.py``.
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
from functools import lru_cache
from pathlib import Path

from scipy import integrate, optimize, stats

from crosstalk_parts import implied_k2, wall_root
from readout_wall_pool import pooled
from readout_wall_table import SOURCES, wall_table

DATA = Path(__file__).resolve().parent / "data"
OUT_OF_SAMPLE = "limit_population_wall_out_of_sample.jsonl"
#: Check tables of walls at a target other than the catalogue's 0.99, or of the ``hebbian`` control
#: (the plain outer-product memory, whose criterion is ``τ = 1``), or the read-out's checks at cells first measured
#: by read-outs alone (``form-chk``: docs/theory.md §7.12, "With the trigger in the value path"), with their target
#: and source.
OTHER_TABLES = (("hebbian_target_099.csv", 0.99, "hebbian"),
                ("readout_wall_target_0900.csv", 0.9, "target"),
                ("readout_wall_target_0999.csv", 0.999, "target"),
                ("readout_wall_target_s2_0900.csv", 0.9, "target"),
                ("readout_wall_target_s2_0999.csv", 0.999, "target"),
                ("hebbian_target_1.csv", 1.0, "hebbian"),
                ("hebbian_target_0900.csv", 0.9, "hebbian"),
                ("hebbian_target_0999.csv", 0.999, "hebbian"),
                ("readout_wall_form_check_512_s5.csv", 0.99, "form-chk"),
                ("readout_wall_form_check_s_gt1.csv", 0.99, "form-chk"))


def recall_probability(V: int, signal_mean: float, signal_var: float = 1.0, rival_var: float = 1.0) -> float:
    """``P(max_{j<V} R_j < S)``, ``R_j`` i.i.d. ``N(0, rival_var)``, ``S ~ N(signal_mean, signal_var)``:
    ``∫ φ(z) Φ((signal_mean + √signal_var z)/√rival_var)^{V−1} dz`` (scipy ``quad``; ``Φ^{V−1}`` through ``logcdf``,
    exact where ``1 − Φ`` is below double precision's spacing near 1). The Gaussian form's recall of a fact."""
    r, s = math.sqrt(rival_var), math.sqrt(signal_var)
    return integrate.quad(lambda z: math.exp(stats.norm.logpdf(z) + (V - 1) * stats.norm.logcdf(
        (signal_mean + s * z) / r)), -12, 12, limit=400, epsabs=1e-13)[0]


def margin_cdf(V: int, q: float) -> float:
    """``P(max_{j<V} Z_j − Z_0 < q)`` over ``V − 1`` i.i.d. ``N(0, 1)`` rivals ``Z_j``: ``∫ φ(z) Φ(q + z)^{V−1} dz``
    (:func:`recall_probability` with unit variances). A fact whose scores have the spread ``σ`` about a signal of 1
    is recalled with ``margin_cdf(V, 1/σ)``."""
    return recall_probability(V, q)


def allowed_misses(V: int, tau: float) -> int:
    """``k = V − ⌈τV⌉``: the facts a trial may miss and still reach accuracy ``τ`` (``1e-9``: ``τV`` an integer up
    to rounding)."""
    return V - math.ceil(tau * V - 1e-9)


@lru_cache(maxsize=None)
def margin_quantile(V: int, tau: float) -> float:
    """``q_V(τ)``: the ``τ``-quantile of ``max_{j<V} Z_j − Z_0``, the root of :func:`margin_cdf` ``= τ``
    (scipy ``brentq``)."""
    if V < 2 or not 0 < tau < 1:
        raise ValueError(f"margin_quantile needs V >= 2 and 0 < tau < 1; got V={V}, tau={tau}")
    return optimize.brentq(lambda q: margin_cdf(V, q) - tau, -10.0, 40.0, xtol=1e-12)


@lru_cache(maxsize=None)
def recall_share(V: int, tau: float) -> float:
    """``p_V(τ)``: the probability of recalling each fact at which half the seeds reach accuracy ``τ`` over ``V``
    facts, the root of ``P(Binomial(V, 1 − p) ≤ V − ⌈τV⌉) = 1/2`` (the facts missed independently); ``τ = 1``,
    every fact (the ``hebbian`` control's criterion), gives ``p = 2^{−1/V}``."""
    if V < 2 or not 0 < tau <= 1:
        raise ValueError(f"recall_share needs V >= 2 and 0 < tau <= 1; got V={V}, tau={tau}")
    k = allowed_misses(V, tau)
    return optimize.brentq(lambda p: stats.binom.cdf(k, V, 1.0 - p) - 0.5, 1e-12, 1.0 - 1e-15, xtol=1e-15)


def wall_quantile(V: int, tau: float) -> float:
    """``q_V(p_V(τ))``: the margin a fact needs for half the seeds to reach accuracy ``τ``."""
    return margin_quantile(V, recall_share(V, tau))


def ev_wall(V: int, s: float, tau: float, K: float = 1.0) -> float:
    """The wall at target ``τ``: the positive root ``d`` of ``d² = K q_V(p_V(τ))² (sV + (s + 1)d)``
    (``crosstalk_parts.wall_root`` at ``K² = K q²``)."""
    return wall_root(K * wall_quantile(V, tau) ** 2, V, s)


def implied_K(V: int, s: float, d: float, tau: float) -> float:
    """A wall's ``K = d² / (q_V(p_V(τ))² (sV + (s + 1)d))``: 1 where the scores are Gaussian and independent."""
    return implied_k2(d, V, s) / wall_quantile(V, tau) ** 2


def published_walls() -> list[dict]:
    """Every published wall as ``{"source", "V", "s", "target", "wall"}``: the pooled ``readout_wall`` checks
    (``check``), the read-outs' per-seed walls' medians (``read-out``, ``readout_walls.csv``'s sources and the
    out-of-sample lines), and :data:`OTHER_TABLES`."""
    rows = [{"source": "check", "V": int(float(r["V"])), "s": float(r["s"]), "target": 0.99,
             "wall": float(r["threshold"])} for r in pooled()[0]]
    seeds: dict[tuple[int, float], list[float]] = {}
    for r in wall_table(SOURCES + (OUT_OF_SAMPLE,))[0]:
        seeds.setdefault((int(r["V"]), float(r["s"])), []).append(r["d"])
    rows += [{"source": "read-out", "V": V, "s": s, "target": 0.99, "wall": statistics.median(ds)}
             for (V, s), ds in sorted(seeds.items())]
    for name, target, source in OTHER_TABLES:
        with open(DATA / name, newline="") as f:
            rows += [{"source": source, "V": int(float(r["V"])), "s": float(r.get("s", 1.0)), "target": target,
                      "wall": float(r["threshold"])} for r in csv.DictReader(f)]
    return rows


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.parse_args(argv)
    print(f"{'source':9s} {'V':>6s} {'s':>7s} {'target':>6s} {'wall':>8s} {'C':>6s} {'q^2/logV':>8s} {'K':>7s} "
          f"{'K=1 wall':>8s}")
    for r in sorted(published_walls(), key=lambda r: (r["target"], r["s"] != 1.0, r["V"], r["s"], r["source"])):
        V, s, tau, d = r["V"], r["s"], r["target"], r["wall"]
        c = implied_k2(d, V, s) / math.log(V)  # the law's C: d²/(log V (sV + (s + 1)d))
        print(f"{r['source']:9s} {V:6d} {s:7.2f} {tau:6.3f} {d:8.1f} {c:6.3f} "
              f"{wall_quantile(V, tau) ** 2 / math.log(V):8.3f} {implied_K(V, s, d, tau):7.4f} "
              f"{ev_wall(V, s, tau):8.1f}")


if __name__ == "__main__":
    main()
