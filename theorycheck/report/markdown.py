"""``report.md`` of a check result (the terminal text is :mod:`theorycheck.report.terminal`).

Pure functions from the :meth:`~theorycheck.check.CheckResult.to_dict` dictionary to
strings; :mod:`theorycheck.report.writer` puts them on disk.
"""

from __future__ import annotations

from typing import Any

from theorycheck.report.terminal import format_number

__all__ = ["report_markdown"]


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
    from theorycheck.jsonable import dumps

    return dumps(obj)
