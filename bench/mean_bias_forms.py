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

Cell thresholds and the fits: ``bench/threshold_forms.py``. The forms:

* ``catalogue``: ``N* = C4·zeta^4·V^2·log V/d`` (``vural2026.mean_bias``);
* ``1/d^2``: ``N* = C·zeta^4·V^2·log V/d^2`` (the three-step noise's dependence on d);
* ``floor + wall``: ``N* = C0·V·log V + C4·zeta^4·V^2·log V/(d^2 - C1·zeta^2·V·log V)`` -- the
  count floor plus the ``1/d^2`` term, diverging where ``d^2 = C1·zeta^2·V·log V`` (a storage
  wall that the mean bias moves). A description of these data, not a derivation.

Usage: ``python bench/mean_bias_forms.py`` (seconds).
"""

from __future__ import annotations

import math

import numpy as np

from threshold_forms import DATA, fit_and_predict, thresholds

VARIABLES = ["V", "d", "zeta"]


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
    train = thresholds(DATA / "mean_bias_zeta_2048.csv", VARIABLES) + thresholds(DATA / "mean_bias_zeta_4096.csv", VARIABLES)
    held = thresholds(DATA / "mean_bias_in_regime.csv", VARIABLES)
    print("local slopes d log N*/d log zeta along the zeta lines:")
    for base in sorted({(V, d) for V, d, _, _ in train}):
        line = sorted((z, n) for V, d, z, n in train if (V, d) == base)
        steps = ", ".join(f"{z0:g}..{z1:g}: {math.log(n1 / n0) / math.log(z1 / z0):.2f}"
                          for (z0, n0), (z1, n1) in zip(line, line[1:]))
        print(f"  V={base[0]:g} d={base[1]:g} (d^2/(V log V) = {base[1]**2 / (base[0] * math.log(base[0])):.1f}): "
              f"N* = {', '.join(f'{n:.3g}' for _, n in line)}; slopes {steps}")
    fit_and_predict(FORMS, train, held, "zeta = 3/4", lambda row: f"({row[0]:g}, {row[1]:g})")


if __name__ == "__main__":
    main()
