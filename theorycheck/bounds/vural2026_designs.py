"""Design hints of the vural2026 checks (:mod:`bounds.vural2026`), with the measurements that
set them: for ``theorycheck check`` (:mod:`theorycheck.check.target`), each entry's base point,
the ranges its sweep must stay within, the order in which variables are varied (a quick budget
varies the first two) and the cells it keeps to. This module has no ``BOUNDS``: the catalogue
skips it.
"""

# Design hints for `theorycheck check` (theorycheck.check.target): the base point, the
# ranges the sweep must stay within and the order in which variables are varied (a quick
# budget varies the first two). The design also stops every line at the law's regime
# constraints that can be judged before measuring (theorycheck.check.design).
#
# _STORAGE_SAFE (the one-step read-out laws, V <= 256, d >= V/2): the storage condition
# d^2 >= ~10 V log V (not part of these laws) has at least a 2x margin everywhere in the
# sweep: near it the measured threshold diverges for a reason the law does not describe.
_STORAGE_SAFE = {"base": {"V": 128, "d": 181, "L": 16},
                 "ranges": {"d": (128, 512), "V": (45, 256), "L": (2, 128)},
                 "vary": ("d", "L", "V")}
# _IN_REGIME (the three-step laws, V >> d): V/d >= 4 (the regime's "V >> d", read as a ratio
# of at least 4 by theorycheck.check.regime) and storage to spare, d^2 >= 9 V log V (at
# tau = 0.99 the three-step limit with perfect selection reaches accuracy 0.999-1.0 at
# (V, d) = (1024, 256), (2048, 384), (2048, 512), ratios 9.2-16.8, and stays at 0.996 at
# (4096, 512), ratio 7.7, and 0.96 at (1024, 192), ratio 5.2: `theorycheck simulate
# --no-marker-in-value --N 300000`, 2026-11-23). Both together leave a narrow wedge:
# d in [sqrt(9 V log V), V/4], a span of sqrt(V/log V)/12 -- 1.4x at V = 2048 and 3x only
# near V = 16000 -- so at the base (2048, 512) d and V move by at most sqrt(2) (held
# fixed by budgets whose lines need 1.5x) and L carries the quick check: L from 8 to 512
# (L << V). N << L V is judged at the measured thresholds (N* ~ 3e4 at this base, so
# it holds from L ~ 60 on); the base L = 128 sits there.
# Every cell keeps a storage margin (``keep``; 8 rather than 9 because the range's own
# end d = 362 at V = 2048 has 8.4, and 7.7 still reached 0.996), also where two variables
# move at once (the joint points of the standard and paper budgets: (V, d) = (2896, 362)
# would have d^2 = 5.7 V log V, next to the 0.96 measured at 5.2).
_IN_REGIME = {"base": {"V": 2048, "d": 512, "L": 128},
              "ranges": {"d": (362, 512), "V": (2048, 2896), "L": (8, 512)},
              "vary": ("L", "d", "V"), "keep": ("d**2 >= 8*V*log(V)",)}
