"""Token-id contexts give the numbers of explicit dense keys and values.

:class:`~theorycheck.models.contexts.TokenContexts` regroups the sums over positions by
token (``S E``, ``Sᵀ J``) instead of building ``(n, L, d)`` arrays; only the order of
float64 additions differs from :class:`~theorycheck.models.contexts.DenseContexts`, so
they agree to rounding.  The tolerance 1e-11 relative is ~10⁴ float64 epsilons (sums of
up to a few thousand terms), far below any missing or wrong term, which is O(1).
"""

from __future__ import annotations

import numpy as np
import pytest

from theorycheck.algorithms.gd import run_gd
from theorycheck.algorithms.three_step import full_gradient, run_three_step
from theorycheck.models.attention import dense_model
from theorycheck.models.contexts import DenseContexts, TokenContexts
from theorycheck.models.training import DenseTrainingData, contexts
from theorycheck.tasks.retrieval import RetrievalParams, keys_values, make_embeddings, sample_batch

RTOL = 1e-11


def _close(a, b):
    scale = max(np.abs(b).max(), 1e-300)
    assert np.abs(np.asarray(a) - np.asarray(b)).max() <= RTOL * scale


def _params(model: str, miv: bool, center: bool = False, **sizes):
    kw = dict(model="mlp", m=11, center_features=center) if model == "mlp" else {}
    base = dict(V=13, d=6, L=5, N=300)
    base.update(sizes)
    return RetrievalParams(marker_in_value=miv, **base, **kw)


@pytest.mark.parametrize("miv", [True, False])
def test_each_sum_over_positions_matches_the_dense_arrays(miv):
    # L = 9 > V = 4 forces repeated tokens in a sequence (duplicates in the sparse rows),
    # and the informative token may repeat elsewhere in its own sequence.
    params = RetrievalParams(V=4, d=5, L=9, N=40, marker_in_value=miv)
    rng = np.random.default_rng(3)
    emb = make_embeddings(params, rng)
    batch = sample_batch(params, emb, rng, 40)
    dense = DenseContexts(*keys_values(params, emb, batch))
    tok = TokenContexts(batch.tokens, batch.pos, emb.E, emb.z_trig, miv)
    q = rng.standard_normal(5)
    sigma = rng.random((40, 9))
    jac = rng.standard_normal((40, 5))
    _close(tok.scores(q), dense.scores(q))
    _close(tok.attend(sigma), dense.attend(sigma))
    _close(tok.key_sum(sigma), dense.key_sum(sigma))
    _close(tok.value_key_sum(sigma, jac), dense.value_key_sum(sigma, jac))
    assert tok.n == dense.n == 40


@pytest.mark.parametrize(("model", "miv", "center"),
                         [("attention", True, False), ("attention", False, False),
                          ("mlp", False, False), ("mlp", True, True)])
def test_full_gradient_is_the_same_in_both_layouts(model, miv, center):
    params = _params(model, miv, center)
    rng = np.random.default_rng(7)
    emb = make_embeddings(params, rng)
    dm = dense_model(params, emb)
    # O(1) weights: neither gradient vanishes and the softmaxes are far from uniform.
    w_v = rng.standard_normal(dm.value_shape)
    w_kq = rng.standard_normal((params.d, params.d)) * 2.0
    mu = rng.standard_normal(params.m) * 0.3 if center else None
    seed = np.random.SeedSequence(5)
    a = full_gradient(dm, DenseTrainingData(params, emb, seed, layout="tokens", chunk=37), w_v, w_kq, mu)
    b = full_gradient(dm, DenseTrainingData(params, emb, seed, layout="dense"), w_v, w_kq, mu)
    assert a[0] == pytest.approx(b[0], rel=RTOL)
    _close(a[1], b[1])
    _close(a[2], b[2])
    assert np.abs(b[2]).max() > 1e-3  # the key-query gradient is not trivially zero
    assert a[3:] == b[3:]  # accuracies: the same argmaxes


@pytest.mark.parametrize("model", ["attention", "mlp"])
def test_gd_and_three_step_train_the_same_weights_in_both_layouts(model):
    params = _params(model, False, center=model == "mlp", N=400)
    emb = make_embeddings(params, np.random.default_rng(1))
    seed = np.random.SeedSequence(8)
    a = run_gd(params, emb, seed, steps=6, optimizer="adam", layout="tokens")
    b = run_gd(params, emb, seed, steps=6, optimizer="adam", layout="dense")
    # Adam divides by √v̂: rounding is amplified where a gradient entry is tiny, so the
    # weights agree to 1e-9 relative (still ~10⁷ epsilons from any real difference).
    for x, y in ((a.w_v, b.w_v), (a.w_kq, b.w_kq)):
        assert np.abs(x - y).max() <= 1e-9 * np.abs(y).max()
    assert [r["recall_accuracy"] for r in a.history] == [r["recall_accuracy"] for r in b.history]
    c = run_three_step(params, emb, seed, layout="tokens")
    d = run_three_step(params, emb, seed, layout="dense")
    _close(c.w_v, d.w_v)
    _close(c.w_kq, d.w_kq)


def test_bad_layout_is_named():
    params = _params("attention", True)
    emb = make_embeddings(params, np.random.default_rng(0))
    with pytest.raises(ValueError, match="layout must be one of 'tokens', 'dense', got 'sparse'"):
        DenseTrainingData(params, emb, np.random.SeedSequence(0), layout="sparse")
    batch = sample_batch(params, emb, np.random.default_rng(0), 3)
    assert isinstance(contexts(params, emb, batch), TokenContexts)
