"""The read-out's wall at infinite ``N``: the limit with its step-2 values at their expectation (prints figures).

The limit (:mod:`theorycheck.algorithms.limit`) stores ``G₂ = Wᵀ(D E)/N + [miv]·(Wᵀ c′) z_trigᵀ/N``,
``D[y, x]`` the step-2 attention mass on token ``x`` in the sequences of label ``y``. As ``N → ∞``
``D/N`` tends to its expectation: a sequence of label ``y`` carries the fact's token ``x_y`` at the
informative position and ``L − 1`` uniform distractors, so (for large ``L``, each distractor's share
of the leak ``∝ w_x = e^{βa_x/|α|}``)

    G₂ ∝ Σ_y w_y (c_y e_{x_y} + (1 − c_y) ē + [miv]·c_y z_trig)ᵀ,   ē = Σ_x π_x e_x,  π_x = w_x / Σ_x' w_x',

with ``c_y = E[σ_ℓ | fact x_y]`` (``leak_wall.stored_weights``); hard attention stores ``c_y``, the
chance that ``x_y``'s score plus ``α`` beats the ``L − 1`` distractors', ``F_a(a_{x_y} + α)^{L−1}``
(``F_a`` the scores' distribution), and shares a miss uniformly. Nothing else of the training is
kept: each seed's fit at ``--point``'s ``N`` gives ``g`` and ``α``, its ``G₂`` is replaced by the
expectation, and its own test set is scored (``acc``). The wall at the target is the ``d`` at which
the median of ``acc`` over the seeds crosses it (linear between the grid's neighbours); a trial
succeeds when its accuracy reaches the target, so at that ``d`` the success rate at ``N → ∞`` is one
half. Docs: docs/theory.md §7.12, "The wall at infinite N".
Hard attention's read-out is the library's (:mod:`theorycheck.algorithms.population_readout`, the trial of
the ``readout-wall`` task that ``theorycheck check vural2026.readout_wall`` runs); this script adds finite ``β``
and the ablations on the same primitives.

``--ablate`` takes channels of the leak away (one, or several comma-separated), to see which carries
the wall (docs/theory.md §7.12, "Which channel carries the wall"): ``train`` stores ``G₂`` as hard
attention would (its ``c_y``, a miss shared uniformly) and tests at ``--beta``; ``test`` stores ``G₂`` at
``--beta`` and tests with hard attention; ``mean`` drops the misses' ``(1 − c_y) ē`` from ``G₂``;
``shuffle`` permutes the ``c_y`` across the facts (the same weights, unrelated to each fact's score; the
permutation drawn from ``[seed, 1]``). ``share``, ``fresh``, ``redraw`` and ``own`` (and ``selfless``, ``retrained``;
hard attention, trigger in the value, each on its own) replace the trigger's part of the query, ``b_y = u_yᵀ G₂
z_trig``, one draw a seed that every query shares, query by query (``readout_parts.query_bias``): its own
permutation of ``b``; i.i.d. draws at the cross-talk formula's variance; ``U G₂ z′`` with its own trigger direction;
and ``fresh``'s draws with the part along the query's key kept (docs/theory.md §7.12, "Why the walls sit below
the model" and "Why a seed's own bias beats fresh draws").
``g`` and ``α`` are step 1's, which does not depend on ``β``, so each ablation changes only its channel.

Example: ``python bench/population_wall.py --point 512,204,32,80000 --beta inf --d 160,166,172,178
--seeds 4 --seed 13680`` (``d`` of ``--point`` is replaced by the grid's).
"""

from __future__ import annotations

import argparse
import dataclasses
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads: one BLAS thread in each of the count path's threads

import numpy as np  # noqa: E402

from leak_wall import add_wall_options, stored_weights, wall_inputs
from readout_parts import BIAS_MODES, attended_parts, parts_accuracy, query_bias
from softmax_leak import append_line, leak_weights
from theorycheck.algorithms.limit import check_beta
from theorycheck.algorithms.population_readout import expected_values, hard_stored, trial_fit
from theorycheck.tasks.retrieval import RetrievalParams


ABLATIONS = ("none", "train", "test", "mean", "shuffle") + BIAS_MODES[1:]
BIAS_ABLATIONS = frozenset(BIAS_MODES[1:])  # the trigger's bias replaced query by query


