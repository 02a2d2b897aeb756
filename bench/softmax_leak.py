"""How much attention the step-2 softmax leaks off the informative position (prints figures).

In the early-phase limit (docs/theory.md §3.2, :mod:`theorycheck.algorithms.limit`) the
step-2 attention of a test sequence ``X`` with informative position ``ℓ`` is

    σ_i = softmax_i(β·(a_{x_i} + 1{i=ℓ}·α)/|α|),   a_x = e_xᵀ g,

so the informative position wins by ``β`` logits plus its token's score, and each of the
``L − 1`` distractors takes ``e^{β(a_{x_i} − a_{x_ℓ})/|α| − β}`` of its weight. For each seed
(:func:`theorycheck.simulate.trial_draws`, the draws of a trial with that seed) this prints

* ``leak``: the test set's mean of ``1 − σ_ℓ``, the mass the read-out sees off the fact;
* ``odds``: the mean of ``(1 − σ_ℓ)/σ_ℓ``, the distractors' weight over the fact's;
* ``q99``: the 99th percentile of ``1 − σ_ℓ`` over the test sequences, the leak of the worst 1%
  (a trial succeeds at accuracy 0.99: what the worst 1% of sequences lose is what can fail it);
  ``q98`` the 98th, the same at target 0.98;
* ``moments``: ``(L − 1)·e^{−β}·mean_x e^{βa_x/|α|}·mean_x e^{−βa_x/|α|}``, the odds if the
  tokens at the ``L`` positions were independent uniform draws (the seed's own scores);
* ``gauss``: ``(L − 1)·e^{−β}·e^{β²s²}`` with ``s = std(a)/|α|`` (``token_score_spread``), the
  same for Gaussian scores (docs/theory.md §7.12, "the leak");
* ``conc``: how the leak concentrates on tokens, ``mean_x w_x² / (mean_x w_x)²`` with ``w_x =
  e^{βa_x/|α|}`` (a token's share of the leak is ``∝ w_x``; ``e^{β²s²}`` for Gaussian scores,
  1 if every token took the same share), and ``rms = leak·sqrt(conc)``, the root mean square
  over tokens of the leak a token receives (``leak·w_x/mean w``);
* ``acc``: the trial's test accuracy.

``--json PATH`` appends one JSON line per point and ``β`` (the rows bench/data keeps).
Example: ``python bench/softmax_leak.py --point 512,204,128,80000 --beta 10 --seeds 4 --seed 13680``.
"""

from __future__ import annotations

import argparse
import json
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads: one BLAS thread in each of the count path's threads

import numpy as np  # noqa: E402

from points import parse_points
from theorycheck.algorithms.attention_readout import attend
from theorycheck.algorithms.limit import check_beta
from theorycheck.algorithms.population_readout import trial_fit
from theorycheck.tasks.retrieval import RetrievalParams


def test_attention(params: RetrievalParams, beta: float, seed: int, threads: int = 2):
    """:func:`trial_fit`'s ``(fit, test, a)`` and ``sigma``, the step-2 weights ``σ`` of every test
    sequence (rows) over its positions."""
    fit, test, a = trial_fit(params, beta, seed, threads)
    _, sigma = attend(test.tokens, test.pos, a, fit.diagnostics["trigger_coef"], beta, fit.diagnostics["logit_scale"])
    return fit, test, a, sigma


def leak_weights(a: np.ndarray, beta: float, scale: float) -> np.ndarray:
    """``w_x = e^{β(a_x − max a)/scale}``: each token's softmax weight as a distractor, relative to the
    top-scoring token's (a token's share of the leak is ``∝ w_x``)."""
    z = beta * a / scale
    return np.exp(z - z.max())


