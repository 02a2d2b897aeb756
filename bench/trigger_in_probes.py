"""The trigger-in probes of the finite-step three-step against its limit, one table (prints figures).

docs/theory.md §7.12 measures, run by run, the finite-step algorithm (``--algorithm three-step``,
``β = 10``, ``ζ = 1/2``, the trigger in the value path, ``γ' = 10⁴``) at first value steps
``η/γ'`` from 10 to 160, where its threshold falls below the early-phase limit's (the mean-bias
threshold) or rises above it, depending on the first step's lean ``λ_U`` (§7.12: how far step 1
moves the model's mean output towards the training labels' marginal). Each probe is a file of
single-seed runs (``bench/three_step_eta_line.py``), each run's lean a row of
``bench/mean_bias_first_step.py --lean --probe``, and the limit's threshold at the same
``(V, d, L)`` a ``theorycheck check`` store's rows. This script reads them all and prints one
row a probe:

* ``N*`` and its 95% CI: the cell's binomial GLM (the links averaged, Fieller's interval), what
  ``theorycheck fit <rows> --law vural2026.headline`` prints for the one cell;
* the limit's ``N*`` at that ``(V, d, L)``, the same way, and the ratio of the probe's to it
  (the CI: the probe's CI over the limit's estimate, as docs/theory.md quotes it);
* the leans of the runs (mean, range); ``N*/(L·V)`` (the law's regime asks ``N ≪ L·V``; the
  toolkit reads it as ``≤ 1/4``, theorycheck/check/regime.py; "outside" beyond).

    python bench/trigger_in_probes.py              # the table, ~10 s
    python bench/trigger_in_probes.py --markdown   # as docs/theory.md §7.12 prints it

No asserts here: tests/test_trigger_in_probes.py checks the table in docs/theory.md against this
script's numbers.
"""

from __future__ import annotations

import argparse
import csv
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import numpy as np

from theorycheck.check.regime import MUCH
from theorycheck.compare import Dataset, reported_thresholds

DATA = Path(__file__).parent / "data"


class Probe(NamedTuple):
    V: int
    d: int
    L: int
    eta: float  # the first value step; gamma' = 1e4
    rows: str  # the runs (simulate --rows), in bench/data
    leans: str | None  # each run's lean (--lean --probe), in bench/data


#: The limit's rows at each (V, d): its thresholds at every L there (theorycheck check ... --cells).
LIMITS = {(4096, 1024): ("limit_beta10_zeta05_trigger_in_4096.csv", "limit_beta10_zeta05_trigger_in_4096_L128.csv"),
          (4096, 860): ("limit_beta10_zeta05_trigger_in_4096_860_L128.csv",),
          (4096, 724): ("limit_beta10_zeta05_trigger_in_4096_724_L128.csv",),
          (4096, 640): ("limit_beta10_zeta05_trigger_in_4096_640_L128.csv",)}

_P = "three_step_eta{}_beta10_zeta05_trigger_in_L{}_probe_4096.csv"
_LEAN = "mean_bias_first_step_lean_probe{}_4096.csv"

