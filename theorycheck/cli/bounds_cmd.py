"""``theorycheck bounds``: list and show the catalogue of encoded theorems (docs/theory.md §5).

* ``theorycheck bounds list [--json]`` -- one row per entry (id, kind, provenance, law);
* ``theorycheck bounds show ID [--json]`` -- the law as stated and solved for its
  resource (text and LaTeX), variables with directions, exponents and log powers in
  the entry's regime, reference constants, provenance, task (``null``/``none`` when this
  package has no simulator for it), simulator settings, design hints (base, ranges, vary, keep),
  the lower bound it must respect, the expected verdict of its own check where measured,
  citation.

Unknown ids are bad input (exit 2, one line on stderr, via ``main``'s ValueError handler).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("bounds", help="list or show the encoded bounds (docs/theory.md §5)",
                                   description="List or show the catalogue of encoded bounds.")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", parser_class=type(parser))
    actions.required = True
    listing = actions.add_parser("list", help="list every bound")
    listing.add_argument("--json", action="store_true", help="print a JSON array")
    show = actions.add_parser("show", help="show one bound")
    show.add_argument("id", help="bound id, e.g. vural2026.gradient_noise")
    show.add_argument("--json", action="store_true", help="print a JSON object")
    parser.set_defaults(func=run)


def _summary(bound: Any) -> dict:
    return {"id": bound.id, "kind": bound.kind, "provenance": bound.provenance, "law": bound.law.text,
            "resource": bound.law.resource, "task": bound.task, "description": bound.description}


def _table(rows: list[dict]) -> str:
    columns = ("id", "kind", "provenance", "task", "law")
    cells = [{c: r[c] if r[c] is not None else "-" for c in columns} for r in rows]
    widths = {c: max(len(c), *(len(r[c]) for r in cells)) for c in columns[:-1]}
    lines = ["  ".join(c.upper().ljust(widths.get(c, 0)) for c in columns).rstrip()]
    for r in cells:
        lines.append("  ".join(r[c].ljust(widths[c]) for c in columns[:-1]) + "  " + r["law"])
    return "\n".join(lines)


def _fmt(mapping: dict) -> str:
    return ", ".join(f"{k}: {v}" for k, v in mapping.items()) or "-"


def _ranges(ranges: dict) -> str:
    return ", ".join(f"{k} in [{lo:g}, {hi:g}]" for k, (lo, hi) in ranges.items()) or "-"


def _expected(expected: dict | None) -> str:
    if expected is None:
        return "- (none declared for the tests to re-run; measured checks: docs/theory.md §7.8)"
    text = f"{expected['verdict']} (budget {expected['budget']}, entropy {expected['entropy']})"
    return text + (f"; {expected['measured']}" if expected["measured"] else "")


def _show_text(info: dict) -> str:
    from theorycheck.catalogue import NO_SIMULATOR

    directions = ", ".join(f"{v} ({info['directions'][v]})" for v in info["directions"])
    lines = [
        f"{info['id']}  [{info['kind']}, {info['provenance']}]",
        f"  {info['description']}",
        f"law:         {info['law']}",
        f"solved:      {info['solved']}",
        f"latex:       {info['latex']}",
        f"variables:   {directions}",
        f"regime:      {info['regime']['description']}",
        f"             ray {_fmt(info['regime']['ray'])}"
        + (f"; constraints {', '.join(info['regime']['constraints'])}" if info["regime"]["constraints"]
           else "; no constraints (a check leaves its cells not judged)"),
        f"exponents:   {_fmt(info['exponents_exact'])}",
        f"log powers:  {_fmt(info['log_powers'])}",
        f"             ({info['note']})",
        f"constants:   {_fmt(info['constants'])} (free: {', '.join(info['free_constants']) or '-'})",
        f"task:        {info['task'] or 'none (' + NO_SIMULATOR + ')'}",
        f"criterion:   {info['criterion']}",
        f"settings:    {_fmt(info['settings'])}",
        f"design:      base {_fmt(info['base'])}; ranges {_ranges(info['ranges'])}; "
        f"vary {', '.join(info['vary']) if info['vary'] else '(every variable of the law)'}"
        + (f"; keep {', '.join(info['keep'])}" if info.get("keep") else ""),
        f"lower:       {info['lower'] or '-'}",
        f"expected:    {_expected(info['expected'])}",
    ]
    if info["notes"]:
        lines.append(f"notes:       {info['notes']}")
    lines += ["citation:", *("  " + line for line in info["citation"].splitlines())]
    return "\n".join(lines)


def _emit(text: str) -> None:
    try:
        print(text, file=sys.stdout, flush=True)
    except BrokenPipeError:  # e.g. `theorycheck bounds list | head`: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def run(args: argparse.Namespace) -> int:
    from theorycheck import catalogue  # sympy: imported when a bound is read, not for --help

    if args.action == "list":
        rows = [_summary(b) for b in catalogue.all_bounds()]
        _emit(json.dumps(rows, indent=2) if args.json else _table(rows))
        return 0
    info = catalogue.get(args.id).to_dict()
    _emit(json.dumps(info, indent=2) if args.json else _show_text(info))
    return 0
