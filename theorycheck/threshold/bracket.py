"""The bracketing step of the adaptive search (:mod:`theorycheck.threshold.search`, phase 1).

From the edge of the points tried so far the next point lies ``step`` further out in
``t = log r`` (``-log r`` for a resource that hurts): the log step doubles each round,
``log(growth)·2**k``, so a crossing ``R`` times beyond the start is bracketed in about
``log2(log R / log growth)`` rounds; next to a point with mixed outcomes (the crossing is
near) the step is one ``log(growth)``.

Towards larger resource values the step is at most ``log(max_growth)``. A trial costs more
as ``N``, ``d`` or ``V`` grows (the count path is ``O(N·L + V²·d)``, docs/theory.md §3). From
3000x below a crossing the doubling step alone steps 2x, 4x, 16x, 256x and ends 11x past
it, so its last trials cost 11 trials at the crossing each; capped at 4x a step
(``max_growth = growth**2``, the default) the bracket ends less than 4x past the crossing,
and when a trial's cost grows linearly with ``r`` all the steps up to there cost less than
``4·4/3 ≈ 5.3`` trials at the crossing per seed (a geometric series of ratio 4). The price
is three more rounds of cheap trials for a crossing 3000x away. Towards smaller values
trials get cheaper and the step doubles freely.
"""

from __future__ import annotations

import math


def bracket_step(growth: float, max_growth: float, rounds: int, *, mixed: bool, towards_larger: bool) -> float:
    """The next bracketing step in ``log r`` (positive), after ``rounds`` doubling steps on
    this side: ``log(growth)`` next to a mixed point, else ``log(growth)·2**rounds``, at most
    ``log(max_growth)`` when stepping towards larger resource values.

    >>> [round(math.exp(bracket_step(2.0, 4.0, k, mixed=False, towards_larger=up)), 6)
    ...  for up in (False, True) for k in range(4)]
    [2.0, 4.0, 16.0, 256.0, 2.0, 4.0, 4.0, 4.0]
    """
    step = math.log(growth) * (1 if mixed else 2 ** rounds)
    return min(step, math.log(max_growth)) if towards_larger else step
