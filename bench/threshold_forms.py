"""Shared by the bench scripts that fit candidate forms of a threshold to measured cells and
test each on held-out cells (``bench/mean_bias_forms.py``, ``bench/mlp_forms.py``).

A cell's threshold is the library's probit GLM (``theorycheck.compare.cell_thresholds``,
q = 1/2); a form's constants are least squares on the log thresholds, unweighted: the cells'
CIs (+-2..10 %) are far narrower than the misfit being compared.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from scipy.optimize import least_squares

from theorycheck.compare import Dataset, cell_thresholds

DATA = Path(__file__).resolve().parent / "data"

#: name -> (log N* of the form given (log constants, *variables), start of the log constants, their names)
Forms = dict[str, tuple[Callable[..., np.ndarray], list[float], list[str]]]


def thresholds(path: Path, variables: Sequence[str], keep: Callable[[dict], bool] = lambda v: True
               ) -> list[tuple[float, ...]]:
    """``(*variables, N*)`` of every cell of a CSV of binomial rows that has a threshold
    (and passes ``keep``, given the cell's values)."""
    with path.open() as fh:
        rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(fh)]
    data = Dataset.from_rows(rows, resource="N", variables=list(variables))
    return [(*(c.values[v] for v in variables), th.estimate)
            for c, th in zip(data.cells, cell_thresholds(data)) if th.estimate is not None and keep(c.values)]


def fit_and_predict(forms: Forms, train: list[tuple[float, ...]], held: list[tuple[float, ...]],
                    held_label: str, label: Callable[[tuple[float, ...]], str]) -> None:
    """Fit every form to ``train``; print its constants, its fit, and observed/predicted on ``held``."""
    tr, te = np.array(train).T, np.array(held).T
    for name, (f, x0, names) in forms.items():
        sol = least_squares(lambda p, f=f: f(p, *tr[:-1]) - np.log(tr[-1]), x0)
        consts = ", ".join(f"{k} = {math.exp(v):.3g}" for k, v in zip(names, sol.x))
        fit_r = np.exp(np.log(tr[-1]) - f(sol.x, *tr[:-1]))
        held_r = np.exp(np.log(te[-1]) - f(sol.x, *te[:-1]))
        print(f"\n{name}: {consts}; fitted cells: rms log residual {math.sqrt(np.mean(np.log(fit_r) ** 2)):.3f}, "
              f"observed/predicted {fit_r.min():.2f}..{fit_r.max():.2f}")
        print(f"  held-out cells ({held_label}), observed/predicted: " + ", ".join(
            f"{label(row)} {r:.2f}" for row, r in zip(held, held_r)))
