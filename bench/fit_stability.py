"""Do the documented fits of ``bench/data`` give the same numbers on another machine?
(prints figures, asserts nothing)

    python bench/fit_stability.py                  # every fit below, 3 nudged copies each
    python bench/fit_stability.py --copies 5 --only mlp_storage

Another CPU rounds the last bit of ``exp``, ``log`` and BLAS sums differently.  This bench
emulates that: each CSV's resource column is moved by a few ulps (relative ``4e-16 * z``,
``z`` standard normal, seeded), the same ``theorycheck fit ... --json`` runs on the original
and on each copy, and every number of the two JSON outputs (and in their texts) is compared
to a relative 1e-6: far above where an optimiser that converged stops (its tolerance moves a
standard error by ~1e-9), far below the 3-4 digits printed.  A fit
"moved" when some number differs by more: its result depends on the machine.

Measured 2026-11-26, 3 copies: with the one-start, forward-difference law fit used until
then, 14 of these 24 fits moved (width trends -6.3 against -9.7, ``C4`` 10.7 against 14.1,
a verdict line's ΔBIC 189 against 81, neighbouring forms listed or not); with the exact
gradient and the starts of :func:`theorycheck.compare.law_fit._maximise` (docs/methods.md
§4) 1 moved, by 1.1e-6 in the upper end of a constant's CI that spans 59 decades
(``limit_beta4_zeta05_L_line.csv``: 5.429068e31 against 5.429074e31; printed digits equal).
On 2026-11-27, 38 fits, 2 moved, both as at c177104 (checked there): that CI end, and
``gd_adam60_L_line_2048.csv``, where whether the law fit reports a width trend in ``L`` that
the likelihood does not identify (it runs to its bound) flips; its verdict, exponent, CI and
``C`` agree to 1e-13. Later on 2026-11-27, 43 fits, 3 moved: those two, and the refit of
``three_step_additive`` to ``headline_gpu_wide_16384.csv``, by 3e-6 relative in an ``L``
width trend (0.0381639 against 0.0381638); its constants, exponents and verdict agree.
The three plain-GD lines added after that run (``gd_plain_lr200_L_line.csv``,
``gd_plain_lr400_L_line.csv``, ``gd_plain_lr200_trigger_in_L_line.csv``) move in each cell's
own threshold, a bracket on 3-5 trials an ``N`` (4804.5 against 4601 at ``L = 128``, lr =
200), and the ratios built on them; lr = 200 also in the joint likelihood (log-likelihood -7.4
against -15.1; "not identified", the constants come from the thresholds). Their verdicts,
``L`` exponents and CIs, the cells' shared-width thresholds and ``C`` agree within 6.2e-7
relative on 5 copies each.
The run of 2026-11-27 afternoon (55 fits, after ``compare.identifiable`` began to judge
constants at their balanced point): 9 moved, the 7 above and two model comparisons of
``vural2026.mean_bias`` that move the same with the code of 8d8de70 (before that change),
though the run at 43 fits had them "same": on ``mean_bias_in_regime.csv`` the additive
neighbour's fit reaches AIC 767.1 on the data and 967.3 on every nudged copy (its ranking
against the law flips; the verdict, exponents and the constant the docs quote do not move),
and on ``mean_bias_zeta_2048.csv`` a ΔAIC of -2.0 moves in its 6th digit.
``gd_plain_lr400_zeta05_L_line.csv`` (added later that day), whose exponent is read from the
cells' model-free brackets (docs/methods.md §4), moves in its ``C`` (0.489 on the data,
0.489-0.48907 on four of 5 nudged copies and 0.250 on one: the law's joint likelihood is not
identified on step transitions, and the docs quote no ``C`` for it); its verdict, ``L``
exponent and CI agree to 1e-14 on all 5. Before resource values within 1e-9 were pooled as one point, its
nudged copies split the brackets' trials and flipped the verdict.
Since law fits with several constants also start from their balanced point
(``compare.law_fit._best_start``, 2026-11-27 evening) ``mean_bias_in_regime.csv`` is the same
on 5 copies (AIC 767.1 on each); ``mean_bias_zeta_2048.csv`` still moves in the 6th digit of a
ΔAIC of -2.0 (a neighbour level with the law, whose extra constant the likelihood barely
sees).
Since ``compare.Dataset.from_rows`` pools a cell's resources within ``SAME_POINT_RTOL`` as
the threshold fits do (2026-11-27 night; before, rows a few ulps apart stayed separate
points in the law fit, whose binomial constant then differed from the pooled one of the
collapse test: its LR went from 29.2 to 54 on nudged copies of
``three_step_eta1e5_L_line.csv``), 62 fits, 6 moved: the five of the runs above that are not
plain-GD ``L`` lines (``gd_adam60_L_line_2048.csv``, ``gd_plain_lr400_zeta05_L_line.csv``,
``limit_beta4_zeta05_L_line.csv``, ``mean_bias_zeta_2048.csv``, the ``three_step_additive``
refit), as described; the three plain-GD lines that moved in their cells' own brackets and
their joint log-likelihood are now the same on every copy. New:
``three_step_eta1e5_beta10_L_line.csv``, two cells of single-seed rows whose transitions are
steps (width 0.009 in log N), moves in the law fit's width and its unidentified width trend
in ``L`` (6.9, s.e. 4e6), in ``C``'s 6th digit and in which neighbouring forms it can score;
its verdict, ``L`` exponent and CI and the cells' thresholds agree.
Added later (2026-11-27, late): ``three_step_eta1e5_L_line_4096.csv``,
``three_step_eta1e5_L_line_4096_724.csv`` and ``limit_hard_L_line_4096_724.csv``, each the
same on 3 copies (``--only NAME``). 2026-11-28: ``limit_beta5_gpu_L_line_8192.csv`` and
``limit_beta3_gpu_L_line_8192.csv`` (``--only gpu_L_line_8192``), ``limit_beta3_gpu_L_line_16384.csv``,
``three_step_eta3e4_L_line.csv``; later that day ``three_step_eta1e5_L_line_2896_512.csv`` and
``limit_hard_L_line_2896_512.csv`` (``--only 2896_512``: the same on 3 copies),
``three_step_eta1e5_L_line_2896_724.csv`` and ``limit_hard_L_line_2896_724.csv`` (``--only
2896_724``): the first moves on 1 of 3 copies in whether one neighbouring form (``log L·log V``)
is identified on its two cells, whose transitions are steps on their grids (one more note);
its verdict, ``L`` exponent and CI agree to 1e-8. Later: ``limit_beta3_L_line_2896_724.csv`` and
``limit_beta3_L_line_2896_512.csv`` (``--only beta3_L_line_2896``). Later still:
``three_step_eta1e4_L_line.csv`` and ``three_step_eta3e5_L_line.csv``, each the same on 3
copies. 2026-12-01: ``three_step_eta3e5_L_line_2896_724.csv`` (``--only eta3e5_L_line_2896``),
the same on 3 copies.
2026-12-04: the GPU rows ``gd_adam60_gpu_d_line_4096_L64.csv``, ``gd_adam60_gpu_L_line_4096_724.csv``,
``gd_adam60_gpu_V_line_1024_L64.csv``, ``limit_beta3_gpu_L_line_16384_to512.csv`` and
``three_step_eta1e5_gpu_L_line_8192.csv`` (``--only`` each name), each the same on 3 copies.
Later that day: ``limit_beta10_zeta05_trigger_in_2048_d_line_L512.csv`` and
``limit_hard_zeta05_trigger_in_2048_430_L128_L512.csv``, each the same on 3 copies. The pole law
``N >= C0 + C1/(d - C2)`` on that file alone (three cells, one a bracket, three constants) flips
between refuted and inconclusive: it is not published. The published pole fits pool it with
``..._2048_600_724_L512.csv`` (and the ``L128`` pair); run on one concatenated CSV each (this list
takes one file a fit), only the log-form neighbour's ΔBIC (-0.0066 and -0.024) moved, by 1e-5
relative; the walls and their CIs did not.
``limit_beta10_zeta05_trigger_in_1024_d_line_L128.csv`` and ``limit_hard_zeta05_trigger_in_2048_d_line_L128.csv``
under the headline and the pole law: each the same on 3 copies.
Late on 2026-12-04: ``limit_hard_zeta05_trigger_in_2048_d_line_L512.csv`` under the headline (``--only
hard_zeta05_trigger_in_2048_d_line_L512``). Its pole fits pool it with the ``430`` file (``--where L=512``, or
both ``L`` under one pole); this list takes one file a fit, so they are checked by
tests/test_published_fits_limit_pole.py only.
``limit_beta10_zeta05_trigger_in_2048_d_line_L128_target098.csv`` under the headline and the pole law (``--only
2048_d_line_L128_target098``): the headline the same on 3 copies; the pole fit moved only in a number near 0, the
end of the ``d`` exponent's equivalence CI (-0.00047672 by 1e-12, 2e-6 relative); the wall and its CI did not.
``limit_beta10_zeta05_trigger_in_2048_d_line_L32.csv`` under the headline and the pole law (``--only
2048_d_line_L32``): the headline the same on 3 copies; the pole fit (three cells, three constants) flipped its verdict
on one copy until the start's fix of that evening (docs/methods.md, "an unshifted start"), and now moves only in a
neighbouring form's ΔBIC of 1.3e-9 (by 1.9e-11); the wall and its CI do not.
``limit_hard_zeta05_trigger_in_2048_d_line_L128_target098.csv`` under the headline and the pole law (``--only
hard_zeta05_trigger_in_2048_d_line_L128_target098``): each the same on 3 copies.
2026-12-05: ``limit_beta10_zeta05_trigger_in_1024_262_268_L128.csv`` under the headline (``--only 1024_262_268``); its
six-cell pole pools it with the ``d_line`` file (``--where "d>=262"``): tests/test_published_fits_limit_pole.py only.
``limit_beta10_zeta05_trigger_in_512_d_line_L128.csv`` under the headline and the pole law and
``limit_beta10_zeta05_trigger_in_512_204_212_L128.csv`` under the headline (``--only _512_``); the seven-cell
pole and the four ``V`` under one power pool several files: tests/test_published_fits_limit_pole.py only; and
``limit_hard_zeta05_trigger_in_512_d_line_L128.csv`` under the headline and the pole law. Three of the five are the
same on 3 copies. ``512_d_line`` moves under both laws: under the headline in whether the additive neighbour
(``C_add1*L*V**2*log(V) + C_add2/d**2``) is identified, one more note on the file than on its copies (the cells want
only its ``d`` term, and ``C_add1`` drifts along a flat likelihood to 2.9e-26 on the file, within 1e-3 of its box:
"ran to its bound", and to ~1e-24 on the copies, not at the box: identified); under the pole law in a neighbouring
form's ΔBIC (0.092133560 against 0.092133426, 1.4e-6 relative). The verdicts, walls and CIs do not move.
Tried and dropped (2026-12-05): calling a constant at its bound wherever its column of ``d log f / d log C`` has a
root mean square below 1e-12 at the optimum (``identifiable``'s rule at the start) made this file the same on every
copy and three others move the same way (``gd_adam60_gpu_d_line_4096_L64.csv``, ``limit_beta4_zeta05_L_line.csv``,
``mean_bias_zeta_2048.csv``): where an optimiser stops along a flat direction, any fixed size rule is crossed by
some copies. A rule on the likelihood (a constant is at its bound when sending it there costs under some small
log-likelihood) is not built. Seen on that run and checked on dcc36ba's code: ``gd_plain_lr400_zeta05_L_line.csv``
moves in which neighbour the headline names as decisive (``times log(L)``, ΔBIC 21, on the file; ``over log(L)``,
ΔBIC 22, on a copy), beyond the ``C`` recorded above; its verdict, exponent and CI do not move.
``limit_hard_zeta05_trigger_in_1024_d_line_L128.csv`` under the headline and the pole law (``--only
hard_zeta05_trigger_in_1024``): the headline the same on 3 copies; the pole fit moves only in a neighbouring
form's ΔBIC (-0.036437334 against -0.036437394, 1.7e-6 relative); its wall and CI do not.
``limit_hard_zeta05_trigger_in_4096_600_724_L128.csv`` under the headline: the same on 3 copies.
The whole list on 2026-12-05 (113 fits, 3 copies, the law fit of dcc36ba, after last session's start changes):
9 moved, each recorded above: ``gd_plain_lr400_zeta05_L_line.csv`` (the decisive neighbour's name),
``headline_gpu_wide_16384.csv``'s ``three_step_additive`` refit (the ``L`` width trend, 1.4e-6), the two
``three_step_eta1e5`` lines at ``β = 10`` (``C``'s log standard error, 118.41 against 118.46) and at ``(2896, 724)``
(``C`` 5.35 on the file, 2.63 and 3.72 on two copies: its CI spans 12 decades and the docs quote none), the pole
fits at ``L = 32`` and at 0.98 (numbers near zero), and the three of this day (``512_d_line`` twice,
``hard_zeta05_trigger_in_1024``'s pole). On every one the verdict is the same and the exponents and their CIs
agree to 3e-9 relative (checked on the 3 copies), and no published number moves; ``limit_beta4_zeta05_L_line.csv``
and ``mean_bias_zeta_2048.csv``, which moved before, were the same.
Later on 2026-12-05 (after the start's least squares moved to ``compare/constant_start.py``, the same numbers): the
three ``limit_beta{10,774,735}_zeta05_trigger_in_512_d_line_L32.csv`` under the headline and the pole law (``--only
512_d_line_L32``): the headlines and ``beta10``'s pole the same on 3 copies; the poles at ``beta774`` and ``beta735``
move only in a neighbouring form's ΔBIC (-0.48780546 against -0.48780601, 1.1e-6 relative; 0.30329568 against
0.30331024, 4.8e-5); their walls and CIs do not. ``limit_beta655_zeta05_trigger_in_512_d_line_L32.csv`` under the
headline and the pole law on ``d >= 212`` (``--only beta655``): the headline moves in its largest observed/predicted
ratio (216.08088 against 216.08157, 3e-6; the cell at ``d = 204`` has no stable crossing), the pole in the end of the
``d`` exponent's equivalence CI (-0.35459099 against -0.35459045, 1.5e-6); the wall and its CI do not. A copy's
``--where`` note names its temporary file: each fit's output now reads ``DATA`` for the file's path.
``limit_hard_zeta05_trigger_in_512_d_line_L32.csv`` under the headline and the pole law (``--only
hard_zeta05_trigger_in_512_d_line_L32``): the headline the same on 3 copies; the pole moves only in the end of the
``d`` exponent's equivalence CI (-0.00083913522 against -0.00083913971, 5e-6); its wall and CI do not.
``limit_beta11_zeta05_trigger_in_512_d_line_L128.csv`` under the headline and the pole law (``--only
beta11_zeta05_trigger_in_512``): the headline the same on 3 copies; the pole moves only in a neighbouring form's ΔBIC
(-0.22107949 against -0.22107990, 1.8e-6); its wall and CI do not.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np

FITS = [  # (CSV, resource, the rest of the documented command)
    ("gd_adam120_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_d_line.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_V_diagonal.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_V_d_cells.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_L_line_2048.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_gpu_L_line_4096.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_gpu_V_cells.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_gpu_d_line_4096_L64.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_gpu_L_line_4096_724.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_gpu_V_line_1024_L64.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_trigger_in_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_trigger_in_zeta05_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_adam60_zeta05_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_adam30_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_plain240_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_plain480_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_plain_lr200_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_plain_lr400_L_line_2048.csv", "N", "--law vural2026.headline"),
    ("gd_plain_lr400_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_plain_lr400_zeta05_L_line.csv", "N", "--law vural2026.headline"),
    ("gd_plain_lr200_trigger_in_L_line.csv", "N", "--law vural2026.headline"),
    ("limit_trigger_in_1024_256.csv", "N", "--law vural2026.headline"),
    ("limit_beta4_zeta05_L_line.csv", "N", "--law vural2026.headline"),
    ("limit_beta4_trigger_in_L_line.csv", "N", "--law vural2026.headline"),
    ("one_step_zeta05_L_line.csv", "N", "--law vural2026.lower"),
    ("one_step_trigger_out_L_line.csv", "N", "--law vural2026.lower"),
    ("one_step_zeta05_trigger_out_L_line.csv", "N", "--law vural2026.lower"),
    ("mean_bias_in_regime.csv", "N", "--law vural2026.mean_bias"),
    ("mean_bias_zeta_2048.csv", "N", "--law vural2026.mean_bias"),
    ("mean_bias_zeta_4096.csv", "N", "--law vural2026.mean_bias"),
    ("mlp_gradient_noise_in_regime.csv", "N", "--law vural2026.mlp_gradient_noise"),
    ("mlp_gradient_noise_quick.csv", "N", "--law vural2026.mlp_gradient_noise --params V,d,L,m"),
    ("mlp_gradient_noise_L_line_centred.csv", "N", "--law vural2026.mlp_gradient_noise"),
    ("mlp_gradient_noise_uncentred_trigger_out_L_line.csv", "N", "--law vural2026.mlp_gradient_noise"),
    ("mlp_gradient_noise_m_line_2048.csv", "N", "--law vural2026.mlp_gradient_noise"),
    ("mlp_gradient_noise_L_line_2048.csv", "N", "--law vural2026.mlp_gradient_noise"),
    ("mlp_mean_bias_V_line_paper.csv", "N", "--law vural2026.mlp_mean_bias --ignore m"),
    ("mlp_mean_bias_d_line_fixed_md_paper.csv", "N", "--law vural2026.mlp_mean_bias --ignore m"),
    ("mlp_mean_bias_d_line_paper.csv", "N", "--law vural2026.mlp_mean_bias --params V,d,L,m"),
    ("mlp_gradient_noise_uncentred_quick.csv", "N", "--law vural2026.mlp_gradient_noise --params V,d,L,m"),
    ("mlp_phase_centred_trigger_in.csv", "N", "--law vural2026.mlp_gradient_noise --params V,d,L,m"),
    ("mlp_phase_uncentred_trigger_out.csv", "N", "--law vural2026.mlp_mean_bias --params V,d,L,m"),
    ("mlp_phase_uncentred_trigger_in.csv", "N", "--law vural2026.mlp_mean_bias --params V,d,L,m"),
    ("mlp_storage_uncentred_quick.csv", "m", "--law vural2026.mlp_storage"),
    ("mlp_storage_uncentred_trigger_out_quick.csv", "m", "--law vural2026.mlp_storage"),
    ("three_step_in_regime.csv", "N",
     '--law "N >= C0*V*log(V)/(1 - C1*V*log(V)/d**2)" --assume "d**2 > 2*V*log(V)" --params V,d,L'),
    ("three_step_in_regime.csv", "N", "--law vural2026.three_step_hard --params V,d,L"),
    ("three_step_in_regime.csv", "N", "--params V,d,L"),
    ("headline_gpu_wide_16384.csv", "N", "--law vural2026.headline"),
    ("headline_gpu_wide_16384.csv", "N", '--law "N >= C*(0.431*V*log(V) + 1254*V**2/d**2)" --params V,d,L'),
    ("headline_gpu_wide_16384.csv", "N", "--law vural2026.three_step_additive --params V,d,L"),
    ("headline_gpu_wide_16384.csv", "N", ""),
    ("limit_beta4_L_line_2048.csv", "N", "--law vural2026.headline"),
    ("limit_beta5_L_line_2048.csv", "N", "--law vural2026.headline"),
    ("limit_beta3_L_line_2048.csv", "N", "--law vural2026.headline"),
    ("limit_beta5_L_line_4096.csv", "N", "--law vural2026.headline"),
    ("limit_beta5_L_line_4096.csv", "N", '--law "N >= 0.431*V*log(V) + 1254*V**2/d**2 + C2*L*V**2/d**3" --params V,d,L'),
    ("limit_beta3_L_line_4096.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_L_line.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_beta5_L_line.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_beta10_L_line.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_L_line_4096.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_L_line_4096_724.csv", "N", "--law vural2026.headline"),
    ("three_step_eta3e4_L_line.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e4_L_line.csv", "N", "--law vural2026.headline"),
    ("three_step_eta3e5_L_line.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_beta10_zeta05_L_line.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_beta10_zeta05_trigger_in_L_line.csv", "N", "--law vural2026.headline"),
    ("limit_hard_L_line_4096_724.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_L_line_2896_512.csv", "N", "--law vural2026.headline"),
    ("limit_hard_L_line_2896_512.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_L_line_2896_724.csv", "N", "--law vural2026.headline"),
    ("three_step_eta3e4_L_line_2896_724.csv", "N", "--law vural2026.headline"),
    ("three_step_eta3e5_L_line_2896_724.csv", "N", "--law vural2026.headline"),
    ("limit_hard_L_line_2896_724.csv", "N", "--law vural2026.headline"),
    ("limit_beta3_L_line_2896_724.csv", "N", "--law vural2026.headline"),
    ("limit_beta3_L_line_2896_512.csv", "N", "--law vural2026.headline"),
    ("limit_beta4_L_line_2048.csv", "N", '--law "N >= C*(0.431*V*log(V) + 1254*V**2/d**2 + 1866*L*V**2/d**3)" '
                                         "--params V,d,L"),
    ("limit_beta5_gpu_L_line_8192.csv", "N", "--law vural2026.headline"),
    ("limit_beta5_gpu_L_line_8192.csv", "N", '--law "N >= 0.431*V*log(V) + 1254*V**2/d**2 + C2*L*V**2/d**3" --params V,d,L'),
    ("limit_beta3_gpu_L_line_8192.csv", "N", "--law vural2026.headline"),
    ("limit_beta3_gpu_L_line_16384.csv", "N", "--law vural2026.headline"),
    ("limit_beta3_gpu_L_line_16384.csv", "N", '--law "N >= 0.431*V*log(V) + 1254*V**2/d**2 + C2*L*V**2/d**3" --params V,d,L'),
    ("limit_beta3_gpu_L_line_16384_to512.csv", "N", "--law vural2026.headline"),
    ("three_step_eta1e5_gpu_L_line_8192.csv", "N", "--law vural2026.headline"),
    ("limit_beta10_zeta05_trigger_in_2048_d_line_L512.csv", "N", "--law vural2026.headline"),
    ("limit_hard_zeta05_trigger_in_2048_430_L128_L512.csv", "N", "--law vural2026.headline"),
    ("limit_beta10_zeta05_trigger_in_1024_d_line_L128.csv", "N", "--law vural2026.headline"),
    ("limit_beta10_zeta05_trigger_in_1024_d_line_L128.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_hard_zeta05_trigger_in_2048_d_line_L128.csv", "N", "--law vural2026.headline"),
    ("limit_hard_zeta05_trigger_in_2048_d_line_L128.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_hard_zeta05_trigger_in_2048_d_line_L512.csv", "N", "--law vural2026.headline"),
    ("limit_beta10_zeta05_trigger_in_2048_d_line_L128_target098.csv", "N", "--law vural2026.headline"),
    ("limit_beta10_zeta05_trigger_in_2048_d_line_L32.csv", "N", "--law vural2026.headline"),
    ("limit_hard_zeta05_trigger_in_2048_d_line_L128_target098.csv", "N", "--law vural2026.headline"),
    ("limit_hard_zeta05_trigger_in_2048_d_line_L128_target098.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_beta10_zeta05_trigger_in_2048_d_line_L32.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_beta10_zeta05_trigger_in_2048_d_line_L128_target098.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_beta10_zeta05_trigger_in_1024_262_268_L128.csv", "N", "--law vural2026.headline"),
    ("limit_beta10_zeta05_trigger_in_512_d_line_L128.csv", "N", "--law vural2026.headline"),
    ("limit_beta10_zeta05_trigger_in_512_d_line_L128.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_beta10_zeta05_trigger_in_512_204_212_L128.csv", "N", "--law vural2026.headline"),
    ("limit_hard_zeta05_trigger_in_512_d_line_L128.csv", "N", "--law vural2026.headline"),
    ("limit_hard_zeta05_trigger_in_512_d_line_L128.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_hard_zeta05_trigger_in_1024_d_line_L128.csv", "N", "--law vural2026.headline"),
    ("limit_hard_zeta05_trigger_in_1024_d_line_L128.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_hard_zeta05_trigger_in_4096_600_724_L128.csv", "N", "--law vural2026.headline"),
    *[(f"limit_beta{b}_zeta05_trigger_in_512_d_line_L32.csv", "N", rest) for b in (10, 774, 735, 655) for rest in (
        "--law vural2026.headline", '--law "N >= C0 + C1/(d - C2)" --params d' + (' --where "d>=212"' if b == 655
                                                                                     else ""))],
    ("limit_hard_zeta05_trigger_in_512_d_line_L32.csv", "N", "--law vural2026.headline"),
    ("limit_hard_zeta05_trigger_in_512_d_line_L32.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    ("limit_beta11_zeta05_trigger_in_512_d_line_L128.csv", "N", "--law vural2026.headline"),
    ("limit_beta11_zeta05_trigger_in_512_d_line_L128.csv", "N", '--law "N >= C0 + C1/(d - C2)" --params d'),
    *[(f"limit_beta4_gpu_L_line_{v}.csv", "N", rest) for v in (4096, 8192, 16384) for rest in (
        "--law vural2026.headline", '--law "N >= 0.431*V*log(V) + 1254*V**2/d**2 + C2*L*V**2/d**3" --params V,d,L')],
]
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


def fit(path: str, rest: str) -> dict:
    cmd = [sys.executable, "-m", "theorycheck.cli.main", "fit", path, *shlex.split(rest), "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode not in (0, 1, 3):
        raise SystemExit(f"{' '.join(cmd)} failed (exit {out.returncode}): {out.stderr.strip()}")
    return json.loads(out.stdout.replace(path, "DATA"))  # a note may name the file (--where's count of rows)


def moved(a, b, where: str = "") -> str | None:
    """The first place where two JSON values differ beyond a relative 1e-6, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            return f"{where}: keys {sorted(set(a) ^ set(b))}"
        return next((m for k in a if (m := moved(a[k], b[k], f"{where}.{k}"))), None)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} against {len(b)} items"
        return next((m for i, (x, y) in enumerate(zip(a, b)) if (m := moved(x, y, f"{where}[{i}]"))), None)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        same = (math.isnan(a) and math.isnan(b)) or a == b or math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)
        return None if same else f"{where}: {a!r} against {b!r}"
    if isinstance(a, str) and isinstance(b, str) and a != b:
        # text carries numbers too (notes, reasons): compare it with its numbers read
        ta, tb = _numbers(a), _numbers(b)
        return None if ta is not None and ta[0] == tb[0] and moved(ta[1], tb[1]) is None else f"{where}: {a!r} against {b!r}"
    return None if a == b else f"{where}: {a!r} against {b!r}"


