"""Where the softmax's leak puts the read-out's wall: a model with no fitted constant (prints figures).

The model (docs/theory.md §7.12, "A model of the wall"). In the early-phase limit
(:mod:`theorycheck.algorithms.limit`) the read-out of a test sequence is ``argmax_y u_yᵀ G₂ o``
with ``o = Σ_x m_x e_x``, ``m_x`` the step-2 attention mass on token ``x``. At large ``N``
``G₂ ≈ Σ_y c·w_y e_{x_y}ᵀ`` (the part of the leak that does not depend on the label is removed
by the centred ``w_y``), so the right label gets ``c·m_fact`` (the mass on the fact's token)
and every label a cross-talk of the random embeddings, ``e_{x_y}ᵀ e_x ≈ N(0, 1/d)``, of standard
deviation about ``c·|m|·sqrt(V)/d``. A sequence then reads like hard attention (``m = e_fact``)
at the effective width

    d_eff = d · m_fact / |m|.

Hard attention's error at large ``N`` is taken as the union over the ``V`` labels of a Gaussian
tail, ``F(d) = min(1, V·Φ̄(x₀·d/d₀))`` with ``x₀ = Φ̄⁻¹((1 − target)/V)``, so ``F(d₀) = 1 −
target`` at hard attention's measured wall ``d₀`` (``--hard-wall``). The model's error at ``d``
is the mean over test sequences and seeds of ``F(d_eff)``, and its wall is the ``d`` at which
that error is ``1 − target`` (interpolated in ``log`` error between the grid's two neighbours).
Left out: the labels of the distractors (pushed by their own mass), the marker term, finite ``N``.

For each ``d`` on the grid (``--d``) it prints the mean of ``m_fact/|m|``, its 1st percentile,
and the model's error, then the model's wall. ``--json PATH`` appends one line per point.
Example: ``python bench/leak_wall.py --point 512,204,32,80000 --beta 10 --hard-wall 169.5
--d 170,176,182,190 --seeds 4 --seed 13680`` (``d`` of ``--point`` is replaced by the grid's).
"""

from __future__ import annotations

import argparse
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads: one BLAS thread in each of the count path's threads

import numpy as np  # noqa: E402
from scipy.stats import norm

from points import parse_points
from softmax_leak import add_trial_options, append_line, finite_beta, leak_weights, test_attention
from theorycheck.algorithms.attention_readout import token_mass
from theorycheck.tasks.retrieval import RetrievalParams


def token_masses(tokens: np.ndarray, pos: np.ndarray, sigma: np.ndarray, V: int) -> tuple[np.ndarray, np.ndarray]:
    """``(m, fact)``: each sequence's (row's) attention mass on each token
    (:func:`~theorycheck.algorithms.attention_readout.token_mass`) and its fact's token ``x_ℓ``."""
    return token_mass(tokens, sigma, V), tokens[np.arange(tokens.shape[0]), pos]


def stored_weights(a: np.ndarray, alpha: float, beta: float, scale: float, L: int, seed: int,
                   sets: int = 4096) -> np.ndarray:
    """``c(x) = E[σ_ℓ | fact token x]``: the mean step-2 weight of the informative position over
    contexts of ``L − 1`` uniform tokens, ``σ_ℓ = 1/(1 + Σ_{i≠ℓ} e^{β(a_{x_i} − a_x − α)/scale})``;
    ``sets`` contexts drawn once from ``seed`` and shared by every ``x``."""
    w = leak_weights(a, beta, scale)
    rng = np.random.default_rng(seed)
    sums = np.zeros(sets)
    for _ in range(L - 1):  # Σ_i w_{x_i} over each context, one position at a time
        sums += w[rng.integers(0, len(a), size=sets)]
    factor = math.exp(-beta * alpha / scale) / w  # e^{β(max a − a_x − α)/scale} for each fact token x
    return np.mean(1.0 / (1.0 + factor[:, None] * sums[None, :]), axis=1)


def sequence_error(mass: np.ndarray, fact: np.ndarray, stored: np.ndarray, r: float, V: int,
                   target: float) -> np.ndarray:
    """Each sequence's error at ``r = d/d₀``, with ``s_x = c(x)·m_x`` the stored weight times the
    mass and ``n = c_rms·|m|`` the cross-talk's scale (``c_rms² = mean_x c(x)²``):
    ``min(1, V·Φ̄(x₀·r·s_fact/n) + Σ_{x ≠ fact} Φ̄(x₀·r·(s_fact − s_x)/n))``, ``x₀ =
    Φ̄⁻¹((1 − target)/V)``; hard attention (``c = 1``, ``m = e_fact``) gives ``min(1, V·Φ̄(x₀·r))``,
    ``1 − target`` at ``r = 1``."""
    x0 = norm.isf((1.0 - target) / V)
    rows = np.arange(mass.shape[0])
    scale = math.sqrt(float(np.mean(stored**2))) * np.sqrt(np.einsum("ij,ij->i", mass, mass))
    signal = stored * mass  # s_x for every sequence and token
    s_fact = signal[rows, fact]
    generic = V * norm.sf(x0 * r * s_fact / scale)
    signal[rows, fact] = 0.0
    pushed = np.where(signal > 0, norm.sf(x0 * r * (s_fact[:, None] - signal) / scale[:, None]), 0.0).sum(axis=1)
    return np.minimum(1.0, generic + pushed)


