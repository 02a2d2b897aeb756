"""Helpers and constants shared by the tests/test_published_fits_*.py modules, which refit the verdicts the docs
publish from the rows they publish (bench/data): ``theorycheck fit`` on those rows, the limit's cells at (4096, d),
L = 128 and their published thresholds, the lean-matched probes, the pole law and the wall's rows files, one-cell
probes and the rows files' trial counts."""

import json
import math
from collections import Counter

import pytest

from theorycheck.cli.main import main

from bench_data import DATA


# the limit's cells at (4096, d), L = 128 (beta 10, zeta 1/2, trigger in; docs/theory.md 7.12), by d
LIMIT_L128 = {1024: "limit_beta10_zeta05_trigger_in_4096_L128.csv",
              **{d: f"limit_beta10_zeta05_trigger_in_4096_{d}_L128.csv" for d in (860, 724, 640, 600, 560, 1448, 540)}}
FIVE_D = (1024, 860, 724, 640, 600)  # the five d of 2026-12-03/04, before 560
SIX_D = (*FIVE_D, 560)  # and 560: the six the wall's form was read off, before 1448 and 540
SIX_LIMITS = [LIMIT_L128[d] for d in SIX_D]
# their thresholds as docs/theory.md 7.12 publishes them (each checked to 5e-4 by its cell's own test), by d
LIMIT_N_L128 = {1024: 151209, 860: 187280, 724: 251490, 640: 347500, 600: 452260, 560: 656722, 1448: 112044,
                540: 888251}
# the probes at (4096, d), L = 128 leaning a mean of 1.38 (docs/theory.md 7.12's table), by d
LEAN_MATCHED = {1024: "three_step_eta5e5_beta10_zeta05_trigger_in_L128_probe_4096.csv",
                **{d: f"three_step_{eta}_beta10_zeta05_trigger_in_L128_probe_4096_{d}.csv"
                   for d, eta in ((860, "eta455e3"), (724, "eta373e3"), (640, "eta346e3"))}}


def fit(capsys, *args):
    """``theorycheck fit`` with ``--json``: each argument before the first option names rows in bench/data
    (an absolute path is taken as it is); returns the exit code and the parsed output."""
    n = next((i for i, a in enumerate(args) if str(a).startswith("--")), len(args))
    code = main(["fit", *(str(DATA / a) for a in args[:n]), *args[n:], "--json"])
    return code, json.loads(capsys.readouterr().out)


def steepness(n, hi, lo):
    """How fast the threshold grows as ``d`` falls from ``hi`` to ``lo``: ``log(n[lo]/n[hi]) / log(hi/lo)``,
    minus the local ``d`` exponent between the two cells (``n``: thresholds by ``d``)."""
    return math.log(n[lo] / n[hi]) / math.log(hi / lo)


def refuted_l_line(capsys, name, slope, ci, trials, *, thin=None):
    """The headline fitted to one published L line: refuted, with this L exponent, CI and
    number of trials (and, when given, whether the exponent is thin); its cells in order of L."""
    code, out = fit(capsys, name, "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted"
    assert thin is None or out["exponents"]["L"]["thin"] is thin
    assert out["exponents"]["L"]["estimate"] == pytest.approx(slope, abs=0.0005)
    assert out["exponents"]["L"]["ci"] == pytest.approx(ci, abs=0.0005)
    assert sum(c["trials"] for c in out["cells"]) == trials
    return sorted(out["cells"], key=lambda c: c["params"]["L"])


#: the limit's d curve as a wall at d = C2 (docs/theory.md 7.12)
POLE = "N >= C0 + C1/(d - C2)"
#: the limit's thresholds at (2048, d), L = 128, beta = 10 (docs/theory.md 7.12), by d; checked (to 5e-4) by
#: test_the_wall_moves_with_l_through_the_softmax_leak
LIMIT_N_2048_L128 = {384: 358025, 430: 184306, 512: 107920, 600: 81662, 724: 64361}


def pole_fit(capsys, *rows):
    """``theorycheck fit ROWS --law POLE --params d --json``: the exit code and the parsed output."""
    return fit(capsys, *rows, "--law", POLE, "--params", "d")


def cells_by_d_l(capsys, *rows):
    """The cells of ``rows`` (bench/data names) under the headline law, by ``(d, L)``."""
    code, out = fit(capsys, *rows, "--law", "vural2026.headline")
    return {(c["params"]["d"], c["params"]["L"]): c for c in out["cells"]}


def cells_by_d(capsys, *rows):
    """The cells of ``rows`` (bench/data names, one ``L``) under the headline law, by ``d``."""
    return {d: c for (d, _), c in cells_by_d_l(capsys, *rows).items()}


#: beta = 10's wall at L = 128: two rows files at each of V = 512 and 1024, two at 2048, eight at 4096 (26 cells)
FOUR_V = ["limit_beta10_zeta05_trigger_in_512_d_line_L128.csv", "limit_beta10_zeta05_trigger_in_512_204_212_L128.csv",
          "limit_beta10_zeta05_trigger_in_1024_d_line_L128.csv", "limit_beta10_zeta05_trigger_in_1024_262_268_L128.csv",
          "limit_beta10_zeta05_trigger_in_2048_d_line_L128.csv", "limit_beta10_zeta05_trigger_in_2048_600_724_L128.csv",
          *[f"limit_beta10_zeta05_trigger_in_4096{d}_L128.csv" for d in ("", "_540", "_560", "_600", "_640", "_724",
                                                                          "_860", "_1448")]]
#: hard attention's wall at L = 128, one rows file at each of V = 512, 1024, 2048
HARD_THREE_V = [f"limit_hard_zeta05_trigger_in_{v}_d_line_L128.csv" for v in (512, 1024, 2048)]


def limit_cell(capsys, d, trials, ci):
    """The limit's one cell at ``(4096, d)``, ``L = 128`` (``LIMIT_L128[d]``) under the
    headline law: exit 3 (one cell), its GLM over ``trials`` trials, outside ``N << L·V``, the published
    threshold (``LIMIT_N_L128[d]``) and ``ci`` (to 5e-4). Returns the cell."""
    threshold = LIMIT_N_L128[d]
    code, out = fit(capsys, LIMIT_L128[d], "--law", "vural2026.headline")
    (cell,) = out["cells"]
    assert code == 3 and cell["method"] == "glm" and cell["trials"] == trials and cell["in_regime"] is False
    assert cell["threshold"] == pytest.approx(threshold, rel=5e-4) and cell["ci"] == pytest.approx(ci, rel=5e-4)
    return cell


def one_cell_probe(capsys, rows, in_regime=False):
    """A one-cell probe's fit under the headline law: inconclusive (exit 3: one cell), the cell
    in the regime or not as said. Outside (``L = 64``, where its own bracket is open) the cell's
    threshold and CI from the probit fit with a shared width; inside (``L`` 128 and 256) its own GLM."""
    code, out = fit(capsys, rows, "--law", "vural2026.headline")
    assert code == 3 and out["verdict"] == "inconclusive"
    (cell,) = out["cells"]
    assert cell["in_regime"] == in_regime
    if not in_regime:
        return cell["shared_width"]
    assert cell["method"] == "glm"
    return {"threshold": cell["threshold"], "ci": cell["ci"]}


def trials_by(rows, key, column="trials"):
    """Trials (or another count ``column``) of a rows file summed by ``key(row)`` (rows
    written before 2026-11-28 keep no seeds)."""
    import csv

    measured = Counter()
    with open(DATA / rows, newline="") as f:
        for r in csv.DictReader(f):
            measured[key(r)] += int(r[column])
    return measured
