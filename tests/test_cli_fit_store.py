"""``theorycheck fit OUT``: a check's trial store fitted directly (a stopped run's verdict).

The store's records are grouped into binomial rows; the verdict must equal the one the same
counts give as a CSV, and anything but a store of Bernoulli trials is one line and exit 2."""

import csv
import json

import pytest

from theorycheck.cli.main import main
from theorycheck.law import Law
from theorycheck.planted import planted_dataset
from theorycheck.seeding import SeedIdentity
from theorycheck.sweep.record import SweepIdentity, TrialRecord, trial_key
from theorycheck.sweep.store import SqliteStore

LAW = "N >= C*L*V**2*log(V)/d**2"
IDENTITY = SweepIdentity(7, "test", "tests:trial")


def _data():
    return planted_dataset(Law.parse(LAW), grid={"d": [16, 64], "L": [4, 16], "V": [64, 256, 1024]},
                           constants={"C": 3.0}, width=0.15, trials=4, seed=5)


def _store(directory, data, result=lambda ok: {"success": ok, "accuracy": 0.5}):
    """One record per planted trial (k successes of n at each point), with a setting that is
    the same everywhere, as a check's store has."""
    with SqliteStore(directory) as store:
        store.bind(IDENTITY)
        for c, cell in enumerate(data.cells):
            for r, k, n in cell.points:
                for i in range(int(n)):
                    params = {**{v: int(cell.values[v]) for v in ("d", "L", "V")}, "N": float(r), "model": "mlp"}
                    seed = SeedIdentity(7, (c, i, int(r)))
                    key = trial_key(IDENTITY, f"cell{c}", params, seed)
                    store.put(TrialRecord(key, f"cell{c}", float(r), i, params, seed, result(i < k)))


def _csv(path, data):
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow(["d", "L", "V", "N", "successes", "trials"])
        for cell in data.cells:
            for r, k, n in cell.points:
                w.writerow([int(cell.values["d"]), int(cell.values["L"]), int(cell.values["V"]), float(r), k, n])
    return str(path)


def _fit(capsys, path):
    code = main(["fit", str(path), "--law", LAW, "--json", "--no-diagnostics"])
    return code, json.loads(capsys.readouterr().out)


def test_a_store_gives_the_verdict_of_the_same_counts_as_csv(tmp_path, capsys):
    data = _data()
    _store(tmp_path / "run", data)
    code_csv, from_csv = _fit(capsys, _csv(tmp_path / "rows.csv", data))
    for path in (tmp_path / "run", tmp_path / "run" / "trials.sqlite"):
        code, from_store = _fit(capsys, path)
        assert code == code_csv
        assert from_store["verdict"] == from_csv["verdict"]
        assert from_store["exponents"] == from_csv["exponents"]
        assert [c["threshold"] for c in from_store["cells"]] == [c["threshold"] for c in from_csv["cells"]]


def test_rows_saved_from_a_store_keep_its_settings(tmp_path, capsys):
    # a store's one-valued settings (here model=mlp; a check's beta, algorithm, backend...) go
    # into --save-rows' file as columns, and the file fits as the store does
    data = _data()
    _store(tmp_path / "run", data)
    saved = tmp_path / "rows.csv"
    assert main(["fit", str(tmp_path / "run"), "--law", LAW, "--save-rows", str(saved), "--json",
                 "--no-diagnostics"]) in (0, 1, 3)
    from_store = json.loads(capsys.readouterr().out)
    with saved.open() as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == ["L", "V", "d", "model", "N", "successes", "trials"]
    assert {r["model"] for r in rows} == {"mlp"}
    code, again = _fit(capsys, saved)
    assert again["verdict"] == from_store["verdict"]
    for name, entry in from_store["exponents"].items():  # N is written to 12 digits: ~1e-13 moves
        assert again["exponents"][name]["estimate"] == pytest.approx(entry["estimate"], rel=1e-9)


def _error(capsys, path):
    code = main(["fit", str(path), "--law", LAW])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err and "Traceback" not in err
    return err


def test_a_store_of_per_seed_searches_is_refused(tmp_path, capsys):
    _store(tmp_path / "run", _data(), result=lambda ok: {"success": ok, "critical": 100.0, "evaluated": []})
    assert "per-seed searches" in _error(capsys, tmp_path / "run") and "thresholds.csv" in _error(
        capsys, tmp_path / "run")


@pytest.mark.parametrize("case", ["empty store", "directory without a store", "other sqlite name", "missing"])
def test_what_is_not_a_store_of_trials_is_one_line_and_exit_2(tmp_path, capsys, case):
    if case == "empty store":
        SqliteStore(tmp_path / "run").close()
        path, expected = tmp_path / "run", "no finished trials"
    elif case == "directory without a store":
        path, expected = tmp_path, "without a trials.sqlite"
    elif case == "other sqlite name":
        path, expected = tmp_path / "x.sqlite", "named trials.sqlite"
    else:
        path, expected = tmp_path / "gone" / "trials.sqlite", "no such file"
    assert expected in _error(capsys, path)


def test_a_check_s_output_is_fitted_at_that_check_s_q_and_resource(tmp_path, capsys):
    # `fit OUT` gives "a verdict for a run": the run's q and resource come from its verdict.json
    # (it refitted a q = 0.8 run at 0.5 without a word, and the free fit asked for --resource)
    data = _data()
    _store(tmp_path / "run", data)
    (tmp_path / "run" / "verdict.json").write_text(json.dumps({"design": {"q": 0.8, "resource": "N"}}))
    code, at_run = _fit(capsys, tmp_path / "run")
    assert at_run["q"] == 0.8 and any("q = 0.8, the q of the check" in n for n in at_run["notes"])
    main(["fit", str(tmp_path / "run"), "--law", LAW, "--json", "--no-diagnostics", "--q", "0.5"])
    at_half = json.loads(capsys.readouterr().out)
    assert at_half["q"] == 0.5 and any("measured q = 0.8" in n for n in at_half["notes"])
    assert at_half["fit"]["constants"]["C"]["estimate"] < at_run["fit"]["constants"]["C"]["estimate"]
    (tmp_path / "run" / "verdict.json").write_text(json.dumps({"design": {"q": 0.5, "resource": "N"}}))
    assert main(["fit", str(tmp_path / "run"), "--json"]) == 0  # free fit: resource N from the run
    assert "resource named N by default" not in capsys.readouterr().out
