"""The one verdict renderer and exit-code map (theorycheck.report.terminal)."""

import math

import pytest

from theorycheck.report.terminal import BAD_INPUT, EXIT_CODES, exit_code, format_number, render_verdict


def test_exit_codes():
    assert [exit_code(s) for s in ("consistent", "refuted", "inconclusive")] == [0, 1, 3]
    assert exit_code("no-such-status") == 3  # nothing decided
    assert BAD_INPUT == 2 and BAD_INPUT not in EXIT_CODES.values()


@pytest.mark.parametrize(
    ("value", "digits", "text"),
    [(None, 3, "-"), (math.nan, 3, "-"), (math.inf, 3, "inf"), ("-inf", 3, "-inf"), (128.0, 3, "128"),
     (0.123456, 3, "0.123"), (0.123456, 4, "0.1235"), (1.5e9, 3, "1.5e+09"), ("glm", 3, "glm")],
)
def test_format_number(value, digits, text):
    assert format_number(value, digits) == text


VERDICT = {
    "verdict": "refuted", "reason": "V is off", "law": "N >= C*V", "resource": "N",
    "tolerance": 0.25, "level": 0.95, "q": 0.5, "up_to": "constants",
    "exponents": {"V": {"estimate": 2.0, "ci": [1.9, 2.1], "predicted": 1.0, "status": "refuted"}},
    "constant": {"C": {"estimate": 3.0, "ci": [2.5, "inf"]}}, "ratio_spread": {"min": 0.5, "max": 2.0, "gsd": 1.4},
    "width": 0.1, "cells": [{"params": {"V": 64}, "threshold": 1000.0, "ci": [900.0, 1100.0],
                             "method": "glm", "predicted": 192.0}],
    "suggestions": ["widen V"], "notes": [],
}


def test_render_verdict_of_a_verdict_and_of_a_check_result():
    text = render_verdict(VERDICT)
    assert text.startswith("verdict: refuted   law: N >= C*V   (tolerance ±0.25 on exponents, 95% level")
    assert "  V              2  [1.9, 2.1]                     1  refuted" in text
    assert "C = 3 [2.5, inf]" in text and "cells (1):" in text and "V=64: N* = 1000 [900, 1100] (glm)" in text
    assert "to decide:\n  - widen V" in text and "notes:" not in text
    assert render_verdict({"verdict": VERDICT, "design": {}}) == text


def test_render_verdict_without_a_fit():
    # a sweep where no cell crossed q has no fit: only what exists is printed
    text = render_verdict({"verdict": "inconclusive", "reason": "no crossing", "law": "N >= V",
                           "resource": "N", "exponents": {}, "cells": [], "notes": ["no crossing"]})
    assert text.splitlines()[0] == "verdict: inconclusive   law: N >= V"
    assert "constants" not in text and "cells (0):" in text and "  - no crossing" in text


def test_render_verdict_keeps_lines_short_and_shows_windows_censored_cells_and_evidence():
    v = {**VERDICT, "headline": "refuted: V overall: trend +1.00 [+0.90, +1.10] outside ±0.25; thin: V rests on 2 values",
         "reason": "V overall: observed minus predicted exponent " + "+1.000 and more words " * 40,
         "exponents": {"V": {**VERDICT["exponents"]["V"], "window": "overall", "values": [64, 4096],
                             "cells": 2, "thin": True}},
         "cells": [*VERDICT["cells"], {"params": {"V": 4096}, "threshold": None, "ci": None, "method": "censored",
                                       "predicted": 1.2e4, "trials": 96}],
         "alternatives": [{"name": "times log(V)", "law": "N >= C*V*log(V)", "delta_bic": 41.2, "decisive": True}]}
    text = render_verdict(v)
    lines = text.splitlines()
    assert lines[1] == "summary: " + v["headline"]
    assert lines[2].startswith("reason: V overall") and lines[2].endswith("(details: report.md / --json)")
    assert all(len(line) <= 200 for line in lines)
    assert "refuted          2  overall 64..4096 (thin)" in text
    assert "  V=4096: censored, no threshold found, 96 trials" in text
    assert "  N >= C*V*log(V): ΔBIC 41.2  <- decisive" in text


def test_constants_fitted_to_the_cells_thresholds_are_labelled_in_both_reports():
    # fit_law's fallback when the cells' transitions do not line up (compare/law_fit.py)
    from theorycheck.report.markdown import _quantity_rows

    fallback = {**VERDICT, "fit": {"constants_from": "thresholds"}}
    label = "weighted least squares on the cells' thresholds"
    assert f"C = 3 [2.5, inf] ({label})" in render_verdict(fallback)
    assert label not in render_verdict({**VERDICT, "fit": {"constants_from": "likelihood"}})
    assert any(name == f"constant C (95% CI, {label})" for name, _ in _quantity_rows(fallback))


def test_counts_in_messages_agree_with_their_number():
    from theorycheck.wording import counted
    assert [counted(n, "cell") for n in (0, 1, 2)] == ["0 cells", "1 cell", "2 cells"]
    assert counted(1, "censored cell") == "1 censored cell" and counted(3, "matrix", "matrices") == "3 matrices"
