#!/usr/bin/env bash
# What a session lent a GPU runs, in one go (docs/gpu.md, "Not yet measured on a GPU"):
#
#     OUT=gpu-session bash bench/gpu_session.sh       # needs PyTorch with CUDA; ~6 min on an H100
#
# 1. bench/bench_gpu.py on the code as it is now: agreement with NumPy, per-cell times and
#    the peak GPU memory PyTorch allocates (never measured so far; the published times were
#    measured before 9698f40);
# 2. the headline law checked on all three variables inside its regime at V = 8192..16384
#    (paper budget without the CPU path's trial-cost cap: V 8192..16384, d 1448..2048,
#    L 23..181 around the base (16384, 2048, 64)), 8 workers on the one GPU.
# Each step has its own time limit; what finished is in $OUT either way.
set -u
OUT=${OUT:-gpu-session}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
    || { echo "gpu_session.sh: needs PyTorch with a CUDA device (python3 -c 'import torch' failed or saw no GPU)"; exit 2; }
nvidia-smi -L
start=$(date +%s)
timeout "${BENCH_S:-150}" python3 bench/bench_gpu.py --backend torch --threads "$(nproc)" --json "$OUT/bench.json" \
    2>&1 | tee "$OUT/bench.log"
echo "bench: exit ${PIPESTATUS[0]} after $(( $(date +%s) - start )) s"
start=$(date +%s)
timeout "${CHECK_S:-240}" python3 -m theorycheck.cli.main check vural2026.headline --budget paper --max-cost inf \
    --base V=16384 --base d=2048 --base L=64 --set backend=torch --workers 8 --quiet --out "$OUT/headline-wide" \
    > "$OUT/headline-wide.log" 2>&1
echo "headline, wide: exit $? after $(( $(date +%s) - start )) s"
tail -45 "$OUT/headline-wide.log"
