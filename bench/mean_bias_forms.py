"""The mean-bias threshold in zeta, V and d: local slopes, and three forms fitted on the zeta
lines and tested on held-out cells. Prints figures (docs/theory.md §7.8).

Data (trials of ``theorycheck check vural2026.mean_bias --budget paper --cells ...``,
``marker_in_value=True``, hard attention, ``L = 16``; binomial rows):

* ``bench/data/mean_bias_zeta_2048.csv`` and ``mean_bias_zeta_4096.csv``: the zeta lines,
  fitted here -- ``(V, d) = (2048, 512)`` at zeta 0.5, 0.625, 0.75, 0.875, 1, 1.125, 1.25 and
  ``(4096, 1024)`` at zeta 0.5 and 1 (three runs, 2026-11-23: ``--cells "V=2048,d=512,L=16,zeta=0.5;
  ...; V=2048,d=512,L=16,zeta=1"`` (2008 trials), ``"...,zeta=1.125; ...,zeta=1.25"`` (397 trials,
  stopped before its CI target) and ``"V=4096,d=1024,L=16,zeta=0.5; V=4096,d=1024,L=16,zeta=1"`` (448 trials));
* ``bench/data/mean_bias_in_regime.csv``: five cells at zeta = 3/4 over ``V`` 2048..4096 and
  ``d`` 512..1024, other seeds, held out: each form is fitted on the zeta lines only and then
  predicts these thresholds.

Each cell's threshold is the library's probit GLM (``theorycheck.compare.cell_thresholds``,
q = 1/2); each form's constants are least squares on the log thresholds (unweighted: the cells'
CIs, +-2..10%, are far narrower than the misfit being compared). The forms:

* ``catalogue``: ``N* = C4·zeta^4·V^2·log V/d`` (``vural2026.mean_bias``);
* ``1/d^2``: ``N* = C·zeta^4·V^2·log V/d^2`` (the three-step noise's dependence on d);
* ``floor + wall``: ``N* = C0·V·log V + C4·zeta^4·V^2·log V/(d^2 - C1·zeta^2·V·log V)`` -- the
  count floor plus the ``1/d^2`` term, diverging where ``d^2 = C1·zeta^2·V·log V`` (a storage
  wall that the mean bias moves). A description of these data, not a derivation.

Usage: ``python bench/mean_bias_forms.py`` (seconds).
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np
from scipy.optimize import least_squares

from theorycheck.compare import Dataset, cell_thresholds

DATA = Path(__file__).resolve().parent / "data"


def thresholds(path: Path) -> list[tuple[float, float, float, float]]:
    """``(V, d, zeta, N*)`` of every cell of a CSV of binomial rows that has a threshold."""
    with path.open() as fh:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(fh)]
    data = Dataset.from_rows(rows, resource="N", variables=["V", "d", "zeta"])
    return [(c.values["V"], c.values["d"], c.values["zeta"], th.estimate)
            for c, th in zip(data.cells, cell_thresholds(data)) if th.estimate is not None]


def catalogue(p: np.ndarray, V, d, z):
    """``log N*`` of ``C4·zeta^4·V^2·log V/d``, ``p = [log C4]``."""
    return p[0] + np.log(z**4 * V**2 * np.log(V) / d)


def inverse_d2(p: np.ndarray, V, d, z):
    """``log N*`` of ``C·zeta^4·V^2·log V/d^2``, ``p = [log C]``."""
    return p[0] + np.log(z**4 * V**2 * np.log(V) / d**2)


def floor_wall(p: np.ndarray, V, d, z):
    """``log N*`` of ``C0·V·log V + C4·zeta^4·V^2·log V/(d^2 - C1·zeta^2·V·log V)``,
    ``p = log [C0, C4, C1]`` (past the wall the room is clipped to a tiny positive value)."""
    c0, c4, c1 = np.exp(p)
    room = np.maximum(d**2 - c1 * z**2 * V * np.log(V), 1e-9 * d**2)
    return np.log(c0 * V * np.log(V) + c4 * z**4 * V**2 * np.log(V) / room)


#: name -> (log N* of the form, start of log constants, names of the constants)
FORMS = {"catalogue": (catalogue, [math.log(20.0)], ["C4"]),
         "1/d^2": (inverse_d2, [math.log(1e4)], ["C"]),
         "floor + wall": (floor_wall, [math.log(2.0), math.log(1e4), math.log(5.0)], ["C0", "C4", "C1"])}


def main() -> None:
    train = thresholds(DATA / "mean_bias_zeta_2048.csv") + thresholds(DATA / "mean_bias_zeta_4096.csv")
    held = thresholds(DATA / "mean_bias_in_regime.csv")
    print("local slopes d log N*/d log zeta along the zeta lines:")
    for base in sorted({(V, d) for V, d, _, _ in train}):
        line = sorted((z, n) for V, d, z, n in train if (V, d) == base)
        steps = ", ".join(f"{z0:g}..{z1:g}: {math.log(n1 / n0) / math.log(z1 / z0):.2f}"
                          for (z0, n0), (z1, n1) in zip(line, line[1:]))
        print(f"  V={base[0]:g} d={base[1]:g} (d^2/(V log V) = {base[1]**2 / (base[0] * math.log(base[0])):.1f}): "
              f"N* = {', '.join(f'{n:.3g}' for _, n in line)}; slopes {steps}")
    tr, te = np.array(train).T, np.array(held).T
    for name, (f, x0, names) in FORMS.items():
        sol = least_squares(lambda p, f=f: f(p, tr[0], tr[1], tr[2]) - np.log(tr[3]), x0)
        consts = ", ".join(f"{k} = {math.exp(v):.3g}" for k, v in zip(names, sol.x))
        fit_r = np.exp(np.log(tr[3]) - f(sol.x, tr[0], tr[1], tr[2]))
        held_r = np.exp(np.log(te[3]) - f(sol.x, te[0], te[1], te[2]))
        print(f"\n{name}: {consts}; fitted cells: rms log residual {math.sqrt(np.mean(np.log(fit_r) ** 2)):.3f}, "
              f"observed/predicted {fit_r.min():.2f}..{fit_r.max():.2f}")
        print("  held-out cells (zeta = 3/4), observed/predicted: " + ", ".join(
            f"({V:g}, {d:g}) {r:.2f}" for V, d, r in zip(te[0], te[1], held_r)))


if __name__ == "__main__":
    main()
