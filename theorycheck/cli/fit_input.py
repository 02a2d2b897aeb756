"""Read ``theorycheck fit``'s CSV: binomial rows or a thresholds table (docs/fit.md).

DATA may also be a check's trial store (``OUT/trials.sqlite``, or the directory ``OUT``):
its finished trials become binomial rows, one per parameter point (every parameter a column,
``successes`` and ``trials`` counted). That is how a stopped run, or one whose store a newer
theorycheck no longer resumes, still gives a verdict: ``theorycheck fit OUT --law ID``. A
store of per-seed searches (``--thresholds per-seed``) is refused: its evaluations are
placed adaptively per seed, so fit that run's ``thresholds.csv`` instead.

The kind is told by the header:

* **binomial rows** -- a ``successes`` column: parameters, the resource, ``successes``,
  ``trials`` (every row at least one trial);
* **thresholds table** -- no ``successes``; a threshold column (``threshold``, or the
  resource's name) and its uncertainty: ``ci_low``/``ci_high``, or ``se``, or ``seed``
  (one row per seed with its critical value). ``check``'s ``thresholds.csv`` is one.

Reserved column names (:data:`RESERVED`) are never parameters. Binomial rows may say which
seeds made them (``seeds``, as ``simulate --rows`` writes it); two rows of one point that name
a common seed are refused (:func:`theorycheck.cli.rows_file.check_distinct_seeds`). Which columns are the
variables: with a law, exactly the law's variables; another column that takes several
values is refused (it would merge different cells), one with a single value is ignored
with a note. Without a law: ``--params``, or every non-reserved column other than the
resource. The file is read as UTF-8 with an optional byte-order mark.
"""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from theorycheck.cli.fit_pool import canonical, line_labels, pool
from theorycheck.cli.fit_where import Where, apply_where
from theorycheck.cli.rows_file import SEEDS, check_distinct_seeds

__all__ = ["RESERVED", "CsvData", "cell_text", "read_data", "store_path", "unused_columns"]

#: Columns with a fixed meaning.
RESERVED = ("successes", "trials", SEEDS, "threshold", "ci_low", "ci_high", "se", "seed", "predicted")
_TABLE_OPTIONAL = ("ci_low", "ci_high", "se")


@dataclass(frozen=True)
class CsvData:
    """Parsed rows (floats; ``None`` for an empty table entry), the header and the kind."""

    path: str
    header: tuple[str, ...]
    rows: tuple[dict, ...]
    kind: str  # "binomial" or "thresholds"
    column: str  # the resource / threshold column
    distinct: dict  # column -> set of its distinct entries (fit_pool.canonical: 1 and 1.0 are one)
    raw: tuple[dict, ...] = ()  # the records as read (text), aligned with rows
    notes: tuple[str, ...] = ()  # from pooling several sources (fit_pool)

    def candidates(self, resource: str) -> list[str]:
        """Non-reserved columns other than the resource: possible parameters."""
        return [h for h in self.header if h not in RESERVED and h != resource]


def _number(text: str, column: str, where: str) -> float:
    """A cell of the CSV as a float; finite, except ``inf`` in ``ci_high`` (an open upper end,
    as ``check`` writes it in ``thresholds.csv``)."""
    try:
        value = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"{where}, column {column!r}: {text!r} is not a number") from None
    if math.isnan(value) or (math.isinf(value) and not (column == "ci_high" and value > 0)):
        raise ValueError(f"{where}, column {column!r}: {text!r} is not a finite number")
    return value


def _kind(path: str, header: list[str], resource: str) -> tuple[str, str]:
    if len(header) == 1 and any(sep in header[0] for sep in ";\t|"):
        sep = next(sep for sep in ";\t|" if sep in header[0])
        raise ValueError(f"{path!r} has one column {header[0]!r}: it looks separated by {sep!r}; "
                         "save it with commas (CSV)")
    if "successes" in header:
        missing = [c for c in (resource, "successes", "trials") if c not in header]
        if missing:
            hint = f"; name the resource column with --resource (now {resource!r})" if resource in missing else ""
            raise ValueError(f"{path!r} lacks column(s) {missing}; its columns are {header}{hint}")
        return "binomial", resource
    column = "threshold" if "threshold" in header else resource
    has_error = "seed" in header or "se" in header or {"ci_low", "ci_high"} <= set(header)
    # with no uncertainty column, point thresholds take their errors from their scatter
    # (compare/threshold_table.py); a 'trials' column says binomial rows lacking 'successes'
    if column in header and (has_error or "trials" not in header):
        return "thresholds", column
    if has_error:
        raise ValueError(f"{path!r} has uncertainty columns but no threshold column: name it 'threshold' "
                         f"(or {resource!r}, or give --resource); its columns are {header}")
    raise ValueError(
        f"{path!r} lacks column(s) ['successes'] for binomial rows ({resource}, successes, trials) and is not a "
        f"thresholds table (threshold or {resource}, with ci_low,ci_high or se or seed); its columns are {header}")


