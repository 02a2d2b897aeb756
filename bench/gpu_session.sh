#!/usr/bin/env bash
# What a session lent a GPU runs, in one go (docs/gpu.md, "Not yet measured on a GPU"):
#
#     OUT=gpu-session bash bench/gpu_session.sh       # needs PyTorch with CUDA; ~3 min on an H200
#
# 1. bench/bench_gpu.py on the code as it is, with the NumPy path on the same machine
#    (--baseline): agreement with NumPy, per-cell times, peak GPU memory (35 s on an H200,
#    2026-11-27);
# 2. the same on CuPy, where CuPy is installed (32 s);
# 3. the headline's paper check (V 2048, d 362..512, L 64..362) end to end on CuPy, 8 workers
#    (its PyTorch run took 31 s), then a sample of its trials replayed on PyTorch and NumPy:
#    the same accuracy trial by trial, except at an exact tie of two logits;
# 4. a SIGTERM to a running GPU check, as `timeout` sends it (to the process group): on
#    2026-11-27 such a check did not end within 250 s. If it is still running 30 s later,
#    its processes' states, then every Python thread's stack (PYTHONFAULTHANDLER, SIGABRT).
# (Measured already, 2026-11-27, docs/theory.md §7.10: the headline on all three variables
# at V = 16384, `check vural2026.headline --budget paper --max-cost inf --base V=16384
# --base d=2048 --base L=64 --set backend=torch --workers 8`, 1612 trials, ~7 min.)
# Each step has its own time limit, with a kill delay; what finished is in $OUT either way
# (a check's output folder as one .tar.gz; a device run brings back at most 8 files).
set -u
OUT=${OUT:-gpu-session}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
    || { echo "gpu_session.sh: needs PyTorch with a CUDA device (python3 -c 'import torch' failed or saw no GPU)"; exit 2; }
nvidia-smi -L
step() {  # step NAME SECONDS COMMAND...: run with a time limit, log to $OUT/NAME.log, say how it ended
    local name=$1 limit=$2 start=$SECONDS
    shift 2
    timeout -k 20 "$limit" "$@" > "$OUT/$name.log" 2>&1
    echo "$name: exit $? after $(( SECONDS - start )) s"
    tail -"${TAIL:-40}" "$OUT/$name.log"
}
keep() {  # keep DIR: a check's output folder as DIR.tar.gz (its SQLite log folded in first)
    python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('pragma wal_checkpoint(TRUNCATE)')" \
        "$1/trials.sqlite" && tar -czf "$1.tar.gz" -C "$(dirname "$1")" "$(basename "$1")"
}
has_cupy=$(python3 -c "import cupy" 2> /dev/null && echo yes)
step bench "${BENCH_S:-120}" python3 bench/bench_gpu.py --backend torch --baseline --threads "$(nproc)" \
    --json "$OUT/bench.json"
if [ -n "$has_cupy" ]; then
    step cupy "${CUPY_S:-90}" python3 bench/bench_gpu.py --backend cupy --threads "$(nproc)" --repeats 2 \
        --cells "16384,1024,64,1000000;4096,512,64,400000" --json "$OUT/cupy.json"
    step headline-cupy "${CHECK_S:-150}" python3 -m theorycheck.cli.main check vural2026.headline --budget paper \
        --set backend=cupy --workers 8 --quiet --out /tmp/headline-cupy
    keep /tmp/headline-cupy && cp /tmp/headline-cupy.tar.gz "$OUT/"
    TAIL=2 step replay-torch "${REPLAY_S:-60}" python3 bench/replay_store.py /tmp/headline-cupy/trials.sqlite \
        --backend torch --sample 200
    TAIL=2 step replay-numpy "${REPLAY_S:-60}" python3 bench/replay_store.py /tmp/headline-cupy/trials.sqlite \
        --backend numpy --sample 30
fi
# 4. SIGTERM to the process group of a running check, as timeout sends it
start=$SECONDS
PYTHONFAULTHANDLER=1 setsid python3 -m theorycheck.cli.main check vural2026.headline --budget paper \
    --max-cost inf --base V=16384 --base d=2048 --base L=64 --set backend=torch --workers 8 --quiet \
    --out /tmp/sigterm > "$OUT/sigterm.log" 2>&1 &
group=$!
sleep "${SIGTERM_AFTER_S:-40}"
kill -TERM -- -"$group"
for _ in $(seq 30); do kill -0 -- -"$group" 2> /dev/null || break; sleep 1; done
if kill -0 -- -"$group" 2> /dev/null; then
    { echo "== still running 30 s after SIGTERM:"; ps -o pid,ppid,stat,wchan:30,etime,cmd -g "$group"; } >> "$OUT/sigterm.log"
    kill -ABRT -- -"$group"; sleep 5; kill -KILL -- -"$group" 2> /dev/null
fi
wait "$group" 2> /dev/null
echo "sigterm: exit $? after $(( SECONDS - start )) s"
tail -"${TAIL:-40}" "$OUT/sigterm.log"
