"""``simulate --rows FILE``: append a run's trials as one binomial row that ``fit`` reads.

A probe run with ``simulate`` (K seeds at one cell) becomes the row ``params..., successes,
trials`` of a CSV, the format of ``theorycheck fit`` (docs/fit.md), so that probes can be fitted
on their own or pooled with checks' outputs (``theorycheck fit OUT probes.csv``). The columns
are the run's parameters and settings (every one that has a value; a check's store records
its trials the same way, :func:`theorycheck.cli.fit_input.cell_text`). The file is created with
its header; a later run must write the same columns (else a ValueError before any trial: use
another file, ``fit`` pools several).
"""

from __future__ import annotations

import csv
import os
from collections.abc import Mapping
from typing import Any

__all__ = ["row_columns", "check_rows_file", "append_row"]


def row_columns(settings: Mapping[str, Any]) -> list[str]:
    """The header of a rows file for a run with ``settings``: those with a value, then the counts."""
    return [k for k, v in settings.items() if v is not None] + ["successes", "trials"]


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


def append_row(path: str, settings: Mapping[str, Any], successes: int, trials: int) -> None:
    """Append ``settings..., successes, trials`` to ``path`` (its header first if it is new)."""
    from theorycheck.cli.fit_input import cell_text

    columns = row_columns(settings)
    check_rows_file(path, columns)
    new = _header(path) is None
    with open(path, "a", newline="", encoding="utf-8") as handle:
        w = csv.writer(handle)
        if new:
            w.writerow(columns)
        w.writerow([cell_text(v) for v in settings.values() if v is not None] + [successes, trials])