def model_wall(ds: list[int], errors: list[float], target: float) -> float:
    """The ``d`` at which the error crosses ``1 − target`` (log-linear between neighbours; nan if
    the grid does not bracket it)."""
    goal = math.log(1.0 - target)
    logs = [math.log(e) if e > 0 else -math.inf for e in errors]
    for (d1, e1), (d2, e2) in zip(zip(ds, logs), zip(ds[1:], logs[1:])):
        if e1 >= goal >= e2 and e1 != e2:
            return d1 + (d2 - d1) * (e1 - goal) / (e1 - e2)
    return math.nan


def read_grid(text: str, least: int = 2) -> list[int]:
    """``--d``'s grid: at least ``least`` increasing whole numbers, comma-separated (a ValueError otherwise)."""
    ds = [int(x) if x.strip().isdigit() else 0 for x in text.split(",")]
    if len(ds) < least or any(b <= a for a, b in zip(ds, ds[1:])) or ds[0] < 1:
        raise ValueError(f"--d: give at least {least} increasing whole number{'s' * (least > 1)}, got {text!r}")
    return ds


def add_wall_options(p: argparse.ArgumentParser, beta_help: str | None = None) -> None:
    """``--point``, ``--beta``, ``--d``, ``--target`` and :func:`softmax_leak.add_trial_options`: the options
    of this script and ``population_wall.py``."""
    p.add_argument("--point", required=True, metavar="V,d,L,N", help="d is replaced by the grid's")
    p.add_argument("--beta", type=float, required=True, help=beta_help)
    p.add_argument("--d", required=True, help="the grid of d, comma-separated, increasing")
    p.add_argument("--target", type=float, default=0.99)
    add_trial_options(p)


def wall_inputs(args: argparse.Namespace, beta_rule,
                marker_in_value: bool = True) -> tuple[float, list[RetrievalParams], list[int]]:
    """``(beta, cells, seeds)`` from :func:`add_wall_options`' options: ``beta`` checked by ``beta_rule``,
    one cell per ``d`` of the grid (``--point``'s ``V``, ``L``, ``N``; ``marker_in_value`` as given), the
    seeds; a ValueError naming the first bad one."""
    [(V, _, L, N)] = parse_points(args.point, "--point")
    beta = beta_rule(args.beta)
    ds = read_grid(args.d)
    if not 0.0 < args.target < 1.0 or args.seeds < 1:
        raise ValueError(f"need 0 < --target < 1 and --seeds >= 1; got {args.target}, {args.seeds}")
    cells = [RetrievalParams(V=V, d=d, L=L, N=N, zeta=args.zeta, marker_in_value=marker_in_value) for d in ds]
    return beta, cells, list(range(args.seed, args.seed + args.seeds))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_wall_options(p)
    p.add_argument("--hard-wall", type=float, required=True, help="hard attention's measured wall d0 at the target")
    args = p.parse_args(argv)
    try:  # every input checked before any trial: a one-line usage error, exit 2
        beta, cells, seeds = wall_inputs(args, finite_beta)
        if not args.hard_wall > 0:
            raise ValueError(f"need --hard-wall > 0, got {args.hard_wall}")
    except ValueError as err:
        p.error(str(err))
    print(f"{'V':>5} {'d':>5} {'L':>4} {'N':>7} {'beta':>5} {'fact':>6} {'p01':>6} {'error':>8}"
          f"  (hard wall {args.hard_wall}, target {args.target}, {args.seeds} seeds from {args.seed})")
    errors = []
    for params in cells:
        V, d, L, N = params.V, params.d, params.L, params.N
        errs, shares = [], []
        for s in seeds:
            fit, test, a, sigma = test_attention(params, beta, s)
            mass, fact = token_masses(test.tokens, test.pos, sigma, V)
            stored = stored_weights(a, fit.diagnostics["trigger_coef"], beta, fit.diagnostics["logit_scale"], L, s)
            errs.append(sequence_error(mass, fact, stored, d / args.hard_wall, V, args.target))
            shares.append(mass[np.arange(len(fact)), fact])
        share = np.concatenate(shares)
        error = float(np.mean(np.concatenate(errs)))
        errors.append(error)
        print(f"{V:>5} {d:>5} {L:>4} {N:>7} {beta:>5g} {share.mean():>6.4f} {np.quantile(share, 0.01):>6.4f} "
              f"{error:>8.5f}")
        append_line(args.json, {"V": V, "d": d, "L": L, "N": N, "zeta": args.zeta, "beta": beta,
                                "hard_wall": args.hard_wall, "target": args.target, "seeds": seeds,
                                "fact_mass": float(share.mean()), "error": error})
    print(f"model wall: {model_wall([c.d for c in cells], errors, args.target):.1f}")


if __name__ == "__main__":
    main()
