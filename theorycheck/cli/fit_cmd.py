"""``theorycheck fit DATA.csv --law LAW``: verdict of measured data against a law.

The CSV has one column per task parameter (e.g. ``d,L,V``), the resource column named
by the law (e.g. ``N``), ``successes`` and ``trials``; several rows per cell at different
resource values. The law is a condition such as ``"N >= C*L*V**2*log(V)/d**2"`` or a
catalogue id (``theorycheck bounds list``). Names in the law that are not columns are
free constants and are fitted, except the task variables (N, d, L, V, m, zeta), which
must be columns.

Exit codes: 0 consistent, 1 refuted, 3 inconclusive, 2 bad input.
"""

from __future__ import annotations

import argparse
import csv
import math
from typing import Any

__all__ = ["add_parser", "run", "read_csv", "load_law"]

def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fit", help="verdict of a CSV of (parameters, resource, successes, trials) against a law",
        description=__doc__.split("\n\n")[1] + " Exit codes: 0 consistent, 1 refuted, 3 inconclusive, 2 bad input.")
    parser.add_argument("data", help="CSV file: parameter columns, the resource column, successes, trials")
    parser.add_argument("--law", required=True,
                        help='law, e.g. "N >= C*L*V**2*log(V)/d**2", or a catalogue id')
    parser.add_argument("--resource", help="resource the law is solved for (default: its left-hand side)")
    parser.add_argument("--params", help="comma-separated parameter columns (default: every other column)")
    parser.add_argument("--tolerance", type=float, default=None,
                        help="equivalence tolerance on exponents (default 0.25)")
    parser.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--q", type=float, default=0.5, help="success probability defining thresholds")
    parser.add_argument("--up-to", choices=("constants", "polylog"), default="constants",
                        help="compare up to constants (Θ, default) or up to polylog factors (Θ̃)")
    parser.add_argument("--min-span", type=float, default=None,
                        help="decades a variable must span for a consistent verdict (default 0.5)")
    parser.add_argument("--lower-bound", help="also check the data against this lower-bound law or id")
    parser.add_argument("--no-diagnostics", action="store_true",
                        help="skip the free power-law fit, collapse test and model comparison")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.set_defaults(func=run)


def load_law(text: str, *, resource: str | None = None, columns: tuple[str, ...] = ()) -> Any:
    """A Law from a condition string or a catalogue id; names that are not ``columns``
    (and not task variables) become free constants."""
    from theorycheck.law import Law
    from theorycheck.symbols import VARIABLES

    if not isinstance(text, str) or not text.strip():
        raise ValueError("--law is empty: give a condition such as 'N >= C*V*log(V)' or a catalogue id")
    if not any(op in text for op in ("<", ">", "=")):
        from theorycheck import catalogue

        return catalogue.get(text.strip()).law
    law = Law.parse(text, resource=resource)
    if not columns:
        return law
    names = set(law.variables) | set(law.constants)
    task = [v for v in law.variables if v not in columns and v in VARIABLES]
    if task:
        raise ValueError(f"the law names {task}, but the CSV has no column {task[0]!r} "
                         f"(columns: {', '.join(columns)})")
    constants = sorted(n for n in names if n not in columns)
    if set(constants) != set(law.constants):
        law = Law.parse(text, resource=resource, constants=constants)
    return law


def _number(text: str, column: str, line: int) -> float:
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"line {line}, column {column!r}: {text!r} is not a number") from None
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"line {line}, column {column!r}: {text!r} is not a finite number")
    return value


def read_csv(path: str, *, resource: str, params: list[str] | None = None) -> tuple[list[dict], list[str]]:
    """Rows as dicts of floats and the parameter columns; ValueError naming any problem."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            header = [h.strip() for h in (reader.fieldnames or [])]
            raw = list(reader)
    except OSError as exc:
        raise ValueError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"{path!r} is not a readable CSV file: {exc}") from None
    if not header:
        raise ValueError(f"{path!r} is empty: expected a header such as d,L,V,{resource},successes,trials")
    needed = [resource, "successes", "trials"]
    missing = [c for c in needed if c not in header]
    if missing:
        raise ValueError(f"{path!r} lacks column(s) {missing}; its columns are {header}")
    if params is None:
        params = [h for h in header if h not in needed]
    else:
        absent = [p for p in params if p not in header]
        if absent:
            raise ValueError(f"--params names {absent}, which {path!r} does not have (columns: {header})")
    if not raw:
        raise ValueError(f"{path!r} has a header but no data rows")
    rows = []
    for i, record in enumerate(raw, start=2):
        record = {(k or "").strip(): v for k, v in record.items()}
        row = {}
        for col in [*params, *needed]:
            text = record.get(col)
            if text is None or str(text).strip() == "":
                raise ValueError(f"line {i}: column {col!r} is empty")
            row[col] = _number(str(text).strip(), col, i)
            if row[col] < 0:
                raise ValueError(f"line {i}, column {col!r}: negative value {text!r}")
        for col in ("successes", "trials"):
            if row[col] != int(row[col]):
                raise ValueError(f"line {i}, column {col!r}: {row[col]:g} is not a whole number")
        if row["successes"] > row["trials"]:
            raise ValueError(f"line {i}: successes ({row['successes']:g}) exceed trials ({row['trials']:g})")
        rows.append(row)
    return rows, list(params)


def run(args: argparse.Namespace) -> int:
    from theorycheck.compare import DEFAULT_MIN_SPAN, DEFAULT_TOLERANCE, Dataset, compare
    from theorycheck.jsonable import dumps
    from theorycheck.report.terminal import exit_code, render_verdict

    probe = load_law(args.law, resource=args.resource)
    params = [p.strip() for p in args.params.split(",") if p.strip()] if args.params else None
    rows, columns = read_csv(args.data, resource=probe.resource, params=params)
    law = load_law(args.law, resource=args.resource, columns=(*columns, probe.resource))
    data = Dataset.from_rows(rows, resource=law.resource, variables=columns,
                             increasing=getattr(law, "sense", ">=") == ">=")
    lower, lower_constants = None, None
    if args.lower_bound:
        lower = load_law(args.lower_bound, resource=law.resource)
        if not any(op in args.lower_bound for op in "<>="):  # a catalogue entry knows its constants
            from theorycheck import catalogue

            known = catalogue.get(args.lower_bound.strip()).constants
            lower_constants = {c: float(known[c]) for c in lower.constants if c in known}
    verdict = compare(
        law, data,
        tolerance=DEFAULT_TOLERANCE if args.tolerance is None else args.tolerance,
        level=args.level, q=args.q, up_to=args.up_to,
        min_span=DEFAULT_MIN_SPAN if args.min_span is None else args.min_span,
        lower_bound=lower, lower_bound_constants=lower_constants, diagnostics=not args.no_diagnostics,
    )
    if args.json:
        print(dumps(verdict.to_dict(), sort_keys=False))
    else:
        print(render_verdict(verdict.to_dict()))
    return exit_code(verdict.status)