def read_csv(path: str) -> tuple[list[str], list[dict]]:
    """The header and the rows (as dicts, keys stripped) of the CSV file ``path``; a
    ``ValueError`` with a one-line message if it cannot be read or repeats its header inside."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.DictReader(handle)
            header = [h.strip() for h in (reader.fieldnames or [])]
            raw = [{(k or "").strip(): v for k, v in rec.items()} for rec in reader]
    except OSError as exc:
        raise ValueError(f"cannot read {path!r}: {exc.strerror or exc}; give a CSV file, or a check's output "
                         "directory (or its trials.sqlite)") from None
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"{path!r} is not a readable CSV file: {exc}") from None
    for line, rec in enumerate(raw, start=2):
        if header and [(rec.get(h) or "").strip() for h in header] == header:
            raise ValueError(f"{path!r}, line {line} repeats the header (two runs that appended to a new rows "
                             "file at once could both write it before 2026-12-02); delete that line")
    return header, raw


def store_path(path: str) -> str | None:
    """The trial store ``path`` names (a ``.sqlite`` file, or a directory holding
    ``trials.sqlite``), else None (a CSV)."""
    from theorycheck.sweep.store import STORE_FILENAME

    if os.path.isdir(path):
        inside = os.path.join(path, STORE_FILENAME)
        if not os.path.isfile(inside):
            raise ValueError(f"{path!r} is a directory without a {STORE_FILENAME}; give a CSV, or the output "
                             "directory of a check (it holds trials.sqlite)")
        return inside
    if not path.endswith(".sqlite"):
        return None
    if os.path.basename(path) != STORE_FILENAME:
        raise ValueError(f"{path!r}: a check's trial store is named {STORE_FILENAME}; give that file or its directory")
    return path


def run_design(path: str) -> tuple[float | None, str | None]:
    """``(q, resource)`` of the check whose output ``path`` is (its directory, ``trials.sqlite``
    or ``thresholds.csv``), read from the ``verdict.json`` beside it; ``(None, None)`` if none."""
    folder = path if os.path.isdir(path) else os.path.dirname(path) or "."
    try:
        with open(os.path.join(folder, "verdict.json"), encoding="utf-8") as f:
            design = json.load(f)["design"]
        q, resource = design.get("q"), design.get("resource")
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None, None
    return (float(q) if isinstance(q, int | float) and 0 < q < 1 else None,
            resource if isinstance(resource, str) and resource.isidentifier() else None)


def _read_store(path: str) -> tuple[list[str], list[dict]]:
    """Binomial rows of a trial store: its records grouped by their parameters (module docstring)."""
    from theorycheck.sweep.store import SqliteStore
    from theorycheck.sweep.store_contract import CorruptStoreError

    if not os.path.isfile(path):
        raise ValueError(f"cannot read {path!r}: no such file; give a check's output directory or its trials.sqlite")
    try:
        with SqliteStore(os.path.dirname(path) or ".") as store:
            records = store.records()
    except CorruptStoreError as exc:  # its advice (--force-new: delete it) is a check's, not fit's
        reason = str(exc).split("; use a new output directory")[0]
        raise ValueError(f"{reason}: fit reads a store as it is; give the run's thresholds.csv, or another "
                         "store") from None
    if not records:
        raise ValueError(f"{path!r} holds no finished trials: nothing to fit")
    if any("critical" in r.result for r in records):
        raise ValueError(f"{path!r} holds per-seed searches (--thresholds per-seed), not Bernoulli trials; "
                         "fit that run's thresholds.csv instead")
    counts: dict[str, list] = {}
    header: list[str] = []
    for record in records:
        header += [k for k in record.params if k not in header]
        entry = counts.setdefault(json.dumps(record.params, sort_keys=True), [record.params, 0, 0])
        entry[1] += bool(record.result["success"])
        entry[2] += 1
    raw = [{**{k: cell_text(p.get(k)) for k in header}, "successes": str(k), "trials": str(n)}
           for p, k, n in counts.values()]
    return [*header, "successes", "trials"], raw


def cell_text(value: object) -> str:
    """A stored parameter as a CSV entry would read (JSON for anything but numbers and text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return json.dumps(value)
    return str(value)


def read_data(paths: str | Sequence[str], *, resource: str,
              params: Callable[[list[str], str, dict], list[str]], where: Sequence[Where] = ()) -> CsvData:
    """Read ``paths`` (a CSV or a trial store, :func:`store_path`; several pool their binomial
    rows, :mod:`theorycheck.cli.fit_pool`), keeping the rows that satisfy ``where``
    (:mod:`theorycheck.cli.fit_where`); ``params(header, kind, distinct)`` chooses the
    parameter columns (and may refuse the header with a ValueError); ``distinct`` maps each
    column to the set of its distinct entries (among the rows kept)."""
    paths = [paths] if isinstance(paths, str) else list(paths)
    sources, seen = [], {}
    for path in paths:
        store = store_path(path)
        real = os.path.realpath(store or path)
        if real in seen:  # the same trials twice would count twice
            raise ValueError(f"DATA names {real!r} twice ({seen[real]!r} and {path!r}); give each source once")
        seen[real] = path
        header, raw = _read_store(store) if store else read_csv(path)
        if not header:
            raise ValueError(f"{path!r} is empty: expected a header such as d,L,V,{resource},successes,trials")
        if not raw:
            raise ValueError(f"{path!r} has a header but no data rows")
        sources.append((path, header, raw))
    notes: list[str] = []
    if len(sources) == 1:
        path, header, raw = sources[0]
        labels = line_labels(path, len(raw), pooled=False)
    else:
        path = " + ".join(paths)
        header, raw, labels, notes = pool(sources, lambda p, h: _kind(p, h, resource)[0], own=(SEEDS,))
    raw, labels, kept = apply_where(where, path, header, raw, labels)
    notes = [*notes, *kept]
    kind, column = _kind(path, header, resource)
    distinct = {h: {canonical(rec.get(h)) for rec in raw} for h in header}
    params = params(header, kind, distinct)
    absent = [p for p in params if p not in header]
    if absent:
        raise ValueError(f"the CSV has no column {absent[0]!r} (columns: {', '.join(header)})")
    if kind == "binomial":
        columns = [*params, resource, "successes", "trials"]
        optional: list[str] = []
        check_distinct_seeds(raw, labels, [h for h in header if h not in ("successes", "trials", SEEDS)])
    else:
        columns = [*params] + (["seed"] if "seed" in header else [])
        optional = [column] + [c for c in _TABLE_OPTIONAL if c in header and "seed" not in header]
    rows = []
    for where, record in zip(labels, raw, strict=True):
        row: dict = {}
        for col in [*columns, *optional]:
            text = record.get(col)
            if text is None or str(text).strip() == "":
                if col in optional:
                    row[col] = None
                    continue
                raise ValueError(f"{where}: column {col!r} is empty; fill it in or drop that row")
            row[col] = _number(str(text).strip(), col, where)
            if row[col] < 0:
                raise ValueError(f"{where}, column {col!r}: negative value {text!r}; parameters, resources "
                                 "and counts are >= 0 (a law's variables are positive): correct that row")
        if kind == "binomial":
            _check_counts(row, where)
        rows.append(row)
    return CsvData(path, tuple(header), tuple(rows), kind, column, distinct, tuple(raw), tuple(notes))


def _check_counts(row: dict, where: str) -> None:
    for col in ("successes", "trials"):
        if row[col] != int(row[col]):
            raise ValueError(f"{where}, column {col!r}: {row[col]:g} is not a whole number")
    if row["trials"] == 0:
        raise ValueError(f"{where}: trials is 0; every row needs at least one trial (drop the row)")
    if row["successes"] > row["trials"]:
        raise ValueError(f"{where}: successes ({row['successes']:g}) exceed trials ({row['trials']:g})")


def unused_columns(data: CsvData, resource: str, params: list[str]) -> tuple[list[str], list[str]]:
    """``(varying, constant)``: non-reserved columns that are not parameters, split by
    whether they take several values (which would merge different cells)."""
    varying, constant = [], []
    for col in data.candidates(resource):
        if col not in params:
            (varying if len(data.distinct.get(col, ())) > 1 else constant).append(col)
    return varying, constant
