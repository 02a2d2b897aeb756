"""The finite-step three-step algorithm with a large first step, as lines in ``L``: the
simulate runs behind rows files in ``bench/data`` (docs/theory.md §7.12); bench/data/README.md lists them, each
with its ``--line``, its runs, when and at what cost.

``(V, d) = (2048, 512)`` unless the line says, trigger out of the value path and ``ζ = 1`` unless the
line says, step-2 attention at
``β`` = 4, 5 or 10 (``γ`` set from it), ``γ' = 10⁴`` and a first value step ``η = 10⁵`` (``--set
eta=100000``, unless the line says): ``η/γ' = 10``, where the algorithm no longer matches its early-phase limit
(``bench/three_step_vs_limit.py``). Rounds of single-seed runs on grids moved to each
cell's crossing as the results came in (2026-11-27), each run with a seed of its own, every
round's runs started longest first; all appended to one rows file with ``simulate --rows``:

    python bench/three_step_eta_line.py [--line beta10]                 # print the commands
    python bench/three_step_eta_line.py --run --workers 2 --rows rows.csv   # run them (again: the rest)
    theorycheck fit rows.csv --law vural2026.headline

A trial takes 9 s (``L = 64``) to 2 min (``L = 362`` at ``β = 4``) on one core at ``(2048, 512)``;
at ``(4096, 1024)`` 54 s (``L = 64``, ``N = 5·10⁴``), ~2 min (``L = 256``, ``N = 10⁵``) and ~8 min
(``L = 512``, ``N = 2.7·10⁵``): its 52 runs took 58 min on 2 cores (2026-11-27, three rounds).
Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
from typing import NamedTuple

from command_list import add_arguments, print_or_run

#: (first seed, ((L, N, runs), ...)) of each round of a line, in the order they were run
BETA4 = (
    (9800, ((64, 36000, 4), (64, 45000, 4), (128, 45000, 4), (128, 60000, 4), (256, 75000, 4),
            (256, 110000, 4))),
    (9824, ((64, 39000, 4), (64, 42000, 4), (128, 50000, 4), (128, 55000, 4), (256, 130000, 4),
            (256, 160000, 4))),
    (9848, ((64, 40500, 4), (64, 44000, 4), (128, 57500, 4), (256, 120000, 4), (256, 140000, 4),
            (362, 200000, 2), (362, 260000, 2))),
)
BETA10 = (
    (9900, ((64, 28000, 4), (64, 32000, 4), (362, 28000, 4), (362, 32000, 4))),
    (9916, ((64, 29500, 4), (64, 30500, 4), (362, 24500, 4), (362, 26000, 4))),
)
BETA5 = (
    (9940, ((64, 30000, 4), (64, 36000, 4), (362, 50000, 4), (362, 80000, 4))),
    (9956, ((64, 32000, 4), (64, 34000, 4), (362, 56000, 4), (362, 65000, 4))),
)
BETA4_4096 = (
    (10000, ((64, 36000, 2), (64, 42000, 2), (64, 50000, 2), (128, 40000, 2), (128, 50000, 2),
             (128, 65000, 2), (256, 50000, 2), (256, 70000, 2), (256, 100000, 2))),
    (10018, ((64, 44000, 4), (64, 47000, 4), (128, 55000, 4), (128, 60000, 4), (256, 80000, 4),
             (256, 90000, 4), (512, 200000, 1), (512, 300000, 1))),
    (10044, ((362, 120000, 2), (362, 150000, 2), (512, 240000, 2), (512, 270000, 2))),
)
BETA4_4096_724 = (
    (10100, ((64, 65000, 2), (64, 75000, 2), (64, 90000, 2), (256, 100000, 2), (256, 130000, 2),
             (256, 170000, 2))),
    (10112, ((64, 70000, 4), (64, 80000, 4), (256, 145000, 4), (256, 155000, 4))),
)
BETA4_2896_512 = (
    (10300, ((64, 80000, 1),)),
    (10301, ((64, 90000, 2), (64, 105000, 2), (64, 120000, 2), (256, 180000, 2), (256, 240000, 2),
             (256, 320000, 2))),
    (10313, ((64, 83000, 2), (64, 86000, 2), (64, 89000, 2), (256, 255000, 2), (256, 275000, 2),
             (256, 295000, 2))),
    (10325, ((64, 82000, 2), (64, 85000, 2), (64, 88000, 2), (128, 115000, 2), (128, 130000, 2),
             (128, 145000, 2), (256, 260000, 2), (256, 285000, 2))),
    (10341, ((64, 76000, 2), (128, 90000, 2), (128, 100000, 2), (128, 108000, 2), (256, 230000, 2),
             (256, 250000, 2))),
)
BETA4_2896_724 = (
    (10400, ((64, 39000, 2), (64, 43000, 2), (64, 47000, 2), (256, 72000, 2), (256, 82000, 2),
             (256, 95000, 2))),
    (10412, ((64, 44000, 2), (64, 45500, 2), (64, 50000, 2), (256, 77000, 2), (256, 86000, 2),
             (256, 90000, 2))),
)
BETA4_ETA3E4 = (
    (10200, ((64, 30000, 2), (64, 36000, 2), (128, 40000, 2), (128, 50000, 2), (256, 60000, 2),
             (256, 90000, 2))),
    (10212, ((64, 31000, 2), (64, 33000, 2), (64, 35000, 2), (128, 32000, 3), (128, 36000, 3),
             (256, 42000, 3), (256, 50000, 3), (362, 55000, 2), (362, 70000, 2), (362, 90000, 2))),
    (10236, ((64, 32000, 2), (64, 34000, 2), (128, 37000, 2), (128, 38000, 2), (128, 39000, 2),
             (256, 53000, 2), (256, 56000, 2), (256, 58000, 2), (362, 110000, 2), (362, 140000, 2),
             (362, 180000, 2))),
    (10258, ((64, 31500, 2), (64, 32500, 2), (362, 95000, 2), (362, 100000, 2), (362, 105000, 2))),
)
BETA4_ETA1E4 = (
    (10500, ((64, 29000, 2), (64, 31000, 2), (64, 33000, 2), (128, 32000, 2), (128, 35000, 2),
             (128, 38000, 2), (362, 60000, 2), (362, 68000, 2), (362, 76000, 2), (362, 85000, 2))),
    (10520, ((64, 30000, 2), (64, 32000, 2), (64, 34000, 2), (128, 34000, 2), (128, 36500, 2),
             (128, 40000, 2), (362, 62000, 2), (362, 64000, 2), (362, 66000, 2), (362, 72000, 2))),
    (10540, ((64, 28000, 2), (64, 29500, 2), (64, 31000, 2), (128, 31000, 2), (128, 32500, 2),
             (128, 35000, 2))),
)
BETA4_ETA3E5 = (
    (10600, ((64, 55000, 2), (64, 65000, 2), (64, 75000, 2), (64, 90000, 2), (128, 80000, 2),
             (128, 95000, 2), (128, 110000, 2), (128, 130000, 2))),
    (10616, ((64, 57500, 3), (64, 60000, 3), (64, 62500, 3), (128, 85000, 3), (128, 90000, 3),
             (128, 100000, 3))),
    (10634, ((256, 240000, 2), (256, 280000, 2), (256, 340000, 2))),  # N = 2e5 (seeds 10640-1) stopped
    (10642, ((256, 300000, 2), (256, 320000, 2))),
)

BETA10_ZETA05 = (
    (10700, ((64, 26000, 4), (64, 30000, 4), (362, 28000, 4), (362, 34000, 4), (362, 42000, 4))),
    (10720, ((64, 28000, 3), (64, 32000, 3), (64, 34000, 3), (362, 29500, 3), (362, 31000, 3),
             (362, 32500, 3))),
    (10740, ((152, 27000, 3), (152, 29000, 3), (152, 31000, 3), (152, 33000, 3))),  # 2026-11-29: a third L
    (10752, ((152, 28000, 3), (152, 30000, 3))),
)
BETA10_ZETA05_TRIGGER_IN = (
    (10800, ((64, 95000, 2), (64, 110000, 2), (362, 100000, 2), (362, 120000, 2), (362, 140000, 2))),
    (10810, ((64, 70000, 2), (64, 80000, 2), (64, 88000, 2), (362, 75000, 2), (362, 85000, 2),
             (362, 92000, 2))),
    (10822, ((64, 40000, 2), (64, 50000, 2), (64, 60000, 2), (362, 80000, 2), (362, 88000, 2),
             (362, 96000, 2))),
    (10834, ((64, 56000, 3), (64, 63000, 3), (64, 66000, 3), (362, 82000, 2), (362, 90000, 2))),
    (10847, ((64, 50000, 3), (64, 56000, 3), (64, 60000, 3))),
    (10860, ((152, 55000, 2), (152, 62000, 2), (152, 69000, 2), (152, 76000, 2), (152, 84000, 2))),  # 2026-11-29
    (10870, ((152, 48000, 2), (152, 52000, 2), (152, 58000, 2), (152, 65000, 2))),
    (10878, ((152, 55000, 2), (152, 58000, 2), (152, 62000, 2))),
)
# probes of the first step's size on the last line's setting, L = 64 only (2026-11-29)
BETA10_ZETA05_TRIGGER_IN_ETA3E4 = (
    (10900, ((64, 60000, 2), (64, 75000, 2), (64, 90000, 2), (64, 105000, 2))),
    (10910, ((64, 67000, 2), (64, 71000, 2), (64, 80000, 2))),
)
BETA10_ZETA05_TRIGGER_IN_ETA1E4 = (
    (10980, ((64, 90000, 2), (64, 105000, 2), (64, 120000, 2), (64, 140000, 2))),
    (10990, ((64, 70000, 2), (64, 80000, 2), (64, 97000, 2))),
)
BETA10_ZETA05_TRIGGER_IN_ETA3E5 = (
    (10950, ((64, 30000, 2), (64, 40000, 2), (64, 50000, 2), (64, 60000, 2))),
    (10960, ((64, 80000, 2), (64, 100000, 2), (64, 130000, 2), (64, 170000, 2))),
    (10970, ((64, 250000, 2), (64, 350000, 2))),
)
# the same eta/gamma' = 30 at L = 362, where the step-3 bias turns round near eta ~ 3e5 (2026-11-29)
BETA10_ZETA05_TRIGGER_IN_ETA3E5_L362 = (
    (11000, ((362, 50000, 2), (362, 60000, 2), (362, 70000, 2), (362, 80000, 2), (362, 90000, 2))),
    (11010, ((362, 75000, 2), (362, 85000, 2), (362, 95000, 2))),
)

# eta/gamma' = 3 at (4096, 1024), beta = 4: does the excess's ratio to eta/gamma' = 10 carry over from
# (2048, 512)? (2026-11-29)
BETA4_4096_ETA3E4 = (
    (11100, ((64, 36000, 2), (64, 39000, 2), (64, 43000, 2), (128, 38000, 2), (128, 43000, 2), (128, 48000, 2),
             (256, 46000, 2), (256, 53000, 2), (256, 60000, 2))),
    (11118, ((64, 36800, 3), (64, 37500, 3), (64, 38200, 3), (128, 39200, 3), (128, 40500, 3), (128, 41800, 3),
             (256, 47500, 3), (256, 49500, 3), (256, 51500, 3))),
)

# eta/gamma' = 1 at (4096, 1024), beta = 4: is it the limit there too, as at (2048, 512)? (2026-11-29)
BETA4_4096_ETA1E4 = (
    (11200, ((64, 35000, 2), (64, 37000, 2), (64, 39500, 2), (128, 36500, 2), (128, 38500, 2), (128, 41000, 2),
             (256, 39000, 2), (256, 41500, 2), (256, 44500, 2))),
    (11218, ((64, 33000, 2), (64, 36000, 2), (64, 38000, 2), (64, 42000, 2), (128, 34000, 2), (128, 38500, 2),
             (128, 43500, 3), (256, 42500, 2), (256, 43500, 2), (256, 47000, 2))),
)

# eta/gamma' = 30 at (4096, 1024), beta = 4, L = 64 and 128: does the 10 -> 30 growth carry over? (2026-11-29)
BETA4_4096_ETA3E5 = (
    (11300, ((64, 52000, 2), (64, 58000, 2), (64, 64000, 2), (64, 71000, 2), (64, 78000, 2),
             (128, 72000, 2), (128, 82000, 2), (128, 92000, 2), (128, 103000, 2), (128, 115000, 2))),
    (11320, ((256, 110000, 1), (256, 130000, 1), (256, 150000, 1), (256, 175000, 1), (256, 205000, 1),
             (256, 240000, 1), (256, 280000, 1), (256, 330000, 1))),
    (11328, ((256, 162000, 2),)),
)

# eta/gamma' = 3 at (2896, 724), beta = 4: the 10-to-3 ratio between (2048, 512)'s and (4096, 1024)'s? (2026-12-01)
BETA4_2896_724_ETA3E4 = (
    (11400, ((64, 31000, 2), (64, 33500, 2), (64, 36000, 2), (64, 39000, 2),
             (256, 40000, 2), (256, 45000, 2), (256, 50000, 2), (256, 56000, 2))),
    (11420, ((64, 32000, 3), (64, 33500, 3), (64, 35000, 3), (256, 47000, 3), (256, 50000, 3), (256, 53000, 3))),
    (11440, ((64, 32500, 4), (64, 33500, 4), (64, 34500, 4), (256, 46000, 3), (256, 48500, 3))),
)
# eta/gamma' = 30 at (2896, 724), beta = 4: the 10-to-30 growth of the excess on the diagonal (2026-12-01)
BETA4_2896_724_ETA3E5 = (
    (11500, ((64, 58000, 2), (64, 63000, 2), (64, 68000, 2), (64, 74000, 2),
             (256, 150000, 1), (256, 175000, 1), (256, 200000, 1), (256, 230000, 1))),
    (11520, ((64, 59500, 3), (64, 61000, 3), (64, 62500, 3), (256, 205000, 2), (256, 212000, 2),
             (256, 220000, 2))),
    (11540, ((64, 63000, 2), (64, 64500, 2), (256, 198000, 2), (256, 205000, 2), (256, 210000, 2))),
)

# the same setting at (4096, 1024), eta/gamma' = 30, L = 64: does the first step's gain follow its lean
# lambda_U ~ eta*a*(1/d + 1/V) (2.6x smaller here than at (2048, 512)) or eta/gamma' alone? (2026-12-01)
BETA10_ZETA05_TRIGGER_IN_4096_ETA3E5 = (
    (11600, ((64, 60000, 2), (64, 80000, 2), (64, 100000, 2), (64, 125000, 2), (64, 160000, 2),
             (64, 220000, 2))),
    (11620, ((64, 65000, 3), (64, 70000, 3), (64, 75000, 3))),
    (11640, ((64, 77500, 3), (64, 80000, 3), (64, 85000, 2))),
)
# and eta/gamma' = 10 there (lambda_U 0.42-0.58): is the threshold's ratio to the limit's a function of
# lambda_U? (2026-12-01)
BETA10_ZETA05_TRIGGER_IN_4096_ETA1E5 = (
    (11660, ((64, 80000, 2), (64, 90000, 2), (64, 100000, 2), (64, 110000, 2), (64, 125000, 2))),
    (11680, ((64, 70000, 2), (64, 75000, 2), (64, 80000, 2), (64, 85000, 2))),
)
# eta/gamma' = 30 there at L = 256, where the first step leans ~4x less (lambda_U 0.29-0.44): a line in L (2026-12-01)
BETA10_ZETA05_TRIGGER_IN_4096_ETA3E5_L256 = (
    (12100, ((256, 70000, 2), (256, 85000, 2), (256, 100000, 2), (256, 120000, 2), (256, 150000, 2),
             (256, 190000, 2))),
    (12120, ((256, 77500, 3), (256, 90000, 3), (256, 95000, 2), (256, 110000, 2))),
)
# and eta/gamma' = 10 at L = 256 (lambda_U 0.10-0.22): does the ratio to the limit follow lambda_U across L?
# (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA1E5_L256 = (
    (12200, ((256, 100000, 2), (256, 115000, 2), (256, 130000, 2), (256, 150000, 2), (256, 175000, 2))),
    (12220, ((256, 107500, 3), (256, 122500, 3), (256, 140000, 2))),
)

# eta/gamma' = 30 there at L = 128 (lambda_U 0.72-0.89): a third L between the L = 64 and 256 probes (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA3E5_L128 = (
    (12310, ((128, 70000, 2), (128, 80000, 2), (128, 90000, 2), (128, 100000, 2), (128, 120000, 2),
             (128, 150000, 2))),
    (12330, ((128, 75000, 3), (128, 80000, 2), (128, 85000, 3), (128, 95000, 2))),
    (12340, ((128, 65000, 3), (128, 70000, 3), (128, 72500, 2))),
)

# and eta/gamma' = 10 at L = 128 (lambda_U ~0.27): both first steps at three L (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA1E5_L128 = (
    (12400, ((128, 85000, 2), (128, 95000, 2), (128, 105000, 2), (128, 115000, 2), (128, 130000, 2),
             (128, 150000, 2))),
    (12420, ((128, 90000, 2), (128, 100000, 3), (128, 110000, 3), (128, 122500, 2))),
)
# eta/gamma' = 50 there at L = 256 (lambda_U 0.53-0.91): L = 128's lean at L = 256; does the ratio follow it?
# (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA5E5_L256 = (
    (12510, ((256, 65000, 2), (256, 75000, 2), (256, 85000, 2), (256, 95000, 2), (256, 110000, 2),
             (256, 130000, 2))),
    (12530, ((256, 90000, 1), (256, 97500, 3), (256, 102500, 3), (256, 107500, 3), (256, 120000, 2))),
    (12550, ((256, 87500, 3), (256, 92500, 3), (256, 95000, 2), (256, 100000, 2))),
)
# twelve fresh seeds at one N there, their leans computed before the runs: does a run's own lean predict its
# outcome as bench/lean_outcome_fit.py's exploratory fit says? (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA5E5_L256_LEAN_TEST = (
    (12600, ((256, 87500, 12),)),
)
# eta/gamma' = 50 there at L = 128 (lambda_U 1.1-1.5): between 30's 0.52x at lean 0.82 and 100's 1.12x at
# 2.7, is the ratio still near its lowest? (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA5E5_L128 = (
    (12810, ((128, 65000, 2), (128, 72500, 2), (128, 80000, 2), (128, 90000, 2), (128, 100000, 2),
             (128, 115000, 2))),
    (12830, ((128, 85000, 3), (128, 90000, 3), (128, 95000, 3))),
)
# eta/gamma' = 100 there at L = 128 (lambda_U 2.2-2.9): above a lean of ~0.8, does the gain stop growing
# (L = 64's 0.52x at lean 1.5 the lean's), or keep growing as the exploratory lean fit reads it? (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA1E6_L128 = (
    (12710, ((128, 85000, 2), (128, 100000, 2), (128, 120000, 2))),  # its 55000-75000 runs dropped: all above failed
    (12730, ((128, 130000, 2), (128, 145000, 2), (128, 160000, 2), (128, 180000, 2), (128, 200000, 2))),
    (12750, ((128, 140000, 2), (128, 155000, 2), (128, 170000, 2), (128, 220000, 2))),
    # round 4 (2026-12-02, predicted at 16:02 UTC): to tell its ratio from L = 256's 1.29x [1.23, 1.51]
    (12970, ((128, 150000, 3), (128, 160000, 3), (128, 170000, 3), (128, 180000, 3), (128, 190000, 2))),
)

# eta/gamma' = 55 there at L = 64 (lambda_U ~2.4-2.9, L = 128's eta/gamma' = 100 lean): a third L past a lean
# of 1 (L = 256 measured 1.29x, L = 128 1.13x): does the ratio keep falling to L = 64? (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA55E4_L64 = (
    (13010, ((64, 110000, 2), (64, 125000, 2), (64, 140000, 2), (64, 155000, 2), (64, 170000, 2), (64, 190000, 2))),
    (13030, ((64, 130000, 3), (64, 133000, 3), (64, 136000, 3), (64, 145000, 2))),
    (13050, ((64, 120000, 2), (64, 127000, 2), (64, 140000, 2), (64, 150000, 3), (64, 160000, 3))),
)

# eta/gamma' = 160 there at L = 256 (lambda_U 1.8-3.3, L = 128's eta/gamma' = 100 lean): does L = 256 past a
# lean of 1 give the gain back as L = 128 did? (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_ETA16E5_L256 = (
    (12910, ((256, 130000, 2), (256, 160000, 2), (256, 190000, 2), (256, 220000, 2), (256, 260000, 2))),
    (12930, ((256, 165000, 2), (256, 170000, 2), (256, 175000, 2), (256, 180000, 2), (256, 185000, 2))),
    (12950, ((256, 190000, 2), (256, 195000, 2), (256, 200000, 2), (256, 210000, 2))),
)

# eta/gamma' = 20 at (4096, 724), L = 128 (lambda_U 0.74-0.89, the lean of eta/gamma' = 30 at (4096, 1024) there): a
# second d; is the ratio to the limit at the same lean the same, 0.52x? (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_724_ETA2E5_L128 = (
    (13110, ((128, 100000, 2), (128, 115000, 2), (128, 130000, 2), (128, 145000, 2), (128, 160000, 2),
             (128, 180000, 2))),
    (13130, ((128, 122000, 3), (128, 128000, 3), (128, 134000, 3), (128, 140000, 3))),
    (13150, ((128, 108000, 3), (128, 116000, 3), (128, 120000, 3), (128, 125000, 3))),
)
# twelve fresh seeds there at one N, their leans computed before the runs: within the probe's transition
# (N 1.22e5-1.4e5) its 11 successes leaned 0.72-0.98 and its 6 failures 0.54-0.69; does lean >= 0.70 predict
# a fresh seed's outcome? (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_724_ETA2E5_L128_LEAN_TEST = (
    (13200, ((128, 125000, 12),)),
)

# eta/gamma' = 75 at (4096, 724), L = 128 (lambda_U 2.5-2.9, the lean of eta/gamma' = 100 at (4096, 1024) there):
# past a lean of 1, does the same lean give the same ratio at another d? (2026-12-02)
BETA10_ZETA05_TRIGGER_IN_4096_724_ETA75E4_L128 = (
    (13310, ((128, 230000, 2), (128, 270000, 2), (128, 310000, 2), (128, 360000, 2), (128, 420000, 2))),
    (13330, ((128, 320000, 3), (128, 340000, 3), (128, 380000, 3), (128, 400000, 3))),
    # above the crossing: does the success curve level off below 1? (2026-12-03)
    (13450, ((128, 440000, 2), (128, 480000, 2), (128, 520000, 2))),
)

# eta/gamma' = 40 at (4096, 724), L = 128 (lambda_U 1.21-1.65, the lean of eta/gamma' = 50 at (4096, 1024) there):
# just past a lean of 1, where d = 1024 gives 0.59x, does d matter beyond the lean? (2026-12-03)
BETA10_ZETA05_TRIGGER_IN_4096_724_ETA4E5_L128 = (
    (13410, ((128, 120000, 2), (128, 135000, 2), (128, 150000, 2), (128, 165000, 2), (128, 180000, 2),
             (128, 200000, 2))),
    (13430, ((128, 155000, 3), (128, 160000, 3), (128, 170000, 3), (128, 175000, 3))),
)
# the same rounds (seeds and N) at eta = 3.73e5: every run leans 0.9325x (lambda_U ~linear in eta), a mean of
# 1.38, d = 1024's at eta/gamma' = 50. Lean-matched, is the gap to d = 1024 left? (2026-12-03)

# eta/gamma' = 45.5 at (4096, 860), L = 128, between the two d: its own 24 seeds' leans at N = 1.15e5, eta = 4.33e5
# (mean 1.31) scaled to the mean 1.38 of the two lean-matched probes. Does the ratio sit between theirs? (2026-12-03)
BETA10_ZETA05_TRIGGER_IN_4096_860_ETA455E3_L128 = (
    (13500, ((128, 95000, 2), (128, 103000, 2), (128, 110000, 2), (128, 117000, 2), (128, 125000, 2),
             (128, 135000, 2))),
    (13512, ((128, 112000, 3), (128, 117000, 3), (128, 122000, 3), (128, 128000, 3))),
)

# eta/gamma' = 34.6 at (4096, 640), L = 128, below the three: its own 24 seeds' leans at N = 1.95e5, eta = 3.2e5
# (mean 1.28) scaled to the mean 1.38. The limit there steepens (local d exponent -2.62): does the finite step's
# threshold stay on the three probes' one power of d, so that the ratio falls? (2026-12-03)
BETA10_ZETA05_TRIGGER_IN_4096_640_ETA346E3_L128 = (
    (13610, ((128, 180000, 2), (128, 195000, 2), (128, 205000, 2), (128, 215000, 2), (128, 230000, 2),
             (128, 250000, 2))),
    (13622, ((128, 215000, 2), (128, 225000, 2), (128, 235000, 2), (128, 245000, 2))),
    (13630, ((128, 210000, 2), (128, 220000, 2), (128, 230000, 2), (128, 240000, 2))),
)


class Line(NamedTuple):
    V: int
    d: int
    beta: int
    rounds: tuple
    eta: int = 100000  # the first value step; gamma' = 1e4 on every line
    zeta: float = 1.0  # the trigger's norm
    trigger_in_value: bool = False  # the trigger in the value path (marker_in_value)


def _trigger_in(V: int, d: int, rounds: tuple, eta: int = 100000) -> Line:
    """A line with the trigger in the value path at ``β = 10``, ``ζ = 1/2`` (docs/theory.md §7.12's probes)."""
    return Line(V, d, 10, rounds, eta=eta, zeta=0.5, trigger_in_value=True)


LINES = {"beta4": Line(2048, 512, 4, BETA4), "beta5": Line(2048, 512, 5, BETA5),
         "beta10": Line(2048, 512, 10, BETA10), "beta4_4096": Line(4096, 1024, 4, BETA4_4096),
         "beta4_4096_724": Line(4096, 724, 4, BETA4_4096_724),
         "beta4_2896_512": Line(2896, 512, 4, BETA4_2896_512),
         "beta4_2896_724": Line(2896, 724, 4, BETA4_2896_724),
         "beta4_eta3e4": Line(2048, 512, 4, BETA4_ETA3E4, eta=30000),
         "beta4_eta1e4": Line(2048, 512, 4, BETA4_ETA1E4, eta=10000),
         "beta4_4096_eta3e4": Line(4096, 1024, 4, BETA4_4096_ETA3E4, eta=30000),
         "beta4_4096_eta1e4": Line(4096, 1024, 4, BETA4_4096_ETA1E4, eta=10000),
         "beta4_4096_eta3e5": Line(4096, 1024, 4, BETA4_4096_ETA3E5, eta=300000),
         "beta4_2896_724_eta3e4": Line(2896, 724, 4, BETA4_2896_724_ETA3E4, eta=30000),
         "beta4_2896_724_eta3e5": Line(2896, 724, 4, BETA4_2896_724_ETA3E5, eta=300000),
         "beta4_eta3e5": Line(2048, 512, 4, BETA4_ETA3E5, eta=300000),
         "beta10_zeta05": Line(2048, 512, 10, BETA10_ZETA05, zeta=0.5),
         "beta10_zeta05_trigger_in": _trigger_in(2048, 512, BETA10_ZETA05_TRIGGER_IN),
         "beta10_zeta05_trigger_in_eta1e4": _trigger_in(2048, 512, BETA10_ZETA05_TRIGGER_IN_ETA1E4, eta=10000),
         "beta10_zeta05_trigger_in_eta3e4": _trigger_in(2048, 512, BETA10_ZETA05_TRIGGER_IN_ETA3E4, eta=30000),
         "beta10_zeta05_trigger_in_eta3e5": _trigger_in(2048, 512, BETA10_ZETA05_TRIGGER_IN_ETA3E5, eta=300000),
         "beta10_zeta05_trigger_in_eta3e5_L362":
             _trigger_in(2048, 512, BETA10_ZETA05_TRIGGER_IN_ETA3E5_L362, eta=300000),
         "beta10_zeta05_trigger_in_4096_eta3e5":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA3E5, eta=300000),
         "beta10_zeta05_trigger_in_4096_eta3e5_L256":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA3E5_L256, eta=300000),
         "beta10_zeta05_trigger_in_4096_eta3e5_L128":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA3E5_L128, eta=300000),
         "beta10_zeta05_trigger_in_4096_eta5e5_L256":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA5E5_L256, eta=500000),
         "beta10_zeta05_trigger_in_4096_eta5e5_L256_lean_test":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA5E5_L256_LEAN_TEST, eta=500000),
         "beta10_zeta05_trigger_in_4096_eta5e5_L128":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA5E5_L128, eta=500000),
         "beta10_zeta05_trigger_in_4096_eta1e6_L128":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA1E6_L128, eta=1000000),
         "beta10_zeta05_trigger_in_4096_eta55e4_L64":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA55E4_L64, eta=550000),
         "beta10_zeta05_trigger_in_4096_eta16e5_L256":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA16E5_L256, eta=1600000),
         "beta10_zeta05_trigger_in_4096_724_eta2e5_L128":
             _trigger_in(4096, 724, BETA10_ZETA05_TRIGGER_IN_4096_724_ETA2E5_L128, eta=200000),
         "beta10_zeta05_trigger_in_4096_724_eta2e5_L128_lean_test":
             _trigger_in(4096, 724, BETA10_ZETA05_TRIGGER_IN_4096_724_ETA2E5_L128_LEAN_TEST, eta=200000),
         "beta10_zeta05_trigger_in_4096_724_eta75e4_L128":
             _trigger_in(4096, 724, BETA10_ZETA05_TRIGGER_IN_4096_724_ETA75E4_L128, eta=750000),
         "beta10_zeta05_trigger_in_4096_724_eta4e5_L128":
             _trigger_in(4096, 724, BETA10_ZETA05_TRIGGER_IN_4096_724_ETA4E5_L128, eta=400000),
         "beta10_zeta05_trigger_in_4096_724_eta373e3_L128":
             _trigger_in(4096, 724, BETA10_ZETA05_TRIGGER_IN_4096_724_ETA4E5_L128, eta=373000),
         "beta10_zeta05_trigger_in_4096_860_eta455e3_L128":
             _trigger_in(4096, 860, BETA10_ZETA05_TRIGGER_IN_4096_860_ETA455E3_L128, eta=455000),
         "beta10_zeta05_trigger_in_4096_640_eta346e3_L128":
             _trigger_in(4096, 640, BETA10_ZETA05_TRIGGER_IN_4096_640_ETA346E3_L128, eta=346000),
         "beta10_zeta05_trigger_in_4096_eta1e5_L128":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA1E5_L128),
         "beta10_zeta05_trigger_in_4096_eta1e5_L256":
             _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA1E5_L256),
         "beta10_zeta05_trigger_in_4096_eta1e5": _trigger_in(4096, 1024, BETA10_ZETA05_TRIGGER_IN_4096_ETA1E5)}


