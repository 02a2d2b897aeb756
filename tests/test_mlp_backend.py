"""The attention-MLP limit on an array backend gives NumPy's statistics.

``run_limit_mlp(..., backend=...)`` (theorycheck/algorithms/limit_mlp.py) runs its three
passes and the prediction on the backend from the same host-drawn data; only the position
sums (a SciPy sparse product on NumPy, a gather and a sum elsewhere) and the per-label sums
(runs of equal labels on NumPy, ``Backend.add_rows`` elsewhere) take another form, so the
sums run in another order.  Tolerances: 1e-11 relative on the strict namespace (measured
<= 5e-15 on these cells and on 32 settings of a wider script: ~2000x margin, still far
below what a missing or wrong term moves, O(1)), and the issue's 1e-6 for PyTorch on a CPU.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from theorycheck.algorithms import mlp_tables
from theorycheck.algorithms.limit_mlp import run_limit_mlp
from theorycheck.backend import get_backend
from theorycheck.tasks.retrieval import RetrievalParams, make_embeddings, test_batch

# (center_features, beta, marker_in_value): hard and soft attention, the trigger in and out
CASES = [(False, math.inf, True), (True, 3.0, True), (True, math.inf, False), (False, 2.0, False)]


def _compare(backend: str, rtol: float, case, route: str, monkeypatch) -> None:
    monkeypatch.setattr(mlp_tables, "DENSE_ROUTE_RATIO", math.inf if route == "table" else 0.0)
    center, beta, miv = case
    p = RetrievalParams(V=30, d=12, L=6, N=700, model="mlp", m=40, center_features=center,
                        marker_in_value=miv)
    emb = make_embeddings(p, np.random.default_rng(4))
    seed = np.random.SeedSequence(17)
    ref = run_limit_mlp(p, emb, seed, beta=beta, chunk=64)
    other = run_limit_mlp(p, emb, seed, beta=beta, chunk=50, backend=backend)  # other sub-chunks too
    assert (ref.backend, other.backend) == ("numpy", backend)
    for name in ("G1", "g", "G2"):
        got, want = getattr(other, name), getattr(ref, name)
        assert isinstance(got, np.ndarray)
        assert np.abs(got - want).max() <= rtol * np.abs(want).max(), (name, case, route)
    assert other.diagnostics.keys() == ref.diagnostics.keys()
    for k, want in ref.diagnostics.items():
        assert other.diagnostics[k] == pytest.approx(want, rel=rtol, abs=1e-300), k
    test = test_batch(p, emb, np.random.default_rng(9))
    # the same predictions but at exact ties of the scores (none in these cells)
    for got, want in zip(other.predict(test), ref.predict(test), strict=True):
        assert isinstance(got, np.ndarray)
        np.testing.assert_array_equal(got, want)
    scores, sigma = other.scores(test)
    ref_scores, ref_sigma = ref.scores(test)
    assert np.abs(scores - ref_scores).max() <= rtol * np.abs(ref_scores).max()
    assert np.abs(sigma - ref_sigma).max() <= rtol


@pytest.mark.parametrize("route", ["table", "dense"])
@pytest.mark.parametrize("case", CASES)
def test_the_strict_array_api_namespace_gives_numpys_statistics(case, route, monkeypatch):
    pytest.importorskip("array_api_strict", reason="array-api-strict is not installed")
    pytest.importorskip("array_api_compat", reason="array-api-compat is not installed")
    _compare("array_api_strict", 1e-11, case, route, monkeypatch)


@pytest.mark.parametrize("route", ["table", "dense"])
@pytest.mark.parametrize("case", CASES[:2])
def test_torch_gives_numpys_statistics(case, route, monkeypatch):
    pytest.importorskip("torch", reason="torch is not installed")
    pytest.importorskip("array_api_compat", reason="array-api-compat is not installed")
    _compare("torch", 1e-6, case, route, monkeypatch)


def test_add_rows_adds_each_row_into_its_index_on_every_backend():
    # Backend.add_rows is the per-label sum of the MLP limit's passes off NumPy; repeated and
    # absent indices both occur in a sub-chunk of labels
    index = np.array([3, 0, 3, 3, 1, 0])
    rows = np.arange(12.0).reshape(6, 2) + 0.25
    want = np.zeros((5, 2))
    for i, r in zip(index, rows):
        want[i] += r
    names = ["numpy"] + [n for n in ("array_api_strict", "torch") if _installed(n)]
    for name in names:
        bk = get_backend(name)
        got = bk.numpy(bk.add_rows(bk.put(np.zeros((5, 2))), bk.put_int(index), bk.put(rows)))
        np.testing.assert_allclose(got, want, rtol=1e-15, err_msg=name)


def _installed(name: str) -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in (name, "array_api_compat"))


def test_a_bad_backend_is_refused_before_any_work():
    p = RetrievalParams(V=30, d=12, L=6, N=700, model="mlp", m=40)
    emb = make_embeddings(p, np.random.default_rng(4))
    with pytest.raises(ValueError, match=r"unknown backend 'jax'; choose one of numpy, torch"):
        run_limit_mlp(p, emb, np.random.SeedSequence(1), backend="jax")


def test_simulate_takes_the_backend_option_for_the_mlp_limit():
    # the option reaches run_limit_mlp through the registry (it was refused before 2026-11-28)
    pytest.importorskip("array_api_strict", reason="array-api-strict is not installed")
    pytest.importorskip("array_api_compat", reason="array-api-compat is not installed")
    from theorycheck.simulate import simulate

    p = RetrievalParams(V=30, d=12, L=6, N=700, model="mlp", m=40, marker_in_value=False)
    ref, other = simulate(p, "limit", seed=3), simulate(p, "limit", seed=3, backend="array_api_strict")
    assert (other.accuracy, other.selection_accuracy) == (ref.accuracy, ref.selection_accuracy)
    assert other.trigger_coef == pytest.approx(ref.trigger_coef, rel=1e-11)
