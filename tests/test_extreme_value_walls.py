"""bench/extreme_value_walls.py: the read-out's walls against the Gaussian maximum's quantile (docs/theory.md §7.12,
"Where the constant comes from")."""

import math

import numpy as np
import pytest

from bench_data import csv_rows


@pytest.fixture
def ev(bench_script):
    return bench_script("extreme_value_walls")


def test_the_margin_quantile_is_the_monte_carlo_one(ev):
    """``q_V(τ)`` against 100 000 seeded draws of ``max_{j<V} Z_j − Z_0`` at ``V = 64``. The draws' quantile has a
    standard error below 0.013 at ``τ = 0.99`` (``sqrt(τ(1 − τ)/n)/f(q)``, the density there above 0.025) and less
    at the others: 0.05 is four of them."""
    z = np.random.default_rng(20261207).standard_normal((100_000, 64))
    margins = z[:, 1:].max(axis=1) - z[:, 0]
    for tau in (0.5, 0.9, 0.99):
        assert abs(np.quantile(margins, tau) - ev.margin_quantile(64, tau)) < 0.05


def test_the_quantile_over_log_v_falls_slowly_towards_two(ev):
    """``q_V(0.99)² ~ 2 log V``, from above and slowly: the law's one ``C`` cannot be constant over ``V``."""
    ratios = [ev.margin_quantile(V, 0.99) ** 2 / math.log(V) for V in (512, 4096, 65536, 2**20, 2**60)]
    assert all(a > b for a, b in zip(ratios, ratios[1:])) and ratios[-1] > 2
    assert ratios[0] == pytest.approx(4.94, abs=0.005) and ratios[2] == pytest.approx(4.07, abs=0.005)


def test_the_wall_is_the_root_of_its_equation(ev):
    for V, s, tau, K in ((512, 1.0, 0.99, 1.0), (4096, 8.0, 0.9, 0.97), (65536, 2.0, 0.999, 1.02)):
        d = ev.ev_wall(V, s, tau, K)
        q = ev.margin_quantile(V, ev.recall_share(V, tau))
        assert d * d == pytest.approx(K * q * q * (s * V + (s + 1) * d), rel=1e-12)
        assert ev.implied_K(V, s, d, tau) == pytest.approx(K, rel=1e-12)
    with pytest.raises(ValueError, match="0 < tau < 1"):
        ev.margin_quantile(512, 1.0)


def test_the_recall_share_counts_whole_facts(ev):
    """``accuracy >= 0.999`` over 1024 facts allows one miss: half the seeds get there when each fact is missed
    with probability about 1.68/1024 (the median of a Poisson count is 1 at a mean of 1.678), not 1/1000. Where
    ``(1 − τ)V`` is in the hundreds the share is ``τ`` to 1e-4."""
    assert ev.recall_share(1024, 0.999) == pytest.approx(1 - 1.678 / 1024, abs=2e-5)
    assert ev.recall_share(512, 0.99) == pytest.approx(1 - 5.67 / 512, abs=2e-5)  # 5 misses allowed
    assert ev.recall_share(65536, 0.99) == pytest.approx(0.99, abs=1e-4)
    assert ev.recall_share(4096, 0.9) == pytest.approx(0.9, abs=1e-4)


def _walls(ev, source, target=0.99, s=1.0):
    return {r["V"]: r["wall"] for r in ev.published_walls()
            if r["source"] == source and r["target"] == target and r["s"] == s}


def test_the_hebbian_memorys_wall_is_the_readouts(ev):
    """``theorycheck check hebbian --set target=0.99`` (the plain outer-product memory, no training, no attention)
    puts its walls where the read-out's trigger-out check does, at every ``V`` from 512 to 8192. Each wall's 95% CI
    is at most 0.9% wide on either side (``V = 512``), so two measurements of one wall differ by 1% at the most
    unless the walls differ."""
    hebbian, readout = _walls(ev, "hebbian"), _walls(ev, "check")
    assert sorted(hebbian) == [512, 1024, 2048, 4096, 8192]
    for V, wall in hebbian.items():
        assert wall / readout[V] == pytest.approx(1.0, abs=0.01)


def test_k_rises_to_one_with_v(ev):
    """The walls' ``K`` (1 for Gaussian, independent scores) rises along the trigger-out line and is 1 within 2%
    where ``V`` is largest; over the same walls the law's ``C`` falls by a tenth."""
    checks = _walls(ev, "check")
    ks = [ev.implied_K(V, 1.0, checks[V], 0.99) for V in sorted(checks)]
    assert all(a < b for a, b in zip(ks, ks[1:])) and 0.90 < ks[0] < 0.94
    for s in (1.0, 2.0):
        for V, wall in _walls(ev, "read-out", s=s).items():
            if V >= 16384:
                assert ev.implied_K(V, s, wall, 0.99) == pytest.approx(1.0, abs=0.02)
    reads = _walls(ev, "read-out")
    c = {V: reads[V] ** 2 / (math.log(V) * (V + 2 * reads[V])) for V in (512, 65536)}
    assert c[512] / c[65536] > 1.10


