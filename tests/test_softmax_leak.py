"""bench/softmax_leak.py: the mass the step-2 softmax leaks off the informative position, and the
published rows behind docs/theory.md §7.12 ("What in the leak moves the wall?")."""

from __future__ import annotations

import pytest

from theorycheck.tasks.retrieval import RetrievalParams

from bench_data import jsonl

ROWS = jsonl("limit_softmax_leak_512_204.jsonl")
TAIL = jsonl("limit_softmax_leak_tail_512_204.jsonl")  # 8 seeds, with q99


def test_a_published_seed_is_reproduced(bench_script):
    """The first seed of the ``(512, 204, L = 32, β = 10)`` line, rerun: the same figures (the
    count path is deterministic; 1e-6 relative leaves room for another BLAS's last bits)."""
    script = bench_script("softmax_leak")
    line = next(r for r in ROWS if (r["L"], r["beta"]) == (32, 10.0))
    params = RetrievalParams(V=512, d=204, L=32, N=80000, zeta=0.5, marker_in_value=True)
    got = script.leak_figures(params, 10.0, line["seeds"][0])
    for key in ("leak", "odds", "moments", "gauss", "spread", "conc", "rms"):
        assert got[key] == pytest.approx(line["runs"][0][key], rel=1e-6), key
    tail = next(r for r in TAIL if (r["L"], r["beta"]) == (32, 10.0))
    assert tail["seeds"][0] == line["seeds"][0]
    assert got["q99"] == pytest.approx(tail["runs"][0]["q99"], rel=1e-6)  # the tail's figure, kept in the other file


def test_one_position_leaks_nothing_and_a_colder_softmax_leaks_more(bench_script):
    """With ``L = 1`` the informative position is the only one: no leak. At ``L = 8`` the leak
    falls as ``β`` grows (the distractors' weights are ``e^{−β}`` times the fact's and less), the
    concentration is at least 1 (``mean w² ≥ (mean w)²``) and grows with ``β``, and the odds of
    the independent-token approximation are within 30% of the measured odds (asserted loosely: the
    test set has 256 sequences, one seed)."""
    script = bench_script("softmax_leak")
    one = script.leak_figures(RetrievalParams(V=256, d=64, L=1, N=3000, zeta=0.5), 5.0, 3)
    assert one["leak"] == 0.0 and one["odds"] == 0.0
    params = RetrievalParams(V=256, d=64, L=8, N=3000, zeta=0.5)
    runs = [script.leak_figures(params, beta, 3) for beta in (2.0, 4.0, 8.0)]
    assert runs[0]["leak"] > runs[1]["leak"] > runs[2]["leak"] > 0.0
    assert 1.0 <= runs[0]["conc"] < runs[1]["conc"] < runs[2]["conc"]
    for r in runs:
        assert r["moments"] == pytest.approx(r["odds"], rel=0.3)


@pytest.mark.parametrize("argv, says", [
    (["--point", "512,204", "--beta", "10"], "--point: expected 'V,d,L,N'"),
    (["--point", "512,204,32,80000", "--beta", "-1"], "beta must be a positive number"),
    (["--point", "512,204,32,80000", "--beta", "inf"], "hard attention (inf) leaks nothing"),
    (["--point", "512,204,32,80000", "--beta", "10", "--seeds", "0"], "--seeds must be at least 1"),
])
def test_bad_input_is_one_usage_line_and_exit_2_before_any_trial(bench_usage_error, argv, says):
    assert says in bench_usage_error("softmax_leak", argv)
