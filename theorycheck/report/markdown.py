"""Text renderings of a check result: the terminal verdict table and ``report.md``.

Pure functions from the :meth:`~theorycheck.check.CheckResult.to_dict` dictionary to
strings; :mod:`theorycheck.report.writer` puts them on disk.
"""

from __future__ import annotations

from typing import Any

__all__ = ["verdict_table", "report_markdown", "format_number"]


def format_number(x: Any, digits: int = 3) -> str:
    """Compact number: ``None``/NaN as '-', integers as integers, else ``digits`` significant."""
    if x is None:
        return "-"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if v != v:
        return "-"
    if v == int(v) and abs(v) < 1e7:
        return str(int(v))
    return f"{v:.{digits}g}"


def _exponent_rows(result: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    rows = []
    for var, fit in result["verdict"].get("exponents", {}).items():
        ci = fit.get("ci") or [None, None]
        fitted = (
            f"{format_number(fit.get('estimate'))} [{format_number(ci[0])}, {format_number(ci[1])}]"
            if fit.get("estimate") is not None
            else "untested"
        )
        rows.append((var, format_number(fit.get("predicted")), fitted, str(fit.get("status", "-"))))
    return rows


def verdict_table(result: dict[str, Any]) -> str:
    """Plain-text table (variable, predicted exponent, fitted exponent with CI, verdict)."""
    header = ("variable", "predicted", "fitted [95% CI]", "verdict")
    rows = [header, *_exponent_rows(result)]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    v = result["verdict"]
    lines.append("")
    lines.append(f"verdict: {str(v.get('verdict', '?')).upper()} -- {v.get('reason', '')}")
    return "\n".join(lines)


def _md_table(header: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def report_markdown(result: dict[str, Any], figures: dict[str, str]) -> str:
    """The ``report.md`` a user can paste into a paper's appendix."""
    t, design, v = result["target"], result["design"], result["verdict"]
    parts = [
        f"# theorycheck report: {t.get('id', 'user law')}",
        "",
        f"**Verdict: {str(v.get('verdict', '?')).upper()}.** {v.get('reason', '')}",
        "",
        "## The law",
        "",
        f"$$ {t.get('latex', t.get('law', ''))} $$",
        "",
        f"- text form: `{t.get('law', '')}`",
        f"- kind: {t.get('kind', '-')}; provenance: **{t.get('provenance', '-')}**",
    ]
    if t.get("description"):
        parts.append(f"- {t['description']}")
    if t.get("criterion"):
        parts.append(f"- success criterion: {t['criterion']}")
    parts += ["", "## Sweep design", ""]
    parts.append(f"- resource searched: `{design['resource']}` (threshold at success probability {design.get('q', 0.5)})")
    parts.append("- simulator: " + ", ".join(f"{k}={val}" for k, val in design.get("simulation", {}).items()))
    parts.append("- base point: " + ", ".join(f"{k}={format_number(val)}" for k, val in design["base"].items()))
    for var, values in design["varied"].items():
        parts.append(f"- varied `{var}`: " + ", ".join(format_number(x) for x in values))
    parts.append(
        f"- budget `{design.get('budget', '-')}`: {design.get('cells', len(result['cells']))} cells, "
        f"{result.get('run', {}).get('trials', '-')} trials, seed entropy {design.get('entropy', '-')}"
    )
    parts += ["", "## Verdict table", ""]
    parts.append(_md_table(("variable", "predicted exponent", "fitted exponent [95% CI]", "verdict"), _exponent_rows(result)))
    extra = [(k, format_number(v[k]) if not isinstance(v[k], (dict, list)) else str(v[k]))
             for k in ("tolerance", "constant", "ratio_spread") if k in v]
    if extra:
        parts += ["", _md_table(("quantity", "value"), extra)]
    for section, key in (("Lower-bound check", "lower_bound"), ("Multiplicative vs additive", "model_comparison")):
        if result.get(key):
            parts += ["", f"## {section}", "", "```", _pretty(result[key]), "```"]
    parts += ["", "## Cells", ""]
    cell_rows = []
    for c in result["cells"]:
        th = c["threshold"]
        ci = th.get("ci") or [None, None]
        cell_rows.append((
            ", ".join(f"{k}={format_number(x)}" for k, x in c["params"].items()),
            format_number(th.get("estimate")),
            f"[{format_number(ci[0])}, {format_number(ci[1])}]",
            format_number(c.get("predicted")),
            str(sum(p[2] for p in th.get("points", []))),
        ))
    parts.append(_md_table(("cell", "threshold", "95% CI", "predicted", "trials"), cell_rows))
    if figures:
        parts += ["", "## Figures", ""]
        parts += [f"![{caption}]({name})\n\n*{caption}*\n" for name, caption in figures.items()]
    caveats = list(v.get("caveats", [])) + list(result.get("caveats", []))
    if caveats:
        parts += ["", "## Caveats", ""] + [f"- {c}" for c in caveats]
    if t.get("citation"):
        parts += ["", "## Citation", "", "```bibtex", t["citation"].strip(), "```"]
    env = result.get("environment", {})
    if env:
        parts += ["", "## Reproduce", "", "```", _pretty(env), "```"]
    return "\n".join(parts) + "\n"


def _pretty(obj: Any) -> str:
    import json

    return json.dumps(obj, indent=2, sort_keys=True, default=str)
