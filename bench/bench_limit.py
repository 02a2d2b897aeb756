"""Benchmark of the early-phase limit fast path (prints figures, asserts nothing).

    python bench/bench_limit.py            # parts a-f
    python bench/bench_limit.py --part b --threads 2

(a) fast limit vs the dense reference at V=256, d=64, L=64, N=16384, both including data
    generation (target: >= 20x faster);
(b) one limit trial at V=1024, d=128, L=256, N=262144: time vs the time just to draw the
    N·L tokens (target <= 5x) and peak memory (target <= 2 GB);
(c) time and peak memory as N, L, V, d double from V=256, d=64, L=64, N=65536;
(d) threads 1 vs 2 at V=4096, d=512, L=64, N=4e5 (target >= 1.7x on 2 cores): the
    minimum wall time of each (alternating runs), and, since on a shared machine the
    wall times depend on the load, the Amdahl bound from CPU times: the main thread's
    CPU time ``s`` (serial part) and the whole process's ``t`` give ``t / (s + (t-s)/2)``;
(e) peak memory at V=16384, d=1024, L=64, N=1e6 (target <= 2 GB), ``--threads`` threads;
(f) peak memory at V=16384, d=1024, L=64, N=4e6, where the tokens (580 MiB) exceed 512 MiB: with
    a 512 MiB cache budget (streamed: each pass holds 8·V² bytes of tables) and with the default,
    which caches (``label_blocks.default_cache_bytes``).

BLAS runs single-threaded unless ``--blas-threads`` says otherwise (set before NumPy
loads).  Times are the minimum over ``--repeats`` runs of wall time and of process CPU time (on
a shared machine the CPU time is the steadier figure; ratios in (c) use it).  Peak memory
is the high-water resident set (``VmHWM``) of a fresh subprocess running one trial, next
to that of a subprocess that only imports (baseline).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

from blas_threads import set_blas_threads

if __name__ == "__main__":  # BLAS threads must be fixed before NumPy loads OpenBLAS
    _pre = argparse.ArgumentParser(add_help=False)
    _pre.add_argument("--blas-threads", default="1")
    _blas = _pre.parse_known_args()[0].blas_threads
    set_blas_threads(_blas, force=True)  # inherited by the memory subprocesses too

import numpy as np  # noqa: E402

from theorycheck.algorithms.dense_reference import run_dense_limit
from theorycheck.algorithms.label_blocks import SORTED_ROW_BYTES
from theorycheck.tasks.training_passes import DEFAULT_CACHE_BYTES, cache_size
from theorycheck.algorithms.limit import run_limit
from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings


def _cell(V, d, L, N):
    p = RetrievalParams(V=V, d=d, L=L, N=N)
    return p, make_embeddings(p, np.random.default_rng(0)), np.random.SeedSequence(1)


def _best(fn, repeats):
    """Minimum wall time over ``repeats`` runs (CPU time of the fastest-CPU run is in
    ``_best.cpu``: on a shared machine it is the steadier figure)."""
    walls, cpus = [], []
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    _best.cpu = min(cpus)
    return min(walls)


def draw_tokens(V, L, N, rows=None):
    """Only the token draws: ``N·L`` int32 uniform on ``[V]``, in chunks of 2**18 tokens."""
    rng = np.random.default_rng(0)
    rows = rows or max(1, (1 << 18) // L)
    for lo in range(0, N, rows):
        rng.integers(0, V, size=(min(rows, N - lo), L), dtype=np.int32)


def child(spec: dict) -> dict:
    """One trial in this process; returns seconds and the peak RSS in MB."""
    out = {"seconds": None}
    if spec["what"] == "limit":
        p, emb, seed = _cell(spec["V"], spec["d"], spec["L"], spec["N"])
        start = time.perf_counter()
        run_limit(p, emb, seed, threads=spec.get("threads", 1), cache_bytes=spec.get("cache_bytes"))
        out["seconds"] = time.perf_counter() - start
    out["peak_mb"] = _peak_rss_mb()
    return out


def _peak_rss_mb() -> float:
    """High-water resident set of this process (VmHWM; ru_maxrss would include the
    parent's memory at fork time, which Linux carries across exec)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure_in_subprocess(spec: dict) -> dict:
    res = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)],
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout)


