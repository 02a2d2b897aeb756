"""``simulate --rows FILE``: append a run's trials as one binomial row that ``fit`` reads.

A probe run with ``simulate`` (K seeds at one cell) becomes the row ``params..., successes,
trials, seeds`` of a CSV, the format of ``theorycheck fit`` (docs/fit.md), so that probes can be
fitted on their own or pooled with checks' outputs (``theorycheck fit OUT probes.csv``). The
columns are the run's parameters and settings (every one that has a value; a check's store
records its trials the same way, :func:`theorycheck.cli.fit_input.cell_text`), then the counts,
then the run's seeds (:func:`seeds_text`: ``9100``, or ``9100-9103`` for ``--seeds 4 --seed
9100``), so that every row says how to make its trials again and ``fit`` can refuse the same
trial counted twice (:func:`check_distinct_seeds`). The file is created with its header; a
later run must write the same columns (else a ValueError before any trial: use another file,
``fit`` pools several; files written before 2026-11-28 have no ``seeds`` column).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping, Sequence
from typing import Any

from theorycheck.cli.fit_pool import canonical

__all__ = ["SEEDS", "row_columns", "check_rows_file", "append_row", "seeds_text", "parse_seeds",
           "check_distinct_seeds"]

#: the column of a row's seeds (never a parameter; not carried from one pooled source to another)
SEEDS = "seeds"


def row_columns(settings: Mapping[str, Any]) -> list[str]:
    """The header of a rows file for a run with ``settings``: those with a value, the counts, the seeds."""
    return [k for k, v in settings.items() if v is not None] + ["successes", "trials", SEEDS]


def seeds_text(seeds: Sequence[int]) -> str:
    """The ``seeds`` entry of consecutive ``seeds``: ``9100``, or ``9100-9103`` (both ends included)."""
    first, last = seeds[0], seeds[-1]
    if list(seeds) != list(range(first, last + 1)):
        raise ValueError(f"seeds {list(seeds)} are not consecutive")  # simulate runs seed..seed+K-1
    return str(first) if first == last else f"{first}-{last}"


def parse_seeds(text: str, where: str) -> range:
    """The seeds an entry of :func:`seeds_text` names (ValueError naming ``where`` otherwise)."""
    ends = text.strip().split("-")
    if len(ends) not in (1, 2) or not all(e.strip().isdigit() for e in ends) or int(ends[0]) > int(ends[-1]):
        raise ValueError(f"{where}, column {SEEDS!r}: {text!r} is not a seed or a range FIRST-LAST of seeds "
                         "(as simulate --rows writes it); correct it or leave it empty")
    return range(int(ends[0]), int(ends[-1]) + 1)


def check_distinct_seeds(records: Sequence[Mapping[str, str]], labels: Sequence[str], key: Sequence[str]) -> None:
    """ValueError when two rows with the same entries in the columns ``key`` (every column but
    the counts and the seeds, compared as :func:`theorycheck.cli.fit_pool.canonical` does) name
    a common seed: a trial is a function of its parameters and its seed, so the second row would
    count the same trials again (a file pooled twice under two names, a run appended twice)."""
    seen: dict[tuple, list[tuple[range, str]]] = {}
    for record, where in zip(records, labels, strict=True):
        text = str(record.get(SEEDS) or "").strip()
        if not text:
            continue
        seeds = parse_seeds(text, where)
        point = tuple(canonical(record.get(c)) for c in key)
        for other, other_where in seen.get(point, []):
            common = range(max(seeds.start, other.start), min(seeds.stop, other.stop))
            if len(common):
                raise ValueError(f"{where} and {other_where} are the same point with seed {common.start} in both "
                                 f"({seeds_text(seeds)} and {seeds_text(other)}): the same trials would count "
                                 "twice; drop one of the rows (or one source)")
        seen.setdefault(point, []).append((seeds, where))


def _header(path: str) -> list[str] | None:
    """The header of an existing, non-empty ``path``; None when it does not exist or is empty."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            return [h.strip() for h in next(csv.reader(handle), [])]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"--rows {path!r}: cannot read its header ({exc}); give a CSV written by --rows, "
                         "or a new file") from None


def check_rows_file(path: str, columns: list[str]) -> None:
    """ValueError unless ``path`` can take rows with ``columns``: a new file in a writable
    folder, or a file whose header is exactly ``columns``."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise ValueError(f"--rows {path!r}: its folder {folder!r} does not exist or is not writable")
    header = _header(path)
    if header is not None and header != columns:
        raise ValueError(f"--rows {path!r} has the columns {','.join(header)}, but this run writes "
                         f"{','.join(columns)}: give another file (theorycheck fit pools several)")


def append_row(path: str, settings: Mapping[str, Any], successes: int, seeds: Sequence[int]) -> None:
    """Append ``settings..., successes, trials, seeds`` to ``path`` (its header first if it is
    new); ``trials`` is the number of ``seeds``. Runs appending to one file side by side take
    turns (:func:`theorycheck.sweep.lock.appending`), so a new file gets one header."""
    from theorycheck.cli.fit_input import cell_text
    from theorycheck.sweep.lock import appending

    columns = row_columns(settings)
    check_rows_file(path, columns)
    with appending(path) as handle:  # runs appending to one file take turns: one header
        if handle.tell():
            check_rows_file(path, columns)  # another run may have made it since the check above
        w = csv.writer(handle)
        if not handle.tell():
            w.writerow(columns)
        w.writerow([cell_text(v) for v in settings.values() if v is not None]
                   + [successes, len(seeds), seeds_text(seeds)])
