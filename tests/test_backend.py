"""The array backend of the count path: the same statistics on every array library."""

import math

import numpy as np
import pytest

from theorycheck.backend import get_backend
from theorycheck.algorithms.limit import run_limit
from theorycheck.tasks import retrieval as rt
from theorycheck.tasks.retrieval import RetrievalParams


def _cell(miv, **kw):
    p = RetrievalParams(**(dict(V=40, d=16, L=6, N=3000, marker_in_value=miv) | kw))
    return p, rt.make_embeddings(p, np.random.default_rng(21)), np.random.SeedSequence(22)


def _rel(a, b):
    return float(np.abs(a - b).max() / np.abs(b).max())


def _compare(backend, rtol, **kw):
    # the whole count path (counting, products) and the prediction run on ``backend``
    # (theorycheck/algorithms/device_counts.py), from the same data as the NumPy path
    for miv in (True, False):
        for beta in (math.inf, 3.0):
            p, emb, seed = _cell(miv, **kw)
            ref = run_limit(p, emb, seed, beta=beta, chunk_tokens=1000)
            other = run_limit(p, emb, seed, beta=beta, chunk_tokens=1000, backend=backend)
            assert other.backend == backend
            for name in ("G1", "g", "G2"):
                assert _rel(getattr(other, name), getattr(ref, name)) < rtol, (backend, name, miv, beta)
            for name in ("train_selection_accuracy", "trigger_coef"):
                assert other.diagnostics[name] == pytest.approx(ref.diagnostics[name], rel=rtol)
            test = rt.test_batch(p, emb, np.random.default_rng(5))
            (labels, attended), (ref_labels, ref_attended) = other.predict(test), ref.predict(test)
            # the same predictions but at exact ties of the logits (none in these cells)
            np.testing.assert_array_equal(labels, ref_labels)
            np.testing.assert_array_equal(attended, ref_attended)


def _strict():
    pytest.importorskip("array_api_strict", reason="array-api-strict is not installed")
    pytest.importorskip("array_api_compat", reason="array-api-compat is not installed")


def test_strict_array_api_namespace_gives_the_numpy_statistics():
    _strict()
    # float64 sums in another order, and the standard's bincount (sorted cumulative sums,
    # rounding ~eps·|running sum|): measured <= 4e-14 relative here, 1e-12 leaves 25x
    _compare("array_api_strict", 1e-12)


def test_several_device_label_blocks_and_prefixes_give_the_numpy_statistics(monkeypatch):
    _strict()
    from theorycheck.algorithms import device_counts
    from theorycheck.algorithms.label_blocks import SortedTokens
    from theorycheck.algorithms.limit import limit_on_prefix

    # blocks of 12 labels (V = 40: four blocks, the last one short), prediction blocks of
    # 12 test rows and sub-batches of 8 sequences: the bookkeeping is exercised as at
    # V = 16384, N = 10**6 on a GPU
    monkeypatch.setattr(device_counts, "BLOCK_ENTRIES", 12 * 40)
    monkeypatch.setattr(device_counts, "CHUNK_TOKENS", 8 * 6)
    _compare("array_api_strict", 1e-12)
    p, emb, seed = _cell(False)
    device = device_counts.DeviceTokens(p, emb, seed, "array_api_strict", threads=2)
    host = SortedTokens(p, emb, seed, chunk_tokens=1000)
    assert len(device.blocks) == 4
    for N in (1, 777, 3000):  # nested data: a prefix of the draw is the trial at N
        for beta in (math.inf, 2.0):
            on, ref = limit_on_prefix(device, N, beta=beta), limit_on_prefix(host, N, beta=beta)
            for name in ("G1", "g", "G2"):
                assert _rel(getattr(on, name), getattr(ref, name)) < 1e-12, (N, beta, name)
    with pytest.raises(ValueError, match="N must be <= n_max"):
        limit_on_prefix(device, 3001)


def test_standard_bincount_counts_and_sums_like_numpy():
    _strict()
    bk = get_backend("array_api_strict")
    rng = np.random.default_rng(3)
    index = rng.integers(0, 50, size=2000)
    weights = rng.standard_normal(2000)
    got = bk.numpy(bk.bincount(bk.put_int(index), minlength=60))
    np.testing.assert_array_equal(got, np.bincount(index, minlength=60))  # counts: exact
    got = bk.numpy(bk.bincount(bk.put_int(index), bk.put(weights), minlength=60))
    # sums as differences of a running sum: rounding ~eps * (running sum ~ sqrt(2000))
    np.testing.assert_allclose(got, np.bincount(index, weights, minlength=60), rtol=0, atol=1e-12)


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
    assert bk.put(a) is a and bk.keep(a) is a and bk.numpy(a) is a and bk.xp is None
    np.testing.assert_array_equal(bk.bincount(np.array([0, 2, 2]), minlength=4), [1, 0, 2, 0])


def test_device_path_refuses_bad_input_before_any_work():
    _strict()
    p, emb, seed = _cell(True)
    with pytest.raises(ValueError, match="threads must be an integer >= 1"):
        run_limit(p, emb, seed, backend="array_api_strict", threads=0)
    with pytest.raises(ValueError, match="SeedSequence"):
        run_limit(p, emb, 5, backend="array_api_strict")
    from theorycheck.algorithms.device_counts import DeviceTokens

    with pytest.raises(ValueError, match="other than numpy"):
        DeviceTokens(p, emb, seed, "numpy")
