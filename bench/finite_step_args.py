"""The command line shared by the scripts that run the finite-step algorithm beside its limit
on the same seeds (``three_step_vs_limit.py``, ``mean_bias_first_step.py``): the step sizes
``--eta`` (a comma-separated list) and ``--gamma-prime``, ``--beta``, ``--zeta``, the seeds,
``--workers`` and ``--csv``, their parsing, and the rows appended to that file.
"""

from __future__ import annotations

import argparse
import csv
import os

from points import parse_points
from theorycheck.cli.fit_input import read_csv
from theorycheck.sweep.lock import appending

__all__ = ["add_step_arguments", "parse_etas", "points_and_etas", "append_rows", "stored_rows"]


def add_step_arguments(ap: argparse.ArgumentParser, *, beta: float, zeta: float, eta: str, eta_help: str,
                       seeds: int, seed: int, seeds_help: str = "seeds") -> None:
    """Add the shared options with these defaults."""
    ap.add_argument("--beta", type=float, default=beta, help="trigger logit advantage after step 2")
    ap.add_argument("--eta", default=eta, help=eta_help)
    ap.add_argument("--gamma-prime", type=float, default=1e4, help="second value step (default 1e4)")
    ap.add_argument("--zeta", type=float, default=zeta)
    ap.add_argument("--seeds", type=int, default=seeds, help=seeds_help)
    ap.add_argument("--seed", type=int, default=seed, help="first seed")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--csv", help="append the rows here")


def parse_etas(text: str) -> list[float]:
    """``"1,1e5"`` -> ``[1.0, 100000.0]``; a ValueError naming ``--eta`` otherwise."""
    try:
        return [float(e) for e in text.split(",")]
    except ValueError:
        raise ValueError(f"--eta: expected comma-separated numbers, got {text!r}") from None


def points_and_etas(ap: argparse.ArgumentParser, args: argparse.Namespace, option: str) -> tuple[list, list[float]]:
    """The points of ``option`` (``"V,d,L,N; ..."``, :func:`points.parse_points`) and the
    ``--eta`` list, or the parser's one-line usage error (exit 2) naming what was wrong."""
    try:
        return parse_points(getattr(args, option.lstrip("-")), option), parse_etas(args.eta)
    except ValueError as err:
        ap.error(str(err))


def append_rows(path: str | None, rows: list[dict]) -> None:
    """Append ``rows`` to the CSV file ``path`` (a header first if it is empty); nothing if
    ``path`` is None or there are no rows."""
    if path and rows:
        with appending(path) as fh:  # one header, if another run appends to it at the same time
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            if fh.tell() == 0:
                writer.writeheader()
            writer.writerows(rows)


def stored_rows(path: str | None, key: tuple[str, ...]) -> dict[tuple, dict]:
    """The rows earlier runs appended to the CSV file ``path`` by their values in the columns
    ``key`` (a number read back as an int where whole, else a float), so that a rerun computes
    and appends only what is not there; empty if ``path`` is None or not there yet. A
    ``ValueError`` with a one-line message if the file cannot be read (:func:`read_csv`) or lacks
    a ``key`` column."""
    def value(text: str):
        try:
            number = float(text)
        except ValueError:
            return text
        return int(number) if number.is_integer() else number
    if not path or not os.path.exists(path):
        return {}
    header, records = read_csv(path)  # refuses a header repeated inside, naming the line
    missing = [k for k in key if k not in header]
    if header and missing:
        raise ValueError(f"{path!r} has no column {', '.join(missing)} (its header: {', '.join(header)}); give "
                         "a file this script wrote, or a new one")
    rows = [{k: value(v) for k, v in row.items()} for row in records]
    return {tuple(row[k] for k in key): row for row in rows}
