"""bench/bias_modes.py and readout_parts.query_bias: the trigger's bias, one draw a seed, against the same bias
replaced query by query (docs/theory.md §7.12, "Why a seed's own bias beats fresh draws"), against the rows it
publishes."""

import dataclasses
import math

import numpy as np
import pytest
from scipy.stats import kstest

from bench_data import jsonl
from theorycheck.algorithms.population_readout import expected_values
from theorycheck.tasks.retrieval import RetrievalParams

SMALL = RetrievalParams(V=256, d=96, L=8, N=20000, zeta=2.0, marker_in_value=True)


@pytest.fixture
def small(bench_script):
    """One seed's read-out at infinite ``N`` on a small cell, split: ``(parts module, limit, test, parts)``."""
    parts = bench_script("readout_parts")
    limit, test = bench_script("population_wall").readout_limit(SMALL, math.inf, 5)
    return parts, limit, test, parts.attended_parts(limit, test)


def test_frozen_is_the_read_out_and_a_vanishing_trigger_moves_no_mode(bench_script):
    """``frozen`` scores as :meth:`LimitFit.predict`; at ``ζ = 10⁻⁶`` every mode's bias is about 10⁻⁶ of the
    cross-talk, so every mode scores as the read-out does."""
    script = bench_script("bias_modes")
    wall = bench_script("population_wall")
    assert script.mode_accuracies(SMALL, 5)["frozen"] == wall.population_accuracy(SMALL, math.inf, 5)
    tiny = dataclasses.replace(SMALL, zeta=1e-6)
    got = script.mode_accuracies(tiny, 5)
    assert set(got) == set(script.BIAS_MODES) and len(set(got.values())) == 1


def test_each_mode_is_the_bias_it_names(small, bench_script):
    """``redraw``'s directions lie on the ``ζ``-sphere; ``own`` is ``fresh``'s draws plus ``s_i C_i``, the correct
    label's draw shrunk by ``sqrt((V − 1)/(V + d − 1))``; ``selfless`` is the bias of the same ``G₂`` with the
    trigger not stored; ``retrained`` that of a ``G₂`` storing each query's ``z′_i``. Checked with weights ``c``
    drawn at random, so the stored trigger does not cancel."""
    rp, limit, test, parts = small
    c = np.random.default_rng(0).uniform(0.5, 1.0, SMALL.V)
    share = np.full(SMALL.V, 1.0 / SMALL.V)
    limit = dataclasses.replace(limit, G2=expected_values(limit, c, share),
                                diagnostics={**limit.diagnostics, "stored": c})
    parts = rp.attended_parts(limit, test)
    zeta, U = SMALL.zeta, limit.emb.U
    z = rp.sphere_directions(len(test.labels), SMALL.d, zeta, np.random.default_rng([5, 4]))
    assert np.linalg.norm(z, axis=1) == pytest.approx(zeta, rel=1e-12)
    assert rp.query_bias("redraw", limit, parts, test.labels, 5) == pytest.approx(z @ (U @ limit.G2).T, rel=1e-12)
    fresh, own = (rp.query_bias(m, limit, parts, test.labels, 5) for m in ("fresh", "own"))
    keys = limit.emb.E[parts.tokens]
    s = keys @ limit.emb.z_trig / (keys * keys).sum(axis=1)
    shrink = np.ones_like(fresh)
    shrink[np.arange(len(s)), test.labels] = math.sqrt((SMALL.V - 1) / (SMALL.V + SMALL.d - 1))
    assert own == pytest.approx(fresh * shrink + s[:, None] * parts.C, rel=1e-12, abs=1e-15)
    unstored = expected_values(dataclasses.replace(limit, params=dataclasses.replace(SMALL, marker_in_value=False)),
                               c, share)
    assert rp.query_bias("selfless", limit, parts, test.labels, 5) == pytest.approx(
        U @ unstored @ limit.emb.z_trig, rel=1e-9, abs=1e-12)
    retrained = rp.query_bias("retrained", limit, parts, test.labels, 5)
    for i in (0, 7, 100):
        emb = dataclasses.replace(limit.emb, z_trig=z[i])
        G2 = expected_values(dataclasses.replace(limit, emb=emb), c, share)
        assert retrained[i] == pytest.approx(U @ G2 @ z[i], rel=1e-9, abs=1e-12)
    with pytest.raises(ValueError, match="bias mode: expected one of frozen, share"):
        rp.query_bias("shared", limit, parts, test.labels, 5)