def part_a(repeats, threads):
    V, d, L, N = 256, 64, 64, 16384
    p, emb, seed = _cell(V, d, L, N)
    fast = _best(lambda: run_limit(p, emb, seed, threads=threads), repeats)
    fast_cpu = _best.cpu
    dense = _best(lambda: run_dense_limit(p, emb, seed), max(1, repeats // 2))
    print(f"(a) V={V} d={d} L={L} N={N} (data generation included)")
    print(f"    wall: fast limit {fast:7.3f} s   dense reference {dense:7.3f} s   speed-up {dense / fast:6.1f}x"
          "   (target >= 20x)")
    print(f"    cpu:  fast limit {fast_cpu:7.3f} s   dense reference {_best.cpu:7.3f} s"
          f"   speed-up {_best.cpu / fast_cpu:6.1f}x")


def part_b(repeats, threads):
    V, d, L, N = 1024, 128, 256, 262144
    p, emb, seed = _cell(V, d, L, N)
    draw = _best(lambda: draw_tokens(V, L, N), repeats)
    draw_cpu = _best.cpu
    fast = _best(lambda: run_limit(p, emb, seed, threads=threads), repeats)
    base = measure_in_subprocess({"what": "imports"})
    mem = measure_in_subprocess({"what": "limit", "V": V, "d": d, "L": L, "N": N, "threads": threads})
    print(f"(b) V={V} d={d} L={L} N={N} ({N * L / 1e6:.0f} M tokens), threads={threads}")
    print(f"    wall: draw tokens only {draw:7.3f} s   limit trial {fast:7.3f} s   ratio {fast / draw:5.2f}x"
          "   (target <= 5x)")
    print(f"    cpu:  draw tokens only {draw_cpu:7.3f} s   limit trial {_best.cpu:7.3f} s"
          f"   ratio {_best.cpu / draw_cpu:5.2f}x")
    print(f"    peak RSS {mem['peak_mb']:7.0f} MB (imports alone {base['peak_mb']:.0f} MB)"
          f"   subprocess trial {mem['seconds']:.3f} s   (target <= 2048 MB)")
    streamed = _best(lambda: run_limit(p, emb, seed, threads=threads, cache_bytes=0), max(1, repeats // 2))
    mem = measure_in_subprocess({"what": "limit", "V": V, "d": d, "L": L, "N": N, "threads": threads,
                                 "cache_bytes": 0})
    print(f"    streamed (no token cache, every pass redraws): wall {streamed:7.3f} s"
          f"   cpu {_best.cpu:7.3f} s   ratio {_best.cpu / draw_cpu:5.2f}x   peak RSS {mem['peak_mb']:5.0f} MB")


def part_c(repeats, threads):
    base = {"V": 256, "d": 64, "L": 64, "N": 65536}
    rows = [("base", base)] + [(f"2x{k}", base | {k: 2 * base[k]}) for k in ("N", "L", "V", "d")]
    rows += [("4xN", base | {"N": 4 * base["N"]}), ("4xL", base | {"L": 4 * base["L"]}),
             ("4xV", base | {"V": 4 * base["V"]})]
    print(f"(c) scaling from V=256 d=64 L=64 N=65536 (threads={threads}); time = min of {repeats}")
    print(f"    {'cell':6s} {'V':>5s} {'d':>4s} {'L':>4s} {'N':>7s} {'N*L (M)':>8s} {'wall s':>7s}"
          f" {'cpu s':>7s} {'draw cpu':>8s} {'ratio':>6s} {'peak MB':>8s}")
    for name, c in rows:
        p, emb, seed = _cell(**c)
        t = _best(lambda: run_limit(p, emb, seed, threads=threads), repeats)
        cpu = _best.cpu
        _best(lambda: draw_tokens(c["V"], c["L"], c["N"]), repeats)
        draw_cpu = _best.cpu
        mem = measure_in_subprocess({"what": "limit", **c, "threads": threads})
        print(f"    {name:6s} {c['V']:5d} {c['d']:4d} {c['L']:4d} {c['N']:7d} {c['N'] * c['L'] / 1e6:8.1f}"
              f" {t:7.3f} {cpu:7.3f} {draw_cpu:8.3f} {cpu / draw_cpu:6.2f} {mem['peak_mb']:8.0f}")


def part_d(repeats, threads):
    V, d, L, N = 4096, 512, 64, 400_000
    p, emb, seed = _cell(V, d, L, N)
    walls = {1: [], 2: []}
    cpus = {1: [], 2: []}
    serial = []
    for _ in range(repeats):
        for t in (1, 2):
            start, cpu, main_cpu = time.perf_counter(), time.process_time(), time.thread_time()
            run_limit(p, emb, seed, threads=t)
            walls[t].append(time.perf_counter() - start)
            cpus[t].append(time.process_time() - cpu)
            if t == 2:
                serial.append(time.thread_time() - main_cpu)
    k = int(np.argmin(cpus[2]))
    total, s = cpus[2][k], serial[k]
    print(f"(d) V={V} d={d} L={L} N={N}: threads 1 vs 2, min of {repeats} (load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
    print(f"    wall: 1 thread {min(walls[1]):7.3f} s   2 threads {min(walls[2]):7.3f} s"
          f"   speed-up {min(walls[1]) / min(walls[2]):5.2f}x   (target >= 1.7x)")
    print(f"    cpu:  1 thread {min(cpus[1]):7.3f} s   2 threads {total:7.3f} s, of which serial "
          f"(main thread) {s:6.3f} s")
    print(f"    on 2 free cores (Amdahl, from CPU times): 2-thread CPU {total / (s + (total - s) / 2):5.2f}x"
          f" faster in wall time than if run serially; vs the 1-thread run "
          f"{min(cpus[1]) / (s + (total - s) / 2):5.2f}x")


def part_e(repeats, threads):
    V, d, L, N = 16384, 1024, 64, 1_000_000
    base = measure_in_subprocess({"what": "imports"})
    mem = measure_in_subprocess({"what": "limit", "V": V, "d": d, "L": L, "N": N, "threads": threads})
    print(f"(e) V={V} d={d} L={L} N={N}, threads={threads}: peak RSS {mem['peak_mb']:7.0f} MB"
          f" (imports alone {base['peak_mb']:.0f} MB; target <= 2048 MB)   wall {mem['seconds']:.1f} s")


def part_f(repeats, threads):
    V, d, L, N = 16384, 1024, 64, 4_000_000
    base = measure_in_subprocess({"what": "imports"})
    tokens = cache_size(RetrievalParams(V=V, d=d, L=L, N=N), N, SORTED_ROW_BYTES)
    print(f"(f) V={V} d={d} L={L} N={N}, threads={threads}: tokens {tokens / 2**20:.0f} MiB cached, "
          f"streamed tables {8 * V * V / 2**20:.0f} MiB a pass (imports alone {base['peak_mb']:.0f} MB)")
    for name, budget in (("512 MiB (streams)", DEFAULT_CACHE_BYTES), ("default (caches)", None)):
        mem = measure_in_subprocess({"what": "limit", "V": V, "d": d, "L": L, "N": N, "threads": threads,
                                     "cache_bytes": budget})
        print(f"    cache_bytes {name:18s} peak RSS {mem['peak_mb']:7.0f} MB   wall {mem['seconds']:.1f} s")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=["a", "b", "c", "d", "e", "f", "all"], default="all")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1, help="worker threads of run_limit")
    ap.add_argument("--blas-threads", default="1",
                    help="OpenBLAS/OpenMP threads (default 1: on a shared 2-core machine threaded "
                    "BLAS made the small V×V products slow and erratic)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    for part, fn in (("a", part_a), ("b", part_b), ("c", part_c), ("d", part_d), ("e", part_e), ("f", part_f)):
        if args.part in (part, "all"):
            fn(args.repeats, args.threads)


if __name__ == "__main__":
    main()
