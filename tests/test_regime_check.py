"""Regime constraints read numerically at the cells of a sweep (theorycheck.check.regime)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from theorycheck.catalogue import get
from theorycheck.check.regime import MUCH, SUMMARY_CHARS, evaluate_regime, parse_constraint
from theorycheck.check.where_measured import cells_from_check, law_constraints, regime_for

# Right-hand sides in the variables of the catalogue's regimes, with their value at a cell.
RHS = {
    "d": lambda c: c["d"],
    "L*V": lambda c: c["L"] * c["V"],
    "V*log(V)": lambda c: c["V"] * math.log(c["V"]),
    "d**2/V": lambda c: c["d"] ** 2 / c["V"],
    "sqrt(V)*L": lambda c: math.sqrt(c["V"]) * c["L"],
}
positive = st.floats(min_value=2.0, max_value=1e6, allow_nan=False, allow_infinity=False)
cells = st.fixed_dictionaries({"V": positive, "d": positive, "L": positive})


def _cell_with_lhs(cell, rhs, factor):
    """``cell`` plus ``x`` set to ``factor`` times the right-hand side's value."""
    return {**cell, "x": factor * RHS[rhs](cell)}


@given(cell=cells, rhs=st.sampled_from(sorted(RHS)))
def test_a_cell_ten_times_inside_a_much_constraint_is_in_regime_and_one_outside_is_not(cell, rhs):
    # A factor 10 clears MUCH = 4 with room to spare; the inverse factor violates it.
    for op, inside, outside in ((">>", 10.0, 0.1), ("<<", 0.1, 10.0)):
        text = f"x {op} {rhs}"
        report = evaluate_regime(text, [_cell_with_lhs(cell, rhs, inside), _cell_with_lhs(cell, rhs, outside)])
        assert report.in_regime == [True, False], text
        assert report.violations() == {text: [1]}


@given(cell=cells, rhs=st.sampled_from(sorted(RHS)), factor=st.floats(min_value=1.01, max_value=1e3))
def test_literal_comparisons_read_the_sides_as_they_are(cell, rhs, factor):
    above, below = _cell_with_lhs(cell, rhs, factor), _cell_with_lhs(cell, rhs, 1 / factor)
    for op, expected in ((">=", [True, False]), (">", [True, False]), ("<=", [False, True]), ("<", [False, True])):
        assert evaluate_regime(f"x {op} {rhs}", [above, below]).in_regime == expected, op


def test_much_is_a_factor_four_and_same_order_sits_between_its_inverses():
    at = [{"a": MUCH, "b": 1.0}, {"a": MUCH * 0.99, "b": 1.0}]
    assert evaluate_regime("a >> b", at).in_regime == [True, False]  # the boundary itself holds
    assert evaluate_regime("b << a", at).in_regime == [True, False]
    same = [{"a": 1.0, "b": 1.0}, {"a": 3.9, "b": 1.0}, {"a": 1 / 3.9, "b": 1.0}, {"a": 4.1, "b": 1.0}]
    assert evaluate_regime("a ~ b", same).in_regime == [True, True, True, False]
    equal = [{"a": 128.0, "b": 128.0}]
    assert evaluate_regime(["a >= b", "a <= b"], equal).in_regime == [True]
    assert evaluate_regime(["a > b"], equal).in_regime == [False]


def test_a_resource_constraint_is_judged_only_where_the_threshold_was_measured():
    cells = [{"L": 4.0, "V": 64.0, "N": 10.0}, {"L": 4.0, "V": 64.0, "N": 1e4}, {"L": 4.0, "V": 64.0, "N": None}]
    report = evaluate_regime(["N << L*V", "L << V"], cells)
    assert report.in_regime == [True, False, None]
    assert report.unjudged() == {"N << L*V": [2], "L << V": []}
    assert report.violations() == {"N << L*V": [1], "L << V": []}
    assert report.cells[2].log10_ratios["L << V"] == pytest.approx(math.log10(4 / 64))


