"""The array backend of the count path: the same statistics on every array library."""

import math

import numpy as np
import pytest

from theorycheck.algorithms.backend import get_backend
from theorycheck.algorithms.limit import run_limit
from theorycheck.tasks import retrieval as rt
from theorycheck.tasks.retrieval import RetrievalParams


def _cell(miv, **kw):
    p = RetrievalParams(**(dict(V=40, d=16, L=6, N=3000, marker_in_value=miv) | kw))
    return p, rt.make_embeddings(p, np.random.default_rng(21)), np.random.SeedSequence(22)


def _rel(a, b):
    return float(np.abs(a - b).max() / np.abs(b).max())


def _compare(backend, rtol):
    for miv in (True, False):
        for beta in (math.inf, 3.0):
            p, emb, seed = _cell(miv)
            ref = run_limit(p, emb, seed, beta=beta, chunk_tokens=1000)
            other = run_limit(p, emb, seed, beta=beta, chunk_tokens=1000, backend=backend)
            for name in ("G1", "g", "G2"):
                assert _rel(getattr(other, name), getattr(ref, name)) < rtol, (backend, name, miv, beta)
            test = rt.test_batch(p, emb, np.random.default_rng(5))
            assert np.mean(other.predict(test)[0] == ref.predict(test)[0]) > 0.99


def test_strict_array_api_namespace_gives_the_numpy_statistics():
    pytest.importorskip("array_api_strict", reason="array-api-strict is not installed")
    pytest.importorskip("array_api_compat", reason="array-api-compat is not installed")
    # float64 products summed in another order by another library: ~1e-15 relative
    _compare("array_api_strict", 1e-12)


def test_torch_cpu_gives_the_numpy_statistics():
    pytest.importorskip("torch", reason="torch is not installed")
    pytest.importorskip("array_api_compat", reason="array-api-compat is not installed")
    _compare("torch", 1e-6)  # issue 13: equal statistics to 1e-6 relative


def test_unknown_or_missing_backend_is_a_clear_error():
    p, emb, seed = _cell(True)
    with pytest.raises(ValueError, match="unknown backend 'jax'"):
        run_limit(p, emb, seed, backend="jax")
    with pytest.raises(ValueError, match="unknown backend"):
        get_backend("tensorflow")


def test_numpy_backend_is_the_identity():
    bk = get_backend("numpy")
    a = np.arange(6.0).reshape(2, 3)
    assert bk.put(a) is a and bk.keep(a) is a and bk.numpy(a) is a
    np.testing.assert_array_equal(bk.mm(a, bk.T(a)), a @ a.T)
