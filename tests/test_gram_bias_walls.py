"""bench/gram_bias_walls.py: the joint form's walls with a seed's biases as the labels' Gram makes them
(docs/theory.md §7.12, "What spreads a seed's misses")."""

import math

import numpy as np
import pytest


@pytest.fixture
def gb(bench_script):
    return bench_script("gram_bias_walls")


def test_the_drawn_biases_are_the_memorys_in_law(gb, bench_script):
    """At ``(256, 100, s = 3)``: over 400 drawn seeds a seed's bias scale ``μ = B/σ_b²`` has mean 1 within 3% (its
    standard error about 0.8%) and relative variance ``(2/d) μ₄/μ₂²`` (``seed_spread.kappa_gram_ratio``) within 20%
    (the estimate's error about 7%; 0.0434 against 0.0447, 2026-12-07), as the memory's is (within 4-24% at seven
    points, P125 and P131); and over 100 of the memory's own seeds (``seed_spread.memory_seed``) the two scales' means
    agree within 5% (about 2.5 standard errors of the difference; 0.970 against 1.007)."""
    V, d, s = 256, 100, 3.0
    xi, mu = gb.gram_draws(V, d, s, 400, 11)
    assert np.allclose(xi.std(axis=1), 1.0) and mu.mean() == pytest.approx(1.0, abs=0.03)
    R = bench_script("seed_spread").kappa_gram_ratio(V, d)
    assert mu.var() / mu.mean() ** 2 == pytest.approx(2 / d * R, rel=0.20)
    ss = bench_script("seed_spread")
    root = ss.seed_sequence(12)
    memory = [ss.memory_seed(V, d, s, ss.child_seed(root, i))["B"] for i in range(100)]
    sigma_b2 = ss.crosstalk_variances(V, d, math.sqrt(s - 1.0))[1]
    assert np.mean(memory) / sigma_b2 == pytest.approx(mu.mean(), rel=0.05)


def test_a_seeds_biases_are_nested_in_d(gb):
    """A seed draws its ``w`` and then its labels column by column, so one more dimension moves its biases a little
    (correlation above 0.98 at ``d`` 100 and 101; 1.000 and 0.988 on 2026-12-07) where another seed's are unrelated
    (below 0.2 in size; −0.02): the success share moves smoothly with ``d`` for ``brentq``."""
    b100, b101 = gb.gram_biases(128, 100, 2.0, 2, 5), gb.gram_biases(128, 101, 2.0, 2, 5)
    assert min(np.corrcoef(b100[i], b101[i])[0, 1] for i in range(2)) > 0.98
    assert abs(np.corrcoef(b100[0], b101[1])[0, 1]) < 0.2


def test_the_script_prints_a_row_per_wall_with_or_without_workers(gb, capsys):
    argv = ["--V", "512", "--s", "2", "--seeds", "4", "--joint-points", "6"]
    gb.main(argv)
    serial = capsys.readouterr().out
    out = serial.splitlines()
    assert out[0].split()[:4] == ["source", "V", "s", "wall"] and len(out) >= 2
    assert all(line.split()[:3] == [line.split()[0], "512", "2.00"] for line in out[1:])
    assert all(0.8 < float(line.split()[-1]) < 1.2 for line in out[1:])
    gb.main(argv + ["--workers", "2"])
    assert capsys.readouterr().out == serial


def test_bad_arguments_stop_in_one_line(bench_usage_error):
    assert "names no published wall" in bench_usage_error("gram_bias_walls", ["--V", "100"])
    assert "--seeds needs at least 2" in bench_usage_error("gram_bias_walls", ["--V", "512", "--seeds", "1"])
    assert "--workers at least 1" in bench_usage_error("gram_bias_walls", ["--V", "512", "--workers", "0"])
    assert "--seed and --bias-seed" in bench_usage_error("gram_bias_walls", ["--V", "512", "--seed", "-1"])
