"""``report.md`` of a check result (the terminal text is :mod:`theorycheck.report.terminal`).

Pure functions from the :meth:`~theorycheck.check.CheckResult.to_dict` dictionary to
strings; :mod:`theorycheck.report.writer` puts them on disk.
"""

from __future__ import annotations

import shlex
from typing import Any

from theorycheck.report.terminal import (censored_text, constants_source, format_number, interval_text,
                                         window_cell)
from theorycheck.wording import counted

__all__ = ["report_markdown", "reproduce_command"]


def _exponent_rows(result: dict[str, Any]) -> list[tuple[str, ...]]:
    rows = []
    for var, fit in result["verdict"].get("exponents", {}).items():
        fitted = (
            f"{format_number(fit.get('estimate'))} {interval_text(fit.get('ci'))}"
            if fit.get("estimate") is not None
            else "untested"
        )
        window = window_cell(fit)
        rows.append((var, format_number(fit.get("predicted")), fitted, str(fit.get("status", "-")),
                     format_number(fit.get("cells")), window or "-"))
    return rows


def _estimate(e: dict[str, Any]) -> str:
    return f"{format_number(e.get('estimate'))} {interval_text(e.get('ci'))}"


def _quantity_rows(v: dict[str, Any]) -> list[tuple[str, str]]:
    """Tolerance, fitted constants and the observed/predicted spread, one row each."""
    rows = []
    if "tolerance" in v:
        rows.append(("tolerance on exponents", f"±{format_number(v['tolerance'])}"))
    source = constants_source(v)
    for name, e in (v.get("constant") or {}).items():
        rows.append((f"constant {name} (95% CI{', ' + source if source else ''})", _estimate(e)))
    spread = v.get("ratio_spread") or {}
    if spread.get("min") is not None:
        rows.append(("observed / predicted threshold", f"{format_number(spread['min'])} .. "
                     f"{format_number(spread['max'])} (geometric sd {format_number(spread.get('gsd'))})"))
    if v.get("width") is not None:
        rows.append((f"transition width (probit, log {v.get('resource', 'resource')})", format_number(v["width"])))
    col = v.get("collapse")
    if col:
        rows.append(("collapse test", f"LR {format_number(col.get('statistic'))} on {col.get('df')} df, "
                     f"p = {format_number(col.get('p_value'))} ({col.get('description', '')})"))
    return rows


def _evidence_rows(v: dict[str, Any]) -> list[tuple[str, ...]]:
    return [(f"`{a.get('law')}`", a.get("name", "-"), format_number(a.get("delta_bic")),
             format_number(a.get("delta_aic")),
             "saturated" if a.get("saturated") else "yes" if a.get("decisive") else "no",
             format_number(a.get("fit_p_value")) + (" (misses the cells)" if a.get("misses_cells") else ""))
            for a in v.get("alternatives") or []]


def _lower_bound_rows(lb: dict[str, Any]) -> list[tuple[str, str]]:
    rows = [("bound", f"`{lb.get('bound')}`"), ("violated", "yes" if lb.get("violated") else "no")]
    for key in ("cell_violations", "exponent_violations", "notes"):
        for item in lb.get(key) or []:
            rows.append((key.replace("_", " "), str(item)))
    return rows


