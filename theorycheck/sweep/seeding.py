"""Trial identity: canonical parameters, resource tokens and scheduling-free seeds.

Every trial of a sweep is named by four things: the sweep ``entropy`` (one int chosen
by the user), the ``cell`` key (a stable string), the ``resource`` value and the
``replicate`` index at that value. Its random stream is

    SeedSequence(entropy, spawn_key=(w0, w1, w2, w3, replicate))

where ``(w0, ..., w3)`` are the first 16 bytes of
``sha256(cell + "\\0" + resource_token)`` read as four big-endian uint32 words. The seed
is a pure function of the trial's name, never of the order in which an executor ran
it, so a serial run, a process pool and a dask cluster draw identical numbers
(ecosystem.md §7: ``SeedSequence(entropy, spawn_key=k)`` is what ``root.spawn`` would
give for child ``k``).

Resource values are normalised once (:func:`normalise_resource`): an integral value is
the Python ``int`` (``128.0 -> 128``), any other finite float stays a float. Its
``resource_token`` (``repr``) is the exact text used in seeds and store keys, so
``128`` and ``128.0`` name the same trial.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

_SPAWN_WORDS = 4  # 128 bits of the hash: collisions between trial names are negligible


def canonical_json(value: Any) -> str:
    """JSON text with sorted keys and no whitespace: equal values give equal text.

    Raises ``ValueError`` (with the offending type) for anything JSON cannot hold, so
    a cell's parameters are checked before any work starts.
    """
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"value is not JSON-serialisable ({exc}); use plain str/int/float/bool/None, "
            "lists and dicts with string keys"
        ) from None


def to_jsonable(value: Any) -> Any:
    """Convert numpy scalars/arrays and tuples to plain JSON types (recursively)."""
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return to_jsonable(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


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
    """The sweep entropy must be a non-negative int (what ``SeedSequence`` accepts)."""
    if isinstance(entropy, bool) or not isinstance(entropy, numbers.Integral) or entropy < 0:
        raise ValueError(
            f"entropy must be a non-negative integer, got {entropy!r}; "
            "pick any fixed number, e.g. entropy=20260801"
        )
    return int(entropy)


def trial_seed(entropy: int, cell: str, resource: Any, replicate: int) -> SeedIdentity:
    """Seed of trial ``replicate`` of ``cell`` at ``resource`` (see module docstring)."""
    entropy = check_entropy(entropy)
    if isinstance(replicate, bool) or not isinstance(replicate, numbers.Integral) or replicate < 0:
        raise ValueError(f"replicate must be a non-negative integer, got {replicate!r}")
    digest = hashlib.sha256(f"{cell}\0{resource_token(resource)}".encode()).digest()
    words = tuple(
        int.from_bytes(digest[4 * i : 4 * i + 4], "big") for i in range(_SPAWN_WORDS)
    )
    return SeedIdentity(entropy=entropy, spawn_key=(*words, int(replicate)))