#: Every probe, in the order of docs/theory.md's table (by (V, d), then L, then eta).
PROBES = (
    Probe(4096, 1024, 64, 1e5, _P.format("1e5", 64), _LEAN.format("_eta1e5_L64")),
    Probe(4096, 1024, 64, 3e5, _P.format("3e5", 64), _LEAN.format("")),
    Probe(4096, 1024, 64, 5.5e5, _P.format("55e4", 64), _LEAN.format("_eta55e4_L64")),
    Probe(4096, 1024, 128, 1e5, _P.format("1e5", 128), _LEAN.format("_eta1e5_L128")),
    Probe(4096, 1024, 128, 3e5, _P.format("3e5", 128), _LEAN.format("_L128")),
    Probe(4096, 1024, 128, 5e5, _P.format("5e5", 128), _LEAN.format("_eta5e5_L128")),
    Probe(4096, 1024, 128, 1e6, _P.format("1e6", 128), _LEAN.format("_eta1e6_L128")),
    Probe(4096, 1024, 256, 1e5, _P.format("1e5", 256), _LEAN.format("_eta1e5_L256")),
    Probe(4096, 1024, 256, 3e5, _P.format("3e5", 256), _LEAN.format("_L256")),
    Probe(4096, 1024, 256, 5e5, _P.format("5e5", 256), _LEAN.format("_eta5e5_L256")),
    Probe(4096, 1024, 256, 1.6e6, _P.format("16e5", 256), _LEAN.format("_eta16e5_L256")),
    Probe(4096, 860, 128, 4.55e5, "three_step_eta455e3_beta10_zeta05_trigger_in_L128_probe_4096_860.csv",
          "mean_bias_first_step_lean_probe_eta455e3_L128_4096_860.csv"),
    Probe(4096, 724, 128, 2e5, "three_step_eta2e5_beta10_zeta05_trigger_in_L128_probe_4096_724.csv",
          "mean_bias_first_step_lean_probe_eta2e5_L128_4096_724.csv"),
    Probe(4096, 724, 128, 3.73e5, "three_step_eta373e3_beta10_zeta05_trigger_in_L128_probe_4096_724.csv",
          "mean_bias_first_step_lean_probe_eta373e3_L128_4096_724.csv"),
    Probe(4096, 724, 128, 4e5, "three_step_eta4e5_beta10_zeta05_trigger_in_L128_probe_4096_724.csv",
          "mean_bias_first_step_lean_probe_eta4e5_L128_4096_724.csv"),
    Probe(4096, 724, 128, 7.5e5, "three_step_eta75e4_beta10_zeta05_trigger_in_L128_probe_4096_724.csv",
          "mean_bias_first_step_lean_probe_eta75e4_L128_4096_724.csv"),
    Probe(4096, 640, 128, 3.46e5, "three_step_eta346e3_beta10_zeta05_trigger_in_L128_probe_4096_640.csv",
          "mean_bias_first_step_lean_probe_eta346e3_L128_4096_640.csv"),
)

GAMMA_PRIME = 1e4


def _read(name: str) -> list[dict[str, str]]:
    with open(DATA / name, newline="") as handle:
        return list(csv.DictReader(handle))


def _thresholds(rows: list[dict[str, str]]) -> dict[tuple[int, int, int], tuple[float, tuple[float, float]]]:
    """``(V, d, L) -> (N*, CI)`` of each cell of binomial rows as ``theorycheck fit`` reports them
    first (:func:`theorycheck.compare.reported_thresholds`): the cell's own GLM, or its threshold
    in the probit model with one width shared by the cells where the exponents are read from that
    (``fit``'s "shared width" line; here where a cell's crossing is a bare bracket)."""
    data = Dataset.from_rows(
        [{"V": int(r["V"]), "d": int(r["d"]), "L": int(r["L"]), "N": float(r["N"]),
          "successes": int(r["successes"]), "trials": int(r["trials"])} for r in rows],
        resource="N", variables=["V", "d", "L"])
    return {tuple(int(c.values[k]) for k in ("V", "d", "L")): t for c, t in zip(data.cells, reported_thresholds(data))}


def limits() -> dict[tuple[int, int, int], tuple[float, tuple[float, float]]]:
    """The limit's threshold and CI at every ``(V, d, L)`` it was measured (:func:`_thresholds`)."""
    out = {}
    for names in LIMITS.values():
        for name in names:
            out.update(_thresholds(_read(name)))
    return out


class Row(NamedTuple):
    probe: Probe
    runs: int
    estimate: float
    ci: tuple[float, float]
    limit: float
    leans: tuple[float, float, float] | None  # mean, min, max

    @property
    def ratio(self) -> tuple[float, float, float]:
        return self.estimate / self.limit, self.ci[0] / self.limit, self.ci[1] / self.limit

    @property
    def regime(self) -> float:
        """``N*/(L·V)``."""
        return self.estimate / (self.probe.L * self.probe.V)


