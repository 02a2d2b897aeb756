"""Known behaviour of the simulator (docs/theory.md §6, docs/theory.md §7): the laws it must reproduce.

Each test runs a handful of seeded trials at sizes chosen so that the expected effect is
far from the decision line; the comments give the measured values the bounds leave room
around.
"""

import math

import numpy as np
import pytest

from theorycheck.simulate import simulate
from theorycheck.tasks.retrieval import RetrievalParams

SEEDS = range(3)


def _outcomes(algorithm="limit", **kw):
    p = RetrievalParams(**kw)
    return [simulate(p, algorithm, seed=s) for s in SEEDS]


@pytest.mark.parametrize("L", [4, 64])
def test_orthogonal_exact_recall_at_a_multiple_of_V_log_V_for_every_L(L):
    # orthogonal baseline: N >= C0·V·ln V, no L coupling while L <= V.  Measured (4 seeds,
    # V=64): exact recall of all 64 facts from N = 2·V·ln V on, for L = 4, 16 and 64
    # alike; at 0.5·V·ln V accuracy is 0.84-0.91.  We test 4·V·ln V (all seeds exact)
    # and 0.5·V·ln V (no seed exact), the same for L = 4 and L = 64 = V.
    V = 64
    base = V * math.log(V)
    cell = dict(V=V, d=V + 2, L=L, embeddings="orthogonal", marker_in_value=False, target=1.0)
    assert all(o.success for o in _outcomes(N=int(4 * base), **cell))
    assert not any(o.success for o in _outcomes(N=int(0.5 * base), **cell))


def test_random_embeddings_one_step_needs_more_N_for_longer_sequences():
    # one-step readout, V = d = 128: N_crit ≈ 6.2·V·lnV + 34·L·V(V+d)·lnV/d² (docs/theory.md §7.2)
    # = 5.2k at L=4 and 25k at L=64.  Measured at N=4000: accuracy 1.0 (L=4) vs 0.57-0.63
    # (L=64); at N=64000, L=64: 0.99-1.0.  Bounds 0.99 / 0.8 / 0.97 leave that room.
    cell = dict(V=128, d=128, marker_in_value=False)
    assert all(o.accuracy >= 0.99 for o in _outcomes("one-step", L=4, N=4000, **cell))
    assert all(o.accuracy <= 0.8 for o in _outcomes("one-step", L=64, N=4000, **cell))
    assert all(o.accuracy >= 0.97 for o in _outcomes("one-step", L=64, N=64000, **cell))


def test_random_embeddings_limit_selection_needs_more_N_for_longer_sequences():
    # three-step limit, (V, d) = (256, 32): L enters through step-2 selection.  Paper §3.3
    # table: selection 0.97 (L=64) but 0.01 (L=256) at N=4000.  Measured here at N=4000:
    # 1.0 for L=16, 0.02-0.04 for L=256.
    cell = dict(V=256, d=32, N=4000, marker_in_value=False)
    assert all(o.selection_accuracy >= 0.99 for o in _outcomes(L=16, **cell))
    assert all(o.selection_accuracy <= 0.2 for o in _outcomes(L=256, **cell))


@pytest.mark.slow
def test_limit_selection_recovers_with_more_N_at_long_sequences():
    # same cell as above: selection at L=256 rises to 0.97 at N=64000 (paper: 0.98)
    cell = dict(V=256, d=32, L=256, marker_in_value=False)
    assert all(o.selection_accuracy >= 0.9 for o in _outcomes(N=64000, **cell))


def test_marker_in_value_costs_accuracy_even_with_perfect_selection():
    # mean-bias term N·d >= C4·zeta⁴·V²·ln V: at V=d=128, L=16, N=8000 the marker in the
    # value path gives accuracy 0.70-0.78 with selection 1.0, without it 1.0 (3 seeds).
    cell = dict(V=128, d=128, L=16, N=8000)
    with_marker = _outcomes(marker_in_value=True, **cell)
    without = _outcomes(marker_in_value=False, **cell)
    assert all(o.selection_accuracy == 1.0 for o in with_marker + without)
    assert all(o.accuracy >= 0.99 for o in without)
    assert all(o.accuracy <= 0.9 for o in with_marker)
    # and more N·d shrinks the gap (the law's direction): 8x N raises the mean accuracy
    more = _outcomes(marker_in_value=True, **(cell | {"N": 64000}))
    assert np.mean([o.accuracy for o in more]) > np.mean([o.accuracy for o in with_marker]) + 0.05


def test_soft_attention_tends_to_hard_attention_as_beta_grows():
    p = RetrievalParams(V=64, d=64, L=16, N=6000, marker_in_value=False)
    hard = simulate(p, "limit", seed=3)
    sharp = simulate(p, "limit", seed=3, beta=1e4)
    assert sharp.accuracy == hard.accuracy
    assert sharp.selection_accuracy == hard.selection_accuracy
    # a flat attention (beta -> 0) averages the L tokens into o: recall collapses
    # (measured 0.05-0.11 at beta=0.01 over 4 seeds, 0.98-1.0 for hard attention)
    flat = simulate(p, "limit", seed=3, beta=0.01)
    assert flat.accuracy < hard.accuracy - 0.5
