"""One pass of the dense algorithms (loss and both gradients) in the two layouts.

``tokens`` reads the embedding rows through the token ids (sparse ``S E`` and ``Sᵀ J``);
``dense`` builds the ``(n, L, d)`` keys and values (:mod:`theorycheck.models.contexts`).
Prints, per size: seconds of one pass in each layout (after a warm-up pass that draws and
caches the tokens), the speed-up, the largest relative difference of the gradients, and
the cost model's prediction (:func:`theorycheck.models.training.pass_work` × 16 ns, one
thread).  No asserts: targets are read, not enforced.

    python bench/bench_layouts.py           # ~2 min on 2 cores (the dense pass at
                                            # (2048, 512, 64, 3e4) alone takes ~20 s)
    python bench/bench_layouts.py --quick   # the two small sizes
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from theorycheck.algorithms.three_step import full_gradient
from theorycheck.models.attention import dense_model
from theorycheck.models.training import DenseTrainingData, pass_work
from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings

SIZES = [
    dict(V=256, d=64, L=16, N=20000),
    dict(V=1024, d=256, L=16, N=10000, model="mlp", m=1024),
    dict(V=1024, d=256, L=64, N=15000),
    dict(V=1024, d=256, L=256, N=8000),
    dict(V=2048, d=512, L=64, N=30000),
]
TOKEN_VISIT_S = 16e-9  # the retrieval task's cost unit (retrieval_task.retrieval_cost)


def one_pass(params: RetrievalParams, layout: str) -> tuple[float, tuple]:
    emb = make_embeddings(params, np.random.default_rng(0))
    model = dense_model(params, emb)
    rng = np.random.default_rng(1)
    # Small non-zero weights: attention and logits away from uniform, as mid-training.
    w_v = rng.standard_normal(model.value_shape) * 0.05
    w_kq = rng.standard_normal((params.d, params.d)) * 0.05
    data = DenseTrainingData(params, emb, np.random.SeedSequence(2), layout=layout)
    full_gradient(model, data, w_v, w_kq, None)  # warm-up: draws and caches the tokens
    start = time.perf_counter()
    out = full_gradient(model, data, w_v, w_kq, None)
    return time.perf_counter() - start, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the two small sizes only")
    args = parser.parse_args(argv)
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '(unset)')}")
    print(f"{'size':52s} {'tokens':>8s} {'dense':>8s} {'speed-up':>8s} {'max rel diff':>12s} {'model 1T':>8s}")
    for kw in SIZES[:2] if args.quick else SIZES:
        params = RetrievalParams(marker_in_value=False, **kw)
        t_tok, a = one_pass(params, "tokens")
        t_den, b = one_pass(params, "dense")
        diff = max(np.abs(x - y).max() / np.abs(y).max() for x, y in zip(a[1:3], b[1:3]))
        model_s = pass_work(params.to_dict()) * TOKEN_VISIT_S
        size = ", ".join(f"{k}={v}" for k, v in kw.items())
        print(f"{size:52s} {t_tok:7.2f}s {t_den:7.2f}s {t_den / t_tok:7.1f}x {diff:12.1e} {model_s:7.2f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