def _numbers(text: str):
    pattern = r"[-+]?\d+(?:\.\d*)?(?:e[-+]?\d+)?"
    return re.sub(pattern, "#", text), [float(x) for x in re.findall(pattern, text)]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--copies", type=int, default=3)
    ap.add_argument("--only", default="", help="run the fits whose CSV name contains this")
    args = ap.parse_args(argv)
    if args.copies < 1:
        ap.error(f"--copies must be an integer >= 1, got {args.copies}")
    count = 0
    for name, resource, rest in [f for f in FITS if args.only in f[0]]:
        path = os.path.join(DATA, name)
        base = fit(path, rest)
        rows = list(csv.DictReader(open(path, newline="")))
        first = None
        for seed in range(1, args.copies + 1):
            rng = np.random.default_rng(seed)
            with tempfile.NamedTemporaryFile("w", suffix=".csv", newline="", delete=False) as fh:
                writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
                writer.writeheader()
                for row in rows:
                    writer.writerow({**row, resource: repr(float(row[resource]) * (1 + 4e-16 * rng.standard_normal()))})
            try:
                first = first or moved(base, fit(fh.name, rest))
            finally:
                os.unlink(fh.name)
        count += first is not None
        print(f"{'MOVED' if first else 'same '}  {name} {rest}" + (f"\n        {first}" if first else ""), flush=True)
    print(f"{count} of {len([f for f in FITS if args.only in f[0]])} fits moved under ulp-level changes of their data")
    return 0


if __name__ == "__main__":
    sys.exit(main())
