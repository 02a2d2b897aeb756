"""``theorycheck fit DATA --where COND``: only the rows that satisfy COND are fitted (cli/fit_where.py)."""

from __future__ import annotations

import csv
import json

import pytest

from theorycheck.cli.fit_where import parse_where
from theorycheck.cli.main import main
from theorycheck.law import Law
from theorycheck.planted import planted_dataset


def _write(path, data, extra=None):
    with open(path, "w", newline="") as handle:
        w = csv.writer(handle)
        w.writerow(["L", "V", "N", "successes", "trials", *(extra or {})])
        for cell in data.cells:
            for r, k, n in cell.points:
                w.writerow([f"{cell.values['L']:g}", f"{cell.values['V']:g}", f"{r:.8g}", k, n,
                            *(extra or {}).values()])
    return str(path)


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    # two lines in V (at L = 4 and L = 64) in one file, as one check over both would write them
    data = planted_dataset(Law.parse("N >= C*L*V"), grid={"L": [4, 64], "V": [64, 256, 1024]},
                           constants={"C": 3.0}, width=0.15, trials=8, seed=43)
    folder = tmp_path_factory.mktemp("where")
    return data, folder, _write(folder / "whole.csv", data)


def _fit(capsys, *args):
    code = main(["fit", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_filtered_file_fits_as_the_file_of_that_line_alone(whole, capsys):
    # the rows at L = 64 written to their own file fit exactly as the whole file with --where L=64:
    # same rows, same counts, so the same exponent, constant and CIs to rounding
    data, folder, path = whole
    alone = folder / "alone.csv"
    with open(path, newline="") as src, open(alone, "w", newline="") as dst:
        rows = list(csv.reader(src))
        csv.writer(dst).writerows([rows[0], *(r for r in rows[1:] if r[0] == "64")])
    code_a, one = _fit(capsys, str(alone), "--law", "N >= C*V")
    code_w, two = _fit(capsys, path, "--law", "N >= C*V", "--where", "L=64.0")
    assert code_w == code_a
    assert two["exponents"]["V"]["estimate"] == pytest.approx(one["exponents"]["V"]["estimate"], rel=1e-9)
    assert two["exponents"]["V"]["ci"] == pytest.approx(one["exponents"]["V"]["ci"], rel=1e-9)
    assert two["constant"]["C"]["estimate"] == pytest.approx(one["constant"]["C"]["estimate"], rel=1e-9)
    # the planted constant at L = 64 is 3 * 64; 8 trials a point pin it to well within a factor 1.5
    assert 192 / 1.5 < two["constant"]["C"]["estimate"] < 192 * 1.5
    assert any(n.startswith("--where L=64.0: ") and " of " in n for n in two["notes"])


def test_without_the_filter_the_two_lines_are_refused_as_merged_cells(whole, capsys):
    # the reason --where exists: a law in V alone cannot be fitted over rows at two L
    _, _, path = whole
    assert main(["fit", path, "--law", "N >= C*V"]) == 2
    assert "['L'] take several values" in capsys.readouterr().err


def test_orderings_and_several_conditions(whole, capsys):
    _, _, path = whole
    code, out = _fit(capsys, path, "--law", "N >= C*L*V", "--where", "V>=256", "--where", "L!=4")
    assert sorted(c["params"]["V"] for c in out["cells"]) == [256, 1024]
    assert {c["params"]["L"] for c in out["cells"]} == {64}


@pytest.mark.parametrize("cond, fragment", [
    ("L", "expects COLUMN OP VALUE"),
    ("=64", "expects COLUMN OP VALUE"),
    ("L>big", "compares numbers, and 'big' is not one"),
    ("Lx=64", "has no column 'Lx' (columns: L, V, N, successes, trials)"),
    ("L=5", "keeps none of the 54 rows of"),
    ("L>=100", "(L takes 4, 64); loosen it"),
])
def test_bad_conditions_exit_2_naming_what_was_wrong(whole, capsys, cond, fragment):
    _, _, path = whole
    assert main(["fit", path, "--law", "N >= C*V", "--where", cond]) == 2
    err = capsys.readouterr().err
    assert err.startswith("theorycheck: error:") and fragment in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_text_and_boolean_settings_compare_as_entries():
    (cond,) = parse_where(["marker_in_value = True"])
    assert cond.holds("true") and cond.holds(" TRUE ") and not cond.holds("false")
    (num,) = parse_where(["beta=10"])
    assert num.holds("10.0") and num.holds("1e1") and not num.holds("inf")
    (less,) = parse_where(["d<512"])
    assert less.holds("430") and not less.holds("512") and not less.holds("n/a")
