"""Does success rise or fall with the resource? A check of the declared direction.

A law ``R >= f`` says success grows with the resource ``R``; ``R <= f`` says it falls
(a capacity). Binomial data declare theirs (:attr:`Dataset.increasing`, the CLI's
``--decreasing``, or the law's sense). When the declaration is the wrong way round every
cell's probit fit is asked for a slope of the wrong sign and the verdict comes back
inconclusive with absurd advice ("1e6x the trials"). The data say which way they go, so
:func:`check_direction` asks them first.

The statistic is the stratified Cochran-Armitage trend test (Agresti, *Categorical Data
Analysis*, 3rd ed., §5.3.5 and §6.4), with cells as strata and the log resource as the
score: for cell ``c`` with points ``(x_i = log R_i, k_i successes of n_i)``,
pooled rate ``p_c`` and trial-weighted mean score ``x̄_c``,

    z = Σ_c Σ_i (k_i − n_i p_c)(x_i − x̄_c) / sqrt(Σ_c p_c (1 − p_c) Σ_i n_i (x_i − x̄_c)²),

about standard normal when success does not depend on ``R`` within cells; ``z > 0``:
success rises with ``R``. Only a decisive contradiction is refused, ``|z| >``
:data:`CONTRADICTION_Z` ``= 4`` against the declared direction (one-sided p ≈ 3e-5), so
that genuine data whose success curve is flat or noisy in a few cells are never refused.
"""

from __future__ import annotations

import math

import numpy as np

from theorycheck.wording import counted

__all__ = ["CONTRADICTION_Z", "trend_z", "check_direction"]

#: |z| beyond which the data decisively contradict the declared direction (module docstring).
CONTRADICTION_Z = 4.0


def trend_z(data: object) -> float:
    """The stratified trend statistic ``z`` of binomial ``data`` (module docstring); ``nan``
    when no cell has two resource values with both outcomes."""
    num = var = 0.0
    for cell in data.cells:
        pts = np.asarray(cell.points, dtype=float).reshape(-1, 3)
        x, k, n = np.log(pts[:, 0]), pts[:, 1], pts[:, 2]
        total = n.sum()
        if total <= 0 or np.ptp(x) == 0:
            continue
        p = k.sum() / total
        dx = x - np.sum(n * x) / total
        num += float(np.sum((k - n * p) * dx))
        var += float(p * (1.0 - p) * np.sum(n * dx ** 2))
    return num / math.sqrt(var) if var > 0 else math.nan


def check_direction(data: object, law_text: str | None = None) -> None:
    """ValueError, naming the fix, when binomial ``data`` decisively contradict their declared
    direction (``data.increasing``; ``law_text``: the law that declared it)."""
    z = trend_z(data)
    if not math.isfinite(z) or (z if not data.increasing else -z) <= CONTRADICTION_Z:
        return
    declared, seen = ("rises", "falls") if data.increasing else ("falls", "rises")
    resource = data.resource
    source = (f"the law {law_text!r} says success {declared} with {resource}" if law_text
              else f"success is declared to {declared[:-1]} with {resource}")
    if law_text:
        fix = ("write the law with '>=' (a threshold to exceed)" if seen == "rises"
               else "write the law with '<=' (a capacity not to exceed)")
    else:
        fix = ("drop --decreasing (Dataset(increasing=True))" if seen == "rises"
               else "pass --decreasing (Dataset(increasing=False))")
    raise ValueError(f"{source}, but in the data it {seen} (trend test z = {z:+.1f} across "
                     f"{counted(len(data.cells), 'cell')}); {fix}")
