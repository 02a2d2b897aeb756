"""Validation and pooling of binomial points ``(resource, successes, trials)``."""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from theorycheck.threshold.result import Point


@dataclass(frozen=True)
class PooledPoints:
    """Points merged by resource value and sorted along the direction of success.

    ``t`` is the log resource oriented so that success grows with ``t``
    (``t = log r`` if ``increasing`` else ``-log r``); ``k`` successes, ``n`` trials.
    """

    resources: np.ndarray
    t: np.ndarray
    k: np.ndarray
    n: np.ndarray

    def as_tuples(self) -> tuple[Point, ...]:
        order = np.argsort(self.resources)
        return tuple(
            (float(self.resources[i]), int(self.k[i]), int(self.n[i])) for i in order
        )


def check_point(resource: object, successes: object, trials: object) -> Point:
    """One validated point; ``ValueError`` naming the problem otherwise."""
    if isinstance(resource, bool) or not isinstance(resource, numbers.Real):
        raise ValueError(f"resource must be a positive number, got {resource!r}")
    r = float(resource)
    if not math.isfinite(r) or r <= 0:
        raise ValueError(f"resource must be a positive finite number, got {resource!r}")
    for name, value in (("successes", successes), ("trials", trials)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if not math.isfinite(float(value)) or float(value) != int(value) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    k, n = int(successes), int(trials)  # type: ignore[call-overload]
    if k > n:
        raise ValueError(
            f"successes ({k}) exceed trials ({n}) at resource {r:g}; "
            "successes must lie between 0 and trials"
        )
    return (r, k, n)


def pool_points(points: Iterable[object], *, increasing: bool = True) -> PooledPoints:
    """Validate ``points``, drop zero-trial entries, merge equal resources, sort by ``t``."""
    merged: dict[float, list[int]] = {}
    for item in points:
        try:
            resource, successes, trials = item  # type: ignore[misc]
        except (TypeError, ValueError):
            raise ValueError(
                f"each point must be (resource, successes, trials), got {item!r}"
            ) from None
        r, k, n = check_point(resource, successes, trials)
        if n == 0:
            continue
        slot = merged.setdefault(r, [0, 0])
        slot[0] += k
        slot[1] += n
    if not merged:
        raise ValueError("no points with trials > 0: run some trials first")
    resources = np.array(sorted(merged), dtype=float)
    if not increasing:
        resources = resources[::-1]
    k = np.array([merged[r][0] for r in resources], dtype=np.int64)
    n = np.array([merged[r][1] for r in resources], dtype=np.int64)
    t = np.log(resources) if increasing else -np.log(resources)
    return PooledPoints(resources=resources, t=t, k=k, n=n)
