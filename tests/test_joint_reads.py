"""bench/joint_reads.py: the joint form's reads, isotropic or with the labels' Gram (docs/theory.md §7.12, "The
rivals' slope with the labels' Gram"), checked against the memory by bench/rival_slope.py."""

import pytest


@pytest.fixture
def jr(bench_script):
    return bench_script("joint_reads")


def test_with_the_labels_gram_the_rivals_slope_is_the_memorys(bench_script):
    """At ``(V, d, s) = (256, 150, 5)`` (``c = d/V = 0.59``), 100 seeds of the memory: ``κ − 1``'s coefficients on
    ``t`` and ``m_a`` and its spread given them (``rival_slope.memory_slopes``), against the form's reads
    (``rival_slope.form_slopes``). With the Gram three seed roots (20261208..10) gave coefficients at 1.007-1.014
    and 1.005-1.030 of the memory's and spreads at 0.963-0.999 (2026-12-08): within 6% and 8% (the roots scatter
    1-2.5%). The isotropic
    reads gave 0.73 and 0.63-0.65 of the coefficients and 0.41-0.43 of the spread: asserted below 0.85, so the check
    tells the two apart. The derived coefficients (``(1 + d/(V + d))/ζ²``, ``d/(Vζ²)``) within 6% too."""
    rs = bench_script("rival_slope")
    V, d, s = 256, 150, 5.0
    memory = rs.memory_slopes(V, d, s, 100, 20261208)
    gram, iso = rs.form_slopes(V, d, s, True), rs.form_slopes(V, d, s, False)
    assert gram["coef"] == pytest.approx(memory["coef"], rel=0.06)
    assert gram["spread"] == pytest.approx(memory["spread"], rel=0.08)
    assert all(iso["coef"] < 0.85 * memory["coef"]) and iso["spread"] < 0.85 * memory["spread"]
    derived = ((1 + d / (V + d)) / (s - 1), d / (V * (s - 1)))
    assert derived == pytest.approx(tuple(memory["coef"]), rel=0.06)


def test_the_spreads_scale_is_marchenko_pasturs_less_the_rivals_projection(jr):
    """``ν = μ₄ + c² − c(1 + c)(1 + 2c)`` with Marchenko–Pastur's ``μ₄ = 1 + 6c + 6c² + c³`` (module docstring), 0 where
    that is negative (``c = 6``; the cubic's root is 5.03)."""
    for V, d in ((512, 100), (512, 375), (1024, 2048), (100, 503)):
        c = d / V
        assert jr.gram_terms(V, d)[1] == pytest.approx(1 + 6 * c + 6 * c * c + c**3 + c * c - c * (1 + c) * (1 + 2 * c))
    assert jr.gram_terms(100, 600)[1] == 0.0 and jr.gram_terms(100, 504)[1] == 0.0


def test_the_script_prints_four_rows_a_point(bench_script, capsys):
    bench_script("rival_slope").main(["--point", "256,150,5", "--seeds", "3"])
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[3] for line in out[1:]] == ["memory", "derived", "iso", "gram"]
    assert len(out[1].split()) == 9 and len(out[2].split()) == 6


def test_bad_arguments_stop_in_one_line(bench_usage_error):
    assert "--seeds needs at least 2" in bench_usage_error("rival_slope", ["--seeds", "1"])
    assert "--point takes V,d,s" in bench_usage_error("rival_slope", ["--point", "512,2"])