def reproduce_command(result: dict[str, Any]) -> str:
    """The ``theorycheck check ...`` line that re-runs this check: target, assumptions, task (as
    it was loaded: ``file.py:NAME`` for a task from a file), budget, seed, settings, base
    point, varied variables (or the given cells), threshold method, q and tolerance as this
    run used them."""
    t, design, v = result["target"], result["design"], result.get("verdict", {})
    words = ["theorycheck", "check"]
    if t.get("id") and t["id"] != "user-law":
        words.append(t["id"])
    else:
        words += ["--law", t.get("law", "")]
        for condition in t.get("assume") or ():
            words += ["--assume", condition]
        if t.get("task"):
            words += ["--task", t.get("task_source") or t["task"]]
    words += ["--budget", str(design.get("budget", "quick")), "--seed", str(design.get("entropy", 2026))]
    if design.get("max_cost") is not None:
        words += ["--max-cost", format_number(design["max_cost"], 12)]
    for k, val in (design.get("simulation") or {}).items():
        words += ["--set", f"{k}={val}"]
    for k, val in (design.get("base") or {}).items():
        words += ["--base", f"{k}={format_number(val, 12)}"]
    if design.get("given_cells"):
        words += ["--cells", "; ".join(",".join(f"{k}={format_number(x, 12)}" for k, x in c.items())
                                       for c in design["given_cells"])]
    elif design.get("varied"):
        words += ["--vary", ",".join(design["varied"])]
    if design.get("thresholds", "bernoulli") != "bernoulli":
        words += ["--thresholds", design["thresholds"]]
    if design.get("q", 0.5) != 0.5:
        words += ["--q", format_number(design["q"], 12)]
    if v.get("tolerance") is not None and float(v["tolerance"]) != 0.25:
        words += ["--tolerance", format_number(v["tolerance"], 12)]
    return " ".join(shlex.quote(str(w)) for w in words)


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
        f"**Verdict: {str(v.get('verdict', '?')).upper()}.** {v.get('headline', '')}",
        "",
        *([f"**Measured {v['outside_regime']}.**", ""] if v.get("outside_regime") else []),
        f"Reason in full: {v.get('reason', '')}",
        "",
        "## The law",
        "",
        f"$$ {t.get('latex', t.get('law', ''))} $$",
        "",
        f"- text form: `{t.get('law', '')}`",
        *([f"- assumed to hold where: {', '.join(f'`{a}`' for a in t['assume'])}"] if t.get("assume") else []),
        f"- kind: {t.get('kind', '-')}; provenance: **{t.get('provenance', '-')}**",
    ]
    if t.get("description"):
        parts.append(f"- {t['description']}")
    if t.get("criterion"):  # the entry's words; a target set for this run (--set target=0.9) is said beside them
        run_target = {**design.get("base", {}), **design.get("simulation", {})}.get("target")
        parts.append(f"- success criterion: {t['criterion']}"
                     + (f" (this run: target = {format_number(run_target)})" if run_target is not None else ""))
    parts += ["", "## Sweep design", ""]
    n_cells = design.get("cells", len(result["cells"]))
    parts.append(f"- resource searched: `{design['resource']}` (threshold at success probability {design.get('q', 0.5)})")
    settings = ", ".join(f"{k}={val}" for k, val in design.get("simulation", {}).items())
    parts.append(f"- simulator: task `{design.get('task', '-')}`" + (f", {settings}" if settings else ""))
    parts.append("- base point: " + ", ".join(f"{k}={format_number(val)}" for k, val in design["base"].items()))
    for var, values in design["varied"].items():  # every value measured, the base point's too
        seen = sorted({*values, *(float(c["params"][var]) for c in result["cells"] if var in c.get("params", {}))})
        parts.append(f"- varied `{var}`: " + ", ".join(format_number(x) for x in seen))
    parts.append(
        f"- budget `{design.get('budget', '-')}`: {counted(n_cells, 'cell')}, "
        f"{result.get('run', {}).get('trials', '-')} trials, seed entropy {design.get('entropy', '-')}"
    )
    parts += ["", "## Verdict table", ""]
    parts.append(_md_table(("variable", "predicted exponent", "fitted exponent [95% CI]", "verdict",
                            "values with a threshold", "deciding window"), _exponent_rows(result)))
    quantities = _quantity_rows(v)
    if quantities:
        parts += ["", _md_table(("quantity", "value"), quantities)]
    if v.get("alternatives"):
        parts += ["", "## Neighbouring forms of the law", "",
                  "Each form fitted to the same data; ΔBIC = BIC(law) - BIC(form), positive when the form "
                  "fits better; above 10 it fits decisively better, unless the form is saturated (as many "
                  "constants as cells: it fits every cell whatever the data); the last column is the "
                  "p-value of the form's own goodness of fit to the cells, marked where it misses them (below "
                  "theorycheck.compare.evidence.MISFIT_LEVEL).", "",
                  _md_table(("form", "change", "ΔBIC", "ΔAIC", "decisive", "own fit p"), _evidence_rows(v))]
    if v.get("lower_bound"):
        parts += ["", "## Lower-bound check", "", _md_table(("quantity", "value"), _lower_bound_rows(v["lower_bound"]))]
    regime = result.get("regime") or {}
    if regime.get("stated") and not regime.get("constraints"):
        parts += ["", "## Regime of the law", "", f"{regime['summary']}; no cell was checked against it."]
    if regime.get("constraints"):
        parts += ["", "## Regime of the law", "", f"{regime.get('summary', '')}", "",
                  _md_table(("constraint", "cells violating it (row of the Cells table, from 0)"),
                            [(str(c), ", ".join(str(i) for i in regime.get("violations", {}).get(str(c), [])) or "none")
                             for c in regime["constraints"]])]
    parts += ["", "## Cells", ""]
    cell_rows = []
    for c in result["cells"]:
        th = c["threshold"]
        ci = th.get("ci")
        censored = th.get("estimate") is None
        cell_rows.append((
            ", ".join(f"{k}={format_number(x)}" for k, x in c["params"].items()),
            censored_text(th.get("censored"), th.get("censored_beyond"), th.get("resource", ""))
            if censored else format_number(th.get("estimate")),
            "-" if censored else interval_text(ci),
            format_number(c.get("predicted")),
            str(sum(p[2] for p in th.get("points", []))),
            {True: "yes", False: "no", None: "-"}[c.get("in_regime")],
            _shared_text(c.get("shared_width")),
        ))
    head = ("cell", "threshold", "95% CI", "predicted", "trials", "in regime", "shared-width threshold [95% CI]")
    if not any(c.get("shared_width") for c in result["cells"]):  # the exponents used the cells' own
        head, cell_rows = head[:-1], [row[:-1] for row in cell_rows]
    parts.append(_md_table(head, cell_rows))
    if figures:
        parts += ["", "## Figures", ""]
        parts += [f"![{caption}]({name})\n\n*{caption}*\n" for name, caption in figures.items()]
    for title, key in (("To decide", "suggestions"), ("Notes of the comparison", "notes")):
        if v.get(key):
            parts += ["", f"## {title}", ""] + [f"- {item}" for item in v[key]]
    caveats = list(v.get("caveats", [])) + list(result.get("caveats", []))
    if caveats:
        parts += ["", "## Caveats", ""] + [f"- {c}" for c in caveats]
    if t.get("citation"):
        parts += ["", "## Citation", "", "```bibtex", t["citation"].strip(), "```"]
    parts += ["", "## Reproduce", "", "```sh", reproduce_command(result), "```"]
    env = result.get("environment", {})
    if env:
        parts += ["", _md_table(("package", "version"), [(k, str(val)) for k, val in env.items()])]
    return "\n".join(parts) + "\n"


def _shared_text(shared: dict[str, Any] | None) -> str:
    """A cell's threshold in the joint cell model with a shared width, where the exponents
    were read from it (compare/verdict.py, method "joint")."""
    if not shared:
        return "-"
    return f"{format_number(shared['threshold'])} {interval_text(shared['ci'])}"
