"""Bad options of the dense algorithms raise ValueError naming parameter, value and range."""

from __future__ import annotations

import math

import numpy as np
import pytest

from theorycheck.algorithms.gd import run_gd
from theorycheck.algorithms.limit_mlp import run_limit_mlp
from theorycheck.algorithms.three_step import run_three_step
from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings

P = RetrievalParams(V=8, d=8, L=3, N=20)
P_MLP = P.replace(model="mlp", m=8)


@pytest.fixture(scope="module")
def embs():
    return (make_embeddings(P, np.random.default_rng(0)),
            make_embeddings(P_MLP, np.random.default_rng(0)))


SEED = np.random.SeedSequence(0)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"eta": 0.0}, r"eta must be a positive finite number, got 0\.0"),
        ({"eta": -1}, r"eta must be a positive finite number, got -1\.0"),
        ({"eta": math.inf}, r"eta must be a positive finite number, got inf"),
        ({"eta": "1"}, r"eta must be a positive finite number, got '1'"),
        ({"gamma": -2.0}, r"gamma must be a positive finite number, got -2\.0"),
        ({"beta": 0}, r"beta must be a positive finite number, got 0"),
        ({"beta": math.inf}, r"beta must be a positive finite number, got inf.*use the limit algorithm for beta=inf"),
        ({"gamma": 1.0, "beta": 1.0}, r"give gamma or beta, not both; got gamma=1\.0, beta=1\.0"),
        ({"gamma_prime": 0.0}, r"gamma_prime must be a positive finite number, got 0\.0"),
        ({"chunk": 0}, r"chunk must be an integer >= 1, got 0"),
        ({"chunk": 2.5}, r"chunk must be an integer >= 1, got 2\.5"),
    ],
)
def test_three_step_rejects_bad_options(embs, options, pattern):
    with pytest.raises(ValueError, match=pattern):
        run_three_step(P, embs[0], SEED, **options)


@pytest.mark.parametrize(
    ("options", "pattern"),
    [
        ({"steps": 0}, r"steps must be an integer >= 1, got 0"),
        ({"steps": 1.5}, r"steps must be an integer >= 1, got 1\.5"),
        ({"lr": -0.1}, r"lr must be a positive finite number, got -0\.1"),
        ({"lr": math.nan}, r"lr must be a positive finite number, got nan"),
        ({"optimizer": "sgd"}, r"optimizer must be one of 'gd', 'adam', got 'sgd'"),
        ({"record_every": 0}, r"record_every must be an integer >= 1, got 0"),
        ({"dense_cache_bytes": -1}, r"dense_cache_bytes must be an integer >= 0, got -1"),
    ],
)
def test_gd_rejects_bad_options(embs, options, pattern):
    with pytest.raises(ValueError, match=pattern):
        run_gd(P, embs[0], SEED, **options)


def test_limit_mlp_rejects_bad_inputs(embs):
    with pytest.raises(ValueError, match=r"run_limit_mlp needs model='mlp'.*got model='attention'"):
        run_limit_mlp(P, embs[0], SEED)
    with pytest.raises(ValueError, match=r"beta must be a positive number or inf.*got 0"):
        run_limit_mlp(P_MLP, embs[1], SEED, beta=0)
    with pytest.raises(ValueError, match=r"chunk must be an integer >= 1, got -3"):
        run_limit_mlp(P_MLP, embs[1], SEED, chunk=-3)


@pytest.mark.parametrize("run", [run_three_step, run_gd, run_limit_mlp])
def test_train_seed_must_be_a_seed_sequence(embs, run):
    with pytest.raises(ValueError, match=r"train_seed must be a numpy.random.SeedSequence, got int"):
        run(P_MLP, embs[1], 0)
