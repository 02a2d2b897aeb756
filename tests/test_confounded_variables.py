"""Variables that move together across the cells (a paper's table with d = V/4): their
exponents are not identified apart (compare/identifiable.confounded), so the verdict and
the free fit read the kept variable's slope along the direction the cells span and leave
the other untested, instead of printing an arbitrary split (V 4.96 and d -4.99 for a joint
slope of -0.02 on the attention-MLP cells of docs/mlp_phase.md §5)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from theorycheck.compare import compare
from theorycheck.compare.free_fit import fit_exponents
from theorycheck.compare.identifiable import Relation, confounded
from theorycheck.compare.threshold_table import ThresholdTable
from theorycheck.law import Law

#: cells on the ray d = V/4, three widths m at each: N* = 5 V^2 log(V) / (d m)
CELLS = [(v, v // 4, m) for v in (512, 1024, 2048, 4096) for m in (1024, 2048, 4096)]


def _table(seed: int = 3, se: float = 0.02) -> ThresholdTable:
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    rows = [{"V": v, "d": d, "m": m, "threshold": 5 * v**2 * math.log(v) / (d * m) * math.exp(rng.normal(0, se)),
             "se": se} for v, d, m in CELLS]
    return ThresholdTable.from_rows(rows, resource="N", variables=["V", "d", "m"])


def test_confounded_names_the_relation_and_keeps_the_first_in_order():
    logs = {"V": np.log([512.0, 1024, 2048]), "d": np.log([128.0, 256, 512]), "L": np.log([8.0, 8, 16])}
    assert confounded(logs) == (["V", "L"], {"d": Relation("d ∝ V^1", ("V",))})
    # L = V/d over these cells: the third column is the combination of the two kept ones
    logs = {"V": np.log([512.0, 1024, 1024, 2048]), "d": np.log([128.0, 128, 256, 256])}
    logs["L"] = logs["V"] - logs["d"]
    kept, dropped = confounded(logs)
    assert kept == ["V", "d"] and dropped == {"L": Relation("L ∝ V^1 · d^-1", ("V", "d"))}


def test_the_verdict_reads_v_along_the_ray_and_leaves_d_untested():
    v = compare(Law.parse("N >= C*V**2*log(V)/(d*m)"), _table())
    d, V = v.exponents["d"], v.exponents["V"]
    assert d.status == "untested" and d.moves_with == ("d ∝ V^1",) and "not identified apart" in d.reason
    assert V.moves_with == ("d ∝ V^1",)
    # along d = V/4 the law's slope in V is 2 - 1 plus its log factor's (1/log V ~ 0.14 here);
    # observed and predicted are both that combined slope (se ~ 0.01 from se = 0.02 per cell:
    # 0.05 is 5 se), where an arbitrary split gave any pair summing to it
    assert V.predicted == pytest.approx(1.0 + np.mean(1 / np.log([512, 1024, 2048, 4096])), abs=0.02)
    assert abs(V.estimate - V.predicted) < 0.05
    assert v.status == "consistent", v.reason
    # a law with the wrong combined slope along the ray is refuted in V
    wrong = compare(Law.parse("N >= C*V**2*log(V)/(d**2*m)"), _table())
    assert wrong.status == "refuted" and wrong.exponents["V"].status == "refuted"


def test_the_free_fit_drops_d_and_says_so():
    fit = fit_exponents(_table())
    assert set(fit.exponents) == {"V", "m"}
    assert fit.exponents["V"].estimate == pytest.approx(1.12, abs=0.1)  # 1 + the log factor's ~0.12 slope
    assert fit.exponents["m"].estimate == pytest.approx(-1.0, abs=0.05)
    assert any("d moves with the others" in n and "d ∝ V^1" in n for n in fit.notes)
    assert all("d" not in c.law.split(">=")[1].replace("log", "") for c in fit.candidates)
