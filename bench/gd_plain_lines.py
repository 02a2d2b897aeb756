"""Plain GD lines in ``L`` (trigger out of the value path, (V, d) = (1024, 256) unless said): the simulate
runs behind ``bench/data/gd_plain480_L_line.csv``, ``gd_plain_lr200_L_line.csv`` and
``gd_plain_lr400_L_line.csv``, ``gd_plain_lr200_trigger_in_L_line.csv``,
``gd_plain_lr400_zeta05_L_line.csv`` and ``gd_plain_lr400_240_zeta05_L256_probe.csv``
(docs/theory.md §7.8).

``--line 480``: 480 steps at lr = 100. 51 single-seed runs at L = 64, 128, 256 and N = 4601,
5017, 5471 (a 2^(1/8) grid), each with a seed of its own, appended to one rows file with
``simulate --rows``. The published file pools them with the 12 probe trials of
``bench/data/gd_plain480_probe.csv`` and 4 trials of a stopped check (``theorycheck check
vural2026.headline --budget quick --max-cost inf --cells "V=1024,d=256,L=64; V=1024,d=256,L=256"
--set algorithm=gd --set optimizer=gd --set steps=480 --set lr=100 --set marker_in_value=false
--seed 41``: 4 of 4 at L = 64, N = 7098):

    theorycheck fit bench/data/gd_plain480_probe.csv OUT41 probes.csv --law vural2026.headline \\
        --save-rows bench/data/gd_plain480_L_line.csv

``--line lr200`` and ``--line lr400``: 240 steps at lr = 200 and 120 steps at lr = 400, the
same gradient-flow time (lr x steps) for a half and a quarter of the steps, on the same grid:
33 single-seed runs each (2026-11-27), the files as written by ``--rows`` (``theorycheck fit
bench/data/gd_plain_lr200_L_line.csv --law vural2026.headline``, the same for lr400).

``--line trigger_in_lr200``: 240 steps at lr = 200 with the trigger in the value path, L = 64
and 256: 34 single-seed runs (2026-11-27) on a grid that moved down as they came in (N 10039
to 4219), the file as written by ``--rows``. (At lr = 400 the trigger in the value path made
plain GD diverge: 4 of 4 runs, ``bench/data/gd_plain_lr400_trigger_in_probe.csv``.)

``--line v2048_lr400``: 120 steps at lr = 400 at ``(V, d) = (2048, 512)``, L = 64 and 256
(2026-11-28): 36 single-seed runs of 2-8 min each on one core, the file as written by
``--rows`` (``bench/data/gd_plain_lr400_L_line_2048.csv``).

``--line zeta05_lr400``: 120 steps at lr = 400 with ``ζ = 1/2``, L = 64 and 256: 45 single-seed
runs (2026-11-27) on a grid moved to the two transitions as they showed, the file as written
by ``--rows``; ``--line zeta05_lr400_240``: 240 steps at lr = 400, L = 256, 9 runs.

    python bench/gd_plain_lines.py [--line lr200]               # print the commands
    python bench/gd_plain_lines.py --run --workers 2 --rows probes.csv   # run them

A 480-step trial takes 2-7 min on one core (longer at L = 256), a 240-step one 0.8-2 min, a
120-step one 23-47 s.
Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NamedTuple

from command_list import add_arguments, print_or_run

GRID_N = (5017, 4601, 5471)


def runs_480() -> list[tuple[int, int, int]]:
    """``(L, N, seed)`` of every 480-step run, in the order they were run (2026-11-27)."""
    out = [(256 if s % 2 == 0 else 64, GRID_N[((s - 9100) // 2) % 3], s) for s in range(9100, 9124)]
    out += [(128, GRID_N[(s - 9200) % 3], s) for s in range(9200, 9209)]
    out += [((256, 64, 128)[(s - 9300) % 3], GRID_N[((s - 9300) // 3) % 3], s) for s in range(9300, 9318)]
    return out


def runs_same_time(first_seed: int) -> list[tuple[int, int, int]]:
    """``(L, N, seed)`` of every run of a line at lr x steps = 48000, in the order they were run
    (2026-11-27): two probes at N = 5017, then rounds over N and L (L = 128 in three of the
    four); seeds from ``first_seed`` (9400 at lr = 200, 9500 at lr = 400)."""
    out = [(64, 5017, first_seed), (256, 5017, first_seed + 1)]
    for rep in range(4):
        for N in (4601, 5017, 5471):
            for L in (64, 256, 128):
                if (L == 128 and rep == 3) or (rep == 0 and N == 5017 and L != 128):
                    continue
                out.append((L, N, first_seed + len(out)))
    return out


def runs_trigger_in() -> list[tuple[int, int, int]]:
    """``(L, N, seed)`` of the trigger-in runs that finished, in order (2026-11-27): probes at
    N = 10039, then rounds on 8441..7098, 7098..5017 and 5017..4219 as the successes
    reached down (the runs in flight when each round was stopped are not listed)."""
    out = [(64, 10039, 9620), (256, 10039, 9621), (64, 8441, 9622), (256, 8441, 9623), (64, 7098, 9624),
           (256, 7098, 9625), (256, 7098, 9650), (64, 5970, 9651), (256, 5970, 9652), (64, 5017, 9653),
           (256, 5017, 9654), (64, 5970, 9655), (256, 5970, 9656), (64, 5017, 9657), (256, 5017, 9658),
           (64, 7098, 9659)]
    seed = 9680
    for _ in range(3):
        for N in (4601, 4219, 5017):
            for L in (64, 256):
                out.append((L, N, seed))
                seed += 1
    return out


def runs_zeta05() -> list[tuple[int, int, int]]:
    """``(L, N, seed)`` of the ``ζ = 1/2`` runs at lr = 400, in order (2026-11-27): two probes
    at N = 5970, a round over N = 5017, 5970, 7098 and L = 64, 256 and three runs of the next
    (stopped: L = 64 succeeded at every N, L = 256 only at 7098), then rounds on grids moved
    to L = 64 at N = 3548, 4219 and L = 256 at 7098, 8441, 10039, then three at each
    transition (N = 4601 and 6510, between the grid's points)."""
    out = [(64, 5970, 9700), (256, 5970, 9701)]
    for N in (5017, 5970, 7098):
        for L in (64, 256):
            out.append((L, N, 9700 + len(out)))
    out += [(64, 5017, 9708), (256, 5017, 9709), (64, 5970, 9710)]
    for _ in range(3):
        for L, N in ((64, 3548), (64, 4219), (256, 7098), (256, 8441), (256, 10039)):
            out.append((L, N, 9700 + len(out)))
    # inside the two transitions, which the grid above bracketed: L = 64 in (4219, 5017],
    # L = 256 about 7098 (seeds 9730-9738 are the 240-step line's)
    out += [(L, N, 9740 + i) for i, (L, N) in enumerate([(64, 4601), (256, 6510)] * 3)]
    # then the bracket ends up to 6 trials each, the fewest all-one-way trials that exclude the
    # crossing at 95% (threshold.isotonic.trials_to_certify): 4219 and 5017 at L = 64,
    # 6510 and 8441 at L = 256
    ends = [(64, 4219)] * 3 + [(64, 5017)] * 4 + [(256, 6510)] * 3 + [(256, 8441)] * 3
    return out + [(L, N, 9750 + i) for i, (L, N) in enumerate(ends)]


def runs_zeta05_longer() -> list[tuple[int, int, int]]:
    """``(L, N, seed)`` of the ``ζ = 1/2`` runs at L = 256 with twice the steps (240 at lr = 400,
    2026-11-27): three rounds over N = 4219, 5017, 5970."""
    return [(256, N, 9730 + 3 * r + i) for r in range(3) for i, N in enumerate((4219, 5017, 5970))]


def runs_v2048() -> list[tuple[int, int, int]]:
    """``(L, N, seed)`` of the runs at ``(V, d) = (2048, 512)``, 120 steps at lr = 400, in order
    (2026-11-28): pairs over N = 7098 and 10039 at L = 64 and 256 (every one short of 0.99,
    accuracy 0.958-0.988), then pairs moved up to the transitions (the four runs in flight at
    N = 5017 when the grid moved, seeds 12008-12015, were stopped and are not listed), then
    pairs inside them; then four rounds over the two brackets' ends, (10039, 16882] at
    L = 256 and (12619, 13389] at L = 64, so that each end has six trials (the fewest all one
    way that exclude the crossing at 95%, ``threshold.isotonic.trials_to_certify``)."""
    pairs = [(64, 7098), (256, 7098), (64, 10039), (256, 10039), (64, 12619), (256, 14196), (64, 14196),
             (256, 20075), (64, 13389), (256, 16882)]
    seeds = [s for s in range(12000, 12028) if not 12008 <= s < 12016]
    out = [(L, N, seeds[2 * i + k]) for i, (L, N) in enumerate(pairs) for k in (0, 1)]
    ends = [(256, 16882), (256, 10039), (64, 12619), (64, 13389)] * 4
    return out + [(L, N, 12028 + i) for i, (L, N) in enumerate(ends)]


class Line(NamedTuple):
    """A line's settings: steps, learning rate, its runs, trigger in the value path, ``ζ``, ``V``, ``d``."""

    steps: int
    lr: int
    runs: Callable[[], list[tuple[int, int, int]]]
    trigger_in: bool = False
    zeta: float = 1.0
    V: int = 1024
    d: int = 256


LINES = {
    "480": Line(480, 100, runs_480),
    "lr200": Line(240, 200, lambda: runs_same_time(9400)),
    "lr400": Line(120, 400, lambda: runs_same_time(9500)),
    "trigger_in_lr200": Line(240, 200, runs_trigger_in, trigger_in=True),
    "zeta05_lr400": Line(120, 400, runs_zeta05, zeta=0.5),
    "zeta05_lr400_240": Line(240, 400, runs_zeta05_longer, zeta=0.5),
    "v2048_lr400": Line(120, 400, runs_v2048, V=2048, d=512),
}


def command(line: str, L: int, N: int, seed: int, rows: str) -> list[str]:
    steps, lr, _, trigger_in, zeta, V, d = LINES[line]
    return ["theorycheck", "simulate", "--V", str(V), "--d", str(d), "--L", str(L), "--N", str(N),
            "--algorithm", "gd", "--optimizer", "gd", "--steps", str(steps), "--lr", str(lr),
            *([] if zeta == 1.0 else ["--zeta", str(zeta)]),
            *([] if trigger_in else ["--no-marker-in-value"]), "--seeds", "1", "--seed", str(seed), "--rows", rows]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--line", choices=sorted(LINES), default="480", help="which line's runs")
    add_arguments(parser, "probes.csv")
    args = parser.parse_args(argv)
    commands = [command(args.line, L, N, s, args.rows) for L, N, s in LINES[args.line].runs()]
    return print_or_run(commands, args)


if __name__ == "__main__":
    raise SystemExit(main())
