"""bench/miss_counts.py and bench/memory_read_walls.py: where the walls' shortfall at small ``V`` comes from, and the
walls with the rivals' spread read off the memory (docs/theory.md §7.12, "Where the shortfall comes from")."""

import importlib
import math
from pathlib import Path

import pytest

V, D = 512, 152  # the hebbian control's 0.99 wall at V = 512 (bench/data/hebbian_target_099.csv: 152.1)


@pytest.fixture(scope="module")
def mc():
    """``bench/miss_counts.py``, imported once for the module (its fixtures below are module-scoped too)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(Path(__file__).resolve().parent.parent / "bench"))
        return importlib.import_module("miss_counts")


@pytest.fixture
def mr(bench_script):
    return bench_script("memory_read_walls")


@pytest.fixture(scope="module")
def counts(mc):
    """200 seeded seeds of the Hebbian memory at the wall (2 s), shared by the tests that read them."""
    return mc.miss_counts(V, D, seeds=200, seed=20261207)


def test_the_misses_are_the_read_forms_not_the_gaussian_forms(counts, mr):
    """The share of facts missed over 200 seeds (about 1.1%, standard error 0.0003 from the per-seed counts) lies
    within four standard errors of ``1 − P_read(V, d)``; the Gaussian form's share (1.7%) is over ten away."""
    se = counts["miss_share_se"]
    assert abs(counts["miss_share"] - (1.0 - mr.read_recall_share(V, D, m=14))) < 4 * se
    assert abs(counts["miss_share"] - counts["gauss_miss_share"]) > 10 * se


def test_the_scores_have_the_gaussian_forms_variances(counts):
    """The rivals' score variance is ``σ² = (V + 2d)/d²`` and the signal 1 (the form's spread is right; what it
    misses is the dependence): the mean over 200 seeds of a variance over 511·512 scores is within 2% (its relative
    standard error is below 0.2%); the signal's mean over 102 400 facts within 0.01 (its standard error 0.0006)."""
    assert counts["rival_var_ratio"] == pytest.approx(1.0, abs=0.02)
    assert counts["signal_mean"] == pytest.approx(1.0, abs=0.01)


def test_a_seeds_misses_are_binomial(counts):
    """The per-seed count's variance over 200 seeds against ``V p̂ (1 − p̂)``: the ratio's standard error is about
    0.1 (``sqrt(2/199)`` and the count's kurtosis), so ±0.35 is over three of them."""
    assert counts["dispersion"] == pytest.approx(1.0, abs=0.35)


def test_fresh_rivals_are_missed_as_the_per_fact_read_says(mc):
    """With the rivals' labels drawn apart from the memory, each rival's score is Gaussian given the read ``W e_x``,
    independently of the others, so the per-fact conditional miss (``read``) is the expectation of the measured
    one: over 100 seeds (about 0.4% missed, standard error 0.0001) they agree within four standard errors."""
    r = mc.miss_counts(V, D, seeds=100, seed=20261208, rivals="fresh")
    assert abs(r["miss_share"] - r["read_miss_share"]) < 4 * r["miss_share_se"]
    assert r["miss_share"] < 0.5 * r["gauss_miss_share"]


@pytest.mark.parametrize("Vw,tau,measured", [(512, 0.99, 152.1), (4096, 0.99, 422.0), (1024, 0.999, 238.9),
                                             (65536, 0.99, 1759.8)])
def test_the_read_walls_are_the_published_ones(mr, Vw, tau, measured):
    """Nothing fitted: the read form's walls within 1% of the measured ones (the ``hebbian`` checks at 512 and
    4096, the 0.999 check at 1024, the read-out median at 65536; their CIs are ±0.3-0.9%), where the Gaussian
    form's ``K = 1`` wall is 4.3% high at 512. ``2^14`` Sobol points: within 0.05% of ``2^16``'s."""
    assert mr.read_wall(Vw, tau, m=14) == pytest.approx(measured, rel=0.01)


