"""check(..., cells=[...]) and --cells: the caller's cells in place of the designed lines."""

import subprocess
import sys

import pytest

from theorycheck.check import Budget, check, plan
from theorycheck.report.markdown import reproduce_command

TINY = Budget("tiny", 3, 4.0, 4, 60, 1e6, 0, 0.3, 1)
KW = dict(task="retrieval", settings={"algorithm": "one-step"}, base={"V": 32, "d": 64, "L": 4}, budget=TINY,
          entropy=7)
CELLS = [{"L": 2}, {"L": 8}, {"V": 64, "L": 2}]


def test_a_check_on_given_cells_measures_exactly_them_and_fits_the_law_to_all():
    res = check("N >= C*L*V*log(V)", cells=CELLS, **KW).to_dict()
    params = [c["params"] for c in res["cells"]]
    assert params == [{"L": 2.0, "V": 32.0}, {"L": 8.0, "V": 32.0}, {"L": 2.0, "V": 64.0}]
    assert res["design"]["given_cells"] == [{"L": 2.0, "V": 32.0}, {"L": 8.0, "V": 32.0}, {"L": 2.0, "V": 64.0}]
    assert all(c["threshold"]["estimate"] for c in res["cells"])
    # no line here varies V alone over 3 values, yet the fit to all cells estimates both exponents
    assert res["verdict"]["exponents"]["L"]["estimate"] is not None
    assert res["verdict"]["exponents"]["V"]["estimate"] is not None
    assert res["design"]["notes"][0].startswith("3 cells given by the caller")
    command = reproduce_command(res)
    assert "--cells 'V=32,L=2; V=32,L=8; V=64,L=2'" in command and "--vary" not in command


def test_one_given_cell_is_a_check_of_its_threshold_alone():
    # a reference threshold beside a probe's (docs/theory.md 7.12 measured one at L = 64 with a
    # second cell it did not need): the threshold and the constant, no exponent, inconclusive
    res = check("N >= C*L*V*log(V)", cells=[{"L": 8}], **KW).to_dict()
    (cell,) = res["cells"]
    assert cell["params"] == {"L": 8.0, "V": 32.0}
    lo, hi = cell["threshold"]["ci"]
    assert lo < cell["threshold"]["estimate"] < hi
    assert res["verdict"]["verdict"] == "inconclusive"
    assert res["verdict"]["tested"] == [] and res["verdict"]["constant"]["C"]["estimate"] > 0
    assert res["design"]["notes"][0].startswith("1 cell given by the caller")
    assert any(n.startswith("one cell: its threshold") for n in res["design"]["notes"])
    assert reproduce_command(res).endswith(" --cells L=8")  # only what differs from --base


ONE_STEP = {"algorithm": "one-step"}


@pytest.mark.parametrize("cells, settings, message", [
    ([], ONE_STEP, "a non-empty list of mappings"),
    ([{"L": 2, "N": 100}, {"L": 4}], ONE_STEP, "cell 0 gives the resource N"),
    ([{"L": 2}, {"q": 1}], ONE_STEP, r"cell 1 names \['q'\], not variables of task 'retrieval'"),
    ([{"L": 2}, {"L": 0}], ONE_STEP, "cell 1: L must be a positive finite number, got 0"),
    ([{"L": 2}, {"L": 2.0}], ONE_STEP, "cell 1 repeats cell 0"),
    ([{"zeta": 0.5}, {"zeta": 1.0}], ONE_STEP, "do not vary any variable of the law"),
    # orthogonal embeddings need d >= V + 2
    ([{"V": 32}, {"V": 64}], {**ONE_STEP, "embeddings": "orthogonal"}, r"cell 1 \(\{'V': 64\}\) cannot be simulated"),
])
def test_bad_cells_are_refused_before_any_work(cells, settings, message):
    with pytest.raises(ValueError, match=message):
        plan("N >= C*L*V*log(V)", task="retrieval", settings=settings, base={"V": 32, "d": 64, "L": 4}, cells=cells)


def test_cells_and_vary_together_are_refused():
    with pytest.raises(ValueError, match="cells replace the designed lines"):
        plan("N >= C*L*V*log(V)", task="retrieval", vary=("L",), cells=CELLS)


def test_cli_cells_errors_are_one_line_with_exit_2(tmp_path):
    for cells, message in (("L=2; L=2.0", "cell 1 repeats cell 0"), ("L=2; L", "--cells expects KEY=VALUE"),
                           (";", "--cells expects cells separated by ';'")):
        proc = subprocess.run([sys.executable, "-m", "theorycheck.cli.main", "check", "--law", "N >= C*L*V*log(V)",
                               "--cells", cells, "--out", str(tmp_path / "out")],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2, proc.stderr
        assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert not (tmp_path / "out").exists()


def test_a_value_every_cell_shares_off_the_base_is_kept_in_the_reproduce_line():
    # d = 48 in every cell (not varied, but not the base's 64): re-running must keep it
    _, design = plan("N >= C*L*V*log(V)", task="retrieval", settings={"algorithm": "one-step"},
                     base={"V": 32, "d": 64, "L": 4}, cells=[{"L": 2, "d": 48}, {"L": 8, "d": 48}])
    assert design.to_dict()["given_cells"] == [{"L": 2.0, "d": 48.0}, {"L": 8.0, "d": 48.0}]

