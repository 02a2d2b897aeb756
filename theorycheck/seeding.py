"""Every seed of the package, derived from (root seed, identity) by one scheme.

**Named trials** (sweeps, checks, planted trials, test helpers). A trial is named by a
root ``entropy`` (one int chosen by the user), a ``cell`` key (a stable string), the
``resource`` value and the ``replicate`` index at that value. Its random stream is

    SeedSequence(entropy, spawn_key=(w0, w1, w2, w3, replicate))

where ``(w0, ..., w3)`` are the first 16 bytes of
``sha256(cell + "\\0" + resource_token)`` read as four big-endian uint32 words
(:func:`trial_seed`). The seed is a pure function of the trial's name, never of the
order in which an executor ran it, so a serial run, a process pool and a dask cluster
draw identical numbers (``SeedSequence(entropy, spawn_key=k)`` is what ``root.spawn``
would give for child ``k``; NumPy's SeedSequence documentation).

**Bare searches**: :func:`seeded_trial` binds a trial ``(params, seed) -> dict`` to the
``(resource, replicate) -> bool`` form of :class:`~theorycheck.threshold.ThresholdSearch`
with the same seeds (cell key = canonical JSON of the fixed parameters).

**Streams inside a trial**: child ``i`` of a seed ``S`` is
``SeedSequence(S.entropy, spawn_key=S.spawn_key + (i,))`` (:func:`child_seed`), built
explicitly rather than with ``S.spawn`` (which counts calls), so the same seed gives the
same streams however often it is used.

Resource values are normalised once (:func:`normalise_resource`): an integral value is
the Python ``int`` (``128.0 -> 128``), any other finite float stays a float. Its
``resource_token`` (``repr``) is the exact text used in seeds and store keys, so
``128`` and ``128.0`` name the same trial.
"""

from __future__ import annotations

import hashlib
import math
import numbers
from dataclasses import dataclass
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from theorycheck.jsonable import canonical_json, jsonable
from theorycheck.validate import check_int

__all__ = [
    "mixed_seed",
    "SeedIdentity",
    "trial_seed",
    "child_seed",
    "seed_sequence",
    "seed_record",
    "check_entropy",
    "seeded_trial",
    "normalise_resource",
    "resource_token",
]

_SPAWN_WORDS = 4  # 128 bits of the hash: collisions between trial names are negligible

def normalise_resource(value: Any) -> int | float:
    """Resource value as it appears in trial parameters: int if integral, else float.

    >>> normalise_resource(128.0), normalise_resource(np.int64(5)), normalise_resource(2.5)
    (128, 5, 2.5)
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(
            f"resource value must be a real number, got {value!r} of type {type(value).__name__}"
        )
    as_float = float(value)
    if not math.isfinite(as_float):
        raise ValueError(f"resource value must be finite, got {value!r}")
    if isinstance(value, numbers.Integral):
        return int(value)
    if as_float.is_integer() and abs(as_float) < 2.0**53:
        return int(as_float)
    return as_float


def resource_token(value: Any) -> str:
    """Exact text of a normalised resource value (``repr``; round-trips floats)."""
    return repr(normalise_resource(value))


@dataclass(frozen=True)
class SeedIdentity:
    """Everything needed to rebuild a trial's ``SeedSequence`` anywhere."""

    entropy: int
    spawn_key: tuple[int, ...]

    def seed_sequence(self) -> np.random.SeedSequence:
        return np.random.SeedSequence(self.entropy, spawn_key=self.spawn_key)

    def to_dict(self) -> dict[str, Any]:
        return {"entropy": self.entropy, "spawn_key": list(self.spawn_key)}


def check_entropy(entropy: Any) -> int:
    """A root entropy: an integer ``>= 0`` (what ``SeedSequence`` accepts)."""
    return check_int("entropy", entropy, 0, "; pick any fixed number, e.g. entropy=20260801")


def trial_seed(entropy: int, cell: str, resource: Any, replicate: int) -> SeedIdentity:
    """Seed of trial ``replicate`` of ``cell`` at ``resource`` (see module docstring)."""
    entropy = check_entropy(entropy)
    replicate = check_int("replicate", replicate, 0)
    digest = hashlib.sha256(f"{cell}\0{resource_token(resource)}".encode()).digest()
    words = tuple(
        int.from_bytes(digest[4 * i : 4 * i + 4], "big") for i in range(_SPAWN_WORDS)
    )
    return SeedIdentity(entropy=entropy, spawn_key=(*words, replicate))


def child_seed(seed: np.random.SeedSequence, i: int) -> np.random.SeedSequence:
    """Child ``i`` of ``seed``: ``SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (i,))``."""
    return np.random.SeedSequence(seed.entropy, spawn_key=(*seed.spawn_key, int(i)))


def mixed_seed(seed: np.random.SeedSequence, entropy: int) -> np.random.SeedSequence:
    """A seed that depends on both ``seed`` (one the package derived) and an extra
    ``entropy``: ``SeedSequence([entropy, *seed.generate_state(4)])``. Used where a trial
    carries its own entropy on top of the sweep's (:func:`theorycheck.testing.simulated_trial`)."""
    return np.random.SeedSequence([check_entropy(entropy), *(int(w) for w in seed.generate_state(4))])


def seed_sequence(seed: Any) -> np.random.SeedSequence:
    """An int ``>= 0`` or a ``SeedSequence`` -> ``SeedSequence``."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    return np.random.SeedSequence(
        check_int("seed", seed, 0, " (give an integer >= 0 or a numpy SeedSequence)")
    )


def seed_record(seed: Any) -> int | dict:
    """JSON form of a seed: the int, or ``{"entropy": ..., "spawn_key": [...]}`` of a
    ``SeedSequence`` (entropy an int or, for ``SeedSequence([a, b, ...])``, a list)."""
    if isinstance(seed, np.random.SeedSequence):
        return jsonable(seed)
    return check_int("seed", seed, 0, " (give an integer >= 0 or a numpy SeedSequence)")


def seeded_trial(
    trial: Callable[[dict[str, Any], np.random.SeedSequence], Mapping[str, Any]],
    params: Mapping[str, Any],
    *,
    entropy: int,
    resource: str = "N",
) -> Callable[[Any, int], bool]:
    """``f(value, replicate) -> bool``: ``trial({**params, resource: value}, seed)["success"]``
    with ``seed = trial_seed(entropy, canonical_json(params), value, replicate)``, so the
    outcome depends only on (entropy, params, value, replicate), never on call order.

    >>> from theorycheck.planted import planted_trial
    >>> f = seeded_trial(planted_trial, {"threshold": 100.0, "width": 0.2}, entropy=1)
    >>> f(1000, 0), f(10, 0)
    (True, False)
    """
    if not callable(trial):
        raise ValueError(f"trial must be callable trial(params, seed) -> dict, got {trial!r}")
    entropy = check_entropy(entropy)
    fixed = dict(params)
    cell = canonical_json(fixed)

    def run(value: Any, replicate: int) -> bool:
        seed = trial_seed(entropy, cell, value, replicate).seed_sequence()
        return bool(trial({**fixed, resource: normalise_resource(value)}, seed)["success"])

    return run
