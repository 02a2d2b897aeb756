"""The one-line verdict: status, the deciding numbers, and what else the data say.

A verdict's ``reason`` holds every detail (each variable's decision with its CIs); the
**headline** is what a terminal prints and a paper quotes, at most :data:`MAX_HEADLINE`
characters (docs/architecture.md "Command line"):

    consistent within ±0.25; but `N >= C*V*log(V)` fits decisively better (ΔBIC = 41)
    refuted: V overall trend +0.98 [+0.91, +1.05] outside ±0.25; thin: V rests on 2 cells

Order: the status with the window that decided it, the evidence of
:mod:`theorycheck.compare.evidence` (a neighbouring form with ΔBIC > 10), thin
exponents (fewer than three values with a threshold,
:data:`theorycheck.compare.checks.THIN_CELLS`), and untested variables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from theorycheck.compare.checks import ExponentCheck
from theorycheck.compare.evidence import Alternative, evidence_phrase
from theorycheck.report.terminal import MAX_LINE, shorten  # standard library only

__all__ = ["MAX_HEADLINE", "headline"]

#: Longest headline, in characters (the terminal's line limit).
MAX_HEADLINE = MAX_LINE


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
    phrase = evidence_phrase(alternatives)
    if phrase:
        parts.append(phrase)
    thin = [c for c in tested if c.thin]
    if thin:
        parts.append("thin: " + ", ".join(f"{c.variable} rests on {c.cells} values" for c in thin))
    untested = [c.variable for c in checks.values() if c.status == "untested"]
    if untested:
        parts.append("untested: " + ", ".join(untested))
    return shorten("; ".join(parts))
