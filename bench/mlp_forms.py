"""The attention-MLP threshold (centred features, trigger in the value path) off the d-wall:
forms fitted at ``(V, d) = (1024, 256)`` and tested on held-out cells at ``(2048, 512)``.
Prints figures (docs/mlp_phase.md §5).

Data (binomial rows, ``theorycheck check vural2026.mlp_gradient_noise ...``, L = 8 unless said):

* fitted: ``bench/data/mlp_gradient_noise_in_regime.csv``, its ``L = 8`` cells, ``m`` = 1024,
  2048, 4096 at ``(1024, 256)``, where ``d² = 9.2·V·log V`` sits next to the d-wall
  (docs/mlp_phase.md §1);
* held out, other seeds: ``bench/data/mlp_gradient_noise_m_line_2048.csv`` (``m`` = 1024,
  2048, 4096 at ``(2048, 512)``, ``d² = 16.8·V·log V``, 2026-11-27) and
  ``bench/data/mlp_gradient_noise_L_line_2048.csv`` (``L`` = 8, 64, 256 at ``m = 2048``).

Both lines keep ``V/d = 4`` and the same ``m``, so ``m·d/(V log V)`` is 37, 74, 148 at the
first and 34, 67, 134 at the second: the MLP-noise wall's distance is about the same.
Cell thresholds and the fits: ``bench/threshold_forms.py``. The forms:

* ``catalogue``: ``N* = C3·L·V²·log V/(m·d)`` (``vural2026.mlp_gradient_noise``);
* ``floor + wall``: ``N* = C0·V·log V/(1 - C1·V·log V/(m·d))`` -- a count floor that diverges at
  the MLP-noise wall ``m·d = C1·V·log V``; the conjecture of docs/mlp_phase.md §5 (2026-11-23,
  from the first line alone);
* ``attention + wall``: ``N* = A·(C0'·V·log V + C1'·V²/d²)/(1 - C1·V·log V/(m·d))`` with ``C0'``,
  ``C1'`` the attention-only three-step threshold's catalogue constants
  (``vural2026.three_step_additive``), ``A`` and ``C1`` fitted.

Usage: ``python bench/mlp_forms.py`` (seconds).
"""

from __future__ import annotations

import math

import numpy as np

from theorycheck import catalogue as _catalogue
from threshold_forms import DATA, fit_and_predict, thresholds

VARIABLES = ["V", "d", "L", "m"]
ATTENTION = _catalogue.get("vural2026.three_step_additive").constants


def catalogue(p: np.ndarray, V, d, L, m):
    """``log N*`` of ``C3·L·V²·log V/(m·d)``, ``p = [log C3]``."""
    return p[0] + np.log(L * V**2 * np.log(V) / (m * d))


def _room(c1: float, V, d, m):
    """``1 - C1·V·log V/(m·d)``, clipped to a tiny positive value past the wall."""
    return np.maximum(1.0 - c1 * V * np.log(V) / (m * d), 1e-9)


def floor_wall(p: np.ndarray, V, d, L, m):
    """``log N*`` of ``C0·V·log V/(1 - C1·V·log V/(m·d))``, ``p = log [C0, C1]``."""
    return p[0] + np.log(V * np.log(V)) - np.log(_room(math.exp(p[1]), V, d, m))


def attention_wall(p: np.ndarray, V, d, L, m):
    """``log N*`` of ``A·(C0'·V·log V + C1'·V²/d²)/(1 - C1·V·log V/(m·d))``, ``p = log [A, C1]``."""
    att = ATTENTION["C0"] * V * np.log(V) + ATTENTION["C1"] * V**2 / d**2
    return p[0] + np.log(att) - np.log(_room(math.exp(p[1]), V, d, m))


FORMS = {"catalogue": (catalogue, [math.log(100.0)], ["C3"]),
         "floor + wall": (floor_wall, [math.log(3.0), math.log(20.0)], ["C0", "C1"]),
         "attention + wall": (attention_wall, [0.0, math.log(20.0)], ["A", "C1"])}


def main() -> None:
    train = thresholds(DATA / "mlp_gradient_noise_in_regime.csv", VARIABLES, lambda c: c["L"] == 8)
    held = thresholds(DATA / "mlp_gradient_noise_m_line_2048.csv", VARIABLES)
    lines = DATA / "mlp_gradient_noise_L_line_2048.csv"
    if lines.exists():
        held += [row for row in thresholds(lines, VARIABLES) if row[2] != 8]
    print("N* at the same m, (1024, 256) against (2048, 512), L = 8 (the catalogue law: x2.2):")
    for V1, d1, L1, m1, n1 in train:
        for V2, d2, L2, m2, n2 in held:
            if (L2, m2) == (L1, m1):
                print(f"  m = {m1:g}: {n1:.4g} and {n2:.4g} (ratio {n2 / n1:.2f}); N*/(V log V) "
                      f"{n1 / (V1 * math.log(V1)):.2f} and {n2 / (V2 * math.log(V2)):.2f}; "
                      f"m·d/(V log V) {m1 * d1 / (V1 * math.log(V1)):.0f} and {m2 * d2 / (V2 * math.log(V2)):.0f}")
    fit_and_predict(FORMS, train, held, "V = 2048, d = 512", lambda row: f"(L={row[2]:g}, m={row[3]:g})")


if __name__ == "__main__":
    main()
