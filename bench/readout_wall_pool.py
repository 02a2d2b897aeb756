"""Every published ``vural2026.readout_wall`` check in one thresholds table, one row per cell (writes a CSV, prints it).

Each check of the read-out's wall law wrote a ``thresholds.csv`` (columns ``V, s, threshold, ci_low, ci_high,
predicted, trials``), published as ``bench/data/readout_wall_check_*.csv``. ``theorycheck fit`` takes one thresholds
table with one row per cell, so pooling them needs a rule for a cell measured twice. The rule here: the row of the
table published first (:data:`TABLES` lists them in the order they were committed). Two kinds of repeat occur: the
same cell on the same seeds (a check's seeds come from its cell key, so ``(512, 2)`` and ``(1024, 2)`` in the paper
check and the trigger-in line are equal to the last digit), and replicates on fresh seeds (``(4096, 1)`` and
``(4096, 2)`` in ``_s_4096``; ``(512, 1)`` and ``(1024, 1)`` in the paper check and the trigger-out line). The rows
left out are printed, so a reader can refit with the other choice.

The pooled table spans every ``V`` and ``s`` the checks reached: the one fit of the law
``d² ≥ C·log V·(s·V + (s + 1)·d)`` (docs/theory.md §7.12) over all of them. Example::

    python bench/readout_wall_pool.py --out walls.csv && theorycheck fit walls.csv --law vural2026.readout_wall
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

from out_file import out_file

DATA = Path(__file__).resolve().parent / "data"
#: The published check tables, in the order they were committed (``git log --diff-filter=A``): a cell measured in
#: more than one keeps the first table's row.
TABLES = ("readout_wall_check_paper.csv", "readout_wall_check_trigger_out.csv", "readout_wall_check_trigger_in.csv",
          "readout_wall_check_s_4096.csv", "readout_wall_check_trigger_out_16384.csv",
          "readout_wall_check_trigger_in_16384.csv", "readout_wall_check_s_8192.csv",
          "readout_wall_check_s_2048_to64.csv", "readout_wall_check_s_4096_to32.csv",
          "readout_wall_check_s_1024_to128.csv", "readout_wall_check_s_1024_64.csv",
          "readout_wall_check_s_4096_64.csv", "readout_wall_check_s_512.csv")
COLUMNS = ("V", "s", "threshold", "ci_low", "ci_high", "predicted", "trials")


def pooled(tables=TABLES, data: Path = DATA) -> tuple[list[dict], list[tuple[str, dict]]]:
    """``(rows, left_out)``: one row per ``(V, s)`` cell, the first table's, sorted by ``V`` then ``s``; and each
    row a later table repeated, with its table's name."""
    kept: dict[tuple[float, float], dict] = {}
    left_out = []
    for name in tables:
        with open(data / name, newline="") as f:
            for row in csv.DictReader(f):
                cell = (float(row["V"]), float(row["s"]))
                if cell in kept:
                    left_out.append((name, row))
                else:
                    kept[cell] = {c: row[c] for c in COLUMNS}
    return [kept[cell] for cell in sorted(kept)], left_out


def write_table(path, rows: list[dict]) -> None:
    """Write ``rows`` (mappings with the :data:`COLUMNS`) as a thresholds table for ``theorycheck fit``."""
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, type=out_file, metavar="CSV",
                   help="where to write the pooled thresholds table")
    args = p.parse_args(argv)
    rows, left_out = pooled()
    write_table(args.out, rows)
    for row in rows:
        print(",".join(row[c] for c in COLUMNS))
    for name, row in left_out:
        print(f"left out (measured earlier): V={row['V']}, s={row['s']}: {row['threshold']} from {name}")
    print(f"{len(rows)} cells from {len(TABLES)} tables written to {args.out}; {len(left_out)} repeated rows left out")


if __name__ == "__main__":
    main()
