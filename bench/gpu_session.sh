#!/usr/bin/env bash
# What a session lent a GPU runs, in one go (docs/gpu.md, "Not yet measured on a GPU"):
#
#     OUT=gpu-session bash bench/gpu_session.sh       # needs PyTorch with CUDA; STEPS below
#
# 1. bench/bench_gpu.py for the dense algorithms (--dense): agreement of GD-Adam and the
#    three-step with NumPy, one 60-step Adam trial at (4096, 1024, 64, 1.6e4) (1.0 s on an H200,
#    2026-11-28) with a one-step NumPy baseline;
# 2. full training (Adam, 60 steps, trigger out) at V = 8192: (8192, 1024, 256) to a CI (L = 64 there
#    measured to a CI on 2026-12-04, 5.58e4, 60 trials in 470 s; L = 256 a bracket, <= 7.38e4: is the L
#    exponent near 0 at V = 8192 too?), and, as step gd2, a second d, (8192, 724, 64) (docs/theory.md
#    §7.13; each cell ~8 GPU-minutes, one device call each);
# 3. where the beta = 3 excess of the limit takes over (docs/theory.md §7.11: it follows the term's
#    share of N*, on four (V, d) to 2026-12-04, (16384, 2048) to L = 512 the last): the beta = 3 L line,
#    L = 32..512, at (8192, 1448), off the diagonals measured, each store kept and its rows fitted;
# 4. the finite-step three-step's excess at eta/gamma' = 30 (beta = 4, trigger out) at (8192, 1024),
#    L = 64..256 (docs/theory.md §7.12: eta/gamma' = 10 there measured 2026-12-04, N* a multiple of
#    the hard-attention threshold as at (4096, 1024); at 30 only (2048, 512), (2896, 724), (4096, 1024));
# 5. the attention-MLP limit on the GPU (since 2026-11-28 it takes a backend): bench/bench_mlp_limit.py
#    --backend torch (its four CPU cells, NumPy against the GPU), then the quick
#    mlp_gradient_noise check (centred) on the GPU, which takes ~13 min on 2 CPU cores.
# STEPS="gd eta" runs only those steps (default: all six, ~30 min on an H200, more than one
# device call (600 s) allows: split them, e.g. STEPS=gd, STEPS=gd2, STEPS="beta3 eta", then
# STEPS="bench mlp").
# (Measured already: the count path's bench on an H100 and an H200 (docs/gpu.md), CuPy, the
# headline on all three variables at V = 16384 (docs/theory.md §7.10), the beta = 4, 5, 3 lines
# (§7.11), trials waiting for GPU memory, SIGTERM to a GPU check (ended in 2-3 s, three times).)
# Each step has its own time limit, with a kill delay; what finished is in $OUT either way:
# the logs, bench.json and each line's rows (`fit --save-rows`; a device run brings back at
# most 8 files, so the checks' stores stay behind).
set -u
OUT=${OUT:-gpu-session}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
python3 -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
    || { echo "gpu_session.sh: needs PyTorch with a CUDA device (python3 -c 'import torch' failed or saw no GPU)"; exit 2; }
python3 -c "import array_api_compat" \
    || { echo "gpu_session.sh: needs array-api-compat beside PyTorch (not on the H200 image of 2026-12-04: carry its wheel)"; exit 2; }
nvidia-smi -L
step() {  # step NAME SECONDS COMMAND...: run with a time limit, log to ${LOGS:-$OUT}/NAME.log, say how it ended
    local name=$1 limit=$2 start=$SECONDS log=${LOGS:-$OUT}/$1.log
    shift 2
    timeout -k 20 "$limit" "$@" > "$log" 2>&1
    echo "$name: exit $? after $(( SECONDS - start )) s"
    tail -"${TAIL:-40}" "$log"
}
want() { [[ " ${STEPS:-bench gd gd2 beta3 eta mlp} " == *" $1 "* ]]; }
want bench && step bench "${BENCH_S:-60}" python3 bench/bench_gpu.py --backend torch --cells "" --dense 4096,1024,64,16000 \
    --baseline --baseline-steps 1 --threads "$(nproc)" --json "$OUT/bench.json"
line() {  # line NAME SECONDS CELLS SETTINGS...: a check on CELLS, its rows fitted against the headline
    local name=$1 limit=$2 cells=$3
    shift 3
    step "$name" "$limit" python3 -m theorycheck.cli.main check vural2026.headline --budget standard \
        --cells "$cells" "$@" --set backend=torch --workers 6 --max-cost inf --quiet --out "/tmp/$name"
    LOGS=/tmp TAIL=14 step "fit-$name" 60 python3 -m theorycheck.cli.main fit "/tmp/$name" --law vural2026.headline \
        --save-rows "$OUT/$name.csv"
}
gd=(--set algorithm=gd --set optimizer=adam --set steps=60 --set marker_in_value=false)
want gd && line gd_adam60_gpu_8192_1024_L256 "${GD_S:-500}" "V=8192,d=1024,L=256" "${gd[@]}"
want gd2 && line gd_adam60_gpu_8192_724_L64 "${GD2_S:-500}" "V=8192,d=724,L=64" "${gd[@]}"
if want beta3; then
    cells=$(for L in 32 64 128 256 512; do printf 'V=8192,d=1448,L=%s; ' "$L"; done)
    line limit_beta3_gpu_L_line_8192_1448 "${BETA_S:-150}" "${cells%; }" --set beta=3
fi
if want eta; then
    cells=$(for L in 64 128 256; do printf 'V=8192,d=1024,L=%s; ' "$L"; done)
    line three_step_eta3e5_gpu_L_line_8192 "${ETA_S:-150}" "${cells%; }" --set algorithm=three-step \
        --set beta=4 --set eta=300000 --set marker_in_value=false
fi
if want mlp; then
    step mlp_bench "${MLPB_S:-150}" python3 bench/bench_mlp_limit.py --backend torch
    step mlp_quick "${MLP_S:-300}" python3 -m theorycheck.cli.main check vural2026.mlp_gradient_noise --budget quick \
        --set center_features=true --set backend=torch --workers 6 --quiet --out /tmp/mlp_quick
    LOGS=/tmp TAIL=14 step fit-mlp_quick 60 python3 -m theorycheck.cli.main fit /tmp/mlp_quick \
        --law vural2026.mlp_gradient_noise --params V,d,L,m --save-rows "$OUT/mlp_gradient_noise_quick_gpu.csv"
fi
