"""Plain GD at 480 steps (lr = 100, trigger out of the value path), (V, d) = (1024, 256):
the simulate runs behind ``bench/data/gd_plain480_L_line.csv`` (docs/theory.md §7.8).

51 single-seed runs at L = 64, 128, 256 and N = 4601, 5017, 5471 (a 2^(1/8) grid), each with
a seed of its own, appended to one rows file with ``simulate --rows``. The published file
pools them with the 12 probe trials of ``bench/data/gd_plain480_probe.csv`` and 4 trials of a
stopped check (``theorycheck check vural2026.headline --budget quick --max-cost inf --cells
"V=1024,d=256,L=64; V=1024,d=256,L=256" --set algorithm=gd --set optimizer=gd --set steps=480
--set lr=100 --set marker_in_value=false --seed 41``: 4 of 4 at L = 64, N = 7098):

    theorycheck fit bench/data/gd_plain480_probe.csv OUT41 probes.csv --law vural2026.headline \\
        --save-rows bench/data/gd_plain480_L_line.csv

    python bench/gd_plain480_line.py              # print the 51 commands
    python bench/gd_plain480_line.py --run --workers 2 --rows probes.csv   # run them (~70 min on 2 cores)

A trial takes 2-7 min on one core (longer at L = 256). Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor

GRID_N = (5017, 4601, 5471)


def runs() -> list[tuple[int, int, int]]:
    """``(L, N, seed)`` of every run, in the order they were run (2026-11-27)."""
    out = [(256 if s % 2 == 0 else 64, GRID_N[((s - 9100) // 2) % 3], s) for s in range(9100, 9124)]
    out += [(128, GRID_N[(s - 9200) % 3], s) for s in range(9200, 9209)]
    out += [((256, 64, 128)[(s - 9300) % 3], GRID_N[((s - 9300) // 3) % 3], s) for s in range(9300, 9318)]
    return out


def command(L: int, N: int, seed: int, rows: str) -> list[str]:
    return ["theorycheck", "simulate", "--V", "1024", "--d", "256", "--L", str(L), "--N", str(N),
            "--algorithm", "gd", "--optimizer", "gd", "--steps", "480", "--lr", "100", "--no-marker-in-value",
            "--seeds", "1", "--seed", str(seed), "--rows", rows]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", action="store_true", help="run the commands (else print them)")
    parser.add_argument("--workers", type=int, default=1, help="commands at once (each uses one core)")
    parser.add_argument("--rows", default="probes.csv", help="the rows file they append to")
    args = parser.parse_args(argv)
    commands = [command(L, N, s, args.rows) for L, N, s in runs()]
    if not args.run:
        print("\n".join(shlex.join(c) for c in commands))
        return 0
    with ThreadPoolExecutor(args.workers) as pool:
        for c, code in zip(commands, pool.map(lambda c: subprocess.run(c, capture_output=True).returncode, commands)):
            print(code, shlex.join(c), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