def test_the_wall_moves_with_the_target_as_the_quantile_does(ev):
    """At targets 0.9 and 0.999 the read-out's walls lie within 2.5% (P78's band; measured 1.4% at most) of the
    quantile's, with ``K`` from the ``τ = 0.99`` check at the same ``V``; the law, blind to the target, is 13-20% off.
    (P78 predicted this before the run with ``τ`` in place of the recall share and missed ``(1024, 0.999)`` by 4.1%;
    the share, which counts whole facts, was read after: docs/theory.md §7.12, "Where the constant comes from".)
    ``K`` itself falls with the target's depth, by 4.6% over 0.9..0.999 at ``V = 1024`` and 1.3% at 4096."""
    at_99 = _walls(ev, "check")
    law = {1024: 209.8, 4096: 425.5}  # the catalogue law's walls, C = 4.40
    ks = {}
    for target in (0.9, 0.999):
        walls = _walls(ev, "target", target=target)
        assert sorted(walls) == [1024, 4096]
        for V, wall in walls.items():
            K = ev.implied_K(V, 1.0, at_99[V], 0.99)
            assert wall / ev.ev_wall(V, 1.0, target, K) == pytest.approx(1.0, abs=0.025)
            assert abs(wall / law[V] - 1) > 0.10
            ks[V, target] = ev.implied_K(V, 1.0, wall, target)
    for V, spread in ((1024, 0.06), (4096, 0.02)):  # measured 0.046 and 0.013
        assert 0 < ks[V, 0.9] - ks[V, 0.999] < spread


def test_the_target_moves_the_wall_with_the_trigger_in_too(ev):
    """P82 (written down before the run): with the trigger in the value path (``s = 2``) at ``V = 4096`` the walls
    at targets 0.9 and 0.999 lie within 2.5% of the quantile's, ``K`` from the 0.99 check's wall there (+0.9% and
    −0.7%), and their ``K`` within 0.03 of each other (0.984 and 0.957; with the trigger out 0.984 and 0.971, a
    difference read after and not explained)."""
    K = ev.implied_K(4096, 2.0, _walls(ev, "check", s=2.0)[4096], 0.99)
    ks = []
    for target in (0.9, 0.999):
        [(V, wall)] = _walls(ev, "target", target=target, s=2.0).items()
        assert V == 4096 and wall / ev.ev_wall(V, 2.0, target, K) == pytest.approx(1.0, abs=0.025)
        ks.append(ev.implied_K(V, 2.0, wall, target))
    assert 0 < ks[0] - ks[1] < 0.03


def test_with_nothing_fitted_at_v_16384(ev):
    """P79 (written down before the run): at ``V = 16384`` the Hebbian memory's walls at targets 0.9 and 0.999 have
    ``K`` in [0.975, 1], and the two ``K`` lie within 0.015 of each other: the quantile's walls to 1% with no constant
    at all. Measured 0.995 and 0.981 (0.997 and 0.990 of the ``K = 1`` walls)."""
    ks = {}
    for target in (0.9, 0.999):
        [(V, wall)] = _walls(ev, "hebbian", target=target).items()
        assert V == 16384
        ks[target] = ev.implied_K(V, 1.0, wall, target)
        assert 0.975 <= ks[target] <= 1.0
    assert abs(ks[0.9] - ks[0.999]) < 0.015


def test_the_hebbian_controls_own_criterion_is_the_same_quantile(ev):
    """P80 (written down before the run): the ``hebbian`` control's quick check (``τ = 1``: half the seeds recall
    every fact, so each fact with probability ``2^{−1/V}``) has ``K`` in [0.80, 1] at every cell and in [0.88, 0.96]
    at ``V = 512`` (held: 0.897, 0.891, 0.919); that ``K`` rises with ``V`` missed (0.891 after 0.897, the CIs
    overlapping). Its fitted ``C ≈ 10`` is this form's ``K q² (V + 2d)/(V log V)``."""
    walls = _walls(ev, "hebbian", target=1.0)
    assert sorted(walls) == [64, 181, 512]
    ks = {V: ev.implied_K(V, 1.0, wall, 1.0) for V, wall in walls.items()}
    assert all(0.80 <= k <= 1.0 for k in ks.values()) and 0.88 <= ks[512] <= 0.96
    assert ev.recall_share(512, 1.0) == pytest.approx(0.5 ** (1 / 512), rel=1e-12)


def test_the_published_tables_are_the_checks_own(ev):
    """The tables are ``thresholds.csv`` files as ``theorycheck check`` writes them."""
    for name, _, _ in ev.OTHER_TABLES:
        rows = csv_rows(name)
        assert rows and {"V", "threshold", "ci_low", "ci_high", "trials"} <= set(rows[0])
        assert all(float(r["ci_low"]) < float(r["threshold"]) < float(r["ci_high"]) for r in rows)


def test_the_script_prints_a_row_per_wall(ev, capsys):
    ev.main([])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split()[:3] == ["source", "V", "s"] and len(out) == 1 + len(ev.published_walls())