def test_huge_values_do_not_overflow():
    report = evaluate_regime("V**1000 << exp(V)", [{"V": 1e5}, {"V": 10.0}])
    assert report.in_regime == [True, False]
    assert report.cells[0].log10_ratios["V**1000 << exp(V)"] < -3e4


def test_summary_names_what_fails_where_and_by_how_much():
    cells = [{"V": 128.0, "d": 128.0}, {"V": 128.0, "d": 512.0}]
    line = evaluate_regime(["V >> d"], cells).summary()
    assert line == "outside the law's regime in all 2 cells: V >> d fails in 2/2 (V/d 0.25..1, needs >= 4)"
    inside = evaluate_regime(["V >> d"], [{"V": 1024.0, "d": 16.0}, {"V": 1024.0, "d": 64.0}]).summary()
    assert inside == "inside the law's regime (V >> d) in all 2 cells"
    part = evaluate_regime(["V >> d", "N << V"], [{"V": 1024.0, "d": 16.0, "N": None},
                                                 {"V": 1024.0, "d": 512.0, "N": 1.0}]).summary()
    assert part.startswith("outside the law's regime in 1 of 2 cells: V >> d fails in 1/2")
    assert evaluate_regime((), [{"V": 1.0}]).summary() == "the law states no regime constraints"
    unknown = evaluate_regime(["N << V"], [{"V": 8.0, "N": None}, {"V": 8.0, "N": 1.0}]).summary()
    assert unknown.startswith("no cell outside the law's regime (N << V); 1 of 2 cells not judged")
    assert evaluate_regime(["V >> d"], [{"V": 1.0, "d": 1.0}]).summary().startswith(
        "outside the law's regime in the only cell: V >> d fails in 1/1")
    many = [f"V >> d*{k}" for k in range(2, 30)]
    long_line = evaluate_regime(many, [{"V": 2.0, "d": 1.0}]).summary()
    assert len(long_line) <= SUMMARY_CHARS and long_line.endswith(" more")  # whole parts, then a count


def test_bad_input_is_one_line_before_any_evaluation():
    for constraints, cells, match in [
        ("V >> ", [{"V": 1.0}], "must be 'A op B'"),
        ("V >> d >> L", [{"V": 1.0}], "must be 'A op B'"),
        ("V == d", [{"V": 1.0, "d": 1.0}], "must be 'A op B'"),
        ("__import__('os') >> d", [{"d": 1.0}], "cannot parse"),
        ("V >> q", [{"V": 1.0}], r"uses \['q'\], which no cell gives"),
        ("V >> d", [{"V": -1.0, "d": 1.0}], "must be positive and finite"),
        ("V >> d", [{"V": "many", "d": 1.0}], "is not a number"),
        ("V >> d", {"V": 1.0, "d": 1.0}, "list of"),
        (3, [{"V": 1.0}], "strings such as"),
    ]:
        with pytest.raises(ValueError, match=match) as info:
            evaluate_regime(constraints, cells)
        assert "\n" not in str(info.value)


def test_parse_constraint_keeps_sides_and_operator():
    c = parse_constraint("d**2 >> V*log(V)")
    assert (c.op, str(c.lhs), str(c.rhs), c.names) == (">>", "d**2", "V*log(V)", ("V", "d"))
    assert parse_constraint("k < n").op == "<" and parse_constraint("L << V").op == "<<"


def test_catalogue_regime_and_check_cells_round_trip_to_json():
    bound = get("vural2026.headline")
    result = {"design": {"resource": "N"},
              "cells": [{"params": {"V": 128.0, "d": 181.0, "L": 16.0}, "threshold": {"estimate": 2.0e4}},
                        {"params": {"V": 128.0, "d": 16.0, "L": 2.0}, "threshold": {"estimate": None}}]}
    cells = cells_from_check(result)
    assert cells[1]["N"] is None
    report = evaluate_regime(bound.regime, cells)
    assert report.in_regime == [False, None]  # d > V and N >> L*V; the second: N unknown, rest holds
    data = json.loads(json.dumps(report.to_dict()))
    assert data["violations"]["V >> d"] == [0] and data["unjudged"]["N << L*V"] == [1]
    assert data["cells"][1]["in_regime"] is None and data["much"] == MUCH


