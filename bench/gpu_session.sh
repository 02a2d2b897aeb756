#!/usr/bin/env bash
# What a session lent a GPU runs, in one go (docs/gpu.md, "Not yet measured on a GPU"):
#
#     OUT=gpu-session bash bench/gpu_session.sh       # needs PyTorch with CUDA; ~6 min on an H200
#
# 1. bench/bench_gpu.py on the code as it is, with the NumPy path on the same machine
#    (--baseline): agreement with NumPy, per-cell times, peak GPU memory (31 s on an H200,
#    2026-11-27);
# 2. where the beta = 3 excess takes over, does it move with V and d (docs/theory.md §7.11: at
#    (8192, 1024) it is 2.6x the hard-attention threshold by L = 256, on the H100 2026-11-28)?
#    The beta = 3 L line, L = 32..512, at (16384, 2048) (L <= 256 cut short at 136 s on the
#    H100: the term is ~1e4*L*V^2/d^3 there, 0.65x the rest at L = 256; does it accelerate
#    past it at 512?) and at (8192, 1448), each store kept and its rows fitted against the
#    headline (102 s for (8192, 1024), L <= 256, on the H100);
# 3. a SIGTERM to a running GPU check, as `timeout` sends it (to the process group): on the
#    morning of 2026-11-27 such a check did not end within 250 s, that afternoon it ended in
#    2 s, on an H100 on 2026-11-28 in 3 s. If it is still running 30 s later, its processes'
#    states, then every Python thread's stack (PYTHONFAULTHANDLER, SIGABRT).
# (Measured already, 2026-11-27: CuPy's bench and a CuPy check end to end with its trials
# replayed on PyTorch and NumPy (docs/gpu.md); the headline on all three variables at
# V = 16384 (docs/theory.md §7.10); the beta = 4 lines (§7.11). 2026-11-28, H100: the bench,
# beta = 5 and 3 at (8192, 1024) (§7.11), trials waiting for GPU memory (docs/gpu.md).)
# Each step has its own time limit, with a kill delay; what finished is in $OUT either way:
# the logs, bench.json and each line's rows (`fit --save-rows`; a device run brings back at
# most 8 files, so the checks' stores stay behind).
set -u
OUT=${OUT:-gpu-session}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
    || { echo "gpu_session.sh: needs PyTorch with a CUDA device (python3 -c 'import torch' failed or saw no GPU)"; exit 2; }
nvidia-smi -L
step() {  # step NAME SECONDS COMMAND...: run with a time limit, log to ${LOGS:-$OUT}/NAME.log, say how it ended
    local name=$1 limit=$2 start=$SECONDS log=${LOGS:-$OUT}/$1.log
    shift 2
    timeout -k 20 "$limit" "$@" > "$log" 2>&1
    echo "$name: exit $? after $(( SECONDS - start )) s"
    tail -"${TAIL:-40}" "$log"
}
step bench "${BENCH_S:-120}" python3 bench/bench_gpu.py --backend torch --baseline --threads "$(nproc)" \
    --json "$OUT/bench.json"
for vd in 16384,2048 8192,1448; do
    V=${vd%,*} d=${vd#*,}
    cells=$(for L in 32 64 128 256 512; do printf 'V=%s,d=%s,L=%s; ' "$V" "$d" "$L"; done)
    step "beta3_$V" "${BETA_S:-200}" python3 -m theorycheck.cli.main check vural2026.headline --budget standard \
        --cells "${cells%; }" --set beta=3 --set backend=torch --workers 8 --max-cost inf --quiet \
        --out "/tmp/beta3_$V"
    LOGS=/tmp TAIL=14 step "fit-beta3_$V" 60 python3 -m theorycheck.cli.main fit "/tmp/beta3_$V" --law vural2026.headline \
        --save-rows "$OUT/limit_beta3_gpu_L_line_${V}_$d.csv"
done
# 3. SIGTERM to the process group of a running check, as timeout sends it
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
