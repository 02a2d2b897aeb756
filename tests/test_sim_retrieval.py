"""The retrieval task of docs/theory.md §1: validation, embeddings, replayable data, test set."""

import math

import numpy as np
import pytest

from theorycheck.tasks import retrieval as rt
from theorycheck.tasks.retrieval import RetrievalParams


@pytest.mark.parametrize(
    "changes, words",
    [
        ({"V": 1}, ["V", ">= 2", "got 1"]),
        ({"V": 2.5}, ["V", "integer", "2.5"]),
        ({"d": 0}, ["d", ">= 1", "got 0"]),
        ({"L": 0}, ["L", ">= 1", "got 0"]),
        ({"N": 0}, ["N", ">= 1", "got 0"]),
        ({"N": True}, ["N", "integer", "True"]),
        ({"embeddings": "orthogonal", "d": 9}, ["orthogonal", "d >= V + 2 = 10", "d=9"]),
        ({"embeddings": "gaussian"}, ["embeddings", "'random'", "'gaussian'"]),
        ({"target": 0.0}, ["target", "(0, 1]", "0.0"]),
        ({"target": 1.5}, ["target", "(0, 1]", "1.5"]),
        ({"zeta": -1.0}, ["zeta", "positive", "-1.0"]),
        ({"zeta": math.inf}, ["zeta", "finite", "inf"]),
        ({"model": "mlp"}, ["mlp", "m", "None"]),
        ({"model": "mlp", "m": 0}, ["m", ">= 1", "got 0"]),
        ({"m": 16}, ["m", "model='mlp'", "16"]),
        ({"model": "rnn"}, ["model", "'attention'", "'rnn'"]),
        ({"contexts": 0}, ["contexts", ">= 1", "got 0"]),
        ({"marker_in_value": "yes"}, ["marker_in_value", "True or False", "'yes'"]),
        ({"center_features": True}, ["center_features", "model='mlp'"]),
    ],
)
def test_bad_params_name_parameter_value_and_range(changes, words):
    kwargs = dict(V=8, d=4, L=3, N=10) | changes
    with pytest.raises(ValueError) as err:
        RetrievalParams(**kwargs)
    for word in words:
        assert word in str(err.value)


def test_params_normalise_and_serialise():
    p = RetrievalParams(V=np.int64(8), d=4.0, L=3, N=10, zeta=2)
    assert (type(p.V), type(p.d), type(p.zeta)) == (int, int, float)
    assert p.to_dict()["V"] == 8 and p.replace(N=20).N == 20
    with pytest.raises(ValueError, match="L must be"):
        p.replace(L=0)


def test_random_embeddings_follow_theory():
    p = RetrievalParams(V=400, d=50, L=3, N=10, zeta=1.7)
    emb = rt.make_embeddings(p, np.random.default_rng(0))
    assert emb.E.shape == emb.U.shape == (400, 50) and emb.A is None
    assert np.linalg.norm(emb.z_trig) == pytest.approx(1.7, rel=1e-12)
    # entries N(0, 1/d): the variance of 20000 entries is 1/d within ~4 standard errors
    # (standard error of a sample variance ~ sqrt(2/n) relative = 1%; 5% is generous)
    assert emb.E.var() * 50 == pytest.approx(1.0, rel=0.05)
    assert emb.U.var() * 50 == pytest.approx(1.0, rel=0.05)
    assert sorted(emb.perm.tolist()) == list(range(400))
    mlp = rt.make_embeddings(p.replace(model="mlp", m=30), np.random.default_rng(0))
    assert mlp.A.shape == (30, 50)
    np.testing.assert_array_equal(mlp.E, emb.E)  # same draws before A


def test_orthogonal_embeddings_are_basis_vectors():
    p = RetrievalParams(V=6, d=9, L=3, N=10, embeddings="orthogonal", zeta=0.5)
    emb = rt.make_embeddings(p, np.random.default_rng(0))
    np.testing.assert_array_equal(emb.E, np.eye(9)[:6])
    np.testing.assert_array_equal(emb.U, np.eye(9)[:6])
    np.testing.assert_array_equal(emb.z_trig, 0.5 * np.eye(9)[6])
    np.testing.assert_array_equal(emb.z_eos, np.eye(9)[7])


def _params(**kw):
    return RetrievalParams(**(dict(V=50, d=8, L=7, N=100) | kw))


def test_sample_batch_labels_are_the_permuted_informative_tokens():
    p = _params()
    emb = rt.make_embeddings(p, np.random.default_rng(1))
    b = rt.sample_batch(p, emb, np.random.default_rng(2), 500)
    assert b.tokens.shape == (500, 7) and b.tokens.dtype == rt.TOKEN_DTYPE
    assert b.pos.min() >= 0 and b.pos.max() < 7
    np.testing.assert_array_equal(b.labels, emb.perm[b.tokens[np.arange(500), b.pos]])


def test_chunks_replay_and_do_not_depend_on_chunk_size():
    p = _params(L=1000)  # 262 rows per block, so several blocks
    emb = rt.make_embeddings(p, np.random.default_rng(1))
    seed = np.random.SeedSequence(7, spawn_key=(3,))

    def stacked(n, chunk):
        parts = list(rt.iter_chunks(p, emb, seed, n, chunk))
        assert sum(len(b) for b in parts) == n
        return [np.concatenate([getattr(b, k) for b in parts]) for k in ("tokens", "pos", "labels")]

    a = stacked(1000, 300)
    for other in (stacked(1000, 1), stacked(1000, 5000)):  # other chunk sizes
        for x, y in zip(a, other):
            np.testing.assert_array_equal(x, y)
    for x, y in zip(a, stacked(600, 300)):  # nested: N=600 is the first 600 of N=1000
        np.testing.assert_array_equal(x[:600], y)
    assert rt.chunk_count(p, 1000, 300) == len(list(rt.iter_chunks(p, emb, seed, 1000, 300)))
    b2 = rt.draw_chunk(p, emb, seed, 1000, 300, 2)
    np.testing.assert_array_equal(b2.tokens, a[0][2 * 262 : 3 * 262])
    other_seed = list(rt.iter_chunks(p, emb, np.random.SeedSequence(8), 1000, 300))
    assert not np.array_equal(other_seed[0].tokens, a[0][: len(other_seed[0])])


def test_test_batch_places_every_token_contexts_times():
    p = _params(contexts=3)
    emb = rt.make_embeddings(p, np.random.default_rng(1))
    b = rt.test_batch(p, emb, np.random.default_rng(2))
    assert len(b) == 150
    a = b.tokens[np.arange(150), b.pos]
    np.testing.assert_array_equal(a, np.tile(np.arange(50), 3))
    np.testing.assert_array_equal(b.labels, emb.perm[a])
    # the informative positions are uniform on [L]: each of the 7 appears (150 draws)
    assert set(b.pos.tolist()) == set(range(7))


@pytest.mark.parametrize("miv", [True, False])
def test_keys_and_values(miv):
    p = _params(marker_in_value=miv)
    emb = rt.make_embeddings(p, np.random.default_rng(1))
    b = rt.sample_batch(p, emb, np.random.default_rng(2), 20)
    keys, values = rt.keys_values(p, emb, b)
    marker = np.zeros((20, 7, 1))
    marker[np.arange(20), b.pos] = 1.0
    np.testing.assert_allclose(keys, emb.E[b.tokens] + marker * emb.z_trig, rtol=0, atol=1e-15)
    np.testing.assert_allclose(values, emb.E[b.tokens] + (marker * emb.z_trig if miv else 0),
                               rtol=0, atol=1e-15)
    assert not np.shares_memory(keys, values)
