"""``theorycheck fit DATA.csv [DATA ...] [--law LAW]``: verdict of measured data against a law, or its exponents.

DATA is binomial rows (parameter columns, the resource, ``successes``, ``trials``) or a
table of thresholds (parameter columns, ``threshold`` or the resource, and ``ci_low``/``ci_high``,
``se`` or ``seed``), e.g. the ``thresholds.csv`` that ``theorycheck check`` writes
(:mod:`theorycheck.cli.fit_input`, docs/fit.md), or a check's output directory, whose
stored trials become binomial rows. With ``--law`` (a condition such as
``"N >= C*L*V**2*log(V)/d**2"``, or a catalogue id; ``--assume "k < n"`` declares where it
holds) the verdict; every name of the law must be a column or a constant (``C``, ``C0``..,
``c1``, ``K1``, ``A``, ``B``, or declared with ``--constants``). Without ``--law``, the free
power-law fit of the thresholds and candidate laws ranked by BIC (:mod:`theorycheck.compare.free_fit`);
on one point (no column varies), that point's threshold.

Exit codes: 0 consistent, 1 refuted, 3 inconclusive, 2 bad input (0 for a fit without a law).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from typing import Any

from theorycheck.cli.fit_input import run_design
from theorycheck.cli.fit_load import catalogue_id, load_data, load_law, names_option
from theorycheck.cli.options import plain_text

__all__ = ["add_parser", "run"]


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fit", help="verdict of a CSV (binomial rows or a thresholds table) against a law, or its exponents",
        description=plain_text(__doc__.split("\n\n")[1]) + " Exit codes: 0 consistent, 1 refuted, 3 inconclusive, 2 bad input.")
    parser.add_argument("data", nargs="+", metavar="DATA",
                        help="CSV: parameter columns and either (resource, successes, trials) rows "
                             "or (threshold, ci_low, ci_high | se | seed) rows; or a check's output "
                             "directory (its trials.sqlite: a stopped run's trials); several binomial "
                             "sources (CSVs, output directories) are fitted together")
    parser.add_argument("--law", help='law, e.g. "N >= C*L*V**2*log(V)/d**2", or a catalogue id; '
                                      "without it: free exponents and candidate laws")
    parser.add_argument("--assume", action="append", default=None, metavar="COND",
                        help='where the law holds, e.g. "k < n" (repeat for several)')
    parser.add_argument("--constants", help="comma-separated names of the law that are free constants "
                                            "(default: C, C0.., C_x, c1, K1, A, B)")
    parser.add_argument("--resource", help="resource the law is solved for (default: its left-hand side); "
                                           "without --law the resource column (default N)")
    parser.add_argument("--params", help="comma-separated parameter columns (default: the law's variables; "
                                         "without --law every non-reserved column)")
    parser.add_argument("--ignore", help="comma-separated columns that move with the cells but are not "
                                         "variables of the fit (e.g. a width scaled with V by design); each "
                                         "must take one value per cell; the verdict notes them")
    parser.add_argument("--where", action="append", default=None, metavar="COND",
                        help='fit only the rows where COND holds, e.g. "L=512" or "d>=384" (COLUMN OP VALUE, '
                             "OP one of = != < <= > >=; repeat for several, all must hold)")
    parser.add_argument("--ci-level", type=float, default=0.95,
                        help="level of a thresholds table's ci_low/ci_high (default 0.95)")
    parser.add_argument("--decreasing", action="store_true",
                        help="without --law: success falls as the resource grows (a capacity)")
    parser.add_argument("--log-powers", action="store_true", help="without --law: also fit a power of log x")
    parser.add_argument("--step", default="1/2", help="without --law: exponent grid of candidate laws (default 1/2)")
    parser.add_argument("--top", type=int, default=5, help="without --law: candidate laws to print (default 5)")
    parser.add_argument("--tolerance", type=float, default=None,
                        help="equivalence tolerance on exponents (default 0.25)")
    parser.add_argument("--level", type=float, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--q", type=float, default=None,
                        help="success probability defining thresholds (default: the q of the check whose output "
                             "DATA is, else 0.5)")
    parser.add_argument("--up-to", choices=("constants", "polylog"), default="constants",
                        help="compare up to constants (Θ, default) or up to polylog factors (Θ̃)")
    parser.add_argument("--min-span", type=float, default=None,
                        help="decades a variable must span for a consistent verdict (default 0.5)")
    parser.add_argument("--lower-bound", help="also check the data against this lower-bound law or id")
    parser.add_argument("--no-diagnostics", action="store_true",
                        help="skip the free power-law fit, collapse test and model comparison")
    parser.add_argument("--save-rows", metavar="FILE",
                        help="also write the binomial rows fitted (the variables, the sources' one-valued settings "
                             "such as beta or algorithm, the resource, successes, trials; rows at the same "
                             "point merged) to this CSV, e.g. to publish pooled runs")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.set_defaults(func=run)


def _mark_regime(out: dict[str, Any], args: argparse.Namespace, law: Any, fixed: dict[str, float]) -> None:
    """Say where the verdict was measured, as ``check`` does (:mod:`theorycheck.check.where_measured`):
    the regime of a catalogue bound and the law's ``--assume`` conditions at every cell, the
    resource read at the cell's threshold; a name that neither the parameters nor a one-valued
    column give leaves its constraints not judged."""
    from theorycheck.check.where_measured import mark_verdict, regime_for

    cells = [{"params": c["params"], "threshold": {"estimate": c.get("threshold")}} for c in out["cells"]]
    regime = regime_for(catalogue_id(args.law), law, cells, law.resource, fixed)
    if regime["constraints"] or regime.get("stated"):
        out["regime"] = regime
        mark_verdict(out, regime)


def _fmt(x: float | None) -> str:
    from theorycheck.report.terminal import format_number

    return format_number(x, 4)


def render_free(fit: Any) -> str:
    """Plain-text report of a :class:`~theorycheck.compare.free_fit.FreeFit`."""
    lines = [f"free power-law fit: {fit.resource}* = C * prod x^a"
             + (" * log(x)^k" if fit.log_powers else "") + f"   ({fit.n_cells} cells)",
             f"data: {fit.data_kind}", "", f"  {'var':<8}{'exponent':>10}  CI"]
    for name, e in fit.exponents.items():
        lines.append(f"  {name:<8}{_fmt(e.estimate):>10}  [{_fmt(e.ci[0])}, {_fmt(e.ci[1])}]")
    for name, e in fit.log_powers.items():
        lines.append(f"  {'log ' + name:<8}{_fmt(e.estimate):>10}  [{_fmt(e.ci[0])}, {_fmt(e.ci[1])}]")
    lines += ["", "candidate laws (BIC; ΔBIC > 10 is decisive against a candidate), paste one into --law:"]
    for c in fit.candidates:
        lines.append(f"  ΔBIC {c.delta_bic:8.1f}   {c.law}")
    if fit.notes:
        lines += ["", "notes:"] + [f"  - {n}" for n in fit.notes]
    return "\n".join(lines)


def _emit(text: str) -> None:
    """Print ``text``; a reader that closes the pipe early (``| head -1``) is not an error."""
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # Python flushes stdout again at exit


def from_run(args: argparse.Namespace) -> list[str]:
    """Set ``args.q``: the user's, else the q of the checks whose output ``args.data`` is (the
    ``verdict.json`` beside each), else 0.5; and, without ``--law`` or ``--resource``, the
    resource to theirs. Returns a note for each check whose q differs from the one used;
    checks that disagree on q (or on the resource) with none given: ValueError."""
    runs = {path: run_design(path) for path in args.data}
    qs = {path: q for path, (q, _) in runs.items() if q is not None}
    resources = {r for _, r in runs.values() if r is not None}
    if args.law is None and args.resource is None and resources:
        if len(resources) > 1:
            raise ValueError(f"the checks that wrote {', '.join(args.data)} measured different resources "
                             f"{sorted(resources)}: give --resource")
        args.resource = resources.pop()
    if args.q is None:
        if len(set(qs.values())) > 1:
            raise ValueError(f"the checks that wrote the DATA measured different q ({qs}): give --q")
        args.q = next(iter(qs.values()), 0.5)
        return [f"q = {args.q:g}, the q of the check that wrote {', '.join(qs)}"] if args.q != 0.5 else []
    return [f"fitted at q = {args.q:g}, but the check that wrote {path} measured q = {ran:g}: its "
            f"trials were placed near that crossing, and a table's thresholds are its crossings"
            for path, ran in qs.items() if ran != args.q]


def save_rows(data: Any, path: str, settings: dict[str, str] | None = None) -> None:
    """Write ``data``'s binomial rows (one per cell and resource value, sorted) to the CSV ``path``;
    what ``fit`` reads back as the same data.  ``settings`` (the sources' one-valued columns
    that are not parameters: a check's ``beta``, ``algorithm``, ``backend``...) are written as
    columns of one value each, so that the file says how its trials were made."""
    import csv

    from theorycheck.compare import Dataset

    if not isinstance(data, Dataset):
        raise ValueError(f"--save-rows {path!r}: it writes binomial rows, and DATA is a thresholds table; "
                         "leave --save-rows out")
    rows = sorted((*(c.values[v] for v in data.variables), r, k, n) for c in data.cells for r, k, n in c.points)
    settings = settings or {}
    try:
        with open(path, "w", newline="", encoding="utf-8") as handle:
            w = csv.writer(handle)
            w.writerow([*data.variables, *settings, data.resource, "successes", "trials"])
            w.writerows([*(f"{x:.12g}" for x in row[:-3]), *settings.values(), f"{row[-3]:.12g}", int(row[-2]),
                         int(row[-1])] for row in rows)
    except OSError as exc:
        raise ValueError(f"--save-rows {path!r}: cannot write it ({exc.strerror or exc}); give a writable path") from None


def _check_numbers(args: argparse.Namespace) -> None:
    """The numeric options, named as the command line names them, before the data are read."""
    from theorycheck.cli.fit_where import parse_where
    from theorycheck.validate import check_int, check_open_unit, check_positive

    args.where = parse_where(args.where)  # parsed once, before any data are read; load_data reads the conditions
    for name in ("level", "ci_level", "q"):
        if getattr(args, name) is None:
            continue
        check_open_unit(f"--{name.replace('_', '-')}", getattr(args, name), " (a probability, e.g. 0.95)"
                        if name != "q" else " (the success probability that defines a threshold)")
    for name in ("tolerance", "min_span"):
        if getattr(args, name) is not None:
            check_positive(f"--{name.replace('_', '-')}", getattr(args, name))
    check_int("--top", args.top, 1)


def _one_point(args: argparse.Namespace, fixed: dict[str, Any], notes: list[str]) -> int:
    """Without ``--law``, data where no column varies (one point, e.g. a probe's single-seed
    runs): no exponent can be fitted, so the point's threshold and CI, fitted as the law
    ``resource >= C`` (``<=`` with ``--decreasing``; the cell labelled by the one-valued numeric
    columns, unless ``--params`` names them). Exit 0, as a fit without a law."""
    law = f"{args.resource or 'N'} {'<=' if args.decreasing else '>='} C"
    params = args.params or ",".join(k for k, v in fixed.items() if isinstance(v, float)) or None
    _verdict(argparse.Namespace(**{**vars(args), "law": law, "params": params}),
             [*notes, f"no column varies: the point's threshold alone, as {law}; --law for a verdict, "
                      "more points for exponents"])
    return 0


def run(args: argparse.Namespace) -> int:
    from theorycheck.compare.free_fit import fit_exponents
    from theorycheck.jsonable import dumps

    _check_numbers(args)
    q_note = from_run(args)
    if args.law is not None:
        return _verdict(args, q_note)
    if args.assume or args.constants or args.lower_bound:
        raise ValueError("--assume, --constants and --lower-bound need --law")
    data, notes, fixed, settings = load_data(args, None)
    if not data.variables:  # one point (a probe's runs): its threshold, as the law "N >= C"
        return _one_point(args, fixed, q_note)
    notes += q_note
    if args.save_rows:
        save_rows(data, args.save_rows, settings)
    if args.resource is None:
        notes.append("resource named N by default (candidate laws use that name); pass --resource to rename")
    fit = fit_exponents(data, log_powers=args.log_powers, step=args.step, level=args.level, q=args.q,
                        top=args.top)
    if notes:
        fit = dataclasses.replace(fit, notes=(*fit.notes, *notes))
    _emit(dumps(fit.to_dict(), sort_keys=False) if args.json else render_free(fit))
    return 0


def _verdict(args: argparse.Namespace, extra_notes: list[str]) -> int:
    """``fit --law``: the verdict of the data against ``args.law``, ``extra_notes`` added to its
    notes; the exit code of the verdict."""
    from theorycheck.compare import DEFAULT_MIN_SPAN, DEFAULT_TOLERANCE, compare
    from theorycheck.jsonable import dumps
    from theorycheck.report.terminal import exit_code, render_verdict

    law = load_law(args.law, resource=args.resource, constants=names_option(args.constants), assume=args.assume)
    data, notes, fixed, settings = load_data(args, law)
    notes += extra_notes
    if args.save_rows:
        save_rows(data, args.save_rows, settings)
    lower, lower_constants = None, None
    if args.lower_bound:
        lower = load_law(args.lower_bound, resource=law.resource)
        ident = catalogue_id(args.lower_bound)
        if ident is not None:  # a catalogue entry knows its constants
            from theorycheck import catalogue

            known = catalogue.get(ident).constants
            lower_constants = {c: float(known[c]) for c in lower.constants if c in known}
    verdict = compare(
        law, data,
        tolerance=DEFAULT_TOLERANCE if args.tolerance is None else args.tolerance,
        level=args.level, q=args.q, up_to=args.up_to,
        min_span=DEFAULT_MIN_SPAN if args.min_span is None else args.min_span,
        lower_bound=lower, lower_bound_constants=lower_constants, diagnostics=not args.no_diagnostics,
    )
    if notes:
        verdict = dataclasses.replace(verdict, notes=(*verdict.notes, *notes))
    out = verdict.to_dict()
    out["data"] = data.describe()
    out["assume"] = list(getattr(law, "assumption_texts", ()))
    _mark_regime(out, args, law, fixed)
    _emit(dumps(out, sort_keys=False) if args.json else render_verdict(out, details="--json"))
    return exit_code(verdict.status)