def test_the_read_form_meets_the_gaussian_form_as_v_grows(mr):
    """The shortfall is a finite-``d`` effect: the read wall over the ``K = 1`` wall rises towards 1 with ``V``
    (0.960, 0.984, 0.996 at 512, 4096, 65536; ``2^14`` points hold each to 0.05%)."""
    ev = mr.ev_wall
    ratios = [mr.read_wall(Vw, 0.99, m=14) / ev(Vw, 1.0, 0.99) for Vw in (512, 4096, 65536)]
    assert ratios[0] < ratios[1] < ratios[2] < 1.0 and ratios[0] < 0.97 and ratios[2] > 0.99


@pytest.fixture(scope="module")
def trigger_counts(mc):
    """The trigger in the value path (``s = 5``, ``V = 256``, ``d = 280``, near its wall), 200 seeds with the
    seed's one trigger and 200 with a fresh one per query (5 s)."""
    return {t: mc.miss_counts(256, 280, seeds=200, seed=20261207, s=5.0, trigger=t) for t in mc.TRIGGERS}


def test_a_shared_trigger_leaves_each_fact_alone_and_spreads_the_seeds(trigger_counts):
    """Per query the bias is the same in law, so the miss shares agree (within four combined standard errors,
    about 0.0012 each way); shared by all of a seed's queries it makes a seed's misses rise and fall together, the
    count's variance several times the binomial's (5.6 measured, against 0.9 fresh; the bounds 2 and 1.5 leave room
    for a variance ratio's 10-20% error over 200 seeds)."""
    shared, fresh = trigger_counts["shared"], trigger_counts["fresh"]
    se = math.hypot(shared["miss_share_se"], fresh["miss_share_se"])
    assert abs(shared["miss_share"] - fresh["miss_share"]) < 4 * se
    assert shared["dispersion"] > 2.0 and fresh["dispersion"] < 1.5


def test_the_read_form_with_the_trigger_in_is_the_fresh_triggers_misses(mc, mr):
    """With a fresh trigger per query (``s = 2`` at ``(512, 222)``, near its wall; 200 seeds, about 1% missed,
    standard error 0.0003) the misses are binomial and each fact's is the read form's with the query ``e_a + z``
    (``|e_a + z|²`` in the cross-talk), analytic and per fact given the read: both within four standard errors,
    where the Gaussian form (1.43%) is over eight away."""
    fresh = mc.miss_counts(512, 222, seeds=200, seed=20261209, s=2.0, trigger="fresh")
    se = fresh["miss_share_se"]
    assert abs(fresh["miss_share"] - (1.0 - mr.read_recall_share(512, 222, 2.0, m=14))) < 4 * se
    assert abs(fresh["miss_share"] - fresh["read_miss_share"]) < 4 * se
    assert fresh["gauss_miss_share"] - fresh["miss_share"] > 8 * se


def test_the_scripts_print_a_row_each(mc, mr, capsys):
    mc.main(["--V", "64", "--d", "40", "--seeds", "5"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["V", "d", "seeds"] and out[1].split()[:3] == ["64", "40", "5"]
    mr.main(["--points", "8"])
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 + len(mr.published_walls()) and all(math.isfinite(float(line.split()[-1]))
                                                              for line in out[1:-1])


def test_bad_arguments_stop_in_one_line(bench_usage_error):
    assert "one d per V" in bench_usage_error("miss_counts", ["--V", "64", "128", "--d", "40"])
    assert "at least 1" in bench_usage_error("miss_counts", ["--s", "0.5"])
    assert "--rivals fresh" in bench_usage_error("miss_counts", ["--s", "2", "--rivals", "fresh"])
    assert "at least 2 each" in bench_usage_error("miss_counts", ["--seeds", "1"])
    assert "(0, 1]" in bench_usage_error("miss_counts", ["--target", "1.5"])
    assert "take d nearer the wall" in bench_usage_error("miss_counts", ["--V", "64", "--d", "400", "--seeds", "2"])
    assert "between 4 and 22" in bench_usage_error("memory_read_walls", ["--points", "2"])
