"""The coordinate a threshold search moves on (:mod:`theorycheck.threshold.search`).

A resource ``r`` (``N``, ``d``, ``V``, ...) is searched on ``t = log r``, or on
``t = -log r`` when success *decreases* with ``r`` (the capacity in ``V``), so that
success always grows with ``t`` and a geometric step in ``r`` is a fixed step in ``t``
(docs/thresholds.md). Every value proposed is clipped to the resource's limits
``[lower, upper]`` and, for an integer resource, rounded to the nearest integer inside
them: two values of ``t`` may land on the same ``r``, which is how a search learns that
the grid is exhausted. A real resource is rounded to :data:`REAL_DIGITS` significant
digits: the values proposed come from fits whose last bits differ between machines (BLAS,
CPU), and a trial's seed is keyed by the value it runs at, so unrounded values made a
check of a real resource take other trials on another machine (a 5% different threshold
for the same command, seen on docs/your_own_task.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from theorycheck.validate import check_positive

__all__ = ["ResourceAxis", "REAL_DIGITS"]

#: Significant digits a real resource value keeps: a relative step of at most 1e-6, far below any
#: threshold's CI (a few percent), far above the ~1e-15 by which machines' fits differ.
REAL_DIGITS = 7


@dataclass(frozen=True)
class ResourceAxis:
    """Limits, rounding and direction of one resource; :meth:`checked` validates them.

    >>> ax = ResourceAxis.checked(lower=None, upper=None, integer=True, increasing=True)
    >>> ax.snap(0.3), ax.r(math.log(99.6))
    (1.0, 100.0)
    >>> ResourceAxis.checked(lower=None, upper=None, integer=False, increasing=True).snap(0.612345678901)
    0.6123457
    """

    lower: float
    upper: float
    integer: bool
    increasing: bool

    @classmethod
    def checked(cls, *, lower: float | None, upper: float | None, integer: bool,
                increasing: bool) -> ResourceAxis:
        """The axis with defaults filled in: ``lower`` 1 for an integer resource, else 0;
        ``upper`` unbounded. Raises ``ValueError`` unless ``lower < upper``."""
        lo = None if lower is None else check_positive("lower", lower)
        hi = None if upper is None else check_positive("upper", upper, allow_inf=True)
        low = (1.0 if integer else 0.0) if lo is None else lo
        high = math.inf if hi is None else hi
        if low >= high:
            raise ValueError(f"lower ({low:g}) must be below upper ({high:g})")
        return cls(low, high, bool(integer), bool(increasing))

    def contains(self, r: float) -> bool:
        """``lower <= r <= upper``."""
        return self.lower <= r <= self.upper

    def snap(self, r: float) -> float:
        """``r`` clipped to the limits and, for an integer resource, rounded inside them."""
        r = min(max(r, self.lower), self.upper)
        if self.integer:
            r = float(max(round(r), math.ceil(self.lower)))
            if math.isfinite(self.upper):
                r = min(r, float(math.floor(self.upper)))
        elif 0 < r < math.inf:
            r = min(max(float(f"{r:.{REAL_DIGITS}g}"), self.lower), self.upper)
        return r

    def r(self, t: float) -> float:
        """The resource value at coordinate ``t`` (snapped)."""
        return self.snap(math.exp(t) if self.increasing else math.exp(-t))

    def t(self, r: float) -> float:
        """The coordinate of resource value ``r``."""
        return math.log(r) if self.increasing else -math.log(r)
