"""The one-line verdict: status, the deciding numbers, and what else the data say.

A verdict's ``reason`` holds every detail (each variable's decision with its CIs); the
**headline** is what a terminal prints and a paper quotes, at most :data:`MAX_HEADLINE`
characters (docs/architecture.md "Command line"):

    consistent within ±0.25; but `N >= C*V*log(V)` fits decisively better (ΔBIC = 41)
    refuted: V overall trend +0.98 [+0.91, +1.05] outside ±0.25; thin: V rests on 2 cells

Order: the status with the window that decided it, the evidence of
:mod:`theorycheck.compare.evidence` (a neighbouring form with ΔBIC > 10), thin
exponents (fewer than three values with a threshold,
:data:`theorycheck.compare.checks.THIN_CELLS`), and untested variables. When the line is
too long the evidence phrase gives way first -- the form named by its change from the law
(``"but the law over log(L) fits decisively better ..."``), then cut (the ranking table has it
whole) -- so the caveats on the verdict itself are printed whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from theorycheck.compare.checks import ExponentCheck
from theorycheck.compare.evidence import Alternative, evidence_phrase
from theorycheck.report.terminal import MAX_LINE, SUMMARY_LABEL, shorten  # standard library only

__all__ = ["MAX_HEADLINE", "headline"]

#: Longest headline, in characters (the terminal's line limit less the line's label).
MAX_HEADLINE = MAX_LINE - len(SUMMARY_LABEL)

#: Shortest cut of the evidence phrase worth printing; below it the phrase is left to the
#: ranking table (report.md, ``--json``).
_MIN_PHRASE = 40


def _piece(check: ExponentCheck, label: str) -> dict | None:
    pieces = check.decision.pieces if check.decision is not None else ()
    return next((p for p in pieces if p["piece"] == label), None)


def _refuted(check: ExponentCheck, tolerance: float) -> str:
    label = (check.decision.window if check.decision else "").split(", ")[0] or "overall"
    p = _piece(check, label)
    if p is None:
        return f"{check.variable} outside ±{tolerance:g}"
    where = "overall" if label == "overall" else f"in {label}"
    return (f"{check.variable} {where}: trend {p['trend']:+.2f} [{p['ci'][0]:+.2f}, {p['ci'][1]:+.2f}] "
            f"outside ±{tolerance:g}")


def _open(check: ExponentCheck, tolerance: float) -> str:
    """Why an exponent is undecided: its range, or a CI too wide (leaning which way)."""
    if check.decision is None:
        return "not estimable"
    if check.decision.window == "span":
        return "range too narrow"
    beyond = [p for p in check.decision.pieces if p["status"] == "open" and abs(p["trend"]) >= tolerance]
    if beyond:
        return f"trend {beyond[0]['trend']:+.2f} in {beyond[0]['piece']} beyond ±{tolerance:g}, CI reaches inside"
    return "CI too wide"


def headline(status: str, checks: Mapping[str, ExponentCheck], tolerance: float,
             alternatives: Sequence[Alternative] = ()) -> str:
    """The verdict line (module docstring), at most :data:`MAX_HEADLINE` characters."""
    tested = [c for c in checks.values() if c.status != "untested"]
    if status == "consistent":
        parts = [f"consistent within ±{tolerance:g}"]
    elif status == "refuted":
        parts = ["refuted: " + "; ".join(_refuted(c, tolerance) for c in tested if c.status == "refuted")]
    elif tested:
        open_ = [c for c in tested if c.status == "inconclusive"]
        parts = ["inconclusive: " + ", ".join(f"{c.variable} ({_open(c, tolerance)})" for c in open_)
                 + f" at ±{tolerance:g}"]
    else:
        parts = ["inconclusive: no variable takes two or more values"]
    caveats = []
    thin = [c for c in tested if c.thin]
    if thin:
        caveats.append("thin: " + ", ".join(f"{c.variable} rests on {c.cells} values" for c in thin))
    untested = [c.variable for c in checks.values() if c.status == "untested"]
    if untested:
        caveats.append("untested: " + ", ".join(untested))
    phrase = evidence_phrase(alternatives)
    if phrase:  # the neighbouring form gives way before the caveats on the verdict itself
        room = MAX_HEADLINE - len("; ".join(parts + caveats)) - 2
        if len(phrase) > room:
            phrase = evidence_phrase(alternatives, by_name=True)
        if room >= _MIN_PHRASE:
            parts.append(shorten(phrase, room))
    return shorten("; ".join(parts + caveats), MAX_HEADLINE)
