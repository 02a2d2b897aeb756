"""bench/readout_wall_pool.py: every published ``vural2026.readout_wall`` check in one thresholds table, and the one
fit of the law over all of them (docs/theory.md §7.12, "Every simulated wall under one law")."""

import csv

from bench_data import DATA
from published_fits_helpers import fit


def _write(path, rows):
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=("V", "s", "threshold", "ci_low", "ci_high", "predicted", "trials"))
        writer.writeheader()
        writer.writerows({"V": V, "s": s, "threshold": t, "ci_low": t - 1, "ci_high": t + 1, "predicted": t,
                          "trials": 100} for V, s, t in rows)


def test_the_pool_reads_every_published_check_table(bench_script):
    """A check table published without being added to ``TABLES`` would drop out of the pooled fit unseen."""
    script = bench_script("readout_wall_pool")
    published = {p.name for p in DATA.glob("readout_wall_check_*.csv") if not p.name.endswith("_rows.csv")}
    assert sorted(script.TABLES) == sorted(published) and len(set(script.TABLES)) == len(script.TABLES)


def test_a_cell_measured_twice_keeps_the_first_tables_row(bench_script, tmp_path):
    script = bench_script("readout_wall_pool")
    _write(tmp_path / "a.csv", [(512, 1, 150.0), (1024, 2, 300.0)])
    _write(tmp_path / "b.csv", [(512, 1, 152.0), (512, 2, 216.0)])
    rows, left_out = script.pooled(("a.csv", "b.csv"), data=tmp_path)
    assert [(float(r["V"]), float(r["s"]), float(r["threshold"])) for r in rows] == [
        (512.0, 1.0, 150.0), (512.0, 2.0, 216.0), (1024.0, 2.0, 300.0)]  # sorted by V, then s
    assert [(name, float(row["threshold"])) for name, row in left_out] == [("b.csv", 152.0)]
    rows, _ = script.pooled(("b.csv", "a.csv"), data=tmp_path)
    assert float(rows[0]["threshold"]) == 152.0  # the order of the tables decides, nothing else


def test_every_simulated_wall_under_one_law(bench_script, capsys, tmp_path):
    """``python bench/readout_wall_pool.py --out walls.csv && theorycheck fit walls.csv --law vural2026.readout_wall``
    (P73). Predicted at 08:09 UTC, before the pooled table was first fitted, for the 28 cells then published and
    the same with P72's ``(4096, 64)`` (``V`` 512..16384, ``s`` 1..128; a cell measured twice keeps the
    first-published row, 6 rows left out): consistent in ``V`` and ``s``, ``τ_V`` in [-0.03, 0], ``τ_s`` in [-0.012,
    0.005], ``C`` in [4.25, 4.50], the cells within 0.96..1.04 of the fitted law and scattered beyond their CIs,
    ``χ²/df`` above 2. Held on both; on the 28: ``τ_V`` -0.015, ``τ_s`` -0.003, ``C`` 4.276, 0.985..1.039, 32; on the
    29, below. ``τ_V``'s CI excludes 0: over 1.5 decades the walls grow about 5% less than the law says; the
    tolerance is ±0.25."""
    script = bench_script("readout_wall_pool")
    table = tmp_path / "walls.csv"
    script.main(["--out", str(table)])
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1] == f"29 cells from 12 tables written to {table}; 6 repeated rows left out"
    code, out = fit(capsys, table, "--law", "vural2026.readout_wall")
    assert code == 0 and out["verdict"] == "consistent"
    V, s = out["exponents"]["V"], out["exponents"]["s"]
    assert V["values"][0] == 512.0 and V["values"][-1] == 16384.0 and s["values"][-1] == 128.0
    tau_V, tau_s = V["estimate"] - V["predicted"], s["estimate"] - s["predicted"]
    assert -0.03 <= tau_V <= 0 and round(tau_V, 3) == -0.015  # held
    assert V["ci"][1] < V["predicted"]  # read after: the law's V exponent is outside the CI
    assert -0.012 <= tau_s <= 0.005 and round(tau_s, 3) == -0.003  # held
    C = out["constant"]["C"]["estimate"]
    assert 4.25 <= C <= 4.50 and round(C, 3) == 4.275  # held
    spread = out["ratio_spread"]
    assert 0.96 <= spread["min"] and spread["max"] <= 1.04  # held
    assert (round(spread["min"], 3), round(spread["max"], 3)) == (0.985, 1.039)
    assert any("chi2/df = 31" in note for note in out["notes"])  # held: scatter beyond the CIs


def test_the_pool_before_p72_as_first_fitted(bench_script, capsys, tmp_path):
    """P73 on the 28 cells published when it was predicted (every table but P72's, the last in ``TABLES``): the
    figures the first fit gave, each inside its predicted range (above)."""
    script = bench_script("readout_wall_pool")
    assert script.TABLES[-1] == "readout_wall_check_s_4096_64.csv"
    rows, left_out = script.pooled(script.TABLES[:-1])
    assert (len(rows), len(left_out)) == (28, 6)
    table = tmp_path / "walls28.csv"
    with open(table, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=script.COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
    code, out = fit(capsys, table, "--law", "vural2026.readout_wall")
    assert code == 0 and out["verdict"] == "consistent"
    taus = [round(out["exponents"][v]["estimate"] - out["exponents"][v]["predicted"], 3) for v in ("V", "s")]
    assert taus == [-0.015, -0.003] and round(out["constant"]["C"]["estimate"], 3) == 4.276
    assert (round(out["ratio_spread"]["min"], 3), round(out["ratio_spread"]["max"], 3)) == (0.985, 1.039)
