"""Validation and pooling of binomial points ``(resource, successes, trials)``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from theorycheck.threshold.result import Point
from theorycheck.validate import check_int, check_positive


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
    """One validated point (rules of :mod:`theorycheck.validate`); ``ValueError`` otherwise."""
    r = check_positive("resource", resource)
    k = check_int("successes", successes, 0)
    n = check_int("trials", trials, 0)
    if k > n:
        raise ValueError(
            f"successes ({k}) exceed trials ({n}) at resource {r:g}; "
            "successes must lie between 0 and trials"
        )
    return (r, k, n)


#: Resource values closer than this (relative) are one design point: a grid value that
#: arithmetic left a few ulps apart (``7098`` and ``7098.000000000001``) would otherwise be
#: two points, and a model-free bracket, which needs its trials at one point, loses them.
SAME_POINT_RTOL = 1e-9


def pool_points(points: Iterable[object], *, increasing: bool = True) -> PooledPoints:
    """Validate ``points``, drop zero-trial entries, merge equal resources (within
    :data:`SAME_POINT_RTOL`; a merged point keeps the smallest value), sort by ``t``."""
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
    merged = merge_close(merged)
    resources = np.array(sorted(merged), dtype=float)
    if not increasing:
        resources = resources[::-1]
    k = np.array([merged[r][0] for r in resources], dtype=np.int64)
    n = np.array([merged[r][1] for r in resources], dtype=np.int64)
    t = np.log(resources) if increasing else -np.log(resources)
    return PooledPoints(resources=resources, t=t, k=k, n=n)


def merge_close(merged: dict[float, list[int]]) -> dict[float, list[int]]:
    """``merged`` (resource -> ``[successes, trials]``) with runs of values within
    :data:`SAME_POINT_RTOL` of the run's first (smallest) value added up under that value:
    one design point, whether its rows were written a few ulps apart or not."""
    out: dict[float, list[int]] = {}
    first = None
    for r in sorted(merged):
        if first is None or r > first * (1.0 + SAME_POINT_RTOL):
            first = r
            out[first] = [0, 0]
        out[first][0] += merged[r][0]
        out[first][1] += merged[r][1]
    return out
