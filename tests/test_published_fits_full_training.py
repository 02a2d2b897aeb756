"""The verdicts docs/theory.md §7.8 and §7.13 publish for full training (Adam from zero, on the CPU and on a GPU)
and plain GD on their L, V and d lines, refitted from the rows they publish (bench/data), with the text and JSON
output of those fits and the runs bench/gd_plain_lines.py lists behind the plain GD rows. The fits are
deterministic; the numbers are compared at the precision printed in the docs, so a change of the comparator that
moves a published number fails here first."""

from collections import Counter

import pytest

from theorycheck.cli.main import main

from bench_data import DATA
from published_fits_helpers import fit, refuted_l_line, steepness, trials_by


# docs/theory.md §7.8, docs/results.md and notebook 02: Adam from zero at (V, d) = (1024, 256), L = 64,
# 128 and 256 (at 256 the last 20-22 trials are simulate probes near the
# crossing): rows, L exponent and its CI, N* at each L.
FULL_TRAINING_L_LINES = [
    ("gd_adam60_L_line.csv", 0.050, [-0.007, 0.108], [9544, 9807, 10235]),  # 60 steps, trigger out
    ("gd_adam60_trigger_in_L_line.csv", 0.010, [-0.060, 0.079], [9876, 9715, 10009]),  # trigger in, zeta 1
    ("gd_adam60_trigger_in_zeta05_L_line.csv", 0.037, [-0.040, 0.115], [9670, 9725, 10182]),  # zeta 1/2
    ("gd_adam120_L_line.csv", 0.011, [-0.057, 0.080], [4569, 4674, 4641]),  # 120 steps: half of 60's
]


