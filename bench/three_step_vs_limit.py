"""Does the finite-step three-step algorithm do what its early-phase limit does? (prints figures)

The map of docs/theory.md §7 measures thresholds with the limit (``--algorithm limit``,
§3.2: ``η → 0``, ``γη → β``, ``γ' → ∞``), whose counts make a threshold cost minutes.  The
algorithm it stands for (``--algorithm three-step``, §3.1: three real gradient steps with
softmax attention and cross-entropy, dense) costs 10 s to minutes a trial, too much for a
threshold search on 2 cores.  This script runs both on the same seeds -- the same
embeddings, training and test data (:func:`theorycheck.simulate.trial_draws`) -- at given
``(V, d, L, N, β)`` points and prints their recall accuracies side by side: where they agree
trial for trial, every threshold the limit measures is the finite-step algorithm's too.

``--eta`` and ``--gamma-prime`` (the two value steps) probe how far from the limit the steps
may be. The step-1 logits are about ``η/(L·V)`` (§3.1), but what first breaks the match,
measured, is ``η/γ'``: the weight ``W_V²`` keeps on the first step's read-out.

    OPENBLAS_NUM_THREADS=1 python bench/three_step_vs_limit.py \\
        --points "2048,512,64,30280; 2048,512,128,33990; 2048,512,362,64280" --beta 4 \\
        --seeds 8 --seed 100 --workers 2 --csv rows.csv

``bench/data/three_step_vs_limit.csv`` holds the rows of these runs (2026-11-27, one core
each, ``--workers 2``, ``--seed 100``, ``V,d = 2048,512``; ``P3`` is the three ``--points``
``L,N`` = 64,30280; 128,33990; 362,64280, the limit's ``β = 4`` thresholds), in this order:

1. ``--points P3 --beta 4 --seeds 8``: identical accuracies in all 24 pairs;
2. ``--points "2048,512,128,71260" --beta 3 --seeds 4``: identical in all 4;
3. ``--points "2048,512,64,30280" --beta 4 --eta 1000,10000,100000,1000000 --seeds 4``;
4. ``--points "2048,512,128,33990; 2048,512,362,64280" --beta 4 --eta 100000,1000000 --seeds 4``;
5. ``--points P3 --beta 4 --eta 30000 --seeds 4``;
6. ``--points "2048,512,128,33990; 2048,512,362,64280" --beta 4 --eta 10000 --seeds 4``;
7. ``--points "2048,512,362,257120" --beta 4 --eta 100000 --seeds 2`` and
   ``--points "2048,512,64,121120" --beta 4 --eta 1000000 --seeds 2`` (4x the sequences);
8. ``--points "2048,512,64,30280; 2048,512,362,64280" --beta 10 --eta 100000 --seeds 2``;
9. ``--points "2048,512,362,64280" --beta 4 --seeds 2`` with ``--eta 100000 --gamma-prime
   1e6``, ``--eta 1000 --gamma-prime 100`` and ``--eta 1 --gamma-prime 0.1`` (what counts is
   ``η/γ'``), then ``--points "2048,512,64,27000; 2048,512,362,27000" --beta 10 --eta 100000
   --seeds 4``;
10. at ``η = 1``, the other settings of the map (``--seeds 2``): ``--points "2048,512,64,27000;
    2048,512,362,27000" --beta 10 --zeta 0.5``; ``--points "2048,512,64,104000;
    2048,512,362,104000" --beta 10 --zeta 0.5 --trigger-in``; ``--points "2048,512,64,100000"
    --beta 10 --trigger-in``; ``--points "2048,512,64,48600" --beta 4 --zeta 0.5``: identical
    accuracies in all 14 pairs (the column ``marker_in_value`` was added for these; the
    earlier rows are all trigger out).
11. the trigger in the value path at a step that lowers its threshold (2026-11-29, ``--seeds 4
    --seed 300``): ``--points "2048,512,64,63000" --beta 10 --zeta 0.5 --trigger-in`` with
    ``--eta 100000 --gamma-prime 1e4``, ``--eta 1000 --gamma-prime 100`` and ``--eta 1
    --gamma-prime 0.1``: all ``η/γ' = 10``, but only ``η = 10⁵`` beats the limit (0.992-0.997
    against 0.950-0.967); there what counts is ``η`` itself (``bench/mean_bias_first_step.py``).

The reading is in docs/theory.md §7.12.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor

from finite_step_args import add_step_arguments, append_rows, points_and_etas
from theorycheck.simulate import simulate
from theorycheck.tasks.retrieval import RetrievalParams


def pair(job: tuple) -> dict:
    """One seed of one point: the finite-step trial and the limit trial on the same draws."""
    (V, d, L, N), beta, eta, gamma_prime, zeta, trigger_in, seed = job
    params = RetrievalParams(V=V, d=d, L=L, N=N, zeta=zeta, marker_in_value=trigger_in)
    finite = simulate(params, "three-step", seed=seed, beta=beta, eta=eta, gamma_prime=gamma_prime)
    limit = simulate(params, "limit", seed=seed, beta=beta)
    return {"V": V, "d": d, "L": L, "N": N, "zeta": zeta, "marker_in_value": trigger_in, "beta": beta, "eta": eta,
            "gamma_prime": gamma_prime, "seed": seed,
            "accuracy_three_step": finite.accuracy, "accuracy_limit": limit.accuracy,
            "selection_three_step": finite.selection_accuracy,
            "selection_limit": limit.selection_accuracy,
            "seconds_three_step": round(finite.seconds, 2)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--points", required=True, help="'V,d,L,N; ...'")
    ap.add_argument("--trigger-in", action="store_true", help="the trigger in the value path (default: out)")
    add_step_arguments(ap, beta=4.0, zeta=1.0, eta="1", eta_help="comma-separated first value steps (default 1)",
                       seeds=4, seed=100, seeds_help="seeds per point")
    args = ap.parse_args(argv)
    points, etas = points_and_etas(ap, args, "--points")
    jobs = [(p, args.beta, eta, args.gamma_prime, args.zeta, args.trigger_in, args.seed + k)
            for p in points for eta in etas for k in range(args.seeds)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = list(pool.map(pair, jobs))
    print("V      d     L     N        beta  eta       seed  acc three-step  acc limit   |diff|     s")
    for r in rows:
        diff = abs(r["accuracy_three_step"] - r["accuracy_limit"])
        print(f"{r['V']:<6} {r['d']:<5} {r['L']:<5} {r['N']:<8} {r['beta']:<5g} {r['eta']:<9g} "
              f"{r['seed']:<5} {r['accuracy_three_step']:<15.6f} {r['accuracy_limit']:<11.6f} "
              f"{diff:<10.2e} {r['seconds_three_step']:g}")
    worst = max(abs(r["accuracy_three_step"] - r["accuracy_limit"]) for r in rows)
    print(f"largest |accuracy difference| over {len(rows)} trials: {worst:.2e}")
    append_rows(args.csv, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