def test_law_constraints_come_from_the_catalogue_and_the_law_s_assumptions():
    assert law_constraints("vural2026.headline") == ("V >> d", "L << V", "N << L*V")
    assert law_constraints("user-law") == ()

    class LawWithAssumptions:  # the interface of Law.assumption_texts (declared assume=)
        assumption_texts = ("k < n", "V >> d")

    assert law_constraints("vural2026.headline", LawWithAssumptions()) == ("V >> d", "L << V", "N << L*V", "k < n")


def test_regime_for_marks_each_cell_and_returns_the_json_report():
    cells = [{"params": {"V": 1024.0, "d": 16.0, "L": 4.0}, "threshold": {"estimate": 100.0}},
             {"params": {"V": 128.0, "d": 181.0, "L": 16.0}, "threshold": {"estimate": 2.0e4}},
             {"params": {"V": 1024.0, "d": 16.0, "L": 4.0}, "threshold": {"estimate": None}}]
    data = regime_for("vural2026.headline", None, cells, "N")
    assert [c["in_regime"] for c in cells] == [True, False, None]
    assert data["outside"] is True and data["violations"]["V >> d"] == [1]
    assert data["summary"].startswith("outside the law's regime in 1 of 3 cells: V >> d fails in 1/3")


def test_regime_for_reads_held_variables_from_the_base_and_never_fails_on_a_missing_name():
    # vural2026.orthogonal constrains L and d, which its law does not vary: they come from the base.
    cells = [{"params": {"V": 64.0}, "threshold": {"estimate": 1e3}}]
    data = regime_for("vural2026.orthogonal", None, cells, "N", base={"V": 32.0, "d": 128.0, "L": 8.0})
    assert cells[0]["in_regime"] is True and data["constraints"] == ["L <= V", "d >= V"]
    data = regime_for("vural2026.orthogonal", None, cells, "N", base={"V": 32.0})  # L, d unknown
    assert cells[0]["in_regime"] is None and data["unjudged"] == {"L <= V": [0], "d >= V": [0]}


def test_a_verdict_measured_outside_the_regime_says_so_first():
    # the renderers read CheckResult.to_dict(): with the regime left in some cell, the
    # terminal's first line and report.md's verdict line say where it was measured
    from theorycheck.report.markdown import report_markdown
    from theorycheck.report.terminal import render_verdict

    summary = "outside the law's regime in 2/2 cells: V >> d fails in 2/2 (V/d 0.5..1, needs >= 4)"
    verdict = {"verdict": "refuted", "law": "N >= C*V", "reason": "V: off", "outside_regime": summary,
               "exponents": {}}
    first = render_verdict({"verdict": verdict}).splitlines()[0]
    assert first.startswith("verdict: refuted -- outside the law's regime")
    result = {"target": {"id": "x", "law": "N >= C*V"}, "verdict": verdict, "cells": [],
              "design": {"resource": "N", "base": {}, "varied": {}}, "run": {}, "environment": {},
              "regime": {"constraints": ["V >> d"], "summary": summary, "violations": {"V >> d": [0, 1]}}}
    md = report_markdown(result, {})
    assert f"**Measured {summary}.**" in md and "| V >> d | 0, 1 |" in md


def test_a_verdict_measured_inside_the_regime_says_that_too():
    # CheckResult.to_dict() puts the summary under "regime_summary" when no cell is out of
    # the regime; the terminal shows it on the line after the law
    from theorycheck.check.runner import CheckResult
    from theorycheck.law import Law
    from theorycheck.report.terminal import render_verdict

    class _Verdict:
        status = "refuted"

        def to_dict(self):
            return {"verdict": "refuted", "law": "N >= C*V", "reason": "V: off", "exponents": {}}

    cells = [{"params": {"V": 64.0, "d": 8.0}, "threshold": {"estimate": 1e3}}]
    regime = regime_for(None, Law.parse("N >= C*V", assume="V >= 4"), cells, "N")
    result = CheckResult(target={}, design={}, cells=cells, verdict=_Verdict(), run={}, environment={},
                         regime=regime).to_dict()
    assert "outside_regime" not in result["verdict"]
    lines = render_verdict(result).splitlines()
    assert lines[0].startswith("verdict: refuted   law: N >= C*V")
    assert lines[1] == "regime: inside the law's regime (V >= 4) in the only cell"


