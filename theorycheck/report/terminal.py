"""What a command prints at the end of a verdict, and the exit code it returns.

One renderer and one exit-code map for every command that ends in a verdict
(``theorycheck check`` and ``theorycheck fit``, docs/architecture.md "CLI"):

* :data:`EXIT_CODES`: ``consistent -> 0``, ``refuted -> 1``, ``inconclusive -> 3``;
  :data:`BAD_INPUT` ``= 2`` is the code of a ``ValueError`` raised before any work;
  :data:`INTERNAL` ``= 4`` an internal error (a bug, a full disk), never a verdict;
  :data:`INTERRUPTED` ``= 130`` Ctrl-C; :data:`BROKEN_PIPE` ``= 141`` a closed stdout;
  :func:`exit_code` maps any other status to ``3`` (nothing was decided);
* :func:`render_verdict`: plain text of the JSON form of a verdict
  (:meth:`theorycheck.compare.Verdict.to_dict`, or ``CheckResult.to_dict()``);
* :func:`format_number`: the one compact number format of the text reports.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["EXIT_CODES", "BAD_INPUT", "INTERNAL", "INTERRUPTED", "BROKEN_PIPE", "MAX_LINE", "SUMMARY_LABEL",
           "exit_code", "constants_source", "format_number", "render_verdict", "shorten", "window_text"]

EXIT_CODES = {"consistent": 0, "refuted": 1, "inconclusive": 3}
BAD_INPUT = 2
#: The run failed without a verdict: a bug, or the machine refused (full disk).
INTERNAL = 4
#: Ctrl-C (128 + SIGINT, the shell's convention).
INTERRUPTED = 130
#: stdout closed by its reader (128 + SIGPIPE, the shell's convention).
BROKEN_PIPE = 141


def exit_code(status: str) -> int:
    """Exit code of a verdict ``status`` (:data:`EXIT_CODES`; 3 for anything else)."""
    return EXIT_CODES.get(status, EXIT_CODES["inconclusive"])


#: How a verdict's constants were fitted when not by the joint likelihood (``fit.constants_from``).
CONSTANTS_SOURCES = {"thresholds": "weighted least squares on the cells' thresholds",
                     "cell": "the one cell's threshold and its CI"}


def _evidence_mark(alt: Mapping[str, Any]) -> str:
    """``"  <- decisive"`` (saying so when the form's own goodness of fit rejects it too), or
    the reason a form that fits every cell is not evidence."""
    if alt.get("saturated"):
        return "  (saturated: as many constants as cells, not evidence)"
    if not alt.get("decisive"):
        return ""
    return "  <- decisive, but it too misses the cells" if alt.get("misses_cells") else "  <- decisive"


def constants_source(verdict: Mapping[str, Any]) -> str:
    """The label of :data:`CONSTANTS_SOURCES` for a verdict dict's fit, ``""`` for the joint fit."""
    return CONSTANTS_SOURCES.get((verdict.get("fit") or {}).get("constants_from"), "")


def format_number(x: Any, digits: int = 3) -> str:
    """Compact number: ``None``/NaN as ``-``, ``±inf`` as ``inf``/``-inf``, integers as
    integers, else ``digits`` significant digits; a non-number is shown as ``str(x)``.

    >>> format_number(None), format_number(float("inf")), format_number(12.0), format_number(0.123456, 4)
    ('-', 'inf', '12', '0.1235')
    """
    if x is None:
        return "-"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "-"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e7:
        return str(int(v))
    return f"{v:.{digits}g}"


def censored_text(side: Any, beyond: Any, resource: str) -> str:
    """``censored, m* > 4.51e+04`` for a threshold that lies beyond the explored range
    (``side`` "above": past the largest value tried, ``beyond``; "below": under the
    smallest); ``censored, no threshold found`` where the cell does not say."""
    if side not in ("above", "below") or beyond is None:
        return "censored, no threshold found"
    return f"censored, {resource}* {'>' if side == 'above' else '<'} {format_number(beyond)}"


def interval_text(ci: Any, digits: int = 3) -> str:
    """``[lo, hi]``; an open end prints as ``-inf``/``inf``, so a model-free bracket reads
    ``[0, inf]``, not ``[0, -]``. An end is open when it is infinite or ``None``: the
    dicts printed here write a non-finite end as ``None`` (``Threshold.to_dict``, the cell
    model's overflowing Wald ends), where :func:`theorycheck.jsonable.jsonable` would write
    ``"inf"``; an interval whose both ends are ``None`` is unknown (``-``)."""
    if not ci or all(e is None for e in ci):
        return "-"
    lo, hi = (-math.inf if ci[0] is None else ci[0]), (math.inf if ci[1] is None else ci[1])
    return f"[{format_number(lo, digits)}, {format_number(hi, digits)}]"


#: Longest reason / summary line the terminal prints (the full reason is in report.md and --json).
MAX_LINE = 200
#: The label of the headline's line (:mod:`theorycheck.compare.headline` fits the rest of the line).
SUMMARY_LABEL = "summary: "
_DETAILS = "report.md / --json"


def shorten(text: str, limit: int = MAX_LINE) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, marked with ``…``."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2:]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ;,") + "…"


def window_text(check: Mapping[str, Any]) -> str:
    """The window that decided a variable's status, in words."""
    w = check.get("window")
    values = check.get("values") or []
    whole = f"{format_number(values[0])}..{format_number(values[-1])}" if len(values) > 1 else ""
    if not w:
        return ""
    if w == "all":
        return f"all windows of {whole}" if whole else "all windows"
    if w == "span":
        return f"range {whole} too narrow" if whole else "range too narrow"
    return ", ".join(f"overall {whole}".strip() if part == "overall" else part for part in w.split(", "))


