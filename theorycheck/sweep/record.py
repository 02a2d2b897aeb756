"""What one finished trial is, and the key it is stored under.

A trial is named by the sweep identity (entropy, code version, trial function), its cell
key, its full parameters (the cell's fixed parameters plus ``{resource: value}``) and its
seed identity. ``trial_key`` is the SHA-256 of the canonical JSON of all of them, so a
changed parameter, seed, code version or trial function never matches a stored result.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from theorycheck.jsonable import canonical_json
from theorycheck.seeding import SeedIdentity


@dataclass(frozen=True)
class SweepIdentity:
    """What must match for stored trials to be reused.

    ``entropy``: the sweep's seed entropy; ``code_version``: see
    :func:`theorycheck.sweep.version.code_version`; ``trial``: a stable name of the trial
    function (``module:qualname`` by default).
    """

    entropy: int
    code_version: str
    trial: str

    def to_dict(self) -> dict[str, Any]:
        return {"entropy": self.entropy, "code_version": self.code_version, "trial": self.trial}


def trial_key(identity: SweepIdentity, cell: str, params: dict[str, Any], seed: SeedIdentity) -> str:
    """Hex SHA-256 of the canonical JSON of (identity, cell, params, seed)."""
    text = canonical_json(
        {"identity": identity.to_dict(), "cell": cell, "params": params, "seed": seed.to_dict()}
    )
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class TrialRecord:
    """One finished trial: its name, its parameters, its seed and what it returned.

    ``params`` already contains the resource (``params[resource_name] == resource``);
    ``result`` is the trial function's dict after a JSON round trip, so a record read
    back from disk equals the one computed in memory.
    """

    key: str
    cell: str
    resource: int | float
    replicate: int
    params: dict[str, Any]
    seed: SeedIdentity
    result: dict[str, Any]

    @property
    def success(self) -> bool:
        return bool(self.result["success"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "cell": self.cell,
            "resource": self.resource,
            "replicate": self.replicate,
            "params": self.params,
            "seed": self.seed.to_dict(),
            "result": self.result,
        }
