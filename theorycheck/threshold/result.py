"""The result of a threshold measurement: estimate, CI and every evaluated point.

docs/theory.md §4: the empirical threshold ``N*`` of a cell is the resource at which the
success probability over seeds crosses ``q`` (default 1/2), reported with a
confidence interval. Thresholds in another resource (the largest ``V``, the smallest
``d``) are defined the same way; ``increasing`` says in which direction success grows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from theorycheck.intervals import critical

Point = tuple[float, int, int]


def _num(value: float | None) -> float | None:
    """JSON-safe number: ``None`` for missing, NaN or infinite values."""
    if value is None or not math.isfinite(value):
        return None
    return float(value)


@dataclass(frozen=True)
class Threshold:
    """Resource value at success probability ``q``, its CI, and the data behind it.

    Fields
    ------
    estimate : the threshold (``None`` when no crossing lies inside the explored range,
        see ``censored``).
    ci : two-sided ``level`` confidence interval ``(lo, hi)``; ``lo`` may be 0 and ``hi``
        ``inf`` when a side is unbounded.
    q, level : success probability defining the threshold; confidence level of ``ci``.
    points : every evaluated ``(resource, successes, trials)``, merged by resource and
        sorted by resource.
    method : ``"glm"`` (binomial GLM on log resource, the links averaged by likelihood,
        estimate and CI from the mixture of their Fieller CIs; docs/thresholds.md), ``"bracket"``
        (model-free binomial bracket, used when the GLM is not identified, e.g. under
        perfect separation) or ``"censored"`` (all points on one side of ``q``).
    link : the GLM link with the largest likelihood (``None`` unless ``method="glm"``).
    slope, slope_se : probit-equivalent slope per unit of log resource (the probit slope
        with the same ``dP/dt`` at the threshold; the probit slope itself when the link is
        probit) and its standard error; ``1/slope`` is the transition width in log resource.
    isotonic_estimate : model-free q-crossing from isotonic regression (cross-check).
    monotone : ``False`` when the success rates decrease significantly somewhere
        along the resource (see ``warnings``).
    censored : ``"below"`` (success everywhere: threshold below the smallest point),
        ``"above"`` (failure everywhere), or ``None``.
    warnings, notes : human-readable messages (warnings cast doubt on the result).
    resource, increasing : name of the resource; whether success grows with it.
    """

    estimate: float | None
    ci: tuple[float, float]
    q: float
    points: tuple[Point, ...]
    level: float = 0.95
    method: str = "glm"
    link: str | None = None
    slope: float | None = None
    slope_se: float | None = None
    isotonic_estimate: float | None = None
    monotone: bool = True
    censored: str | None = None
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    resource: str = "N"
    increasing: bool = True

    @property
    def trials(self) -> int:
        """Total number of trials over all points."""
        return int(sum(n for _, _, n in self.points))

    @property
    def log_ci_width(self) -> float:
        """``log(hi/lo)``: width of the CI of the log threshold (``inf`` if unbounded)."""
        lo, hi = self.ci
        if lo <= 0 or not math.isfinite(hi):
            return math.inf
        return math.log(hi / lo)

    @property
    def log_se(self) -> float:
        """Standard error of ``log(estimate)`` implied by the CI (normal approximation)."""
        return self.log_ci_width / (2.0 * critical(self.level))

    @property
    def censored_beyond(self) -> float | None:
        """The end of the explored range that a censored threshold lies beyond: the largest
        resource tried when ``censored == "above"``, the smallest when ``"below"``;
        ``None`` for a threshold that was found."""
        if self.censored is None or not self.points:
            return None
        return float(max(r for r, _, _ in self.points) if self.censored == "above"
                     else min(r for r, _, _ in self.points))

    def to_dict(self) -> dict[str, Any]:
        return {
            "resource": self.resource,
            "estimate": _num(self.estimate),
            "ci": [_num(self.ci[0]), _num(self.ci[1])],
            "q": self.q,
            "level": self.level,
            "method": self.method,
            "link": self.link,
            "slope": _num(self.slope),
            "slope_se": _num(self.slope_se),
            "isotonic_estimate": _num(self.isotonic_estimate),
            "monotone": self.monotone,
            "censored": self.censored,
            "censored_beyond": _num(self.censored_beyond),
            "increasing": self.increasing,
            "trials": self.trials,
            "points": [[float(r), int(k), int(n)] for r, k, n in self.points],
            "warnings": list(self.warnings),
            "notes": list(self.notes),
        }
