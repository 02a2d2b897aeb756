"""Early-phase limit for the attention-MLP model (docs/theory.md §3 item 2, MLP)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from theorycheck.algorithms.dense_reference import training_batch
from theorycheck.algorithms import mlp_tables
from theorycheck.algorithms.limit_mlp import run_limit_mlp
from theorycheck.tasks.retrieval import RetrievalParams, keys_values, make_embeddings, test_batch


def _reference(params, emb, seed, beta):
    """docs/theory.md §3 item 2 with φ in place of ō and o, on the whole training set at once."""
    train = training_batch(params, emb, seed)
    keys, values = keys_values(params, emb, train)
    N, L = len(train), params.L
    W = (emb.U - emb.U.mean(axis=0))[train.labels]  # w_{y_n}
    relu = lambda x: np.maximum(x, 0.0)  # noqa: E731
    o_bar = values.mean(axis=1)
    phi1 = relu(o_bar @ emb.A.T)
    if params.center_features:
        phi1 = phi1 - phi1.mean(axis=0)
    G1 = W.T @ phi1 / N
    r = ((W @ G1) * (o_bar @ emb.A.T > 0)) @ emb.A  # Aᵀ[1{Aō>0} ⊙ G₁ᵀw]
    g = np.einsum("nl,nld->d", np.einsum("nld,nd->nl", values - o_bar[:, None], r), keys) / (N * L)
    logits = keys @ g / abs(emb.z_trig @ g)
    if math.isinf(beta):
        sigma = np.eye(L)[logits.argmax(axis=1)]
    else:
        sigma = np.exp(beta * (logits - logits.max(axis=1, keepdims=True)))
        sigma /= sigma.sum(axis=1, keepdims=True)
    raw = relu(np.einsum("nl,nld->nd", sigma, values) @ emb.A.T)
    mu = raw.mean(axis=0)
    phi2 = raw - mu if params.center_features else raw
    return G1, g, W.T @ phi2 / N, mu


@pytest.mark.parametrize("route", ["table", "dense"])
@pytest.mark.parametrize(("center", "beta", "miv"), [(False, math.inf, True), (True, 3.0, True),
                                                     (True, math.inf, False)])
def test_streamed_limit_matches_whole_batch_reference(center, beta, miv, route, monkeypatch):
    # Both routes of the position sums (mlp_tables.TokenTables): through the table P = A E, and
    # through E with one product by A (what L > DENSE_ROUTE_RATIO * d picks).
    monkeypatch.setattr(mlp_tables, "DENSE_ROUTE_RATIO", math.inf if route == "table" else 0.0)
    params = RetrievalParams(V=12, d=8, L=5, N=301, model="mlp", m=20, center_features=center,
                             marker_in_value=miv)
    emb = make_embeddings(params, np.random.default_rng(1))
    seed = np.random.SeedSequence(8)
    fit = run_limit_mlp(params, emb, seed, beta=beta, chunk=16)
    G1, g, G2, mu = _reference(params, emb, seed, beta)
    # Same formulas, summed per label and in chunks of 16 vs per sequence and all at once:
    # rounding only (1e-12 relative).
    for got, want in ((fit.G1, G1), (fit.g, g), (fit.G2, G2)):
        assert np.abs(got - want).max() <= 1e-12 * np.abs(want).max()
    assert fit.diagnostics["feature_mean_norm"] == pytest.approx(np.linalg.norm(mu), rel=1e-12)


def test_limit_mlp_is_reproducible():
    params = RetrievalParams(V=16, d=16, L=4, N=400, model="mlp", m=32, center_features=True)
    emb = make_embeddings(params, np.random.default_rng(2))
    a = run_limit_mlp(params, emb, np.random.SeedSequence(3))
    b = run_limit_mlp(params, emb, np.random.SeedSequence(3))
    for x, y in ((a.G1, b.G1), (a.g, b.g), (a.G2, b.G2), (a.feature_mean, b.feature_mean)):
        np.testing.assert_array_equal(x, y)
    assert a.diagnostics == b.diagnostics
    batch = test_batch(params, emb, np.random.default_rng(4))
    for x, y in zip(a.predict(batch), b.predict(batch)):
        np.testing.assert_array_equal(x, y)
    assert a.to_dict()["beta"] == math.inf


def test_centring_removes_the_feature_mean():
    base = RetrievalParams(V=16, d=16, L=4, N=400, model="mlp", m=32)
    emb = make_embeddings(base, np.random.default_rng(2))
    seed = np.random.SeedSequence(3)
    plain = run_limit_mlp(base, emb, seed)
    centred = run_limit_mlp(base.replace(center_features=True), emb, seed)
    assert plain.feature_mean is None
    # The subtracted μ is the training features' mean under the fit's own (step-2)
    # attention: recomputed here independently, the centred features average to zero.
    train = training_batch(base, emb, seed)
    keys, values = keys_values(base, emb, train)
    attended = (keys @ centred.g).argmax(axis=1)  # hard attention (beta = inf)
    raw = np.maximum(values[np.arange(len(train)), attended] @ emb.A.T, 0.0)
    centred_features = raw - centred.feature_mean
    # ReLU features have a large mean (E relu(aᵀo) = |o|/√(2πd) per unit, so |μ| ≈
    # √(2m/(2πd)) ≈ 0.8 for |o| = √2; measured 1.06); after centring the mean is zero to
    # rounding (1e-12 relative).
    assert np.linalg.norm(raw.mean(axis=0)) > 0.5
    assert np.abs(centred_features.mean(axis=0)).max() <= 1e-12 * np.abs(raw).max()
    # G₂ loses exactly its mean part: G₂(centred) = G₂ − w̄ μᵀ with w̄ = (1/N) Σ_n w_{y_n}.
    w_bar = (emb.U - emb.U.mean(axis=0))[train.labels].mean(axis=0)
    expected = plain.G2 - np.outer(w_bar, centred.feature_mean)
    assert np.abs(centred.G2 - expected).max() <= 1e-12 * np.abs(plain.G2).max()
    # Step 1 uses uniform attention, so G₁ is centred with the uniform-attention mean.
    o_bar = values.mean(axis=1)
    mu1 = np.maximum(o_bar @ emb.A.T, 0.0).mean(axis=0)
    assert np.abs(centred.G1 - (plain.G1 - np.outer(w_bar, mu1))).max() <= 1e-12 * np.abs(plain.G1).max()


EASY = RetrievalParams(V=32, d=64, L=4, N=4000, model="mlp", m=256, center_features=True,
                       marker_in_value=False, contexts=4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_easy_instance_reaches_high_accuracy(seed):
    # m·d = 16384 ≫ V log V ≈ 111, d² = 4096 ≫ V log V, N = 125·V, L = 4: every noise
    # term of docs/theory.md §5 is far below its threshold.  Measured recall accuracy 1.0 and
    # selection 1.0 on all three seeds; 0.97 allows ~4 of the 128 test rows to fail.
    emb = make_embeddings(EASY, np.random.default_rng(seed))
    fit = run_limit_mlp(EASY, emb, np.random.SeedSequence(10 + seed))
    batch = test_batch(EASY, emb, np.random.default_rng(20 + seed))
    labels, attended = fit.predict(batch)
    assert np.mean(labels == batch.labels) >= 0.97
    assert np.mean(attended == batch.pos) >= 0.97
    assert fit.diagnostics["train_selection_accuracy"] >= 0.97


def test_centring_removes_the_mean_bias_with_marker_in_value():
    # docs/theory.md §5: the ReLU's non-zero mean adds a mean-bias term; with the trigger in the
    # value path every feature vector shares a large common part.  Measured (3 seeds):
    # recall 0.47-0.66 uncentred vs 1.0 centred.  Bounds 0.8 / 0.97 sit well between.
    params = EASY.replace(d=64, m=512, marker_in_value=True)
    plain_acc, centred_acc = [], []
    for seed in range(3):
        emb = make_embeddings(params, np.random.default_rng(seed))
        batch = test_batch(params, emb, np.random.default_rng(20 + seed))
        for centre, out in ((False, plain_acc), (True, centred_acc)):
            p = params.replace(center_features=centre)
            labels, _ = run_limit_mlp(p, emb, np.random.SeedSequence(10 + seed)).predict(batch)
            out.append(np.mean(labels == batch.labels))
    assert max(plain_acc) < 0.8
    assert min(centred_acc) >= 0.97


@pytest.mark.parametrize("dense", [False, True])
def test_position_sums_add_the_rows_in_position_order(dense):
    # one sparse product S·B stands for the loop B[x_0] + B[x_1] + ... over the positions: with
    # unit weights the same additions in the same order, so equal to the last bit (repeated
    # tokens in a sequence included); with attention weights equal up to rounding (a build of
    # the sparse product may fuse multiply and add)
    params = RetrievalParams(V=64, d=32, L=6, N=10, model="mlp", m=48)
    tables = mlp_tables.TokenTables.of(params, make_embeddings(params, np.random.default_rng(0)), dense=dense)
    rng = np.random.default_rng(1)
    tokens = rng.integers(0, 8, size=(50, 6))  # 8 of 64 tokens: most sequences repeat one
    B = tables.base[0]
    loop = B[tokens[:, 0]].copy()
    for i in range(1, 6):
        loop += B[tokens[:, i]]
    assert np.array_equal(tables.position_sums(tokens), loop)
    sigma = rng.dirichlet(np.ones(6), size=50)
    weighted = sum(sigma[:, i:i + 1] * B[tokens[:, i]] for i in range(6))
    np.testing.assert_allclose(tables.position_sums(tokens, sigma), weighted, rtol=1e-13, atol=1e-15)
