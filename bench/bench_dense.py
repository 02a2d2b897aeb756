"""Timings of the dense algorithms: three-step, GD/Adam, MLP limit.

Prints one line per (algorithm, size): wall seconds, throughput in sequence-positions
per second (``N·L·passes / s``) and the recall accuracy of the trial.  No asserts:
targets are read, not enforced.

    python bench/bench_dense.py            # default grid (~2 min on 2 cores)
    python bench/bench_dense.py --quick    # one small size per algorithm
    OPENBLAS_NUM_THREADS=1 python bench/bench_dense.py --passes 4096,1024,32,20000   # ~1 min

``--passes V,d,L,N`` times the three-step's passes on one cell instead (trigger out of the
value path): the first, at ``W_V = 0``, which skips the logits (``U(p − e_y) = −w_y``
exactly, docs/theory.md §3.1), against a full one at ``W_V¹`` on the same chunks, each
beside the cost model's seconds (``pass_work``, ~16 ns a unit).

Small dense matmuls are very slow when OpenBLAS spins threads on a loaded machine;
``OPENBLAS_NUM_THREADS=1`` is printed in the header when set.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from theorycheck.algorithms.three_step import full_gradient
from theorycheck.models.attention import dense_model
from theorycheck.models.training import DenseTrainingData, pass_work
from theorycheck.simulate import simulate
from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings

TOKEN_SECONDS = 16e-9  # one unit of the retrieval cost model (theorycheck.tasks.retrieval_task)

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
    parser.add_argument("--passes", metavar="V,d,L,N", help="time the three-step's first pass against a full one")
    args = parser.parse_args(argv)
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '(unset)')}")
    if args.passes:
        V, d, L, N = (int(float(x)) for x in args.passes.split(","))
        return time_passes(RetrievalParams(V=V, d=d, L=L, N=N, marker_in_value=False))
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


def time_passes(params: RetrievalParams) -> int:
    """Wall seconds of ``full_gradient`` at ``W_V = 0`` and at ``W_V¹`` (``η = 1``), after
    one untimed pass that draws the data."""
    emb = make_embeddings(params, np.random.default_rng(0))
    data = DenseTrainingData(params, emb, np.random.SeedSequence(1))
    model = dense_model(params, emb, data.bk)
    w_v, w_kq = model.zeros()
    full_gradient(model, data, w_v, w_kq, None, with_kq=False)  # warm-up: draws (and caches) the data
    p = {"V": params.V, "d": params.d, "L": params.L, "N": params.N}
    for label, logits in (("first (W_V = 0)", False), ("full (W_V = W_V1)", True)):
        start = time.perf_counter()
        _, grad, _, _, _ = full_gradient(model, data, w_v, w_kq, None, with_kq=False)
        wall = time.perf_counter() - start
        predicted = pass_work(p, logits=logits) * TOKEN_SECONDS
        print(f"{label:20s} {wall:8.2f} s   predicted {predicted:8.2f} s")
        w_v = -grad  # W_V1 at eta = 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
