"""``theorycheck fit A B ...``: several binomial sources fitted together (cli/fit_pool.py)."""

from __future__ import annotations

import csv
import json

import pytest

from theorycheck.cli.main import main
from theorycheck.law import Law
from theorycheck.planted import planted_dataset

LAW = "N >= C*L*V"


def _rows(data):
    return [(cell.values["L"], cell.values["V"], r, k, n) for cell in data.cells for r, k, n in cell.points]


def _write(path, rows, header=("L", "V", "N", "successes", "trials"), extra=None):
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow([*header, *(extra or {})])
        for row in rows:
            w.writerow([*(f"{x:.6g}" if isinstance(x, float) else x for x in row), *(extra or {}).values()])
    return str(path)


@pytest.fixture(scope="module")
def rows():
    data = planted_dataset(Law.parse(LAW), grid={"L": [4, 16, 64], "V": [64, 256, 1024]},
                           constants={"C": 3.0}, width=0.15, trials=6, seed=41)
    return _rows(data)


def _fit(capsys, *args):
    code = main(["fit", *args, "--law", LAW, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_two_halves_fit_as_the_whole(tmp_path, rows, capsys):
    # the same rows split in two files (every other row) pool to the same counts, so the same
    # verdict, exponents and CIs as the whole file, to rounding
    whole = _write(tmp_path / "whole.csv", rows)
    a = _write(tmp_path / "a.csv", rows[::2])
    b = _write(tmp_path / "b.csv", rows[1::2])
    code_whole, one = _fit(capsys, whole)
    code_pooled, two = _fit(capsys, a, b)
    assert code_pooled == code_whole
    assert two["verdict"] == one["verdict"]
    for name, entry in one["exponents"].items():
        assert two["exponents"][name]["estimate"] == pytest.approx(entry["estimate"], rel=1e-9, abs=1e-12)
        assert two["exponents"][name]["ci"] == pytest.approx(entry["ci"], rel=1e-9, abs=1e-12)


def test_a_setting_one_source_did_not_record_is_read_from_the_others_with_a_note(tmp_path, rows, capsys):
    run = _write(tmp_path / "run.csv", rows[::2], extra={"steps": 480})
    probes = _write(tmp_path / "probes.csv", rows[1::2])
    code, out = _fit(capsys, run, probes)
    assert code in (0, 1, 3)
    assert any(f"{probes} has no column(s) steps; read with the value every other source gives (steps = 480)"
               in n for n in out["notes"]), out["notes"]


def test_a_setting_the_sources_disagree_on_is_refused(tmp_path, rows, capsys):
    # steps = 240 in one run and 480 in the other: different experiments; not parameters of
    # the law, so pooling them would merge different cells
    a = _write(tmp_path / "a.csv", rows[::2], extra={"steps": 240})
    b = _write(tmp_path / "b.csv", rows[1::2], extra={"steps": 480})
    assert main(["fit", a, b, "--law", LAW]) == 2
    assert "['steps'] take several values but are not parameters" in capsys.readouterr().err


def test_errors_name_the_source_and_its_line(tmp_path, rows, capsys):
    a = _write(tmp_path / "a.csv", rows[:3])
    bad = list(rows[3:6])
    bad[1] = (*bad[1][:3], 7, 6)  # successes > trials on line 3 of b.csv
    b = _write(tmp_path / "b.csv", bad)
    assert main(["fit", a, b, "--law", LAW]) == 2
    assert f"{b}, line 3: successes (7) exceed trials (6)" in capsys.readouterr().err


def test_a_thresholds_table_does_not_pool(tmp_path, rows, capsys):
    a = _write(tmp_path / "a.csv", rows)
    table = tmp_path / "table.csv"
    table.write_text("L,V,threshold,ci_low,ci_high\n4,64,700,600,800\n")
    assert main(["fit", a, str(table), "--law", LAW]) == 2
    assert "is a thresholds table: several DATA pool binomial rows" in capsys.readouterr().err


def test_checks_that_measured_different_q_need_q(tmp_path, rows, capsys):
    paths = []
    for name, q in (("a", 0.5), ("b", 0.9)):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "verdict.json").write_text(json.dumps({"design": {"q": q, "resource": "N"}}))
        paths.append(_write(folder / "rows.csv", rows[::2] if name == "a" else rows[1::2]))
    assert main(["fit", *paths, "--law", LAW]) == 2
    assert "measured different q" in capsys.readouterr().err
    code, out = _fit(capsys, *paths, "--q", "0.5")
    assert any("measured q = 0.9" in n for n in out["notes"]), out["notes"]


def test_save_rows_writes_what_fit_reads_back_as_the_same_data(tmp_path, rows, capsys):
    a = _write(tmp_path / "a.csv", rows[::2], extra={"steps": 480})
    b = _write(tmp_path / "b.csv", rows[1::2])
    saved = tmp_path / "pooled.csv"
    code, pooled = _fit(capsys, a, b, "--save-rows", str(saved))
    lines = saved.read_text().splitlines()
    assert lines[0] == "L,V,steps,N,successes,trials" and len(lines) == 1 + len({(r[0], r[1], r[2]) for r in rows})
    # the setting is kept; b.csv had no steps column and the pooled fit read it with a's value
    # (its note says so), which is what the saved file records
    assert {line.split(",")[2] for line in lines[1:]} == {"480"}
    assert any("has no column(s) steps" in n for n in pooled["notes"])
    code_again, again = _fit(capsys, str(saved))
    assert (code_again, again["verdict"]) == (code, pooled["verdict"])
    for name, entry in pooled["exponents"].items():
        assert again["exponents"][name]["estimate"] == pytest.approx(entry["estimate"], rel=1e-9, abs=1e-12)


def test_save_rows_of_a_table_is_refused(tmp_path, capsys):
    table = tmp_path / "table.csv"
    table.write_text("L,V,threshold,ci_low,ci_high\n4,64,700,600,800\n16,64,2900,2500,3300\n"
                     "4,256,2900,2500,3300\n16,256,11000,10000,12000\n")
    assert main(["fit", str(table), "--law", LAW, "--save-rows", str(tmp_path / "x.csv")]) == 2
    assert "it writes binomial rows, and DATA is a thresholds table" in capsys.readouterr().err


def test_simulate_rows_are_binomial_rows_that_fit_reads(tmp_path, capsys):
    # probes with simulate --rows: one row per run, the header written once, each row with its
    # seeds; fit reads the file, alone or pooled, with the settings it recorded as one-valued columns
    rows = tmp_path / "probes.csv"
    for V, N in ((64, 400), (64, 1600), (128, 800), (128, 3200)):
        assert main(["simulate", "--V", str(V), "--d", "64", "--L", "4", "--N", str(N), "--seeds", "2",
                     "--seed", str(N), "--rows", str(rows)]) == 0
    capsys.readouterr()
    lines = rows.read_text().splitlines()
    assert lines[0].startswith("V,d,L,N,") and lines[0].endswith(",algorithm,successes,trials,seeds")
    assert len(lines) == 5
    assert [line.split(",")[-2:] for line in lines[1:]] == [["2", f"{N}-{N + 1}"] for N in (400, 1600, 800, 3200)]
    assert main(["fit", str(rows), "--law", "N >= C*V*log(V)", "--json"]) in (0, 1, 3)
    out = json.loads(capsys.readouterr().out)
    assert out["data"].startswith("binomial rows: 2 cells, 8 trials")


def test_simulate_rows_refuses_a_file_of_other_columns_before_any_trial(tmp_path, capsys):
    rows = tmp_path / "probes.csv"
    rows.write_text("V,d,successes,trials\n64,32,1,2\n")
    assert main(["simulate", "--V", "64", "--d", "32", "--L", "4", "--N", "100", "--rows", str(rows)]) == 2
    captured = capsys.readouterr()
    assert "has the columns V,d,successes,trials, but this run writes V,d,L,N," in captured.err
    assert "seed 0" not in captured.out and rows.read_text() == "V,d,successes,trials\n64,32,1,2\n"


def test_numbers_written_differently_are_one_value_when_pooling(tmp_path, rows, capsys):
    # a store writes zeta 1.0, a hand-written CSV 1: the same setting, not two experiments
    a = _write(tmp_path / "a.csv", rows[::2], extra={"zeta": "1.0"})
    b = _write(tmp_path / "b.csv", rows[1::2], extra={"zeta": "1"})
    code, out = _fit(capsys, a, b)
    assert code in (0, 1, 3) and any("['zeta'] (one value each) ignored" in n for n in out["notes"]), out["notes"]


def test_the_same_source_twice_is_refused(tmp_path, rows, capsys):
    # its trials would count twice; a directory and its trials.sqlite are one source too
    a = _write(tmp_path / "a.csv", rows)
    assert main(["fit", a, str(tmp_path / "." / "a.csv"), "--law", LAW]) == 2
    assert "twice" in capsys.readouterr().err


def _simulate_rows(path, N, seed, seeds=2):
    return main(["simulate", "--V", "64", "--d", "64", "--L", "4", "--N", str(N), "--seeds", str(seeds),
                 "--seed", str(seed), "--rows", str(path)])


def test_a_seed_used_twice_at_one_point_is_refused(tmp_path, capsys):
    # a trial is a function of its parameters and its seed: seeds 11-12 and 12-13 at one point
    # share seed 12, whose trial would count twice (a run appended twice, a file pooled under two
    # names); the same seeds at another N are other trials and pass
    rows = tmp_path / "probes.csv"
    assert _simulate_rows(rows, 400, 11) == 0 and _simulate_rows(rows, 800, 11) == 0
    capsys.readouterr()
    assert main(["fit", str(rows), "--law", "N >= C*V*log(V)"]) != 2
    capsys.readouterr()
    assert _simulate_rows(rows, 400, 12) == 0
    capsys.readouterr()
    assert main(["fit", str(rows), "--law", "N >= C*V*log(V)"]) == 2
    err = capsys.readouterr().err
    assert "line 4 and line 2 are the same point with seed 12 in both (12-13 and 11-12)" in err
    assert err.count("\n") == 1
    copy = tmp_path / "copy.csv"
    copy.write_text(rows.read_text().splitlines()[0] + "\n" + rows.read_text().splitlines()[1] + "\n")
    (tmp_path / "first.csv").write_text("\n".join(rows.read_text().splitlines()[:2]) + "\n")
    assert main(["fit", str(tmp_path / "first.csv"), str(copy), "--law", "N >= C*V*log(V)"]) == 2
    assert "seed 11 in both" in capsys.readouterr().err


def test_seeds_are_never_read_into_a_source_that_lacks_them(tmp_path, capsys):
    # an older rows file (no seeds column) pooled with a new one: its rows stay without seeds,
    # where a setting would be filled in from the other source; a one-row new file would
    # otherwise lend its seeds to every old row and refuse them as repeats
    new = tmp_path / "new.csv"
    assert _simulate_rows(new, 400, 11) == 0
    capsys.readouterr()
    header, row = new.read_text().splitlines()
    old = tmp_path / "old.csv"
    old.write_text(",".join(header.split(",")[:-1]) + "\n" + ",".join(row.split(",")[:-1]) + "\n")
    assert main(["fit", str(new), str(old), "--law", "N >= C*V*log(V)", "--json"]) != 2
    out = json.loads(capsys.readouterr().out)
    assert out["data"].startswith("binomial rows: 1 cell, 4 trials")
    assert not any("seeds" in note for note in out["notes"]), out["notes"]


@pytest.mark.parametrize("entry", ["x", "5-3", "1-2-3", "-1", "2.5"])
def test_a_seeds_entry_that_is_not_seeds_is_refused(tmp_path, capsys, entry):
    rows = tmp_path / "probes.csv"
    rows.write_text(f"V,N,successes,trials,seeds\n64,400,1,2,{entry}\n64,800,2,2,7\n")
    assert main(["fit", str(rows), "--law", "N >= C*V*log(V)"]) == 2
    err = capsys.readouterr().err
    assert f"line 2, column 'seeds': '{entry}' is not a seed or a range FIRST-LAST of seeds" in err
