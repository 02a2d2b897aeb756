"""``theorycheck fit``: exit codes carry the verdict; bad input is one line and exit 2."""

import csv
import json
import math

import numpy as np
import pytest

from theorycheck.cli.main import main
from theorycheck.law import Law
from theorycheck.planted import planted_dataset

LAW = "N >= C*L*V**2*log(V)/d**2"


def _write(path, data, columns=("d", "L", "V")):
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow([*columns, "N", "successes", "trials"])
        for cell in data.cells:
            for r, k, n in cell.points:
                w.writerow([*(f"{cell.values[c]:g}" for c in columns), f"{r:.6g}", k, n])
    return str(path)


@pytest.fixture(scope="module")
def good_csv(tmp_path_factory):
    data = planted_dataset(Law.parse(LAW), grid={"d": [16, 64], "L": [4, 16, 64], "V": [64, 256, 1024]},
                           constants={"C": 3.0}, width=0.15, trials=6, seed=31)
    return _write(tmp_path_factory.mktemp("fit") / "sweep.csv", data)


def test_consistent_exit_0_with_json(good_csv, capsys):
    code = main(["fit", good_csv, "--law", LAW, "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["verdict"] == "consistent"
    assert set(out["exponents"]) == {"L", "V", "d"}
    for entry in out["exponents"].values():
        assert {"estimate", "ci", "predicted"} <= set(entry) and len(entry["ci"]) == 2
    assert 2.0 < out["constant"]["C"]["estimate"] < 4.5
    assert len(out["cells"]) == 18 and {"threshold", "ci", "params"} <= set(out["cells"][0])


def test_refuted_exit_1_and_text_report(good_csv, capsys):
    code = main(["fit", good_csv, "--law", "N >= C*L*V**2*log(V)/d", "--no-diagnostics"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("verdict: refuted")
    assert "exponents:" in out and "cells (18):" in out


def test_inconclusive_exit_3_when_the_sweep_is_too_narrow(good_csv, capsys):
    # every variable spans 0.6-1.2 decades; asking for 2 cannot be met
    code = main(["fit", good_csv, "--law", LAW, "--min-span", "2", "--no-diagnostics"])
    assert code == 3
    out = capsys.readouterr().out
    assert out.startswith("verdict: inconclusive") and "to decide:" in out and "widen" in out


def test_full_report_with_diagnostics(good_csv, capsys):
    code = main(["fit", good_csv, "--law", LAW, "--json", "--up-to", "polylog"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["up_to"] == "polylog"
    assert out["models"]["best_aic"] == "law" and out["power_fit"]["method"] == "glm"


def test_catalogue_id_as_law(tmp_path, capsys):
    data = planted_dataset(Law.parse("d**2 >= C1*V*log(V)", resource="d"), grid={"V": [64, 256, 1024]},
                           constants={"C1": 10.0}, width=0.1, trials=8, seed=32)
    path = tmp_path / "storage.csv"
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow(["V", "d", "successes", "trials"])
        for cell in data.cells:
            for r, k, n in cell.points:
                w.writerow([f"{cell.values['V']:g}", f"{r:.6g}", k, n])
    code = main(["fit", str(path), "--law", "vural2026.storage", "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert out["resource"] == "d" and code == 0, out["reason"]


@pytest.mark.parametrize(
    ("content", "law", "fragment"),
    [
        ("d,N,successes,trials\n1,2,3,2\n", "N >= C*d", "successes (3) exceed trials (2)"),
        ("d,N,successes,trials\n1,nan,1,2\n", "N >= C*d", "is not a finite number"),
        ("d,N,successes,trials\n1,-2,1,2\n", "N >= C*d", "negative value"),
        ("d,N,successes,trials\n1,x,1,2\n", "N >= C*d", "'x' is not a number"),
        ("d,N,trials\n1,2,2\n", "N >= C*d", "lacks column(s) ['successes'] for binomial rows"),
        ("d;N;successes;trials\n1;2;1;2\n", "N >= C*d", "it looks separated by ';'; save it with commas"),
        ("d,threshold\n1,2\n4,9\n", "N >= C*d", "their scatter stands in for the errors and needs at least 3 cells"),
        ("d,m_star,ci_low,ci_high\n1,2,1,3\n", "N >= C*d", "has uncertainty columns but no threshold column"),
        ("d,draws,successes,trials\n1,2,1,2\n", "N >= C*d", "name the resource column with --resource"),
        ("d,N,successes,trials\n1,2,1,2\n", "N >= C*d*L", "the CSV has no column 'L'"),
        ("d,N,successes,trials\n", "N >= C*d", "no data rows"),
        ("", "N >= C*d", "is empty"),
        ("d,N,successes,trials\n1,2,1,2\n", "N >= C*d +", "cannot parse law"),
        ("d,N,successes,trials\n1,2,1,2\n", "nonexistent.bound", "unknown bound"),
        ("d,N,successes,trials\n1,2,1.5,2\n", "N >= C*d", "not a whole number"),
        ("d,N,successes,trials\n1,2,1,2\nd,N,successes,trials\n2,4,1,2\n", "N >= C*d",
         "line 3 repeats the header"),
    ],
)
def test_bad_input_exit_2(tmp_path, capsys, content, law, fragment):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    assert main(["fit", str(path), "--law", law]) == 2
    err = capsys.readouterr().err
    assert err.startswith("theorycheck: error:") and fragment in err
    assert "Traceback" not in err


def test_rows_where_no_cell_crosses_are_inconclusive_not_bad_input(tmp_path, capsys):
    # a stopped run where every cell failed everywhere (width that cannot buy success): the data
    # are valid and say where the threshold is not, so the answer is inconclusive (exit 3), with
    # every cell listed as censored beyond the largest value tried
    path = tmp_path / "all_fail.csv"
    path.write_text("d,N,successes,trials\n8,100,0,4\n8,400,0,4\n16,100,0,4\n16,800,0,4\n")
    assert main(["fit", str(path), "--law", "N >= C*d"]) == 3
    text = capsys.readouterr().out
    assert text.startswith("verdict: inconclusive") and "no cell crosses success probability q" in text
    reason = next(line for line in text.splitlines() if line.startswith("reason:"))
    assert reason.endswith("(details: --json)")  # fit writes no report.md to point to
    assert "  d=8: censored, N* > 400, 8 trials" in text
    assert "  d=16: censored, N* > 800, 8 trials" in text


def test_unreadable_file_exit_2(tmp_path, capsys):
    assert main(["fit", str(tmp_path / "missing.csv"), "--law", "N >= C*d"]) == 2
    assert "cannot read" in capsys.readouterr().err
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\x89PNG\x00\xff\xfe")
    assert main(["fit", str(binary), "--law", "N >= C*d"]) == 2
    assert "not a readable CSV" in capsys.readouterr().err


def test_lower_bound_option(good_csv, capsys):
    # planted constant 3: a bound with constant 100 lies above every observed threshold
    code = main(["fit", good_csv, "--law", LAW, "--json", "--no-diagnostics",
                 "--lower-bound", "N >= 100*L*V**2*log(V)/d**2"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0  # the verdict is about --law; the bound check is reported beside it
    assert out["lower_bound"]["violated"] and len(out["lower_bound"]["cell_violations"]) == 18
    assert any("violate the lower bound" in n for n in out["notes"])


# ---------------------------------------------------------------- userlaw: textbook laws, tables, no law
def _rows_csv(path, header, rows, bom=False):
    text = ",".join(header) + "\n" + "".join(",".join(str(x) for x in r) + "\n" for r in rows)
    path.write_text(("\ufeff" if bom else "") + text, encoding="utf-8")
    return str(path)


def test_misspelt_variable_exits_2_naming_it(good_csv, capsys):
    assert main(["fit", good_csv, "--law", "N >= C*L*Vv**2*log(Vv)/d**2"]) == 2
    err = capsys.readouterr().err
    assert "['Vv']" in err and "no column 'Vv'" in err and "d, L, V, N" in err and "SVD" not in err


def test_a_law_or_flag_against_the_datas_direction_exits_2_with_the_fix(good_csv, capsys):
    # success rises with N in every planted cell: a '<=' law or --decreasing contradicts it
    assert main(["fit", good_csv, "--law", LAW.replace(">=", "<=")]) == 2
    err = capsys.readouterr().err
    assert "says success falls with N, but in the data it rises" in err and "'>='" in err
    assert len(err.strip().splitlines()) == 1
    assert main(["fit", good_csv, "--decreasing"]) == 2
    assert "drop --decreasing" in capsys.readouterr().err


def test_point_thresholds_from_a_paper_get_a_verdict(tmp_path, capsys):
    # no CI, no se: the errors are the scatter about a free power law (compare/threshold_table.py)
    rng = np.random.default_rng(2)
    lines = ["n,threshold"] + [f"{n},{2 * n * math.log(n) * math.exp(rng.normal(0, 0.02)):.4g}"
                               for n in (16, 64, 256, 1024, 4096, 16384)]
    path = tmp_path / "paper.csv"
    path.write_text("\n".join(lines) + "\n")
    assert main(["fit", str(path), "--law", "N >= C*n*log(n)", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "consistent" and "scatter about a free power law" in out["notes"][0]
    assert main(["fit", str(path), "--law", "N >= C*n**2"]) == 1  # a wrong exponent is still refuted


def test_declared_constant_is_fitted(good_csv, capsys):
    # 'gamma' is not a constant by the naming rule; --constants declares it
    code = main(["fit", good_csv, "--law", "N >= gamma*L*V**2*log(V)/d**2", "--constants", "gamma",
                 "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and 2.0 < out["constant"]["gamma"]["estimate"] < 4.5


def test_bom_trials_zero_and_extra_columns(tmp_path, capsys):
    data = planted_dataset(Law.parse("N >= C*V"), grid={"V": [30, 100, 300, 1000]}, constants={"C": 2.0},
                           width=0.1, trials=8, seed=3)
    rows = [(f"{c.values['V']:g}", r, k, n, 7) for c in data.cells for r, k, n in c.points]
    path = _rows_csv(tmp_path / "bom.csv", ["V", "N", "successes", "trials", "zeta"], rows, bom=True)
    assert main(["fit", path, "--law", "N >= C*V", "--json", "--no-diagnostics"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert any("['zeta'] (one value each) ignored" in n for n in out["notes"])
    assert out["data"].startswith("binomial rows")
    varying = [(*r[:4], i) for i, r in enumerate(rows)]
    path = _rows_csv(tmp_path / "extra.csv", ["V", "N", "successes", "trials", "zeta"], varying)
    assert main(["fit", path, "--law", "N >= C*V"]) == 2
    assert "['zeta'] take several values" in capsys.readouterr().err
    path = _rows_csv(tmp_path / "zero.csv", ["V", "N", "successes", "trials"], [(10, 5, 0, 0)] + [r[:4] for r in rows])
    assert main(["fit", path, "--law", "N >= C*V"]) == 2
    assert "line 2: trials is 0" in capsys.readouterr().err


def test_json_into_a_closed_pipe_exits_cleanly(good_csv):
    import subprocess
    import sys

    cmd = (f"{sys.executable} -m theorycheck.cli.main fit {good_csv} --law '{LAW}' --json --no-diagnostics"
           " | head -1")
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True, timeout=300)
    assert proc.stdout == "{\n" and "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
    assert proc.returncode == 0  # the verdict's exit code (consistent), not a crash


def test_textbook_law_with_assume(tmp_path, capsys):
    law = Law.parse("m >= C*k*log(n/k)", assume="k < n")
    cells = [{"k": k, "n": n} for k in (2, 4, 8, 16) for n in (64, 256, 1024)]
    data = planted_dataset(law, cells=cells, constants={"C": 2.0}, width=0.1, trials=8, seed=4)
    rows = [(f"{c.values['k']:g}", f"{c.values['n']:g}", r, k, n) for c in data.cells for r, k, n in c.points]
    path = _rows_csv(tmp_path / "kn.csv", ["k", "n", "m", "successes", "trials"], rows)
    assert main(["fit", path, "--law", "m >= C*k*log(n/k)"]) == 2
    assert "assume" in capsys.readouterr().err
    code = main(["fit", path, "--law", "m >= C*k*log(n/k)", "--assume", "k < n", "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["assume"] == ["k < n"], out["reason"]


def _table_csv(path, law_text, seed, se=0.04):
    """Planted thresholds of N >= 3 V^2/d with 95% CIs, as a thresholds table."""
    import math

    import numpy as np

    rng = np.random.default_rng(np.random.SeedSequence(seed))
    rows = []
    for v in (64, 256, 1024, 4096):
        for d in (8, 32, 128):
            t = math.log(3 * v**2 / d) + rng.normal(0, se)
            rows.append((v, d, math.exp(t), math.exp(t - 1.96 * se), math.exp(t + 1.96 * se)))
    return _rows_csv(path, ["V", "d", "threshold", "ci_low", "ci_high"], rows)


def test_planted_thresholds_table_through_the_cli(tmp_path, capsys):
    path = _table_csv(tmp_path / "table.csv", "N >= C*V**2/d", seed=8)
    assert main(["fit", path, "--law", "N >= C*V**2/d"]) == 0
    assert "data: thresholds table: 12 cells" in capsys.readouterr().out
    assert main(["fit", path, "--law", "N >= C*V**2/d**2", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["exponents"]["d"]["status"] == "refuted" and out["data"].startswith("thresholds table")


def test_fit_on_checks_own_thresholds_csv_reproduces_its_verdict(tmp_path, capsys):
    out_dir = tmp_path / "check"
    code = main(["check", "hebbian", "--out", str(out_dir), "--quiet"])
    capsys.readouterr()
    check = json.loads((out_dir / "verdict.json").read_text())["verdict"]
    assert main(["fit", str(out_dir / "thresholds.csv"), "--law", "hebbian", "--json"]) == code
    fit = json.loads(capsys.readouterr().out)
    assert fit["verdict"] == check["verdict"]
    for name, entry in check["exponents"].items():
        if entry["estimate"] is not None:
            lo, hi = entry["ci"]
            assert lo <= fit["exponents"][name]["estimate"] <= hi


@pytest.mark.parametrize("legacy", [False, True])
def test_fit_reads_a_checks_thresholds_csv_with_an_open_ci(tmp_path, capsys, legacy):
    # a cell whose threshold is a model-free bracket [0, inf]: check writes ci_high as inf
    # (before: empty, which fit refused with "ci_low/ci_high are empty"); fit keeps the cell
    # without weight and fits the others
    from theorycheck.report.writer import write_thresholds_csv

    cells = [{"params": {"V": 10.0}, "threshold": {"estimate": 6.0, "ci": [0.0, None], "points": [[6.0, 2, 4]]}}]
    cells += [{"params": {"V": float(v)}, "threshold": {"estimate": 0.5 * v, "ci": [0.45 * v, 0.55 * v],
                                                        "points": [[0.5 * v, 2, 4]]}} for v in (100, 1000, 10000)]
    path = write_thresholds_csv({"cells": cells}, tmp_path / "thresholds.csv")
    text = path.read_text()
    assert "\n10.0,6.0,0.0,inf," in text
    if legacy:  # what check wrote before: 0.0 and an empty upper end
        path.write_text(text.replace("0.0,inf,", "0.0,,"))
    assert main(["fit", str(path), "--law", "N >= C*V", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "1 threshold with an open CI, kept without weight" in out["data"]
    assert out["exponents"]["V"]["estimate"] == pytest.approx(1.0, abs=1e-9)


def test_no_law_ranks_the_planted_form_first(tmp_path, capsys):
    path = _table_csv(tmp_path / "table.csv", "N >= C*V**2/d", seed=9)
    assert main(["fit", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["candidates"][0]["law"] == "N >= C*V**2/d"
    for name, planted in (("V", 2.0), ("d", -1.0)):
        lo, hi = out["exponents"][name]["ci"]
        assert lo < planted < hi
    assert main(["fit", path]) == 0
    assert "paste one into --law" in capsys.readouterr().out


def test_no_law_on_binomial_rows(good_csv, capsys):
    assert main(["fit", good_csv, "--json", "--top", "3"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["data"].startswith("binomial rows") and len(out["candidates"]) == 3
    assert out["candidates"][0]["law"] == "N >= C*L*V**2*log(V)/d**2"
    assert any("--resource" in n for n in out["notes"])
    assert main(["fit", good_csv, "--assume", "d < V"]) == 2
    assert "need --law" in capsys.readouterr().err


def _bias_table(path, d_column=True):
    """Thresholds N* = 4 V^2 log V / d (no noise, 5% CIs) at V = 256, 1024, 4096 and d = 128:
    V/d = 2 in the first cell, under the factor 4 that ``V >> d`` asks for (check/regime.py)."""
    import math

    rows = []
    for v in (256, 1024, 4096):
        t = 4 * v**2 * math.log(v) / 128
        rows.append((v, 128, t, t / 1.05, t * 1.05) if d_column else (v, t, t / 1.05, t * 1.05))
    header = ["V", "d", "threshold", "ci_low", "ci_high"]
    return _rows_csv(path, header if d_column else [h for h in header if h != "d"], rows)


def test_catalogue_law_says_where_it_was_measured(tmp_path, capsys):
    path = _bias_table(tmp_path / "bias.csv")
    main(["fit", path, "--law", "vural2026.mlp_mean_bias", "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert out["outside_regime"].startswith("outside the law's regime in 1 of 3 cells: V >> d fails in 1/3")
    assert [c["in_regime"] for c in out["cells"]] == [False, True, True]
    assert out["regime"]["violations"] == {"V >> d": [0]}
    assert [c["violated"] for c in out["cells"]] == [["V >> d"], [], []]
    main(["fit", path, "--law", "vural2026.mlp_mean_bias", "--no-diagnostics"])
    text = capsys.readouterr().out
    assert text.startswith("verdict: consistent -- outside the law's regime in 1 of 3 cells")
    # the cell itself says so, and a table's cells show no trial count (they have none)
    cells = text[text.index("cells (3):"):].splitlines()[1:4]
    assert cells[0].endswith("; outside the regime (V >> d)") and "trials" not in cells[0]
    assert "outside" not in cells[1] + cells[2]


def test_regime_judged_with_one_valued_columns_and_the_threshold(tmp_path, capsys):
    # three_step_hard's regime names L, which its law does not: a one-valued L column judges
    # "L << V"; "d**2 >> V*log(V)" holds only at d = 256, V = 1024 (65536 >= 4 * 7098)
    import math

    rows = [(v, d, 16, t, t / 1.05, t * 1.05) for v in (1024, 4096) for d in (128, 256)
            for t in [200 * v**2 * math.log(v) / d**2]]
    path = _rows_csv(tmp_path / "hard.csv", ["V", "d", "L", "threshold", "ci_low", "ci_high"], rows)
    main(["fit", path, "--law", "vural2026.three_step_hard", "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert out["regime"]["violations"] == {"V >> d": [], "L << V": [], "d**2 >> V*log(V)": [0, 2, 3]}
    assert [c["in_regime"] for c in out["cells"]] == [False, True, False, False]
    # without the L column "L << V" cannot be judged: not a failure, and said so per constraint
    path = _rows_csv(tmp_path / "hard_no_l.csv", ["V", "d", "threshold", "ci_low", "ci_high"],
                     [r[:2] + r[3:] for r in rows])
    main(["fit", path, "--law", "vural2026.three_step_hard", "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert out["regime"]["unjudged"]["L << V"] == [0, 1, 2, 3]
    # the headline's "N << L*V" is read at each cell's threshold: N*/(L V) is 0.1 at d = 128, 1 at d = 256
    rows = [(1024, d, el, t, t / 1.05, t * 1.05) for el in (16, 64) for d in (128, 256)
            for t in [(0.1 if d == 128 else 1.0) * el * 1024]]
    path = _rows_csv(tmp_path / "head.csv", ["V", "d", "L", "threshold", "ci_low", "ci_high"], rows)
    main(["fit", path, "--law", "vural2026.headline", "--params", "V,d,L", "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert out["regime"]["violations"]["N << L*V"] == [1, 3]


def test_a_law_without_a_regime_has_no_regime_line(tmp_path, capsys):
    path = _bias_table(tmp_path / "bias.csv")
    main(["fit", path, "--law", "N >= C*V**2*log(V)/d", "--json", "--no-diagnostics"])
    out = json.loads(capsys.readouterr().out)
    assert "regime" not in out and "regime_summary" not in out and "in_regime" not in out["cells"][0]


def _line_with_width(tmp_path, widths):
    """A V line planted from N >= 3 V log V, with a column m that the design set per cell."""
    data = planted_dataset(Law.parse("N >= C*V*log(V)"), grid={"V": [64, 128, 256, 512]},
                           constants={"C": 3.0}, width=0.1, trials=8, seed=5)
    path = tmp_path / "line.csv"
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow(["V", "m", "N", "successes", "trials"])
        for cell in data.cells:
            for j, (r, k, n) in enumerate(cell.points):
                w.writerow([f"{cell.values['V']:g}", widths(cell.values["V"], j), f"{r:.6g}", k, n])
    return str(path)


def test_ignore_a_column_that_moves_with_the_cells(tmp_path, capsys):
    # m scaled with V by design: one value per cell. Without --ignore the rows are refused (a
    # varying column could merge cells); with it the law's V exponent is fitted and a note says m moved
    path = _line_with_width(tmp_path, lambda V, j: f"{4 * V:g}")
    assert main(["fit", path, "--law", "N >= C*V*log(V)"]) == 2
    err = capsys.readouterr().err  # the refusal names the way out
    assert "take several values but are not parameters" in err and "name them in --ignore" in err
    assert main(["fit", path, "--law", "N >= C*V*log(V)", "--ignore", "m", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"] == "consistent" and set(out["exponents"]) == {"V"}
    assert any("['m'] move with the cells but are not variables of the fit (--ignore)" in n for n in out["notes"])


@pytest.mark.parametrize(("extra", "fragment"), [
    (["--ignore", "m"], "--ignore m: it takes several values within a cell (V=64: 256 and 257)"),
    (["--ignore", "k"], "--ignore names ['k'], which are not parameter columns of the data"),
    (["--ignore", "V"], "--ignore ['V']: a variable of the law or of --params cannot be ignored"),
])
def test_ignore_refuses_what_would_merge_cells_or_is_not_a_column(tmp_path, capsys, extra, fragment):
    # here m changes within a cell (one value per row): ignoring it would merge different runs
    path = _line_with_width(tmp_path, lambda V, j: f"{4 * V + j:g}")
    assert main(["fit", path, "--law", "N >= C*V*log(V)", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("theorycheck: error:") and fragment in err and "Traceback" not in err


@pytest.mark.parametrize(("extra", "fragment"), [
    # these were named as the Python API names them (`tolerance`, `min_span`), and --ci-level
    # 95 was accepted on binomial rows (it only reads a thresholds table's CIs)
    (["--tolerance", "-1"], "--tolerance must be a positive finite number, got -1.0"),
    (["--min-span", "0"], "--min-span must be a positive finite number, got 0.0"),
    (["--ci-level", "95"], "--ci-level must lie strictly between 0 and 1, got 95.0"),
    (["--level", "1"], "--level must lie strictly between 0 and 1"),
    (["--top", "0"], "--top must be an integer >= 1, got 0"),
])
def test_numeric_options_are_named_as_the_command_line_names_them(tmp_path, capsys, extra, fragment):
    path = tmp_path / "ok.csv"
    path.write_text("d,N,successes,trials\n1,2,1,2\n2,4,1,2\n")
    assert main(["fit", str(path), "--law", "N >= C*d", *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("theorycheck: error:") and fragment in err and len(err.strip().splitlines()) == 1


def test_one_point_without_a_law_gives_its_threshold(tmp_path, capsys):
    # a probe's rows: one point, nothing varies, so no exponent; the threshold alone (as N >= C),
    # labelled by the one-valued column, exit 0 as any fit without a law. The planted threshold
    # is C*V = 1920; the seeded 95% CI is asserted to hold it (a fixed draw, not a rate)
    data = planted_dataset(Law.parse("N >= C*V"), grid={"V": [64]}, constants={"C": 30.0}, width=0.15,
                           trials=6, seed=5)
    path = _write(tmp_path / "probe.csv", data, columns=("V",))
    code = main(["fit", path, "--json"])
    out = json.loads(capsys.readouterr().out)
    (cell,) = out["cells"]
    assert code == 0 and out["law"] == "N >= C" and out["verdict"] == "inconclusive"
    assert cell["params"] == {"V": 64.0}
    assert cell["ci"][0] < 1920 < cell["ci"][1] and cell["ci"][0] < cell["threshold"] < cell["ci"][1]
    assert any(n.startswith("no column varies: the point's threshold alone") for n in out["notes"])
    # a capacity (success falls with the resource): the same point's threshold as N <= C
    falling = tmp_path / "capacity.csv"
    falling.write_text("V,N,successes,trials\n64,100,4,4\n64,200,3,4\n64,400,1,4\n64,800,0,4\n")
    assert main(["fit", str(falling), "--decreasing", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["law"] == "N <= C" and 100 < out["cells"][0]["threshold"] < 800
