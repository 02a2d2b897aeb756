"""What ``theorycheck fit`` fits: the law of ``--law`` and the data of its CSV, store or table.

:func:`load_law` turns a condition string or a catalogue id into a
:class:`~theorycheck.law.Law` (with ``--constants`` and ``--assume``); :func:`load_data`
reads ``DATA`` (:mod:`theorycheck.cli.fit_input`), decides which columns are the fit's
variables (exactly the law's; ``--params`` without a law; ``--ignore`` columns set aside,
refused where they would merge cells) and builds a :class:`~theorycheck.compare.Dataset` or
:class:`~theorycheck.compare.threshold_table.ThresholdTable`. Every refusal is a
``ValueError`` naming the option, what it received and what to do (docs/fit.md).
"""

from __future__ import annotations

import argparse
import math
from typing import Any

from theorycheck.cli.fit_input import RESERVED, read_data, unused_columns

__all__ = ["names_option", "catalogue_id", "load_law", "load_data"]


def names_option(text: str | None) -> list[str] | None:
    """A comma-separated option (``--params V,d``) as a list of names; ``None`` when not given."""
    return None if text is None else [p.strip() for p in text.split(",") if p.strip()]


def catalogue_id(text: str) -> str | None:
    """``text`` stripped when it names a catalogue bound (:func:`theorycheck.catalogue.is_id`), else ``None``."""
    from theorycheck.catalogue import is_id

    return text.strip() if is_id(text) else None


def load_law(text: str, *, resource: str | None = None, constants: list[str] | None = None,
             assume: list[str] | None = None) -> Any:
    """A Law from a condition string or a catalogue id, with its declared constants and assumptions."""
    from theorycheck.law import Law

    if not isinstance(text, str) or not text.strip():
        raise ValueError("--law is empty: give a condition such as 'N >= C*V*log(V)' or a catalogue id")
    ident = catalogue_id(text)
    if ident is not None:
        from theorycheck import catalogue

        law = catalogue.get(ident).law
        if assume or constants:
            law = Law(law.statement, resource=law.resource, constants=constants or law.constants, assume=assume)
        return law
    return Law.parse(text, resource=resource, constants=constants, assume=assume)


def _choose_params(header: list[str], kind: str, law: Any, resource: str, params: list[str] | None,
                   ignore: list[str], distinct: dict) -> list[str]:
    from theorycheck.law.names import require_known_names

    candidates = [h for h in header if h not in RESERVED and h != resource]
    unknown = [c for c in ignore if c not in candidates]
    if unknown:
        raise ValueError(f"--ignore names {unknown}, which are not parameter columns of the data "
                         f"(columns: {', '.join(candidates) or 'none'}); name columns of the CSV")
    clash = [c for c in ignore if c in (params or ()) or (law is not None and c in law.variables)]
    if clash:
        raise ValueError(f"--ignore {clash}: a variable of the law or of --params cannot be ignored; "
                         "remove it from one of them")
    candidates = [h for h in candidates if h not in ignore]
    if law is None:  # the free fit: every column that varies (one value has no exponent; a run's settings)
        return [h for h in candidates if len(distinct.get(h, ())) > 1] if params is None else params
    require_known_names(law, [*candidates, resource] if kind == "thresholds" else
                        [h for h in header if h not in RESERVED])
    if params is None:
        return list(law.variables)
    missing = [v for v in law.variables if v not in params]
    if missing:
        raise ValueError(f"--params {params} leaves out the law's variable(s) {missing}; add them")
    return params


def load_data(args: argparse.Namespace, law: Any) -> tuple[Any, list[str], dict[str, float], dict[str, str]]:
    """The Dataset or ThresholdTable of ``args.data`` (one path or several), notes about pooling and unused columns, the
    one value of each numeric column that is not a parameter (for the law's regime), and the
    text of every such one-valued column (a run's settings, which ``--save-rows`` keeps). ``args.where`` holds the
    ``--where`` conditions as :func:`~theorycheck.cli.fit_where.parse_where` returns them (the fit command parses
    them once, before any data are read)."""
    from theorycheck.compare import Dataset
    from theorycheck.compare.threshold_table import ThresholdTable

    resource = law.resource if law is not None else (args.resource or "N")
    increasing = getattr(law, "sense", ">=") == ">=" if law is not None else not args.decreasing
    chosen: list[str] = []
    ignore = names_option(args.ignore) or []

    def choose(header: list[str], kind: str, distinct: dict) -> list[str]:
        chosen[:] = _choose_params(header, kind, law, resource, names_option(args.params), ignore, distinct)
        return chosen

    csvd = read_data(args.data, resource=resource, params=choose, where=getattr(args, "where", None) or [])
    varying, constant = unused_columns(csvd, resource, chosen)
    notes = [*csvd.notes, *_ignored_notes(csvd, [c for c in varying if c in ignore], chosen)]
    varying = [c for c in varying if c not in ignore]
    if varying:
        raise ValueError(f"column(s) {varying} take several values but are not parameters "
                         f"({', '.join(chosen) or 'none'}): rows of different cells would be merged; "
                         "add them to the law or --params, name them in --ignore if each takes one value "
                         "per cell (e.g. a setting that moves with L), or drop them")
    notes += [f"column(s) {constant} (one value each) ignored"] if constant else []
    settings = {c: str(csvd.raw[0].get(c) or "").strip() for c in constant}
    fixed = {c: _number(text) for c, text in settings.items()}
    if csvd.kind == "binomial":
        data = Dataset.from_rows(csvd.rows, resource=resource, variables=chosen, increasing=increasing)
    else:
        data = ThresholdTable.from_rows(csvd.rows, resource=resource, variables=chosen, increasing=increasing,
                                        ci_level=args.ci_level, column=csvd.column)
    return data, notes, fixed, settings


def _ignored_notes(csvd: Any, columns: list[str], params: list[str]) -> list[str]:
    """The note for ``--ignore`` columns that vary, after checking that each takes one value
    per cell of ``params`` (else rows of different runs would be merged: ValueError)."""
    for col in columns:
        seen: dict[tuple, str] = {}
        for row, record in zip(csvd.rows, csvd.raw, strict=True):
            cell, value = tuple(row[p] for p in params), str(record.get(col) or "").strip()
            if seen.setdefault(cell, value) != value:
                where = ", ".join(f"{p}={v:g}" for p, v in zip(params, cell)) or "the one cell"
                raise ValueError(f"--ignore {col}: it takes several values within a cell ({where}: "
                                 f"{seen[cell]} and {value}), so rows of different runs would be "
                                 f"merged; add {col} to --params instead")
    if not columns:
        return []
    return [f"column(s) {columns} move with the cells but are not variables of the fit (--ignore): "
            f"any effect they have is read as an effect of {', '.join(params)}"]


def _number(text: Any) -> float | None:
    """A one-valued column's entry as a positive number, or None (then it judges nothing)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) and value > 0 else None
