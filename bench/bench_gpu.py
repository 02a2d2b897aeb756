"""The count path on an array backend (a GPU) against the NumPy path and issue 13's PyTorch dense anchor.

    python bench/bench_gpu.py --backend torch --threads 16 --baseline --json out.json
    python bench/bench_gpu.py --backend array_api_strict --cells 512,64,16,20000 --threads 2
    python bench/bench_gpu.py --backend torch --cells "" --dense "4096,1024,64,16000" --baseline

First the agreement with the NumPy path on a small cell, for both trigger settings and
both attention rules (largest relative difference of ``G1``, ``g``, ``G2``; predictions
equal), and a repeat of the same trial on the backend (a GPU's atomic adds sum in a
varying order).  Then, per ``--cells`` entry ``V,d,L,N``: the host draw of the training
data alone (``--threads`` threads; the floor of any path that draws in NumPy), one limit
trial's training (draw, move, three passes) and its prediction on the ``V`` test
sequences, minimum over ``--repeats`` after one warm-up, and on CUDA the peak GPU memory
PyTorch allocated for them; with ``--baseline`` the NumPy path on the same machine with the
same threads.  At (16384, 1024, 64, 10**6) it prints
the ratio to the anchor: a PyTorch dense three-step took 7.55 s on an H100 there (issue
13; goal >= 20x, i.e. <= 0.38 s).

``--dense`` cells ``V,d,L,N`` time full training instead (``algorithms/gd.py``: Adam, trigger
out of the value path, ``--steps`` steps, one history record at the end) on the backend,
after the agreement of GD-Adam and the finite-step three-step with NumPy on small cells
(attention trigger in and out, centred MLP); with ``--baseline`` NumPy runs the same trial
for ``--baseline-steps`` steps, and the two are compared per pass (a pass: one loss and
gradient over the ``N`` sequences).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from functools import partial

from blas_threads import set_blas_threads

if __name__ == "__main__":  # OpenBLAS only: torch's CPU threads (OpenMP) are part of what it measures
    set_blas_threads(variables=("OPENBLAS_NUM_THREADS",))

import numpy as np  # noqa: E402

from points import parse_points  # noqa: E402
from theorycheck.backend import get_backend  # noqa: E402
from theorycheck.algorithms.gd import run_gd  # noqa: E402
from theorycheck.algorithms.limit import run_limit  # noqa: E402
from theorycheck.algorithms.three_step import run_three_step  # noqa: E402
from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings, test_batch  # noqa: E402
from theorycheck.tasks.training_passes import compact_token_dtype, draw_into  # noqa: E402

ANCHOR_SECONDS = 7.55  # PyTorch dense three-step on an H100 at (16384, 1024, 64, 1e6), issue 13
ANCHOR_CELL = (16384, 1024, 64, 1_000_000)


def _cell(V, d, L, N, **kw):
    p = RetrievalParams(V=V, d=d, L=L, N=N, **kw)
    return p, make_embeddings(p, np.random.default_rng(0)), np.random.SeedSequence(1)


def _rel(a, b) -> float:
    return float(np.abs(a - b).max() / np.abs(b).max())


def agreement(backend: str) -> list[dict]:
    rows = []
    for miv in (True, False):
        for beta in (math.inf, 3.0):
            p, emb, seed = _cell(512, 64, 16, 20000, marker_in_value=miv)
            ref = run_limit(p, emb, seed, beta=beta)
            other = run_limit(p, emb, seed, beta=beta, backend=backend)
            again = run_limit(p, emb, seed, beta=beta, backend=backend)
            test = test_batch(p, emb, np.random.default_rng(2))
            same = float(np.mean(other.predict(test)[0] == ref.predict(test)[0]))
            rows.append({"marker_in_value": miv, "beta": beta,
                         "max_rel_vs_numpy": max(_rel(getattr(other, k), getattr(ref, k)) for k in ("G1", "g", "G2")),
                         "max_rel_repeat": max(_rel(getattr(again, k), getattr(other, k)) for k in ("G1", "g", "G2")),
                         "predictions_equal": same})
    return rows


def dense_agreement(backend: str) -> list[dict]:
    """GD-Adam (8 steps) and the three-step (beta = 4) on NumPy and on ``backend``: the
    largest relative difference of any diagnostic or history entry, and the share of equal
    predictions on the recall set."""
    rows = []
    for model, miv in (("attention", True), ("attention", False), ("mlp", False)):
        kw = dict(model="mlp", m=96, center_features=True) if model == "mlp" else {}
        p, emb, seed = _cell(256, 48, 12, 3000, marker_in_value=miv, **kw)
        test = test_batch(p, emb, np.random.default_rng(2))
        for name, run in (("gd-adam", lambda **b: run_gd(p, emb, seed, steps=8, optimizer="adam", **b)),
                          ("three-step", lambda **b: run_three_step(p, emb, seed, beta=4.0, **b))):
            ref, other = run(), run(backend=backend)
            pairs = [(ref.diagnostics, other.diagnostics), *zip(ref.history, other.history)]
            rel = max(abs(b[k] - a[k]) / max(abs(a[k]), 1e-300) for a, b in pairs for k in a)
            same = float(np.mean(other.predict(test)[0] == ref.predict(test)[0]))
            rows.append({"model": model, "marker_in_value": miv, "algorithm": name,
                         "max_rel_vs_numpy": rel, "predictions_equal": same})
    return rows


def measure_dense(backend: str, cell, steps: int) -> dict:
    """One GD-Adam trial of ``steps`` steps at ``cell`` (trigger out), after a warm-up."""
    p, emb, seed = _cell(*cell, marker_in_value=False)
    test = test_batch(p, emb, np.random.default_rng(2))
    run = partial(run_gd, p, emb, seed, optimizer="adam", record_every=steps, backend=backend)
    if backend != "numpy":
        run_gd(p.replace(N=min(p.N, 1000)), emb, seed, steps=2, optimizer="adam", backend=backend)
    _cuda_peak(backend, reset=True)
    train, fit = _timed(lambda: run(steps=steps), 1)
    predict, (predicted, _) = _timed(lambda: fit.predict(test), 1)
    return {"backend": backend, "cell": list(cell), "steps": steps, "train_s": train,
            "pass_s": train / (steps + 1), "predict_s": predict, "gpu_peak_mib": _cuda_peak(backend),
            "accuracy": float(np.mean(predicted == test.labels))}


def _dense_line(r: dict) -> str:
    peak = "" if r["gpu_peak_mib"] is None else f"; GPU peak {r['gpu_peak_mib']:.0f} MiB"
    return (f"{tuple(r['cell'])} {r['backend']:>6}: Adam {r['steps']} steps {r['train_s']:.2f} s "
            f"({r['pass_s']:.3f} s a pass), predict {r['predict_s']:.3f} s; accuracy {r['accuracy']:.4f}{peak}")


def _timed(fn, repeats: int) -> tuple[float, object]:
    best, out = math.inf, None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def _cuda_peak(backend: str, reset: bool = False) -> float | None:
    """Peak GPU memory PyTorch allocated since the last reset, in MiB (``None`` off CUDA).
    It counts the tensors of the trial, not the caching allocator's reserve."""
    bk = get_backend(backend)
    if bk.name != "torch" or bk.device != "cuda":
        return None
    import torch

    if reset:
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        return None
    torch.cuda.synchronize()
    return torch.cuda.max_memory_allocated() / 2**20


