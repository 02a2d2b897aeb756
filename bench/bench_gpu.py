"""The count path on an array backend (GPU) vs the PyTorch dense anchor of issue 13.

    python bench/bench_gpu.py --backend torch --threads 16
    python bench/bench_gpu.py --backend numpy --threads 2 --cell 4096,512,64,400000

Runs one limit trial (data draw, three passes, the dense products on ``--backend``) at
``--cell`` (default V=16384, d=1024, L=64, N=10**6) ``--repeats`` times and prints the
minimum wall time and the ratio to the anchor: a PyTorch dense three-step took 7.55 s on
an H100 at that cell (goal: the count path >= 20x faster, i.e. <= 0.38 s).
Before timing, it checks on a small cell that the backend gives the NumPy statistics
(largest relative difference of ``G1``, ``g``, ``G2``).  Counting stays on the CPU
(NumPy, ``--threads`` threads); only the ``V²·d`` products move to the device.
"""

from __future__ import annotations

import argparse
import os
import time

if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from theorycheck.algorithms.backend import get_backend  # noqa: E402
from theorycheck.algorithms.limit import run_limit  # noqa: E402
from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings  # noqa: E402

ANCHOR_SECONDS = 7.55  # PyTorch dense three-step on an H100 at (16384, 1024, 64, 1e6), issue 13


def _cell(V, d, L, N):
    p = RetrievalParams(V=V, d=d, L=L, N=N)
    return p, make_embeddings(p, np.random.default_rng(0)), np.random.SeedSequence(1)


def check_agreement(backend: str) -> float:
    p, emb, seed = _cell(512, 64, 16, 20000)
    ref = run_limit(p, emb, seed)
    other = run_limit(p, emb, seed, backend=backend)
    return max(float(np.abs(getattr(other, k) - getattr(ref, k)).max() / np.abs(getattr(ref, k)).max())
               for k in ("G1", "g", "G2"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", default="torch")
    ap.add_argument("--cell", default="16384,1024,64,1000000")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    bk = get_backend(args.backend)
    print(f"backend {bk.name} (device {bk.device or 'default'}), threads {args.threads}")
    print(f"agreement with numpy on (512, 64, 16, 20000): max relative difference {check_agreement(bk.name):.2e}")
    V, d, L, N = (int(float(x)) for x in args.cell.split(","))
    p, emb, seed = _cell(V, d, L, N)
    walls = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        fit = run_limit(p, emb, seed, threads=args.threads, backend=bk)
        walls.append(time.perf_counter() - start)
    best = min(walls)
    print(f"({V}, {d}, {L}, {N}): limit trial (training) min wall {best:.3f} s over {args.repeats}"
          f"   train selection {fit.diagnostics['train_selection_accuracy']:.4f}")
    print(f"ratio to the PyTorch dense anchor {ANCHOR_SECONDS} s: {ANCHOR_SECONDS / best:.1f}x (goal >= 20x)")


if __name__ == "__main__":
    main()