def runs(rounds) -> list[tuple[int, int, int]]:
    """``(L, N, seed)`` of every run of a line: within a round the seeds count up from its
    first seed over the runs sorted by ``L·N``, largest first (as they were started)."""
    out = []
    for first, spec in rounds:
        ordered = sorted(((L, N) for L, N, k in spec for _ in range(k)), key=lambda r: -r[0] * r[1])
        out += [(L, N, first + i) for i, (L, N) in enumerate(ordered)]
    return out


def command(line: Line, L: int, N: int, seed: int, rows: str) -> list[str]:
    settings = ([] if line.trigger_in_value else ["--no-marker-in-value"]) + (
        [] if line.zeta == 1.0 else ["--zeta", str(line.zeta)])
    return ["theorycheck", "simulate", "--V", str(line.V), "--d", str(line.d), "--L", str(L), "--N", str(N),
            *settings, "--algorithm", "three-step", "--beta", str(line.beta), "--set", f"eta={line.eta}",
            "--seeds", "1", "--seed", str(seed), "--rows", rows]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--line", choices=sorted(LINES), default="beta4", help="which line's runs")
    add_arguments(parser, "rows.csv")
    args = parser.parse_args(argv)
    line = LINES[args.line]
    commands = [command(line, L, N, s, args.rows) for L, N, s in runs(line.rounds)]
    return print_or_run(commands, args)


if __name__ == "__main__":
    raise SystemExit(main())