DESIGN = {
    "one_step": _STORAGE_SAFE,
    "one_step_refined": _STORAGE_SAFE,
    "gradient_noise": _IN_REGIME,
    "headline": _IN_REGIME,
    "three_step_hard": _IN_REGIME,
    "three_step_additive": _IN_REGIME,
    "lower": _IN_REGIME,
    "counts": {"base": {"V": 128, "d": 256, "L": 8}, "ranges": {"V": (32, 256)}, "vary": ("V",)},
    # the mean bias does not involve L (L = 16); zeta^4 is its widest in-regime lever here
    # (trigger_overlap's d >= 8 log V / zeta^2 holds down to zeta ~ 0.4 at d = 512)
    "mean_bias": {"base": {"V": 2048, "d": 512, "L": 16, "zeta": 1.0},
                  "ranges": {"d": (362, 512), "V": (2048, 2896), "zeta": (0.45, 4.0)},
                  "vary": ("zeta", "d", "V")},
    # orthogonal embeddings need d >= V + 2 (d = 1026 holds V <= 1024); L << V as for the
    # random contrast, V from 256 (V log V facts at 14x fewer than the random wedge's base)
    "orthogonal": {"base": {"V": 1024, "d": 1026, "L": 32}, "ranges": {"L": (4, 256), "V": (256, 1024)},
                   "vary": ("L", "V")},
    # The attention-MLP laws (docs/mlp_phase.md; measured with `limit`, center_features=True,
    # 2026-11-23). Besides m*d, the MLP read-out keeps a storage wall in d alone: the ReLU's
    # linear part passes the sqrt(V)/d cross-talk of the attended vectors, so the accuracy
    # stalls below 0.99 whatever N and m when d^2 < ~9 V log V (V = 256, d = 64: 0.73 at
    # m = 1024, 0.77 at m = 4096; V = 512, d = 128: 0.90 at m = 512, 0.96 at m = 2048).
    # The N-laws need V >= 4 d, so their wedge is that of _IN_REGIME; its cheapest end is
    # (V, d) = (1024, 256) (V/d = 4, d^2 = 9.2 V log V), where one trial at the threshold
    # (N ~ 5e4, m = 1024, L = 8) costs ~7 s of CPU: in regime, no quick check fits in 5 min.
    # There (L = 8) N* = 2.8e4 at m = 2048, 4.9e4 at m = 1024 and none up to 2e5 at m = 512
    # (m*d = 18 V log V): the MLP-noise wall. m in 1024..4096 (m*d >= 37 V log V) keeps the
    # line right of it; L in 4..32 stays L << V. The trials exceed the dense memory estimate
    # of simulate.check_memory (not the real, streamed use): run with THEORYCHECK_MEMORY_GB raised.
    "mlp_gradient_noise": {"base": {"V": 1024, "d": 256, "m": 2048, "L": 8},
                           "ranges": {"m": (1024, 4096), "L": (4, 32), "d": (181, 256), "V": (1024, 1448)},
                           "vary": ("m", "L", "d", "V")},
    # the mean bias has no m and no L; it is the ReLU's mean, so the design takes the trigger out of
    # the value path (the settings below): with it in, the attention-only mean bias (`mean_bias`)
    # passes through the ReLU and dominates (one trial at (1024, 256, m=1024, L=8, N=6e4):
    # accuracy 0.127 with it, 0.914 without, docs/mlp_phase.md §5). The cells stay in the wedge of
    # _IN_REGIME (V >= 4 d, off the d-wall) and right of the MLP-noise wall (m*d >= 36 V log V;
    # the wall measured at C1 = 18..37, docs/mlp_phase.md §4): m = 2048, L = 4.
    # Cost: at (1024, 256, m=2048, L=4) one trial reached accuracy 0.976 at N = 1e5 and 0.996 at
    # 2e5 (28 s and 54 s of CPU; `theorycheck simulate --model mlp --no-marker-in-value`,
    # 2026-11-23); the law puts this base's threshold ~2.2x higher, at trials of minutes: every
    # budget up to `paper` refuses it (tests/test_mlp_designs.py).
    "mlp_mean_bias": {"base": {"V": 2048, "d": 512, "m": 2048, "L": 4},
                      "ranges": {"d": (362, 512), "V": (2048, 2896)}, "vary": ("d", "V"),
                      "keep": ("d**2 >= 8*V*log(V)", "m*d >= 36*V*log(V)")},
    # storage (resource m) states no V >> d: at V = 256 and d >= 128 (d^2 >= 11 V log V, off
    # the d-wall) the threshold m* is a few hundred; N = 30000 is 3.4x the counts term
    # C0 V log V. d grows to 362 and V shrinks to 90 (both away from the d-wall)
    "mlp_storage": {"base": {"V": 256, "d": 128, "m": 256, "L": 4, "N": 30000},
                    "ranges": {"d": (128, 362), "V": (90, 256)}, "vary": ("d", "V")},
    # readout_wall (task readout-wall, resource d): hard attention's read-out at infinite N. Its regime is V
    # -> oo at a fixed s, so V leads; s spans 1..8 (1 the trigger out; the published walls reach 10): the quick
    # and paper lines are s = 1, 2.83, 8.
    # One trial at the wall costs 0.76 s of CPU at (V, s) = (2048, 2), 1.2 s at 2896 and 2.6 s at 4096
    # (tasks/readout_wall.readout_cost, 2026-12-06): the cost caps stop V at 1448 (quick: under half a decade,
    # so V is inconclusive there) and 2896 (paper). The seeds' walls scatter by ~+-4% at V = 512
    # (bench/data/readout_walls.csv); a cell's wall to +-2% took 144-308 trials.
    "readout_wall": {"base": {"V": 1024, "s": 2.0},
                     "ranges": {"V": (512, 4096), "s": (1.0, 8.0)}, "vary": ("V", "s")},
}
