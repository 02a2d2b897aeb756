"""The read-out's walls at infinite ``N`` as a thresholds table for ``theorycheck fit`` (writes a CSV, prints it).

Every published hard-attention line of ``population_wall.py`` (``beta`` inf, ``ablate`` none; rows in the
``bench/data`` files named below) gives each seed's wall: the first ``d`` of the grid at which that seed's accuracy
reaches the target, linear between the grid's neighbours (``population_wall.median_wall`` on one seed; a seed that
never crosses, or is already above the target at the grid's first ``d``, is left out and counted). One row per seed
with columns ``V``, ``s = 1 + ζ²`` (1 with the trigger out of the value path, where ``ζ`` does not enter), ``d``
(the wall) and ``seed``: a table of per-seed critical values (docs/fit.md); the wall is the ``d`` from which recall
succeeds. Hard attention's read-out is blind to ``L`` (docs/theory.md §7.12), so lines of one ``(V, s)`` and the
same seeds measure one wall: the table keeps the first line's (the smallest ``L``, then the first published). The law the cross-talk's variances predict (docs/theory.md §7.12,
"Why ζ = 2 missed") is ``d² = K²(sV + (s + 1)d)``. Docs: docs/theory.md §7.12, "The walls as a law".

Example: ``python bench/readout_wall_table.py --out bench/data/readout_walls.csv``, then ``theorycheck fit
bench/data/readout_walls.csv --law "d**2 >= C*log(V)*(s*V + (s + 1)*d)" --resource d``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
from pathlib import Path

from out_file import out_file
from population_wall import median_wall

DATA = Path(__file__).resolve().parent / "data"
SOURCES = ("limit_population_wall.jsonl", "limit_population_wall_ablation.jsonl",
           "limit_population_wall_crosstalk.jsonl")
COLUMNS = ("V", "s", "d", "seed")


def hard_lines(rows: list[dict]) -> dict[tuple, list[dict]]:
    """The hard-attention lines with nothing ablated, keyed ``(V, ζ, marker_in_value, L, N, seeds)``, each
    line's rows in increasing ``d`` (the first file's rows predate ``marker_in_value`` and ``ablate``: the trigger
    in the value, nothing ablated)."""
    lines: dict[tuple, list[dict]] = {}
    for r in rows:
        if math.isinf(r["beta"]) and r.get("ablate", "none") == "none":
            key = (r["V"], r["zeta"], r.get("marker_in_value", True), r["L"], r["N"], tuple(r["seeds"]))
            lines.setdefault(key, []).append(r)
    return {k: sorted(v, key=lambda r: r["d"]) for k, v in lines.items()}


def seed_walls(line: list[dict], target: float) -> list[tuple[int, float]]:
    """``(seed, wall)`` of each seed of one line that crosses ``target`` inside its grid."""
    ds, out = [r["d"] for r in line], []
    for i, seed in enumerate(line[0]["seeds"]):
        accs = [r["accuracy"][i] for r in line]
        wall = median_wall(ds, accs, target)
        if not math.isnan(wall):
            out.append((seed, wall))
    return out


def wall_table(sources=SOURCES, target: float = 0.99) -> tuple[list[dict], int]:
    """The table's rows (:data:`COLUMNS`) and how many seeds were left out."""
    rows = [json.loads(line) for name in sources for line in (DATA / name).read_text().splitlines()]
    table, left_out, seen = [], 0, set()
    for (V, zeta, miv, L, _, seeds), line in sorted(hard_lines(rows).items(), key=lambda kv: kv[0][3]):
        s = 1.0 + zeta**2 if miv else 1.0
        if (V, s, seeds) in seen:
            continue
        seen.add((V, s, seeds))
        walls = seed_walls(line, target)
        left_out += len(seeds) - len(walls)
        table += [{"V": V, "s": s, "d": round(w, 2), "seed": seed} for seed, w in walls]
    return sorted(table, key=lambda r: (r["V"], r["s"], r["seed"])), left_out


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, type=out_file, metavar="CSV")
    p.add_argument("--target", type=float, default=0.99)
    args = p.parse_args(argv)
    if not 0 < args.target < 1:
        p.error(f"--target: expected an accuracy in (0, 1); got {args.target}")
    table, left_out = wall_table(target=args.target)
    with open(args.out, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(table)
    for row in table:
        print(",".join(str(row[c]) for c in COLUMNS))
    print(f"{len(table)} seeds' walls written to {args.out}; {left_out} seeds left out (no crossing inside the grid)")


if __name__ == "__main__":
    main()
