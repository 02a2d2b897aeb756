"""Replay trials of a check's store on another array backend and compare the results.

    python bench/replay_store.py OUT/trials.sqlite --backend numpy --sample 40

A trial's seed fixes its data on every backend (the draws are NumPy's, on the host:
theorycheck/backend.py), so a store written with ``--set backend=torch`` on a
GPU replays on a CPU with the same accuracy, trial by trial, except at an exact tie of
two logits.  Prints each replayed trial's stored and replayed accuracy and the count of
those that differ; ``--sample`` trials are taken at random (seeded by ``--seed``).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys

import numpy as np

from theorycheck.tasks.retrieval_task import retrieval_trial


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("store", help="a check's trials.sqlite")
    ap.add_argument("--backend", default="numpy")
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    if args.sample < 1:
        ap.error(f"--sample must be an integer >= 1 (trials to replay), got {args.sample}")
    try:
        with sqlite3.connect(f"file:{args.store}?mode=ro", uri=True) as db:
            rows = db.execute("select params, seed, result from trials order by key").fetchall()
    except sqlite3.Error as exc:
        ap.error(f"cannot read trials from {args.store!r}: {exc}")
    if not rows:
        ap.error(f"no trials in {args.store!r}")
    pick = np.random.default_rng(args.seed).choice(len(rows), size=min(args.sample, len(rows)), replace=False)
    differ = 0
    for i in sorted(pick):
        params, seed, result = (json.loads(x) for x in rows[i])
        stored_backend = params.get("backend", "numpy")
        params["backend"] = args.backend
        ss = np.random.SeedSequence(seed["entropy"], spawn_key=tuple(seed["spawn_key"]))
        again = retrieval_trial(params, ss)
        same = again["accuracy"] == result["accuracy"]
        differ += not same
        cell = ", ".join(f"{k}={params[k]}" for k in ("V", "d", "L", "N"))
        print(f"{cell}: {stored_backend} {result['accuracy']:.6f}  {args.backend} {again['accuracy']:.6f}"
              f"{'' if same else '   DIFFERS'}", flush=True)
    print(f"{len(pick)} trials replayed on {args.backend}: {differ} with another accuracy")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