def test_a_regime_stated_only_in_words_is_not_judged_and_says_so():
    # vural2026.readout_wall states its regime as "V -> oo at a fixed trigger share s": no
    # constraint to check a cell against, so no cell is marked in regime and the verdict's
    # second line (and report.md) quote the words; a user law without --assume claims to
    # hold everywhere, so its cells stay in regime and no line is printed
    from theorycheck.check.runner import CheckResult
    from theorycheck.law import Law
    from theorycheck.report.markdown import report_markdown
    from theorycheck.report.terminal import render_verdict

    class _Verdict:
        status = "consistent"

        def to_dict(self):
            return {"verdict": "consistent", "law": "d**2 >= ...", "reason": "ok", "exponents": {}}

    cells = [{"params": {"V": 2048.0, "s": 16.0}, "threshold": {"estimate": 1351.7}},
             {"params": {"V": 2048.0, "s": 64.0}, "threshold": {"estimate": 3407.8}}]
    regime = regime_for("vural2026.readout_wall", None, cells, "d")
    assert [c["in_regime"] for c in cells] == [None, None] and regime["in_regime"] == [None, None]
    assert regime["constraints"] == [] and regime["stated"].startswith("V -> oo at a fixed trigger share")
    assert regime["summary"] == (f"not judged: the bound's regime ({regime['stated']}) names no condition a cell "
                                 "can be checked against")
    result = CheckResult(target={"id": "vural2026.readout_wall", "law": "d**2 >= ..."},
                         design={"resource": "d", "base": {}, "varied": {}}, cells=cells, verdict=_Verdict(),
                         run={}, environment={}, regime=regime).to_dict()
    assert render_verdict(result).splitlines()[1] == f"regime: {regime['summary']}"
    assert f"{regime['summary']}; no cell was checked against it." in report_markdown(result, {})
    user = [{"params": {"V": 64.0}, "threshold": {"estimate": 1e3}}]
    plain = regime_for(None, Law.parse("N >= C*V"), user, "N")
    assert user[0]["in_regime"] is True and "stated" not in plain
    assert plain["summary"] == "the law states no regime constraints"


def test_the_check_report_marks_each_cell_outside_the_regime():
    # CheckResult.to_dict() copies each cell's regime into the verdict's cells, matched by
    # parameters (not by position), so the terminal report names the failed constraint
    from theorycheck.check.runner import CheckResult
    from theorycheck.report.terminal import render_verdict

    class _Verdict:
        status = "refuted"

        def to_dict(self):  # the verdict lists its cells in another order than the check
            return {"verdict": "refuted", "law": "N >= C*V", "reason": "V: off", "exponents": {},
                    "resource": "N", "cells": [{"params": {"V": 256.0}, "threshold": 2e3, "ci": [1e3, 3e3]},
                                               {"params": {"V": 32.0}, "threshold": 1e3, "ci": [5e2, 2e3]}]}

    cells = [{"params": {"V": 32.0}, "threshold": {"estimate": 1e3}},
             {"params": {"V": 256.0}, "threshold": {"estimate": 2e3}}]
    regime = regime_for("vural2026.mean_bias", None, cells, "N", base={"d": 16.0, "zeta": 1.0})
    result = CheckResult(target={}, design={}, cells=cells, verdict=_Verdict(), run={}, environment={},
                         regime=regime).to_dict()
    assert [c["in_regime"] for c in result["verdict"]["cells"]] == [True, False]
    lines = render_verdict(result).splitlines()
    assert lines[0].startswith("verdict: refuted -- outside the law's regime in 1 of 2 cells")
    rows = [line for line in lines if line.startswith("  V=")]
    assert rows[0].startswith("  V=256:") and "outside" not in rows[0]
    assert rows[1].startswith("  V=32:") and rows[1].endswith("; outside the regime (V >> d)")