def test_the_seeds_own_direction_scores_as_frozen(small):
    """:func:`direction_errors` at ``z_trig`` itself is the read-out's error, and its ``var_b`` that of ``b``."""
    rp, limit, test, parts = small
    errors, var_b = rp.direction_errors(limit, parts, test.labels, limit.emb.z_trig[None, :])
    frozen = rp.parts_accuracy(parts.C, parts.b, parts.selected, test.labels)
    assert errors[0] == 1.0 - frozen and var_b[0] == pytest.approx(parts.b.var(), rel=1e-12)


@pytest.mark.parametrize("argv, says", [
    (["--zeta", "0"], "need --zeta > 0 (the trigger in the value), --seeds >= 1 and --directions >= 0; got 0.0"),
    (["--directions", "-1"], "got 0.5, 4, -1"),
    (["--d", "200,100"], "--d"),
])
def test_bad_input_is_one_usage_line(bench_usage_error, argv, says):
    assert says in bench_usage_error("bias_modes", ["--point", "512,200,16,80000", "--d", "200"] + argv)


def _pooled(rows, d, key):
    return 1.0 - float(np.mean([r[key] for r in rows if r["d"] == d]))


def test_the_published_modes_and_their_predictions():
    """docs/theory.md §7.12: written down before any code (20:03 UTC), over 16 fresh seeds at ``d`` 1008 and 1040:
    (a) ``fresh``'s pooled error at least 1.4x ``frozen``'s (missed at 1008); (b) ``own``'s at most 0.7x ``fresh``'s
    (missed) and within [0.7, 1.3]x ``redraw``'s (held); (c) ``redraw``'s within [0.6, 1.05]x ``frozen``'s (missed).
    Then (20:06) the stored trigger: ``selfless`` and ``retrained`` move no error (missed)."""
    rows = jsonl("bias_modes_2048_zeta3.jsonl")
    assert sorted({r["d"] for r in rows}) == [1008, 1040] and len(rows) == 32
    assert sorted({r["seed"] for r in rows}) == list(range(13724, 13740))
    e = {(d, m): _pooled(rows, d, m) for d in (1008, 1040) for m in ("frozen", "fresh", "redraw", "own",
                                                                     "selfless", "retrained")}
    assert [round(e[1008, m], 4) for m in ("frozen", "fresh", "redraw", "own")] == [0.0138, 0.0188, 0.0164, 0.0161]
    assert [round(e[1040, m], 4) for m in ("frozen", "fresh", "redraw", "own")] == [0.0076, 0.0150, 0.0119, 0.0123]
    assert e[1008, "fresh"] / e[1008, "frozen"] < 1.4 <= e[1040, "fresh"] / e[1040, "frozen"]  # (a) missed at 1008
    for d in (1008, 1040):
        assert e[d, "own"] / e[d, "fresh"] > 0.7  # (b) missed
        assert 0.7 <= e[d, "own"] / e[d, "redraw"] <= 1.3  # (b) held
        assert e[d, "redraw"] / e[d, "frozen"] > 1.05  # (c) missed
        assert round(e[d, "selfless"], 4) == round(e[d, "frozen"], 4)  # the stored trigger: missed
        assert round(e[d, "retrained"], 4) == round(e[d, "redraw"], 4)


def test_over_the_triggers_direction_the_mean_is_redraws_and_skewed():
    """Written down at 20:08 UTC, before any code, over 256 directions a seed each shared by every query: (a) the
    mean error within [0.9, 1.1]x ``redraw``'s (held: 0.97, 0.95); (b) median/mean at most 0.85 and the worst 5%
    carrying at least 15% (held: 0.74, 0.70; 0.20, 0.23); (c) Spearman with ``var_b`` at least 0.6 (missed: 0.59,
    0.57); (d) the seeds' own ``z_trig`` at uniform quantiles, KS p > 0.05 (held: 0.46)."""
    rows = jsonl("bias_modes_2048_zeta3.jsonl")
    got = {}
    for d in (1008, 1040):
        at = [r for r in rows if r["d"] == d]
        mean = np.mean([r["dir_mean"] for r in at])
        got[d] = (mean / _pooled(rows, d, "redraw"), np.mean([r["dir_median"] for r in at]) / mean,
                  np.mean([r["dir_worst5_share"] for r in at]), np.mean([r["dir_spearman"] for r in at]))
        assert 0.9 <= got[d][0] <= 1.1 and got[d][1] <= 0.85 and got[d][2] >= 0.15 and got[d][3] < 0.6
    assert [round(x, 2) for x in (*got[1008], *got[1040])] == [0.97, 0.74, 0.2, 0.59, 0.95, 0.7, 0.23, 0.57]
    p = kstest([r["dir_quantile"] for r in rows], "uniform").pvalue
    assert p > 0.05 and round(p, 2) == 0.46