def _runs(rows: list[dict[str, str]], seed: str) -> Counter:
    """How often each ``(N, seed)`` occurs in ``rows`` (single-seed runs, or their leans)."""
    return Counter((float(r["N"]), r[seed]) for r in rows)


def table() -> list[Row]:
    """One :class:`Row` a probe."""
    lim = limits()
    out = []
    for p in PROBES:
        rows = _read(p.rows)
        (cell, (estimate, ci)), = _thresholds(rows).items()
        if cell != (p.V, p.d, p.L):
            raise ValueError(f"{p.rows}: its runs are at (V, d, L) = {cell}, the table says {(p.V, p.d, p.L)}")
        leans = None
        if p.leans:
            lean_rows = _read(p.leans)
            if _runs(lean_rows, "seed") != _runs(rows, "seeds"):
                raise ValueError(f"{p.leans}: its (N, seed) rows are not {p.rows}'s runs one for one (a run "
                                 "missing, or --lean --probe appended twice): recompute it with --csv to a new file")
            lam = np.array([float(r["lean_embedded"]) for r in lean_rows])
            leans = (float(lam.mean()), float(lam.min()), float(lam.max()))
        out.append(Row(p, sum(int(r["trials"]) for r in rows), estimate, ci, lim[cell][0], leans))
    return out


def _lean_text(leans) -> str:
    return "-" if leans is None else f"{leans[0]:.2f} ({leans[1]:.2f}-{leans[2]:.2f})"


def _sci(x: float) -> str:
    """``x`` to 3 significant figures as docs/theory.md writes them: ``1.50e5``."""
    mantissa, exponent = f"{x:.2e}".split("e")
    return f"{mantissa}e{int(exponent)}"


#: the largest N*/(L*V) the toolkit reads as N << L*V (``MUCH * A <= B``, theorycheck/check/regime.py)
IN_REGIME = 1 / MUCH


def markdown(rows: list[Row]) -> list[str]:
    """The table as docs/theory.md §7.12 prints it."""
    out = ["| `(V, d)` | `L` | `η/γ'` | runs | `λ_U`, mean (range) | `N*` [95% CI] | limit's `N*` "
           "| ratio [CI] | `N*/(L·V)` |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        p = r.probe
        ratio = r.ratio
        out.append(f"| ({p.V}, {p.d}) | {p.L} | {p.eta / GAMMA_PRIME:g} | {r.runs} | {_lean_text(r.leans)} "
                   f"| {_sci(r.estimate)} [{_sci(r.ci[0])}, {_sci(r.ci[1])}] | {_sci(r.limit)} "
                   f"| {ratio[0]:.2f}x [{ratio[1]:.2f}, {ratio[2]:.2f}] "
                   f"| {r.regime:.2f}{' (outside)' if r.regime > IN_REGIME else ''} |")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", action="store_true", help="print the table as docs/theory.md does")
    args = parser.parse_args(argv)
    rows = table()
    if args.markdown:
        print("\n".join(markdown(rows)))
        return 0
    print(f"{'V':>5} {'d':>5} {'L':>4} {'eta/g':>6} {'runs':>4} {'lean mean (range)':>20} "
          f"{'N*':>9} {'CI':>21} {'limit':>9} {'ratio [CI]':>20} {'N*/(LV)':>7}")
    for r in rows:
        p, ratio = r.probe, r.ratio
        print(f"{p.V:>5} {p.d:>5} {p.L:>4} {p.eta / GAMMA_PRIME:>6g} {r.runs:>4} {_lean_text(r.leans):>20} "
              f"{r.estimate:>9.4g} [{r.ci[0]:>9.4g}, {r.ci[1]:>9.4g}] {r.limit:>9.4g} "
              f"{ratio[0]:>6.3f} [{ratio[1]:.3f}, {ratio[2]:.3f}] {r.regime:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