def leak_figures(params: RetrievalParams, beta: float, seed: int, threads: int = 2) -> dict[str, float]:
    """The module docstring's figures for one trial of the limit at ``beta``."""
    fit, test, a, sigma = test_attention(params, beta, seed, threads)
    scale = fit.diagnostics["logit_scale"]
    fact = sigma[np.arange(len(test.pos)), test.pos]
    lost = 1.0 - fact  # each test sequence's leak
    w = leak_weights(a, beta, scale)  # the moments' product and conc do not depend on its scale
    moments = float(np.mean(w) * np.mean(1.0 / w))
    conc = float(np.mean(w**2) / np.mean(w) ** 2)
    spread = fit.diagnostics["token_score_spread"]
    predicted, _ = fit.predict(test)
    leak = float(np.mean(lost))
    return {"leak": leak, "odds": float(np.mean(lost / fact)), "q99": float(np.quantile(lost, 0.99)),
            "q98": float(np.quantile(lost, 0.98)),
            "moments": (params.L - 1) * math.exp(-beta) * moments,
            "gauss": (params.L - 1) * math.exp(-beta + (beta * spread) ** 2),
            "spread": spread, "conc": conc, "rms": leak * math.sqrt(conc),
            "acc": float(np.mean(predicted == test.labels))}


def add_trial_options(p: argparse.ArgumentParser) -> None:
    """The options this script and ``leak_wall.py`` share: ``--zeta``, ``--seeds``, ``--seed``, ``--json``."""
    p.add_argument("--zeta", type=float, default=0.5)
    p.add_argument("--seeds", type=int, default=4)
    p.add_argument("--seed", type=int, default=13680)
    p.add_argument("--json", default=None, metavar="PATH")


def finite_beta(beta) -> float:
    """``beta`` checked by :func:`check_beta` and finite (hard attention leaks nothing)."""
    value = check_beta(beta)
    if math.isinf(value):
        raise ValueError(f"--beta: hard attention (inf) leaks nothing; give a finite value, got {beta}")
    return value


def append_line(path: str | None, row: dict) -> None:
    """One JSON line appended to ``path`` (nothing when ``None``)."""
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--point", action="append", required=True, metavar="V,d,L,N", help="repeat for several points")
    p.add_argument("--beta", type=float, action="append", required=True)
    add_trial_options(p)
    args = p.parse_args(argv)
    try:  # every input checked before any trial: a one-line usage error, exit 2
        cells = [RetrievalParams(V=V, d=d, L=L, N=N, zeta=args.zeta, marker_in_value=True)
                 for text in args.point for V, d, L, N in parse_points(text, "--point")]
        betas = [finite_beta(beta) for beta in args.beta]
        if args.seeds < 1:
            raise ValueError(f"--seeds must be at least 1, got {args.seeds}")
    except ValueError as err:
        p.error(str(err))
    print(f"{'V':>5} {'d':>5} {'L':>4} {'N':>7} {'beta':>5} {'leak':>7} {'odds':>7} {'moments':>8} {'gauss':>7} "
          f"{'s':>6} {'conc':>6} {'rms':>7} {'q99':>6} {'q98':>6} {'acc':>6}"
          f"  (means over {args.seeds} seeds from {args.seed})")
    seeds = list(range(args.seed, args.seed + args.seeds))
    for params in cells:
        V, d, L, N = params.V, params.d, params.L, params.N
        for beta in betas:
            runs = [leak_figures(params, beta, s) for s in seeds]
            mean = {k: float(np.mean([r[k] for r in runs])) for k in runs[0]}
            print(f"{V:>5} {d:>5} {L:>4} {N:>7} {beta:>5g} {mean['leak']:>7.4f} {mean['odds']:>7.4f} "
                  f"{mean['moments']:>8.4f} {mean['gauss']:>7.4f} {mean['spread']:>6.3f} {mean['conc']:>6.2f} "
                  f"{mean['rms']:>7.4f} {mean['q99']:>6.4f} {mean['q98']:>6.4f} {mean['acc']:>6.3f}")
            append_line(args.json, {"V": V, "d": d, "L": L, "N": N, "zeta": args.zeta, "beta": beta,
                                    "seeds": seeds, "runs": runs})


if __name__ == "__main__":
    main()