def stored_by_label(fit, a: np.ndarray, L: int, seed: int, beta: float,
                    shuffle: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """``(c, share)`` for ``fit``'s embeddings and scores ``a`` under the attention rule ``beta``: ``c_y`` the
    weight with which label ``y``'s fact is stored (``shuffle``: permuted across the facts, from ``[seed, 1]``) and
    ``share_x`` each token's share of a miss (the module docstring; ``expected_values`` builds ``G₂`` from them).
    Hard attention's are :func:`theorycheck.algorithms.population_readout.hard_stored`."""
    if math.isinf(beta):
        c, share = hard_stored(fit, a, L)
    else:
        alpha, scale = fit.diagnostics["trigger_coef"], fit.diagnostics["logit_scale"]
        stored = stored_weights(a, alpha, beta, scale, L, seed)
        share = leak_weights(a, beta, scale)
        share /= share.sum()
        c = stored[np.argsort(fit.emb.perm)]  # np.argsort(perm)[y] is the token whose label is y
    if shuffle:
        c = np.random.default_rng([seed, 1]).permutation(c)
    return c, share


def read_ablations(text: str) -> frozenset[str]:
    """``--ablate``'s comma-separated channels (``none`` alone keeps them all); a ValueError naming a bad one."""
    names = frozenset(text.split(","))
    if not names <= set(ABLATIONS) or ("none" in names and len(names) > 1):
        raise ValueError(f"--ablate: expected none or a comma-separated subset of {', '.join(ABLATIONS[1:])}; "
                         f"got {text!r}")
    return names - {"none"}


def readout_limit(params: RetrievalParams, beta: float, seed: int, ablate: frozenset[str] = frozenset()):
    """One seed's limit with ``G₂`` at infinite ``N`` (``g``, ``α`` from its fit at ``params.N``), the channels
    of the leak named in ``ablate`` taken away (the module docstring): ``(limit, test)``, with its test set; the
    weights ``c_y`` by label in ``limit.diagnostics["stored"]``."""
    fit, test, a = trial_fit(params, beta, seed, threads=2)
    c, share = stored_by_label(fit, a, params.L, seed, math.inf if "train" in ablate else beta, "shuffle" in ablate)
    G2 = expected_values(fit, c, share, mean="mean" not in ablate)
    return dataclasses.replace(fit, G2=G2, beta=math.inf if "test" in ablate else beta,
                               diagnostics={**fit.diagnostics, "stored": c}), test


def population_accuracy(params: RetrievalParams, beta: float, seed: int, ablate: frozenset[str] = frozenset()) -> float:
    """One seed's test accuracy with ``G₂`` at infinite ``N`` (:func:`readout_limit`), with the channels of the
    leak named in ``ablate`` taken away (the module docstring)."""
    limit, test = readout_limit(params, beta, seed, ablate)
    [mode] = ablate & BIAS_ABLATIONS or [None]
    if mode:
        parts = attended_parts(limit, test)
        return parts_accuracy(parts.C, query_bias(mode, limit, parts, test.labels, seed), parts.selected, test.labels)
    predicted, _ = limit.predict(test)
    return float(np.mean(predicted == test.labels))


def median_wall(ds: list[int], medians: list[float], target: float) -> float:
    """The ``d`` at which the median accuracy first reaches ``target`` going up the grid (linear between
    neighbours; nan if it does not)."""
    for (d1, m1), (d2, m2) in zip(zip(ds, medians), zip(ds[1:], medians[1:])):
        if m1 < target <= m2:
            return d1 + (d2 - d1) * (target - m1) / (m2 - m1)
    return math.nan


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_wall_options(p, beta_help="inf for hard attention")
    p.add_argument("--marker-in-value", choices=("true", "false"), default="true",
                   help="whether the trigger is in the value path (docs/theory.md §1)")
    p.add_argument("--ablate", default="none", help=f"channels of the leak to take away: none or a comma-separated "
                   f"subset of {', '.join(ABLATIONS[1:])}")
    args = p.parse_args(argv)
    try:  # every input checked before any trial: a one-line usage error, exit 2
        beta, cells, seeds = wall_inputs(args, check_beta, args.marker_in_value == "true")
        ablate = read_ablations(args.ablate)
        alone = ablate & BIAS_ABLATIONS
        if alone and (len(ablate) > 1 or not math.isinf(beta) or args.marker_in_value != "true"):
            raise ValueError(f"--ablate {'/'.join(sorted(alone))} stands alone, with --beta inf and the trigger in the "
                             f"value; got --ablate {args.ablate} --beta {args.beta} --marker-in-value "
                             f"{args.marker_in_value}")
        if ablate - BIAS_ABLATIONS and math.isinf(beta):
            raise ValueError(f"--ablate {args.ablate} needs a finite --beta (hard attention has no leak); got inf")
    except ValueError as err:
        p.error(str(err))
    print(f"{'V':>5} {'d':>5} {'L':>4} {'N':>7} {'beta':>5} {'median':>7}  accuracies "
          f"(target {args.target}, {args.seeds} seeds from {args.seed}, ablate {args.ablate})")
    medians = []
    for params in cells:
        V, d, L, N = params.V, params.d, params.L, params.N
        accs = [population_accuracy(params, beta, s, ablate) for s in seeds]
        medians.append(float(np.median(accs)))
        print(f"{V:>5} {d:>5} {L:>4} {N:>7} {beta:>5g} {medians[-1]:>7.4f}  " + " ".join(f"{x:.4f}" for x in accs))
        append_line(args.json, {"V": V, "d": d, "L": L, "N": N, "zeta": args.zeta, "beta": beta,
                                "target": args.target, "seeds": seeds, "ablate": args.ablate,
                                "marker_in_value": params.marker_in_value, "accuracy": accs})
    print(f"wall at infinite N: {median_wall([c.d for c in cells], medians, args.target):.1f}")


if __name__ == "__main__":
    main()
