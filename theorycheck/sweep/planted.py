"""A planted-threshold trial: the sweep engine's known-answer control.

``planted_trial(params, seed)`` succeeds with probability

    p(R) = R**s / (R**s + T**s)      (logistic in log R, p(T) = 1/2)

where ``R = params[params.get("resource_name", "N")]`` is the resource value,
``T = params["threshold"]`` and ``s = params.get("slope", 4.0)``. A search driven by
the engine should find ``T`` for the median (``q = 1/2``), and every executor must give
the same draws. ``params["sleep"]`` (seconds, default 0) simulates an expensive trial for
benchmarks and interruption tests. Pure: no I/O, randomness only from ``seed``.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np


def planted_success_probability(resource: float, threshold: float, slope: float) -> float:
    """p(R) = 1 / (1 + (T/R)**s), computed in log space."""
    if resource <= 0 or threshold <= 0:
        raise ValueError(
            f"resource and threshold must be > 0, got resource={resource!r}, threshold={threshold!r}"
        )
    return 1.0 / (1.0 + math.exp(slope * (math.log(threshold) - math.log(resource))))


def planted_trial(params: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """One Bernoulli(p(R)) draw from ``default_rng(seed)`` (see module docstring)."""
    name = params.get("resource_name", "N")
    p = planted_success_probability(
        float(params[name]), float(params["threshold"]), float(params.get("slope", 4.0))
    )
    sleep = float(params.get("sleep", 0.0))
    if sleep > 0:
        time.sleep(sleep)
    draw = float(np.random.default_rng(seed).random())
    return {"success": draw < p, "p_success": p, "draw": draw}
