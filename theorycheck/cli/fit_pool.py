"""Several DATA for one ``theorycheck fit``: the binomial rows of stores and CSVs, pooled.

One experiment is often measured in pieces: a check stopped and run again with other seeds,
probes added with ``simulate``, a line extended by a second check. ``theorycheck fit OUT1 OUT2
probes.csv --law ID`` fits their binomial rows together, as one file holding them all would
be fitted: rows at the same parameters add up. Pooled trials must be independent, i.e. come
from different seeds (``--seed`` of each run), as within one CSV; that is the user's to keep,
except that rows which record their seeds (``simulate --rows``) are checked for a seed used
twice at one point (:func:`theorycheck.cli.rows_file.check_distinct_seeds`).

* Only binomial rows pool (a CSV with ``successes``, or a check's output); a thresholds table
  is fitted on its own, since two tables may hold the same cell with no way to merge their CIs.
* The header is the union of the sources' columns. A column that a source lacks is a setting
  it did not record (a probe CSV written by hand may hold only ``V, d, L, N``). When every
  source that has the column gives it one and the same value, the other sources' rows are read
  with that value and a note says so: the fit assumes those runs used it. Otherwise their
  entries stay empty and the usual rules apply (a parameter must be filled in; a column that
  takes several values must be a parameter). Columns named in ``own`` (a row's ``seeds``)
  belong to their rows and are never carried to another source's.
* Errors name the source and the line (:func:`line_labels`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["pool", "line_labels", "canonical"]

Source = tuple[str, list[str], list[dict]]  # (path, header, records as text)


def canonical(text: object) -> str:
    """An entry as compared across rows and sources: a number by its value (``1``, ``1.0``
    and ``1e0`` are one value), ``true``/``false`` in any case as one, else the stripped text."""
    entry = str(text if text is not None else "").strip()
    try:
        return repr(float(entry))
    except ValueError:
        return entry.lower() if entry.lower() in ("true", "false") else entry


def line_labels(path: str, count: int, pooled: bool) -> list[str]:
    """How errors name the records of one source: ``line 2``.. (the header is line 1), with
    the source's path first when several are pooled."""
    return [f"{path}, line {i}" if pooled else f"line {i}" for i in range(2, count + 2)]


def pool(sources: Sequence[Source], kind_of: Callable[[str, list[str]], str], own: Sequence[str] = ()
         ) -> tuple[list[str], list[dict], list[str], list[str]]:
    """``(header, records, labels, notes)`` of several sources' binomial rows (module docstring);
    ``kind_of(path, header)`` tells a source's kind (``"binomial"`` or ``"thresholds"``); the
    columns in ``own`` are never filled in from other sources."""
    for path, header, _ in sources:
        if kind_of(path, header) != "binomial":
            raise ValueError(f"{path!r} is a thresholds table: several DATA pool binomial rows (CSVs with "
                             "successes,trials, or checks' output directories); fit a table on its own")
    header: list[str] = []
    for _, cols, _ in sources:
        header += [c for c in cols if c not in header]
    records: list[dict] = []
    labels: list[str] = []
    notes: list[str] = []
    filled: dict[str, str] = {}
    for col in header:
        values = {canonical(r.get(col)): str(r.get(col) or "").strip()
                  for _, cols, raw in sources if col in cols for r in raw}
        if len(values) == 1 and "" not in values and col not in own:
            filled[col] = next(iter(values.values()))
    for path, cols, raw in sources:
        missing = {c: filled.get(c, "") for c in header if c not in cols}
        records += [{**missing, **r} for r in raw]
        labels += line_labels(path, len(raw), pooled=True)
        read = [f"{c} = {v}" for c, v in missing.items() if v]
        if read:
            notes.append(f"{path} has no column(s) {', '.join(c for c in missing if missing[c])}; read with the "
                         f"value every other source gives ({', '.join(read)}): the pooled fit assumes that run "
                         "used them")
    return header, records, labels, notes
