#!/usr/bin/env bash
# What a session lent a GPU runs, in one go (docs/gpu.md, "Not yet measured on a GPU"):
#
#     OUT=gpu-session bash bench/gpu_session.sh       # needs PyTorch with CUDA; STEPS below
#
# 1. bench/bench_gpu.py for the dense algorithms (--dense): agreement of GD-Adam and the
#    three-step with NumPy, one 60-step Adam trial at (4096, 1024, 64, 1.6e4) (1.0 s on an H200,
#    2026-11-28) with a one-step NumPy baseline;
# 2. full training (Adam, 60 steps, trigger out) at (8192, 1024), L = 64 and 256, to a CI:
#    on 2026-11-28 (docs/theory.md §7.13) 24 trials gave brackets only, N*(64) in
#    (3.69e4, 7.38e4] and N*(256) <= 7.38e4; is the L exponent near 0 there too, as at
#    (4096, 1024) (0.041 [-0.044, 0.125])? Then a second d at V = 4096: (4096, 724), L = 64, 256
#    (L = 64 at d 724 and 512 measured 2026-12-04: docs/theory.md 7.13; L = 256 there is the new part);
# 3. where the beta = 3 excess of the limit takes over, does it move with V and d (docs/theory.md
#    §7.11: at (8192, 1024) it is 2.6x the hard-attention threshold by L = 256, on the H100
#    2026-11-28)? The beta = 3 L line, L = 32..512, at (16384, 2048) (L <= 256 cut short at 136 s
#    on the H100: the term is ~1e4*L*V^2/d^3 there, 0.65x the rest at L = 256; does it
#    accelerate past it at 512?), each store kept and its rows fitted against the headline;
# 4. the finite-step three-step's excess at eta/gamma' = 10 (beta = 4, trigger out) at a larger V
#    (docs/theory.md §7.12: measured at (2048, 512) and (4096, 1024, 724) on the CPU, its V
#    dependence not pinned): (8192, 1024), L = 64..256, on the GPU (three passes a trial);
# 5. the attention-MLP limit on the GPU (since 2026-11-28 it takes a backend): bench/bench_mlp_limit.py
#    --backend torch (its four CPU cells, NumPy against the GPU), then the quick
#    mlp_gradient_noise check (centred) on the GPU, which takes ~13 min on 2 CPU cores.
# STEPS="gd eta" runs only those steps (default: all five, ~14 min on an H200, more than one
# device call allows: split them, e.g. STEPS="bench gd", STEPS="beta3 eta", then STEPS=mlp).
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
want() { [[ " ${STEPS:-bench gd beta3 eta mlp} " == *" $1 "* ]]; }
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
if want gd; then
    line gd_adam60_gpu_8192 "${GD_S:-200}" "V=8192,d=1024,L=64; V=8192,d=1024,L=256" "${gd[@]}"
    line gd_adam60_gpu_4096_724 "${GD2_S:-100}" "V=4096,d=724,L=64; V=4096,d=724,L=256" "${gd[@]}"
fi
if want beta3; then
    cells=$(for L in 32 64 128 256 512; do printf 'V=16384,d=2048,L=%s; ' "$L"; done)
    line limit_beta3_gpu_L_line_16384_2048 "${BETA_S:-120}" "${cells%; }" --set beta=3
fi
if want eta; then
    cells=$(for L in 64 128 256; do printf 'V=8192,d=1024,L=%s; ' "$L"; done)
    line three_step_eta1e5_gpu_L_line_8192 "${ETA_S:-120}" "${cells%; }" --set algorithm=three-step \
        --set beta=4 --set eta=100000 --set marker_in_value=false
fi
if want mlp; then
    step mlp_bench "${MLPB_S:-150}" python3 bench/bench_mlp_limit.py --backend torch
    step mlp_quick "${MLP_S:-300}" python3 -m theorycheck.cli.main check vural2026.mlp_gradient_noise --budget quick \
        --set center_features=true --set backend=torch --workers 6 --quiet --out /tmp/mlp_quick
    LOGS=/tmp TAIL=14 step fit-mlp_quick 60 python3 -m theorycheck.cli.main fit /tmp/mlp_quick \
        --law vural2026.mlp_gradient_noise --params V,d,L,m --save-rows "$OUT/mlp_gradient_noise_quick_gpu.csv"
fi
