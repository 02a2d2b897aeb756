"""Dense models of docs/theory.md §2-3: forward pass, loss and analytic gradients.

The gradients ``∇_{W_V} ℓ = U(p − e_y)φ(o)ᵀ`` and
``∇_{W_KQ} ℓ = Σ_i σ_i[(v_i − o)ᵀJ] k_i z_EOSᵀ`` are checked against central finite
differences of the loss on real task data (both models, both value paths).
"""

from __future__ import annotations

import numpy as np
import pytest

from theorycheck.algorithms.limit import run_limit
from theorycheck.algorithms.three_step import full_gradient
from theorycheck.models.attention import DenseModel, dense_model, softmax_rows
from theorycheck.models.contexts import DenseContexts
from theorycheck.models.training import DenseTrainingData, dense_keys_values
from theorycheck.tasks.retrieval import RetrievalParams, keys_values, make_embeddings, sample_batch

# Relative error of central differences in float64 with step h = 1e-5: truncation
# ~ h²·|ℓ'''| ~ 1e-10 and rounding ~ eps·|ℓ|/h ~ 1e-11 (loss is O(1)), so 1e-6 leaves
# four orders of margin, while any wrong term or factor gives an O(1) error.
FD_RTOL = 1e-6
FD_STEP = 1e-5


def _setup(model: str, marker_in_value: bool, center: bool, seed: int):
    kw = dict(model="mlp", m=7, center_features=center) if model == "mlp" else {}
    params = RetrievalParams(V=6, d=5, L=4, N=9, marker_in_value=marker_in_value, **kw)
    rng = np.random.default_rng(seed)
    emb = make_embeddings(params, rng)
    batch = sample_batch(params, emb, rng, 9)
    keys, values = keys_values(params, emb, batch)
    dm = dense_model(params, emb)
    # Non-zero weights of O(1) logit size, so that neither gradient vanishes and the
    # softmaxes are far from uniform and far from saturated.
    w_v = rng.standard_normal(dm.value_shape) * 2.0
    w_kq = rng.standard_normal((params.d, params.d)) * 2.0
    mu = rng.standard_normal(params.m) * 0.3 if center else None
    return dm, keys, values, batch, w_v, w_kq, mu


def _finite_differences(loss, w):
    grad = np.zeros_like(w)
    for idx in np.ndindex(w.shape):
        step = np.zeros_like(w)
        step[idx] = FD_STEP
        grad[idx] = (loss(w + step) - loss(w - step)) / (2 * FD_STEP)
    return grad


@pytest.mark.parametrize(
    ("model", "marker_in_value", "center"),
    [("attention", True, False), ("attention", False, False), ("mlp", True, False),
     ("mlp", False, False), ("mlp", True, True)],
)
def test_analytic_gradients_match_central_differences(model, marker_in_value, center):
    dm, keys, values, batch, w_v, w_kq, mu = _setup(model, marker_in_value, center, seed=11)
    out = dm.loss_and_gradients(DenseContexts(keys, values), batch.labels, w_v, w_kq, mu)

    def loss_v(w):
        return dm.loss_and_gradients(DenseContexts(keys, values), batch.labels, w, w_kq, mu).loss

    def loss_kq(w):
        return dm.loss_and_gradients(DenseContexts(keys, values), batch.labels, w_v, w, mu).loss

    fd_v = _finite_differences(loss_v, w_v)
    fd_kq = _finite_differences(loss_kq, w_kq)
    assert np.abs(fd_v).max() > 1e-3 and np.abs(fd_kq).max() > 1e-3  # non-trivial gradients
    assert np.abs(out.grad_v - fd_v).max() <= FD_RTOL * np.abs(fd_v).max()
    assert np.abs(out.grad_kq - fd_kq).max() <= FD_RTOL * np.abs(fd_kq).max()


@pytest.mark.parametrize(("model", "center"), [("attention", False), ("mlp", False), ("mlp", True)])
def test_shortcut_at_zero_values_matches_central_differences(model, center):
    # At W_V = 0 loss_and_gradients skips the logits (p = 1/V); the differences step to
    # W_V = ±h·e_ij, where the full forward pass runs: the shortcut's ∇W_V must match them
    # to FD_RTOL (why that tolerance: above), its loss must be log V a sequence, its ∇W_KQ 0
    # (the loss does not depend on W_KQ while W_V = 0) and its predictions label 0.
    dm, keys, values, batch, _, w_kq, mu = _setup(model, True, center, seed=12)
    zero = np.zeros(dm.value_shape)
    ctx = DenseContexts(keys, values)
    out = dm.loss_and_gradients(ctx, batch.labels, zero, w_kq, mu, pos=batch.pos)
    fd_v = _finite_differences(lambda w: dm.loss_and_gradients(ctx, batch.labels, w, w_kq, mu).loss, zero)
    assert np.abs(fd_v).max() > 1e-3
    assert np.abs(out.grad_v - fd_v).max() <= FD_RTOL * np.abs(fd_v).max()
    assert out.loss == pytest.approx(len(batch) * np.log(dm.U.shape[0]), rel=1e-12)
    assert np.all(out.grad_kq == 0.0)
    assert out.correct == int(np.sum(batch.labels == 0))
    sigma = dm.attention(ctx, w_kq)
    assert out.selected == int(np.sum(np.argmax(sigma, axis=1) == batch.pos))