def window_cell(check: Mapping[str, Any]) -> str:
    """The window column of an exponent row: :func:`window_text`, then its remarks (thin,
    variables that move with it) in brackets; on an untested row without a window the
    relation alone."""
    window = window_text(check)
    notes = (["thin"] if check.get("thin") else []) + list(check.get("moves_with") or [])
    if not notes:
        return window
    return f"{window} ({'; '.join(notes)})" if window or check.get("thin") else "; ".join(notes)


def render_verdict(verdict: Mapping[str, Any], digits: int = 4, details: str = _DETAILS) -> str:
    """Plain-text report of a verdict's JSON form (or of a check result's, which holds
    it under ``"verdict"``): status, reason, exponents, constants,
    observed/predicted spread, cells, what would decide it and notes. Keys a verdict
    does not have (e.g. a sweep where no cell crossed) are left out. ``details``: where a
    shortened reason is given in full (``fit`` writes no report.md)."""
    v = verdict["verdict"] if isinstance(verdict.get("verdict"), Mapping) else verdict
    f = lambda x: format_number(x, digits)  # noqa: E731
    head = f"verdict: {v.get('verdict', '?')}   law: {v.get('law', '?')}"
    if v.get("outside_regime"):  # where it was measured comes first (check/regime.py)
        where = shorten(str(v['outside_regime']), MAX_LINE - 40)
        head = f"verdict: {v.get('verdict', '?')} -- {where}\nlaw: {v.get('law', '?')}"
    if "tolerance" in v:
        head += (f"   (tolerance ±{f(v['tolerance'])} on exponents, {100 * float(v['level']):.0f}% level, "
                 f"q={f(v['q'])}, up to {v['up_to']})")
    if v.get("regime_summary"):
        head += f"\nregime: {shorten(str(v['regime_summary']), MAX_LINE - 8)}"
    data = [f"data: {v['data']}"] if v.get("data") else []
    summary = [SUMMARY_LABEL + shorten(str(v["headline"]), MAX_LINE - len(SUMMARY_LABEL))] if v.get("headline") else []
    reason = str(v.get("reason", ""))
    if len(reason) > MAX_LINE - 8:
        more = f" (details: {details})"
        reason = shorten(reason, MAX_LINE - 8 - len(more)) + more
    lines = [head, *summary, f"reason: {reason}", *data, "", "exponents:",
             f"  {'var':<6}{'observed':>10}  {'CI':<22}{'predicted':>10}  {'status':<13}{'cells':>5}  deciding window"]
    for name, c in (v.get("exponents") or {}).items():
        cells_n = c.get("cells")
        lines.append(f"  {name:<6}{f(c.get('estimate')):>10}  {interval_text(c.get('ci'), digits):<22}"
                     f"{f(c.get('predicted')):>10}  {c.get('status', '-'):<13}{format_number(cells_n):>5}  "
                     f"{window_cell(c)}".rstrip())
    resource = v.get("resource", "?")
    if "constant" in v:
        consts = [f"{k} = {f(e.get('estimate'))} {interval_text(e.get('ci'), digits)}"
                  for k, e in (v.get("constant") or {}).items()]
        source = constants_source(v)
        lines += ["", "constants: " + ("; ".join(consts) or "-") + (f" ({source})" if source and consts else "")]
    spread = v.get("ratio_spread")
    if spread:
        width = f"; transition width {f(v['width'])} in log {resource}" if v.get("width") is not None else ""
        lines.append(f"observed/predicted thresholds: {f(spread.get('min'))} .. {f(spread.get('max'))} "
                     f"(geometric sd {f(spread.get('gsd'))}){width}")
    cells = v.get("cells") or []
    lines += ["", f"cells ({len(cells)}):"]
    for c in cells:
        label = ", ".join(f"{k}={format_number(val, 6)}" for k, val in c.get("params", {}).items())
        trials = f", {c['trials']} trials" if c.get("trials") else ""  # a table's cells have none
        outside = f"; outside the regime ({', '.join(c.get('violated') or ())})" if c.get("in_regime") is False else ""
        if c.get("threshold") is None and "threshold" in c:
            method = c.get("method", "-")
            how = "" if method == "censored" else f" ({method})"
            where = censored_text(c.get("censored_side"), c.get("censored_beyond"), resource)
            lines.append(f"  {label}: {where}{how}{trials}{outside}")
            continue
        own = f"{f(c.get('threshold'))} {interval_text(c.get('ci'), digits)} ({c.get('method', '-')})"
        shared = c.get("shared_width")
        if shared:  # the exponents were read from the joint cell model: show its threshold first
            own = f"{f(shared['threshold'])} {interval_text(shared['ci'], digits)} (shared width; own: {own})"
        lines.append(f"  {label}: {resource}* = {own}, predicted {f(c.get('predicted'))}{trials}{outside}")
    alts = v.get("alternatives") or []
    if alts:
        lines += ["", "neighbouring forms (ΔBIC = BIC(law) - BIC(form); positive: the form fits better):"]
        lines += [f"  {a.get('law')}: ΔBIC {f(a.get('delta_bic'))}{_evidence_mark(a)}" for a in alts[:4]]
    for title, key in (("to decide", "suggestions"), ("notes", "notes")):
        items = v.get(key) or []
        if items:
            lines += ["", f"{title}:"] + [f"  - {shorten(str(s), MAX_LINE - 4)}" for s in items]
    return "\n".join(lines)
