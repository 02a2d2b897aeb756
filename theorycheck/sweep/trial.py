"""What runs on a worker: rebuild the seed, call the trial, check and normalise its output.

Kept in its own small module so that process pools and dask workers import little.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from theorycheck.jsonable import jsonable
from theorycheck.seeding import SeedIdentity


def execute_trial(
    trial: Callable[[dict[str, Any], np.random.SeedSequence], Mapping[str, Any]],
    params: dict[str, Any],
    entropy: int,
    spawn_key: tuple[int, ...],
) -> tuple[dict[str, Any], float]:
    """Run ``trial(params, SeedSequence(entropy, spawn_key=spawn_key))``.

    Returns ``(result, seconds)``: the trial's dict (a bare bool ``b`` becomes
    ``{"success": b}``) normalised by :func:`theorycheck.jsonable.jsonable` (numpy scalars
    become Python numbers, tuples become lists, ``nan`` becomes ``None``) and its wall
    time, which the store keeps apart from the record. Raises ``TypeError``/``ValueError``
    when the trial returns neither a bool nor a mapping with a boolean ``"success"``, or
    something JSON cannot hold.
    """
    seed = SeedIdentity(entropy, tuple(spawn_key)).seed_sequence()
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
    result = jsonable(dict(output))
    return result, elapsed


def execute_batch(
    trial: Callable[[dict[str, Any], np.random.SeedSequence], Mapping[str, Any]],
    items: list[tuple[dict[str, Any], int, tuple[int, ...]]],
) -> tuple[list[tuple[dict[str, Any], float, float]], Exception | None, float]:
    """Run :func:`execute_trial` on each ``(params, entropy, spawn_key)`` in turn: one
    submitted future for several trials (:mod:`theorycheck.sweep.batching`).

    Returns ``(done, error, cpu_seconds)``: ``(result, seconds, cpu)`` of each trial that
    finished, in order (``cpu``: CPU time of the calling thread over the trial,
    ``time.thread_time``); ``None``, or the exception of the trial ``items[len(done)]``,
    after which the batch stops (returned, not raised, so the trials before it are
    kept); and the thread's CPU time over the whole batch. Thread time leaves out a dask
    worker's event loop and heartbeats (other threads); a trial that starts threads of
    its own, e.g. a multi-threaded BLAS, is under-counted.
    """
    started = time.thread_time()
    done: list[tuple[dict[str, Any], float, float]] = []
    for params, entropy, spawn_key in items:
        before = time.thread_time()
        try:
            result, seconds = execute_trial(trial, params, entropy, spawn_key)
        except Exception as exc:  # noqa: BLE001 - reported by the engine with the trial's identity
            return done, exc, time.thread_time() - started
        done.append((result, seconds, time.thread_time() - before))
    return done, None, time.thread_time() - started
