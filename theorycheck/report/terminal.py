"""What a command prints at the end of a verdict, and the exit code it returns.

One renderer and one exit-code map for every command that ends in a verdict
(``theorycheck check`` and ``theorycheck fit``, docs/architecture.md "CLI"):

* :data:`EXIT_CODES`: ``consistent -> 0``, ``refuted -> 1``, ``inconclusive -> 3``;
  :data:`BAD_INPUT` ``= 2`` is the code of a ``ValueError`` raised before any work;
  :func:`exit_code` maps any other status to ``3`` (nothing was decided);
* :func:`render_verdict`: plain text of the JSON form of a verdict
  (:meth:`theorycheck.compare.Verdict.to_dict`, or ``CheckResult.to_dict()``);
* :func:`format_number`: the one compact number format of the text reports.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["EXIT_CODES", "BAD_INPUT", "exit_code", "format_number", "render_verdict"]

EXIT_CODES = {"consistent": 0, "refuted": 1, "inconclusive": 3}
BAD_INPUT = 2


def exit_code(status: str) -> int:
    """Exit code of a verdict ``status`` (:data:`EXIT_CODES`; 3 for anything else)."""
    return EXIT_CODES.get(status, EXIT_CODES["inconclusive"])


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


def _interval(ci: Any, digits: int) -> str:
    if not ci:
        return "-"
    return f"[{format_number(ci[0], digits)}, {format_number(ci[1], digits)}]"


def render_verdict(verdict: Mapping[str, Any], digits: int = 4) -> str:
    """Plain-text report of a verdict's JSON form (or of a check result's, which holds
    it under ``"verdict"``): status, reason, exponents, constants,
    observed/predicted spread, cells, what would decide it and notes. Keys a verdict
    does not have (e.g. a sweep where no cell crossed) are left out."""
    v = verdict["verdict"] if isinstance(verdict.get("verdict"), Mapping) else verdict
    f = lambda x: format_number(x, digits)  # noqa: E731
    head = f"verdict: {v.get('verdict', '?')}   law: {v.get('law', '?')}"
    if "tolerance" in v:
        head += (f"   (tolerance ±{f(v['tolerance'])} on exponents, {100 * float(v['level']):.0f}% level, "
                 f"q={f(v['q'])}, up to {v['up_to']})")
    lines = [head, f"reason: {v.get('reason', '')}", "", "exponents:",
             f"  {'var':<6}{'observed':>10}  {'CI':<22}{'predicted':>10}  status"]
    for name, c in (v.get("exponents") or {}).items():
        lines.append(f"  {name:<6}{f(c.get('estimate')):>10}  {_interval(c.get('ci'), digits):<22}"
                     f"{f(c.get('predicted')):>10}  {c.get('status', '-')}")
    resource = v.get("resource", "?")
    if "constant" in v:
        consts = [f"{k} = {f(e.get('estimate'))} {_interval(e.get('ci'), digits)}"
                  for k, e in (v.get("constant") or {}).items()]
        lines += ["", "constants: " + ("; ".join(consts) or "-")]
    spread = v.get("ratio_spread")
    if spread:
        lines.append(f"observed/predicted thresholds: {f(spread.get('min'))} .. {f(spread.get('max'))} "
                     f"(geometric sd {f(spread.get('gsd'))}); transition width {f(v.get('width'))} in log "
                     f"{resource}")
    cells = v.get("cells") or []
    lines += ["", f"cells ({len(cells)}):"]
    for c in cells:
        label = ", ".join(f"{k}={format_number(val, 6)}" for k, val in c.get("params", {}).items())
        lines.append(f"  {label}: {resource}* = {f(c.get('threshold'))} {_interval(c.get('ci'), digits)} "
                     f"({c.get('method', '-')}), predicted {f(c.get('predicted'))}")
    for title, key in (("to decide", "suggestions"), ("notes", "notes")):
        items = v.get(key) or []
        if items:
            lines += ["", f"{title}:"] + [f"  - {s}" for s in items]
    return "\n".join(lines)