def measure(backend: str, cell, threads: int, repeats: int) -> dict:
    p, emb, seed = _cell(*cell)
    tokens = np.empty((p.N, p.L), dtype=compact_token_dtype(p.V))
    pos, labels = np.empty(p.N, dtype=np.int64), np.empty(p.N, dtype=np.int64)
    draw, _ = _timed(lambda: draw_into(p, emb, seed, tokens, pos, labels, threads), repeats)
    tokens = pos = labels = None  # free the draw's buffers before the trial (a del here reads as undefined to pyflakes)
    test = test_batch(p, emb, np.random.default_rng(2))
    run_limit(p.replace(N=min(p.N, 1000)), emb, seed, backend=backend, threads=threads)  # warm-up
    _cuda_peak(backend, reset=True)
    train, fit = _timed(lambda: run_limit(p, emb, seed, backend=backend, threads=threads), repeats)
    predict, (predicted, _) = _timed(lambda: fit.predict(test), repeats)
    return {"backend": backend, "cell": list(cell), "threads": threads, "draw_s": draw, "train_s": train,
            "predict_s": predict, "trial_s": train + predict, "gpu_peak_mib": _cuda_peak(backend),
            "accuracy": float(np.mean(predicted == test.labels)),
            "train_selection": fit.diagnostics["train_selection_accuracy"]}


