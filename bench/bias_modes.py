"""The trigger's bias, one draw a seed, against the same bias replaced query by query (prints figures).

With the trigger in the value path every test query carries ``z_trig``, so label ``y`` gets ``b_y = u_yᵀ G₂
z_trig`` in every query (hard attention, ``G₂`` at infinite ``N``: ``population_wall.readout_limit``). Each seed's
read-out is split once (``readout_parts.attended_parts``) and scored with each of ``readout_parts.BIAS_MODES``
in place of ``b`` (``readout_parts.query_bias``): ``frozen`` (the model's own), ``share``, ``fresh``, ``redraw``
and ``own``; the seeds are paired, so two modes differ only by the bias. The pooled error of a mode is one minus
its accuracy averaged over the seeds. Docs: docs/theory.md §7.12, "Why a seed's own bias beats fresh draws".

Example: ``python bench/bias_modes.py --point 2048,1040,16,2000000 --zeta 3 --d 1008,1040 --seeds 16 --seed
13724`` (about 6 s a seed on 2 cores; ``d`` of ``--point`` is replaced by the grid's).
"""

from __future__ import annotations

import argparse
import math

from blas_threads import set_blas_threads

set_blas_threads()  # before NumPy loads: one BLAS thread in each of the count path's threads

import numpy as np  # noqa: E402
from scipy.stats import spearmanr

from crosstalk_parts import add_point_options, read_point
from population_wall import readout_limit
from readout_parts import BIAS_MODES, attended_parts, direction_errors, parts_accuracy, query_bias, sphere_directions
from softmax_leak import add_trial_options, append_line
from theorycheck.tasks.retrieval import RetrievalParams


DIRECTION_KEYS = ("dir_mean", "dir_median", "dir_worst5_share", "dir_quantile", "dir_spearman")


def mode_accuracies(params: RetrievalParams, seed: int, directions: int = 0) -> dict[str, float]:
    """One seed's accuracy under each of ``BIAS_MODES`` (hard attention at infinite ``N``), on one split; with
    ``directions`` > 0 also the error over that many trigger directions shared by every query (``[seed, 6]``;
    ``readout_parts.direction_errors``): its mean and median, the share of it carried by the worst 5% of the
    directions, the rank of the seed's own ``z_trig`` among them (``quantile``, ties split) and the Spearman
    correlation of a direction's error with its ``var_b``."""
    limit, test = readout_limit(params, math.inf, seed)
    parts = attended_parts(limit, test)
    row = {mode: parts_accuracy(parts.C, query_bias(mode, limit, parts, test.labels, seed), parts.selected,
                                test.labels) for mode in BIAS_MODES}
    if directions:
        zs = sphere_directions(directions, params.d, params.zeta, np.random.default_rng([seed, 6]))
        errors, var_b = direction_errors(limit, parts, test.labels, zs)
        worst = np.sort(errors)[::-1][: max(1, round(0.05 * directions))]
        own = 1.0 - row["frozen"]
        row |= {"dir_mean": float(errors.mean()), "dir_median": float(np.median(errors)),
                "dir_worst5_share": float(worst.sum() / errors.sum()),
                "dir_quantile": float((np.sum(errors < own) + 0.5 * np.sum(errors == own)) / directions),
                "dir_spearman": float(spearmanr(errors, var_b).statistic)}
    return row


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_point_options(p)
    p.add_argument("--directions", type=int, default=0, help="trigger directions to score per seed, each shared by "
                   "every query (0: none)")
    add_trial_options(p)
    args = p.parse_args(argv)
    try:  # every input checked before any trial: a one-line usage error, exit 2
        V, L, N, ds = read_point(args)
        if not args.zeta > 0 or args.seeds < 1 or args.directions < 0:
            raise ValueError(f"need --zeta > 0 (the trigger in the value), --seeds >= 1 and --directions >= 0; got "
                             f"{args.zeta}, {args.seeds}, {args.directions}")
        cells = [RetrievalParams(V=V, d=d, L=L, N=N, zeta=args.zeta, marker_in_value=True) for d in ds]
    except ValueError as err:
        p.error(str(err))
    seeds = range(args.seed, args.seed + args.seeds)
    print(f"{'V':>5} {'d':>5} {'seed':>6}  " + "  ".join(f"{m:>7}" for m in BIAS_MODES) + f"  (zeta {args.zeta})")
    for params in cells:
        rows = []
        for seed in seeds:
            rows.append(mode_accuracies(params, seed, args.directions))
            print(f"{params.V:>5} {params.d:>5} {seed:>6}  " + "  ".join(f"{rows[-1][m]:>7.4f}" for m in BIAS_MODES)
                  + ("  directions: " + " ".join(f"{k[4:]} {rows[-1][k]:.4f}" for k in DIRECTION_KEYS)
                     if args.directions else ""))
            append_line(args.json, {"V": params.V, "d": params.d, "L": params.L, "N": params.N, "zeta": args.zeta,
                                    "seed": seed, **rows[-1]})
        errors = {m: 1.0 - float(np.mean([r[m] for r in rows])) for m in BIAS_MODES}
        print(f"{params.V:>5} {params.d:>5} pooled error  " + "  ".join(f"{errors[m]:>7.4f}" for m in BIAS_MODES)
              + "  (over frozen: " + ", ".join(f"{m} {errors[m] / errors['frozen']:.2f}" for m in BIAS_MODES[1:])
              + ")")
        if args.directions:
            mean = float(np.mean([r["dir_mean"] for r in rows]))
            print(f"{params.V:>5} {params.d:>5} over {args.directions} directions a seed: mean error {mean:.4f} "
                  f"({mean / errors['redraw']:.2f}x redraw's), median/mean "
                  f"{np.mean([r['dir_median'] for r in rows]) / mean:.2f}, worst 5% carry "
                  f"{np.mean([r['dir_worst5_share'] for r in rows]):.2f}, Spearman with var_b "
                  f"{np.mean([r['dir_spearman'] for r in rows]):.2f}, z_trig's quantiles "
                  + " ".join(f"{r['dir_quantile']:.2f}" for r in rows))


if __name__ == "__main__":
    main()
