"""One pass of the dense algorithms (loss and both gradients) in the two layouts.

``tokens`` reads the embedding rows through the token ids (sparse ``S E`` and ``Sᵀ J``);
``dense`` builds the ``(n, L, d)`` keys and values (:mod:`theorycheck.models.contexts`).
Prints, per size: seconds of one pass in each layout (after a warm-up pass that draws and
caches the tokens), the speed-up, the largest relative difference of the gradients, and
the cost model's prediction (:func:`theorycheck.models.training.pass_work` ×
``TOKEN_VISIT_SECONDS``, one thread); then the first step's pass at ``W_V = 0`` (token
layout), which skips the logits (``U(p − e_y) = −w_y`` exactly, docs/theory.md §3.1), and
its prediction (``pass_work(..., logits=False)``).  No asserts: targets are read, not enforced.

    python bench/bench_layouts.py           # ~2 min on 2 cores (the dense pass at
                                            # (2048, 512, 64, 3e4) alone takes ~20 s)
    python bench/bench_layouts.py --quick   # the two small sizes
    OPENBLAS_NUM_THREADS=1 python bench/bench_layouts.py --size 4096,1024,32,20000   # one size
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from theorycheck.algorithms.three_step import full_gradient
from theorycheck.models.attention import dense_model
from theorycheck.models.training import DenseTrainingData, pass_work
from points import parse_points
from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings
from theorycheck.tasks.retrieval_task import TOKEN_VISIT_SECONDS

SIZES = [
    dict(V=256, d=64, L=16, N=20000),
    dict(V=1024, d=256, L=16, N=10000, model="mlp", m=1024),
    dict(V=1024, d=256, L=64, N=15000),
    dict(V=1024, d=256, L=256, N=8000),
    dict(V=2048, d=512, L=64, N=30000),
]


def one_pass(params: RetrievalParams, layout: str, zero_values: bool = False) -> tuple[float, tuple]:
    emb = make_embeddings(params, np.random.default_rng(0))
    model = dense_model(params, emb)
    rng = np.random.default_rng(1)
    # Small non-zero weights: attention and logits away from uniform, as mid-training
    # (W_V = 0 with zero_values: the first step's pass).
    w_v = rng.standard_normal(model.value_shape) * 0.05
    w_kq = rng.standard_normal((params.d, params.d)) * 0.05
    if zero_values:
        w_v = np.zeros_like(w_v)
    data = DenseTrainingData(params, emb, np.random.SeedSequence(2), layout=layout)
    full_gradient(model, data, w_v, w_kq, None)  # warm-up: draws and caches the tokens
    start = time.perf_counter()
    out = full_gradient(model, data, w_v, w_kq, None)
    return time.perf_counter() - start, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the two small sizes only")
    parser.add_argument("--size", metavar="V,d,L,N", help="this size instead (attention-only)")
    args = parser.parse_args(argv)
    sizes = SIZES[:2] if args.quick else SIZES
    if args.size:
        try:
            points = parse_points(args.size, "--size")
        except ValueError as exc:
            parser.error(str(exc))
        if len(points) != 1:
            parser.error(f"--size: expected one point V,d,L,N, got {len(points)} in {args.size!r}")
        sizes = [dict(zip("VdLN", points[0]))]
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '(unset)')}")
    print(f"{'size':52s} {'tokens':>8s} {'dense':>8s} {'speed-up':>8s} {'max rel diff':>12s} {'model 1T':>8s}"
          f" {'W_V = 0':>8s} {'model':>8s}")
    for kw in sizes:
        params = RetrievalParams(marker_in_value=False, **kw)
        t_tok, a = one_pass(params, "tokens")
        t_den, b = one_pass(params, "dense")
        diff = max(np.abs(x - y).max() / np.abs(y).max() for x, y in zip(a[1:3], b[1:3]))
        t_zero, _ = one_pass(params, "tokens", zero_values=True)
        model_s, model_zero = (pass_work(params.to_dict(), logits=logits) * TOKEN_VISIT_SECONDS
                               for logits in (True, False))
        size = ", ".join(f"{k}={v}" for k, v in kw.items())
        print(f"{size:52s} {t_tok:7.2f}s {t_den:7.2f}s {t_den / t_tok:7.1f}x {diff:12.1e} {model_s:7.2f}s"
              f" {t_zero:7.2f}s {model_zero:7.2f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