def _line(r: dict) -> str:
    peak = "" if r["gpu_peak_mib"] is None else f"; GPU peak {r['gpu_peak_mib']:.0f} MiB"
    return (f"{tuple(r['cell'])} {r['backend']:>6}: draw {r['draw_s']:.3f} s, train {r['train_s']:.3f} s, "
            f"predict {r['predict_s']:.3f} s, trial {r['trial_s']:.3f} s; accuracy {r['accuracy']:.4f}{peak}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", default="torch")
    ap.add_argument("--cells", default="16384,1024,64,1000000;4096,512,64,400000;1024,128,256,262144",
                    help="';'-separated V,d,L,N")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--baseline", action="store_true", help="also time the NumPy path (one repeat)")
    ap.add_argument("--json", default=None, help="write every figure to this file (rewritten after each "
                    "measurement, so that a run stopped by a time limit keeps what it measured)")
    ap.add_argument("--dense", default="", help="';'-separated V,d,L,N of full-training (GD-Adam) trials")
    ap.add_argument("--steps", type=int, default=60, help="Adam steps of a --dense trial (default 60)")
    ap.add_argument("--baseline-steps", type=int, default=2, help="steps of the NumPy --dense baseline (default 2)")
    args = ap.parse_args(argv)
    try:
        cells, dense = (parse_points(text, option, allow_empty=True)
                        for text, option in ((args.cells, "--cells"), (args.dense, "--dense")))
        bk = get_backend(args.backend)
    except ValueError as exc:
        ap.error(str(exc))
    device = bk.device or "default"
    if bk.name == "torch" and bk.device == "cuda":
        import torch

        device = torch.cuda.get_device_name()
    print(f"backend {bk.name} (device {device}), host threads {args.threads}")
    report = {"backend": bk.name, "device": device, "agreement": agreement(bk.name) if cells else [],
              "cells": [], "dense_agreement": dense_agreement(bk.name) if dense else [], "dense": []}
    save = (lambda: _write_json(args.json, report)) if args.json else (lambda: None)
    save()
    for row in report["dense_agreement"]:
        print(f"(256, 48, 12, 3000) {row['algorithm']:>10} {row['model']:>9} miv={row['marker_in_value']!s:5}: "
              f"max relative difference {row['max_rel_vs_numpy']:.1e} to numpy; predictions equal "
              f"{row['predictions_equal']:.4f}")
    for cell in dense:
        r = measure_dense(bk.name, cell, args.steps)
        report["dense"].append(r)
        save()
        print(_dense_line(r), flush=True)
        if args.baseline:
            b = measure_dense("numpy", cell, args.baseline_steps)
            report["dense"].append(b)
            save()
            print(_dense_line(b) + f"   -> {b['pass_s'] / r['pass_s']:.1f}x the NumPy pass", flush=True)
    for row in report["agreement"]:
        print(f"(512, 64, 16, 20000) miv={row['marker_in_value']!s:5} beta={row['beta']}: max relative "
              f"difference {row['max_rel_vs_numpy']:.1e} to numpy, {row['max_rel_repeat']:.1e} between two "
              f"runs; predictions equal {row['predictions_equal']:.4f}")
    for cell in cells:
        r = measure(bk.name, cell, args.threads, args.repeats)
        report["cells"].append(r)
        save()
        print(_line(r), flush=True)
        if args.baseline:
            b = measure("numpy", cell, args.threads, 1)
            report["cells"].append(b)
            save()
            print(_line(b) + f"   -> {b['trial_s'] / r['trial_s']:.1f}x the NumPy trial", flush=True)
        if cell == ANCHOR_CELL:
            print(f"ratio to the PyTorch dense anchor ({ANCHOR_SECONDS} s, H100): training "
                  f"{ANCHOR_SECONDS / r['train_s']:.1f}x, whole trial {ANCHOR_SECONDS / r['trial_s']:.1f}x (goal >= 20x)")


def _write_json(path: str, report: dict) -> None:
    """``report`` to ``path`` through a temporary file and a rename: a reader (or a kill)
    never sees half a file."""
    tmp = f"{path}.tmp"
    with open(tmp, "w") as fh:
        json.dump(report, fh, indent=1)
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
