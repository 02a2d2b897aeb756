"""When does plain GD leave the early phase, as a function of ``L``? (prints figures)

One seed's training trajectory per ``L`` (the trial ``theorycheck simulate --algorithm gd
--optimizer gd --seed S`` runs, with its embeddings and training data; a record every
``--record-every`` steps: loss, training and held-out recall accuracy), then the *escape
step*: the first record whose held-out recall reaches 0.5.  Before it the loss sits at
``ln V`` (the early phase: the value matrix grows under near-uniform attention); after it
recall climbs within a few records.

    OPENBLAS_NUM_THREADS=1 python bench/gd_escape.py --L 32,64,128,256 --csv escape.csv

Measured 2026-11-26 (V, d, N) = (1024, 256, 8441), seed 3200, 240 steps, lr = 100, trigger
out of the value path, one thread each (docs/theory.md §7.8, rows in
``bench/data/gd_plain_escape_probe.csv``): escape at step 24, 36, 60 and 120 for L = 32,
64, 128 and 256.  At a fixed step budget the steps left after it shrink with L; how much of
the plain-GD thresholds' rising L slope (``bench/data/gd_plain240_L_line.csv``) that
explains is not settled (docs/theory.md §7.8: a prediction from it failed at 480 steps).
"""

from __future__ import annotations

import argparse
import csv
import sys

from theorycheck.algorithms.gd import run_gd
from theorycheck.simulate import trial_draws
from theorycheck.tasks.retrieval import RetrievalParams

FIELDS = ("step", "loss", "train_accuracy", "recall_accuracy", "recall_selection_accuracy")


def trajectory(L: int, args: argparse.Namespace) -> list[dict]:
    """The records of one trial (its draws: :func:`theorycheck.simulate.trial_draws`)."""
    params = RetrievalParams(V=args.V, d=args.d, L=L, N=args.N, marker_in_value=False)
    emb, train_seed, _ = trial_draws(params, args.seed)
    fit = run_gd(params, emb, train_seed, steps=args.steps, lr=args.lr, optimizer="gd",
                 record_every=args.record_every)
    return [{"V": args.V, "d": args.d, "L": L, "N": args.N, "seed": args.seed,
             **{k: float(h[k]) for k in FIELDS}} for h in fit.history]


def escape_step(records: list[dict]) -> float:
    """First recorded step with held-out recall >= 0.5 (NaN if none)."""
    return next((r["step"] for r in records if r["recall_accuracy"] >= 0.5), float("nan"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--L", default="32,64,128,256", help="comma-separated sequence lengths")
    ap.add_argument("--V", type=int, default=1024)
    ap.add_argument("--d", type=int, default=256)
    ap.add_argument("--N", type=int, default=8441)
    ap.add_argument("--seed", type=int, default=3200)
    ap.add_argument("--steps", type=int, default=240)
    ap.add_argument("--lr", type=float, default=100.0)
    ap.add_argument("--record-every", type=int, default=12)
    ap.add_argument("--csv", help="write every record here")
    args = ap.parse_args(argv)
    rows = []
    print("L     escape step   loss at the end   recall at the end")
    for L in (int(x) for x in args.L.split(",")):
        records = trajectory(L, args)
        rows += records
        print(f"{L:<5} {escape_step(records):>11g}   {records[-1]['loss']:>15.3f}   "
              f"{records[-1]['recall_accuracy']:>17.4f}", flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