@pytest.mark.parametrize("rows, slope, ci, thresholds", FULL_TRAINING_L_LINES)
def test_full_training_l_line(capsys, rows, slope, ci, thresholds):
    code, out = fit(capsys, rows, "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted"
    assert out["exponents"]["L"]["estimate"] == pytest.approx(slope, abs=0.0005)
    assert out["exponents"]["L"]["ci"] == pytest.approx(ci, abs=0.0005)
    assert [c["threshold"] for c in out["cells"]] == pytest.approx(thresholds, abs=1)
    assert all(c["method"] == "glm" for c in out["cells"])
    assert all(c["in_regime"] for c in out["cells"])


# plain GD, trigger out unless named, (1024, 256), single-seed simulate runs listed by
# bench/gd_plain_lines.py (docs/theory.md §7.8, docs/results.md and notebook 02, 2026-11-27).
# 480 steps at lr = 100: 51 runs, 12 probes and 4 trials of a stopped check, pooled with fit
# --save-rows (at 240 steps, gd_plain240_L_line.csv, the exponent was 0.207 and rising);
# lr = 200 for 240 steps and lr = 400 for 120 steps, the same lr x steps, and the trigger in
# the value path at lr = 200: the rows files as simulate --rows wrote them. Each exponent is
# read from the cells' shared width (cells with brackets of their own only)
PLAIN_GD_LINES = [  # file, L exponent, its CI, shared-width thresholds, trials
    ("gd_plain480_L_line.csv", 0.051, [0.014, 0.087], [4740, 4977, 5084], 67),
    ("gd_plain_lr200_L_line.csv", 0.017, [-0.097, 0.131], [4808, 4625, 4923], 33),
    ("gd_plain_lr400_L_line.csv", 0.058, [-0.022, 0.138], [4765, 4560, 5165], 33),
    ("gd_plain_lr200_trigger_in_L_line.csv", 0.059, [-0.012, 0.131], [4493, 4877], 34),
    # 2026-11-28, docs/theory.md §7.8: the lr = 400 line at (2048, 512), 36 runs
    ("gd_plain_lr400_L_line_2048.csv", 0.072, [0.015, 0.129], [12851, 14196], 36),
]


@pytest.mark.parametrize("name, slope, ci, thresholds, trials", PLAIN_GD_LINES)
def test_plain_gd_l_lines(capsys, name, slope, ci, thresholds, trials):
    cells = refuted_l_line(capsys, name, slope, ci, trials)
    assert [c["shared_width"]["threshold"] for c in cells] == pytest.approx(thresholds, abs=1)
    assert all(c["in_regime"] for c in cells)


def test_plain_gd_zeta_half_is_two_brackets(capsys):
    # docs/theory.md §7.8 (2026-11-27): zeta = 1/2, 120 steps at lr = 400, 45 runs. Six trials
    # all one way at each bracket end exclude the crossing at 95%. No cell has a failure above
    # a success, so the shared width has no finite maximum (its Wald errors had run to 10^13):
    # the exponent is read from the two brackets (compare.cell_model; before 2026-11-27 the
    # verdict was inconclusive, CI [-13, 14])
    code, out = fit(capsys, "gd_plain_lr400_zeta05_L_line.csv", "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted"
    assert out["exponents"]["L"]["estimate"] == pytest.approx(0.308, abs=0.0005)
    assert out["exponents"]["L"]["ci"] == pytest.approx([0.195, 0.420], abs=0.0005)
    assert any("no cell has a failure above a success" in n for n in out["notes"])
    cells = sorted(out["cells"], key=lambda c: c["params"]["L"])
    assert [c["method"] for c in cells] == ["bracket", "bracket"]
    assert [c["ci"] for c in cells] == [pytest.approx([4219, 5017]), pytest.approx([6510, 8441])]
    assert sum(c["trials"] for c in cells) == 45 and all(c["in_regime"] for c in cells)


def test_full_training_zeta_half_trigger_out(capsys):
    # docs/theory.md §7.8 (2026-11-26): the fourth corner of zeta x trigger, 5 seeds at each of
    # 4 N a cell; two cells have brackets only, so the exponent is read from the cells'
    # shared width, whose thresholds the docs publish
    code, out = fit(capsys, "gd_adam60_zeta05_L_line.csv", "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted"
    assert out["exponents"]["L"]["estimate"] == pytest.approx(0.013, abs=0.0005)
    assert out["exponents"]["L"]["ci"] == pytest.approx([-0.064, 0.089], abs=0.0005)
    assert [c["shared_width"]["threshold"] for c in out["cells"]] == pytest.approx([9848, 9662, 10022], abs=1)
    assert all(c["in_regime"] for c in out["cells"])
    # each cell's observed/predicted ratio is that of the threshold the report prints first, the
    # shared-width one (it was the cell's own bracket midpoint: the two disagreed); so is the spread
    ratios = [c["shared_width"]["threshold"] / c["predicted"] for c in out["cells"]]
    assert [c["ratio"] for c in out["cells"]] == pytest.approx(ratios, rel=1e-12)
    assert [c["ratio"] for c in out["cells"]] != pytest.approx([c["threshold"] / c["predicted"] for c in out["cells"]])
    assert (out["ratio_spread"]["min"], out["ratio_spread"]["max"]) == pytest.approx((min(ratios), max(ratios)))


def test_full_training_v_diagonal(capsys):
    # docs/theory.md §7.8 (2026-11-26): Adam, 60 steps, trigger out, L = 64, from (V, d) =
    # (1024, 256) to (2048, 384), the same distance from the storage wall (d^2 = 9.2-9.3 V log V).
    # Two cells: no exponent is estimable, so the verdict is inconclusive; the thresholds are
    # the result, and the law's V^2 log V / d^2 with one constant predicts both within 10%
    code, out = fit(capsys, "gd_adam60_V_diagonal.csv", "--law", "vural2026.headline")
    assert code == 3 and out["verdict"] == "inconclusive"
    assert [c["threshold"] for c in out["cells"]] == pytest.approx([9544, 20770], abs=1)
    assert out["cells"][1]["ci"] == pytest.approx([18419, 23919], abs=1)
    assert all(0.9 < c["threshold"] / c["predicted"] < 1.1 for c in out["cells"])
    assert all(c["in_regime"] for c in out["cells"])
    # V and d move together over two cells: the law's slope cannot be split between them, and
    # a width trend in d would only trade against V's (bench/fit_stability.py saw C move with
    # the data's last bits until it was dropped)
    assert out["exponents"]["V"]["predicted"] is None and out["exponents"]["d"]["predicted"] is None
    assert list(out["fit"]["width_trends"]) == ["V"]
    assert any("trend in d moves with that in V" in n for n in out["notes"])


def test_full_training_v_and_d_from_three_cells(capsys):
    # docs/theory.md §7.8 (2026-11-26): the diagonal's two cells and (2048, 512); the three
    # identify both exponents, each near the law's and too wide for the tolerance
    code, out = fit(capsys, "gd_adam60_V_d_cells.csv", "--law", "vural2026.headline")
    assert code == 3 and out["verdict"] == "inconclusive"
    assert out["exponents"]["V"]["estimate"] == pytest.approx(2.205, abs=0.0005)
    assert out["exponents"]["V"]["ci"] == pytest.approx([1.739, 2.671], abs=0.0005)
    assert out["exponents"]["d"]["estimate"] == pytest.approx(-1.851, abs=0.0005)
    assert out["exponents"]["d"]["ci"] == pytest.approx([-2.328, -1.375], abs=0.0005)
    assert out["cells"][2]["threshold"] == pytest.approx(12193, abs=1)
    assert all(c["in_regime"] for c in out["cells"])


def test_full_training_l_line_at_v_2048(capsys):
    # docs/theory.md §7.8 (2026-11-26): at (2048, 512) the threshold does not grow with L
    # either (64 to 256), as at V = 1024: refuted, the exponent read from the shared width
    code, out = fit(capsys, "gd_adam60_L_line_2048.csv", "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted"
    assert out["exponents"]["L"]["estimate"] == pytest.approx(-0.016, abs=0.0005)
    assert out["exponents"]["L"]["ci"] == pytest.approx([-0.116, 0.084], abs=0.0005)
    assert [c["shared_width"]["threshold"] for c in out["cells"]] == pytest.approx([12189, 11921], abs=1)
    assert all(c["in_regime"] for c in out["cells"])


def test_full_training_on_a_gpu_at_v4096_and_v8192(capsys):
    # docs/theory.md §7.13 (2026-11-28, H200): Adam, 60 steps, at (4096, 1024) over L 64..512
    # (132 trials): the threshold does not grow with L, refuted, every cell in the regime
    cells = refuted_l_line(capsys, "gd_adam60_gpu_L_line_4096.csv", 0.041, [-0.044, 0.125], 132)
    assert [c["threshold"] for c in cells] == pytest.approx([18576, 18971, 19399, 20257], abs=1)
    assert all(c["in_regime"] for c in cells)
    # with the 24 trials at (8192, 1024): brackets only, N*(64) in (36909, 73818] and
    # N*(256) <= 73817 where the law asks 4 N*(64); V exponent thin, near 1.5
    code, out = fit(capsys, "gd_adam60_gpu_V_cells.csv", "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted"
    assert out["exponents"]["V"]["estimate"] == pytest.approx(1.497, abs=0.0005)
    assert out["exponents"]["V"]["ci"] == pytest.approx([0.986, 2.008], abs=0.0005)
    wide = sorted((c for c in out["cells"] if c["params"]["V"] == 8192), key=lambda c: c["params"]["L"])
    assert [c["method"] for c in wide] == ["bracket", "censored"]
    assert wide[0]["ci"] == pytest.approx([36909, 73818])
    assert (wide[1]["censored_side"], wide[1]["censored_beyond"]) == ("below", 73817)


def test_full_training_on_a_gpu_in_d_at_v4096(capsys):
    # docs/theory.md §7.13 (2026-12-04, H200; predicted at 13:17 UTC before the run): Adam, 60 steps, L = 64, d 724
    # and 512 beside the L line's d = 1024 cell. Predicted: 724 in [2.4e4, 5.5e4], local exponent from 1024 in
    # [-3, -1] (missed by 0.003: -0.998); 512 in [5e4, 2e5], steeper from 724 (held). One power: d -1.82, rejected
    code, out = fit(capsys, "gd_adam60_gpu_d_line_4096_L64.csv", "--law", "vural2026.headline")
    assert code == 3 and out["verdict"] == "inconclusive"
    assert out["exponents"]["d"]["estimate"] == pytest.approx(-1.816, abs=0.0005)
    assert out["exponents"]["d"]["ci"] == pytest.approx([-1.913, -1.720], abs=0.0005)
    assert out["collapse"]["df"] == 3 and out["collapse"]["p_value"] < 1e-15
    n = {c["params"]["d"]: c for c in out["cells"]}
    assert [n[d]["method"] for d in (1024, 724, 512)] == ["bracket", "glm", "glm"]
    assert [n[d]["trials"] for d in (1024, 724, 512)] == [36, 96, 84]
    assert [n[d]["in_regime"] for d in (1024, 724, 512)] == [True, True, False]
    assert n[724]["threshold"] == pytest.approx(26254, rel=5e-4)
    assert n[724]["ci"] == pytest.approx([25957, 26569], rel=5e-4)
    assert n[512]["threshold"] == pytest.approx(65844, rel=5e-4)
    assert n[512]["ci"] == pytest.approx([64015, 67558], rel=5e-4)
    assert 2.4e4 <= n[724]["threshold"] <= 5.5e4 and 5e4 <= n[512]["threshold"] <= 2e5
    thresholds = {d: c["threshold"] for d, c in n.items()}
    upper, lower = steepness(thresholds, 1024, 724), steepness(thresholds, 724, 512)
    assert upper == pytest.approx(0.998, abs=0.001) and lower == pytest.approx(2.654, abs=0.001) and lower > upper


def test_full_training_on_a_gpu_at_a_second_d_is_flat_in_l(capsys):
    # docs/theory.md §7.13 (2026-12-04, H200; predicted at 14:03 UTC before the run): at (4096, 724), L = 256,
    # N* in [2.0e4, 3.3e4] (held), far below the law's 4x the L = 64 cell; L exponent 0.008, refuted (two L)
    cells = refuted_l_line(capsys, "gd_adam60_gpu_L_line_4096_724.csv", 0.0085, [-0.0063, 0.0232], 186, thin=True)
    assert [c["threshold"] for c in cells] == pytest.approx([26254, 26564], abs=1)
    assert [c["trials"] for c in cells] == [96, 90] and all(c["in_regime"] for c in cells)
    assert 2.0e4 <= cells[1]["threshold"] <= 3.3e4


def test_full_training_on_a_gpu_to_a_ci_at_v8192(capsys):
    # docs/theory.md §7.13 (2026-12-04, H200; predicted at 15:25 UTC before the run): (8192, 1024), L = 64, N* in
    # [4.0e4, 6.5e4] (held: 5.58e4), V exponent from (4096, 1024) in [1.1, 1.8] (held: 1.59), the law's 2.11
    code, out = fit(capsys, "gd_adam60_gpu_V_line_1024_L64.csv", "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted" and out["exponents"]["V"]["thin"] is True
    assert out["exponents"]["V"]["estimate"] == pytest.approx(1.586, abs=0.0005)
    assert out["exponents"]["V"]["ci"] == pytest.approx([1.460, 1.713], abs=0.0005)
    wide = next(c for c in out["cells"] if c["params"]["V"] == 8192)
    assert wide["method"] == "glm" and wide["trials"] == 60 and wide["in_regime"]
    assert wide["threshold"] == pytest.approx(55783, abs=1) and 4.0e4 <= wide["threshold"] <= 6.5e4
    assert wide["ci"] == pytest.approx([55101, 56587], abs=1)
    # the run's first two points are those of 2026-11-28 on the same seeds, outcome for outcome
    def rows(name):
        return {r for r in (DATA / name).read_text().splitlines()[1:] if r.startswith("64,8192,")}
    assert rows("gd_adam60_gpu_V_cells.csv") < rows("gd_adam60_gpu_V_line_1024_L64.csv")


def test_full_training_few_steps_is_censored(capsys):
    # docs/theory.md §7.8: at 30 steps the check stopped at its cost ceiling with no success
    # up to N = 28392 in either cell; fit reports both cells censored there, not a threshold.
    code, out = fit(capsys, "gd_adam30_L_line.csv", "--law", "vural2026.headline")
    assert code == 3 and out["verdict"] == "inconclusive"
    assert [c["censored_beyond"] for c in out["cells"]] == pytest.approx([28392, 28392])


def test_full_training_d_line(capsys, tmp_path):
    # docs/theory.md §7.8: Adam, 60 steps, L = 64, d = 192, 224, 256. The d = 192 cell has a
    # bracket only and lies outside the regime at it (N > L V); the fit says so, and the two
    # cells inside the regime give the d exponent on their own.
    code, out = fit(capsys, "gd_adam60_d_line.csv", "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted"
    assert out["exponents"]["d"]["estimate"] == pytest.approx(-8.30, abs=0.005)
    assert out["exponents"]["d"]["ci"] == pytest.approx([-9.33, -7.28], abs=0.005)
    cells = {c["params"]["d"]: c for c in out["cells"]}
    assert cells[192]["method"] == "bracket" and cells[192]["violated"] == ["N << L*V"]
    assert cells[192]["threshold"] == pytest.approx(100944, abs=1)
    assert [cells[d]["threshold"] for d in (224, 256)] == pytest.approx([15975, 9544], abs=1)
    assert cells[224]["in_regime"] and cells[256]["in_regime"]
    rows = (DATA / "gd_adam60_d_line.csv").read_text().splitlines()
    inside = tmp_path / "inside.csv"
    inside.write_text("\n".join(r for r in rows if not r.startswith("1024,192,")) + "\n")
    code, out = fit(capsys, inside, "--law", "vural2026.headline")  # DATA / an absolute path is that path
    d = out["exponents"]["d"]
    assert code == 1 and d["status"] == "refuted"
    assert d["estimate"] == pytest.approx(-3.86, abs=0.005) and d["ci"] == pytest.approx([-4.31, -3.41], abs=0.005)


def test_plain_gd_l_line(capsys):
    # docs/theory.md §7.8, plain GD at 240 steps: 2-6 seeds at each N, the L = 128 cell a step
    # (0/4 at 7098, 4/4 at 8441). A width trend once made that cell's threshold infinitely
    # uncertain and the L exponent's CI ±4.8e39 (docs/methods.md §4).
    code, out = fit(capsys, "gd_plain240_L_line.csv", "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted"
    L = out["exponents"]["L"]
    assert L["estimate"] == pytest.approx(0.207, abs=0.0005)
    assert L["ci"] == pytest.approx([0.153, 0.261], abs=0.0005)
    assert all(c["in_regime"] for c in out["cells"])
    # the thresholds the exponent was read from (the cells' shared width), as docs/theory.md
    # §7.8 publishes them; each cell's own threshold is only a bracket on 2-6 seeds an N
    shared = {c["params"]["L"]: c["shared_width"] for c in out["cells"]}
    published = {32: (6830, 6347, 7350), 64: (6690, 6209, 7209), 128: (7740, 7107, 8428), 256: (10505, 9574, 11527)}
    for L, (est, lo, hi) in published.items():
        assert shared[L]["threshold"] == pytest.approx(est, abs=1) and shared[L]["ci"] == pytest.approx([lo, hi], abs=1)
    assert {c["method"] for c in out["cells"]} == {"bracket"}


def test_the_cells_table_prints_the_thresholds_the_exponents_used(capsys):
    # text output once printed only each cell's own bracket while the exponent came from the
    # shared-width thresholds, which nothing printed; and the bracket's open end (inf, None
    # in the JSON the table is printed from) read "[0, -]", as if it were missing
    main(["fit", str(DATA / "gd_plain240_L_line.csv"), "--law", "vural2026.headline"])
    out = capsys.readouterr().out
    assert "L=32, V=1024, d=256: N* = 6830 [6347, 7350] (shared width; own: 7098 [0, inf] (bracket))" in out


def test_fit_json_is_the_same_bytes_under_any_hash_seed():
    # the regime report's cell values once took their key order from a set of names, so
    # the JSON of the same fit differed from run to run (PYTHONHASHSEED); numbers were equal
    import os
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "theorycheck.cli.main", "fit", str(DATA / "gd_adam120_L_line.csv"),
           "--law", "vural2026.headline", "--json"]
    outs = {subprocess.run(cmd, capture_output=True, text=True, check=False,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(outs) == 1 and '"in_regime": true' in outs.pop()


@pytest.mark.parametrize("line, rows", [("lr200", "gd_plain_lr200_L_line.csv"),
                                        ("lr400", "gd_plain_lr400_L_line.csv"),
                                        ("trigger_in_lr200", "gd_plain_lr200_trigger_in_L_line.csv"),
                                        ("zeta05_lr400", "gd_plain_lr400_zeta05_L_line.csv"),
                                        ("zeta05_lr400_240", "gd_plain_lr400_240_zeta05_L256_probe.csv"),
                                        ("v2048_lr400", "gd_plain_lr400_L_line_2048.csv")])
def test_the_plain_gd_lines_rows_are_the_runs_their_script_lists(line, rows, bench_script):
    # bench/gd_plain_lines.py records the runs behind each rows file written by simulate
    # --rows; their (V, d, L, N, steps, lr, zeta, trigger) must be the rows' trials, one for one

    spec = bench_script("gd_plain_lines").LINES[line]
    listed = Counter((spec.V, spec.d, L, N, spec.steps, float(spec.lr), spec.zeta, spec.trigger_in)
                     for L, N, _ in spec.runs())
    assert listed == trials_by(rows, lambda r: (int(r["V"]), int(r["d"]), int(r["L"]), int(r["N"]),
                                                 int(r["steps"]), float(r["lr"]), float(r["zeta"]),
                                                 r["marker_in_value"] == "true"))
