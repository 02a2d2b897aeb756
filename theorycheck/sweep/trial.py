"""What runs on a worker: rebuild the seed, call the trial, check and normalise its output.

Kept in its own small module so that process pools and dask workers import little.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from theorycheck.sweep.seeding import canonical_json, to_jsonable


def execute_trial(
    trial: Callable[[dict[str, Any], np.random.SeedSequence], Mapping[str, Any]],
    params: dict[str, Any],
    entropy: int,
    spawn_key: tuple[int, ...],
) -> tuple[dict[str, Any], float]:
    """Run ``trial(params, SeedSequence(entropy, spawn_key=spawn_key))``.

    Returns ``(result, seconds)``: the trial's dict (a bare bool ``b`` becomes
    ``{"success": b}``) after a JSON round trip (numpy scalars become Python numbers,
    tuples become lists) and its wall time, which the store keeps apart from the record.
    Raises ``TypeError``/``ValueError`` when the trial returns neither a bool nor a mapping
    with a boolean ``"success"``, or something JSON cannot hold.
    """
    seed = np.random.SeedSequence(entropy, spawn_key=tuple(spawn_key))
    started = time.perf_counter()
    output = trial(dict(params), seed)
    elapsed = time.perf_counter() - started
    if isinstance(output, (bool, np.bool_)):  # a bare outcome (theorycheck.Task allows it)
        output = {"success": bool(output)}
    if not isinstance(output, Mapping):
        raise TypeError(f"trial must return a bool or a dict with 'success', got {type(output).__name__}")
    if not isinstance(output.get("success"), (bool, np.bool_)):
        raise TypeError(
            f"trial result must contain 'success': bool, got {output.get('success')!r} "
            f"in {dict(output)!r}"
        )
    result = json.loads(canonical_json(to_jsonable(dict(output))))
    return result, elapsed