def test_the_redraw_wall_sits_on_the_model(bench_script):
    """Predicted in [995, 1035] (near the seeds' own 1016.0): 1053.9, missed; the fixed-SNR model's 1046.4."""
    population_wall = bench_script("population_wall")
    rows = [r for r in jsonl("limit_population_wall_crosstalk.jsonl") if r["ablate"] == "redraw"]
    assert [r["d"] for r in rows] == list(range(976, 1121, 16))
    wall = population_wall.median_wall([r["d"] for r in rows], [float(np.median(r["accuracy"])) for r in rows], 0.99)
    assert round(wall, 1) == 1053.9 and not 995 <= wall <= 1035


def test_a_published_seed_reruns(bench_script):
    """Seed 13724 at ``d = 1008``, recomputed (about 6 s): every mode's accuracy exactly; the direction figures to
    within what one query's argmax flipping in one of the 256 directions would move them (another BLAS may break a
    near-tie the other way)."""
    script = bench_script("bias_modes")
    [row] = [r for r in jsonl("bias_modes_2048_zeta3.jsonl") if (r["d"], r["seed"]) == (1008, 13724)]
    params = RetrievalParams(V=2048, d=1008, L=16, N=2000000, zeta=3.0, marker_in_value=True)
    got = script.mode_accuracies(params, 13724, 256)
    assert {m: got[m] for m in script.BIAS_MODES} == {m: row[m] for m in script.BIAS_MODES}
    assert got["dir_mean"] == pytest.approx(row["dir_mean"], abs=1e-5)
    assert got["dir_quantile"] == pytest.approx(row["dir_quantile"], abs=1.0 / 256)
    assert got["dir_spearman"] == pytest.approx(row["dir_spearman"], abs=0.01)


def _direction_walls(rows, wall):
    """The ``d`` where the seeds' mean ``dir_mean`` and mean ``dir_median`` cross an error of 1% (linear between
    grid points, ``population_wall.median_wall`` on ``1 − error``), and the median/mean at each ``d``."""
    ds = sorted({r["d"] for r in rows})
    mean = [np.mean([r["dir_mean"] for r in rows if r["d"] == d]) for d in ds]
    median = [np.mean([r["dir_median"] for r in rows if r["d"] == d]) for d in ds]
    return (wall(ds, [1.0 - e for e in mean], 0.99), wall(ds, [1.0 - e for e in median], 0.99),
            dict(zip(ds, np.divide(median, mean))))


def test_at_zeta_1_and_2_the_model_is_the_direction_averaged_wall(bench_script):
    """Written down at 20:16 UTC, before the runs (docs/theory.md §7.12, "At ζ 1 and 2 too"): the mean-direction
    wall within ±2% of the fixed-SNR model (held: 429.2 against 429.3, 703.5 against 703.6); the median direction's
    below it and within ±2% of the published 4-seed walls 417.1 and 697.4 (426.8: missed at ``ζ = 1``; 690.8: held);
    median/mean nearest each model wall 0.93 at ``ζ = 1`` above 0.79 at 2, both above ``ζ = 3``'s (held)."""
    wall = bench_script("population_wall").median_wall
    model = bench_script("crosstalk_parts").wall_with_trigger
    rows = jsonl("bias_modes_2048_zeta1_zeta2.jsonl")
    assert len(rows) == 128 and sorted({r["seed"] for r in rows}) == list(range(13740, 13756))
    got = {z: _direction_walls([r for r in rows if r["zeta"] == z], wall) for z in (1.0, 2.0)}
    for z, published, nearest in ((1.0, 417.1, 436), (2.0, 697.4, 704)):
        mean_wall, median_wall, ratio = got[z]
        assert abs(mean_wall / model(301.2, 2048, z) - 1.0) <= 0.02  # (a) held
        assert median_wall < mean_wall  # (b), first half: held
        assert (abs(median_wall / published - 1.0) <= 0.02) == (z == 2.0)  # (b): missed at 1, held at 2
    assert [round(got[z][i], 1) for z in (1.0, 2.0) for i in (0, 1)] == [429.2, 426.8, 703.5, 690.8]
    assert round(got[1.0][2][436], 2) == 0.93 and round(got[2.0][2][704], 2) == 0.79  # (c): held
    zeta_3 = _direction_walls(jsonl("bias_modes_2048_zeta3.jsonl"), wall)
    assert round(zeta_3[1], 1) == 1022.5 and max(zeta_3[2].values()) < got[2.0][2][704]
    e = [np.mean([r["dir_mean"] for r in jsonl("bias_modes_2048_zeta3.jsonl") if r["d"] == d]) for d in (1008, 1040)]
    assert round(1040 + 32 * (e[1] - 0.01) / (e[0] - e[1]), 1) == 1048.9  # both above 1%: extrapolated
