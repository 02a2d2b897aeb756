"""Timings of the attention-MLP limit (theorycheck.algorithms.limit_mlp) on in-regime cells.

Prints one line per cell: wall seconds of one trial on each route of the position sums
(through the token table ``P = A E``, ``L·m`` numbers a sequence; or through ``E`` and one
product with ``A``, ``L·d + m·d``), which route the trial takes by default, the cost model's
prediction (``limit_mlp.trial_work``) in seconds, and the recall accuracy (equal on both
routes: same formulas, rounded differently).  No asserts: figures are read, not enforced.

    OPENBLAS_NUM_THREADS=1 python bench/bench_mlp_limit.py           # 4 cells, ~3 min
    OPENBLAS_NUM_THREADS=1 python bench/bench_mlp_limit.py --quick   # the first cell
    python bench/bench_mlp_limit.py --backend torch                  # a GPU against NumPy

With ``--backend NAME`` each cell runs on its default route twice, on NumPy and on the
backend (``run_limit_mlp(..., backend=NAME)``: a GPU when PyTorch has one), one warm-up
trial first; it prints both wall times, their ratio and the accuracies (equal but at
exact ties: the statistics agree to float64 rounding).

Before 2026-11-24 the MLP limit streamed dense ``(n, L, d)`` chunks and formed every
sequence's features, ``O(N·L·d + N·m·d)``; on the four cells it took 64.9-66.3 s, 40.6 s,
82.4 s and 8.9 s of one thread (commit 495c17d:
``git worktree add /tmp/old 495c17d && PYTHONPATH=/tmp/old theorycheck simulate ...`` with the
cell's flags, run outside the repository so that the old package is imported).
"""

from __future__ import annotations

import argparse
import os
import time

from theorycheck.algorithms import mlp_tables
from theorycheck.algorithms.limit_mlp import trial_work
from theorycheck.simulate import simulate
from theorycheck.tasks.retrieval import RetrievalParams
from theorycheck.tasks.retrieval_task import TOKEN_VISIT_SECONDS


CELLS = [
    # (what, params); all with the trigger out of the value path, as the MLP laws' designs
    ("centred, phase diagram", dict(V=1024, d=256, L=8, N=300000, m=2048, center_features=True)),
    ("mlp_mean_bias base", dict(V=2048, d=512, L=4, N=100000, m=2048)),
    ("uncentred, m = 8192", dict(V=1024, d=256, L=8, N=100000, m=8192)),
    ("long sequences", dict(V=1024, d=256, L=64, N=20000, m=2048, center_features=True)),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first cell only")
    parser.add_argument("--backend", default=None, help="time NumPy against this array backend instead of the routes")
    args = parser.parse_args(argv)
    print(f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', '(unset)')}")
    if args.backend:
        return against_backend(args.backend, CELLS[:1] if args.quick else CELLS)
    print(f"{'cell':24s} {'(V, d, L, N, m)':32s} {'table':>8s} {'dense':>8s}  default  predicted  accuracy")
    default_ratio = mlp_tables.DENSE_ROUTE_RATIO
    for what, kw in CELLS[:1] if args.quick else CELLS:
        params = RetrievalParams(model="mlp", marker_in_value=False, **kw)
        walls, accuracies = {}, set()
        for route, ratio in (("table", float("inf")), ("dense", 0.0)):
            mlp_tables.DENSE_ROUTE_RATIO = ratio
            start = time.perf_counter()
            out = simulate(params, "limit", seed=0)
            walls[route] = time.perf_counter() - start
            accuracies.add(round(out.accuracy, 6))
        mlp_tables.DENSE_ROUTE_RATIO = default_ratio
        default = "dense" if mlp_tables.uses_dense_route(params.L, params.d) else "table"
        predicted = trial_work(kw) * TOKEN_VISIT_SECONDS
        size = f"({kw['V']}, {kw['d']}, {kw['L']}, {kw['N']}, {kw['m']})"
        print(f"{what:24s} {size:32s} {walls['table']:7.2f}s {walls['dense']:7.2f}s  {default:7s} "
              f"{predicted:8.2f}s  {'/'.join(str(a) for a in sorted(accuracies))}")
    return 0


def against_backend(backend: str, cells) -> int:
    """One trial per cell on NumPy and on ``backend`` (default route), after a warm-up."""
    small = RetrievalParams(model="mlp", V=256, d=64, L=8, N=2000, m=256, marker_in_value=False)
    simulate(small, "limit", seed=0, backend=backend)  # warm-up: imports, device start, kernels
    print(f"{'cell':24s} {'(V, d, L, N, m)':32s} {'numpy':>8s} {backend:>8s}  ratio  accuracy")
    for what, kw in cells:
        params = RetrievalParams(model="mlp", marker_in_value=False, **kw)
        walls, accuracies = {}, []
        for name in ("numpy", backend):
            start = time.perf_counter()
            out = simulate(params, "limit", seed=0, **({} if name == "numpy" else {"backend": name}))
            walls[name] = time.perf_counter() - start
            accuracies.append(round(out.accuracy, 6))
        size = f"({kw['V']}, {kw['d']}, {kw['L']}, {kw['N']}, {kw['m']})"
        print(f"{what:24s} {size:32s} {walls['numpy']:7.2f}s {walls[backend]:7.2f}s "
              f"{walls['numpy'] / walls[backend]:6.1f}x  {'/'.join(str(a) for a in accuracies)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
