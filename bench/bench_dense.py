"""Timings of the dense algorithms: three-step, GD/Adam, MLP limit.

Prints one line per (algorithm, size): wall seconds, throughput in sequence-positions
per second (``N·L·passes / s``) and the recall accuracy of the trial.  No asserts:
targets are read, not enforced.

    python bench/bench_dense.py            # default grid (~2 min on 2 cores)
    python bench/bench_dense.py --quick    # one small size per algorithm

Small dense matmuls are very slow when OpenBLAS spins threads on a loaded machine;
``OPENBLAS_NUM_THREADS=1`` is printed in the header when set.
"""

from __future__ import annotations

import argparse
import os
import time

from theorycheck.simulate import simulate
from theorycheck.tasks.retrieval import RetrievalParams

GRID = [
    # (label, params, algorithm, options, passes over the data)
    ("three-step", dict(V=256, d=64, L=16, N=20000), "three-step", {}, 3),
    ("three-step", dict(V=512, d=128, L=64, N=20000), "three-step", {}, 3),
    ("limit (fast path)", dict(V=512, d=128, L=64, N=20000), "limit", {}, 3),
    ("gd 50 steps", dict(V=64, d=32, L=8, N=4000), "gd", {"steps": 50}, 51),
    ("adam 50 steps", dict(V=64, d=32, L=8, N=4000), "gd", {"steps": 50, "optimizer": "adam"}, 51),
    ("adam 60 steps", dict(V=1024, d=256, L=64, N=8000, marker_in_value=False), "gd",
     {"steps": 60, "optimizer": "adam"}, 61),
    ("mlp limit", dict(V=256, d=64, L=16, N=20000, model="mlp", m=256, center_features=True), "limit", {}, 3),
    ("mlp limit", dict(V=512, d=64, L=16, N=50000, model="mlp", m=512, center_features=True), "limit", {}, 3),
    ("mlp three-step", dict(V=256, d=64, L=16, N=20000, model="mlp", m=256, center_features=True),
     "three-step", {}, 5),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="first size of each algorithm only")
    args = parser.parse_args(argv)
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '(unset)')}")
    seen = set()
    for label, kw, algorithm, options, passes in GRID:
        if args.quick and label in seen:
            continue
        seen.add(label)
        params = RetrievalParams(**kw)
        start = time.perf_counter()
        out = simulate(params, algorithm, seed=0, **options)
        wall = time.perf_counter() - start
        rate = params.N * params.L * passes / wall
        sizes = ", ".join(f"{k}={v}" for k, v in kw.items())
        print(f"{label:18s} {sizes:58s} {wall:7.2f} s  {rate:10.3g} pos/s  acc={out.accuracy:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