def test_loss_matches_direct_definition():
    dm, keys, values, batch, w_v, w_kq, mu = _setup("mlp", True, True, seed=3)
    out = dm.loss_and_gradients(DenseContexts(keys, values), batch.labels, w_v, w_kq, mu)
    total = 0.0
    for n in range(len(batch)):  # one sequence at a time, straight from docs/theory.md §2
        s = keys[n] @ w_kq @ dm.z_eos
        sigma = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
        o = sigma @ values[n]
        phi = np.maximum(dm.A @ o, 0.0) - mu
        f = dm.U @ w_v @ phi
        total += np.log(np.exp(f - f.max()).sum()) + f.max() - f[batch.labels[n]]
    # Same float64 operations in another order: agreement to rounding (~1e-15 relative).
    assert out.loss == pytest.approx(total, rel=1e-12)
    assert out.count == len(batch)
    assert out.grad_kq.shape == (5, 5) and out.grad_v.shape == (5, 7)


def test_gradient_at_zero_is_minus_first_limit_matrix_and_kq_gradient_vanishes():
    # At W = 0: p = 1/V, σ = 1/L, so -∇_{W_V} L̂ = (1/N) Σ w_{y_n} ō_nᵀ = G₁ of the
    # limit, and ∇_{W_KQ} L̂ = 0 (it is proportional to W_V).  Only summation order
    # differs from the counting fast path of the limit algorithm: agreement to 1e-12 relative.
    params = RetrievalParams(V=12, d=8, L=5, N=700)
    emb = make_embeddings(params, np.random.default_rng(4))
    seed = np.random.SeedSequence(9)
    dm = dense_model(params, emb)
    data = DenseTrainingData(params, emb, seed, chunk=64)
    w_v, w_kq = dm.zeros()
    loss, grad_v, grad_kq, _, _ = full_gradient(dm, data, w_v, w_kq, None)
    G1 = run_limit(params, emb, seed).G1
    assert loss == pytest.approx(np.log(params.V), rel=1e-12)
    assert np.abs(-grad_v - G1).max() <= 1e-12 * np.abs(G1).max()
    assert np.all(grad_kq == 0.0)


def test_gradient_sums_do_not_depend_on_chunking():
    params = RetrievalParams(V=10, d=6, L=3, N=257, model="mlp", m=9)
    emb = make_embeddings(params, np.random.default_rng(5))
    seed = np.random.SeedSequence(2)
    dm = dense_model(params, emb)
    rng = np.random.default_rng(0)
    w_v = rng.standard_normal(dm.value_shape)
    w_kq = rng.standard_normal((6, 6))
    a = full_gradient(dm, DenseTrainingData(params, emb, seed, chunk=7), w_v, w_kq, None)
    b = full_gradient(dm, DenseTrainingData(params, emb, seed), w_v, w_kq, None)
    # Sums of the same terms grouped differently: equal to rounding (1e-12 relative).
    assert a[0] == pytest.approx(b[0], rel=1e-12)
    for x, y in zip(a[1:3], b[1:3]):
        assert np.abs(x - y).max() <= 1e-12 * np.abs(y).max()
    assert a[3:] == b[3:]


def test_softmax_rows_is_stable_for_huge_scores():
    s = np.array([[1e300, 0.0, -1e300], [3.0, 3.0, 3.0]])  # exp(1e300) overflows
    w = softmax_rows(s)
    assert np.all(np.isfinite(w))
    np.testing.assert_array_equal(w[0], [1.0, 0.0, 0.0])
    np.testing.assert_allclose(w[1], 1 / 3, rtol=1e-15)


def test_dense_model_rejects_mlp_without_features():
    params = RetrievalParams(V=4, d=4, L=2, N=3, model="mlp", m=3)
    emb = make_embeddings(params, np.random.default_rng(0))
    bare = type(emb)(E=emb.E, U=emb.U, z_trig=emb.z_trig, z_eos=emb.z_eos, perm=emb.perm, A=None)
    with pytest.raises(ValueError, match="A=None"):
        dense_model(params, bare)
    with pytest.raises(ValueError, match="attention-MLP"):
        ctx = DenseContexts(np.zeros((1, 2, 4)), np.zeros((1, 2, 4)))
        DenseModel(U=emb.U, z_eos=emb.z_eos).feature_sums(ctx, np.zeros((4, 4)))


@pytest.mark.parametrize("miv", [True, False])
def test_dense_keys_values_match_the_task_definition(miv):
    params = RetrievalParams(V=9, d=5, L=4, N=10, marker_in_value=miv)
    emb = make_embeddings(params, np.random.default_rng(6))
    batch = sample_batch(params, emb, np.random.default_rng(7), 10)
    keys, values = dense_keys_values(params, emb, batch)
    want_keys, want_values = keys_values(params, emb, batch)
    np.testing.assert_array_equal(keys, want_keys)
    np.testing.assert_array_equal(values, want_values)
    assert (values is keys) == miv and not keys.flags.writeable
