"""What :func:`theorycheck.sweep.run_sweep` returns: every cell's search result and trials,
with the sweep's identity and its counts (trials computed and reused, futures, times)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from theorycheck.jsonable import jsonable
from theorycheck.sweep.record import SweepIdentity, TrialRecord

__all__ = ["SweepResult"]


@dataclass(frozen=True)
class SweepResult:
    """``results``: cell key -> ``search.result()``; ``trials``: cell key -> its trials in
    the order asked; ``computed``/``reused``: trials run now / taken from the store;
    ``futures``: futures submitted to the executor (0 when serial); ``trial_seconds``:
    summed wall time of the computed trials, measured around each trial call;
    ``worker_cpu_seconds``: summed CPU time of the workers over their batches."""

    results: dict[str, Any]
    trials: dict[str, tuple[TrialRecord, ...]]
    identity: SweepIdentity
    computed: int
    reused: int
    seconds: float
    futures: int = 0
    trial_seconds: float = 0.0
    worker_cpu_seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return jsonable({
            "identity": self.identity.to_dict(),
            "results": self.results,
            "trials": {k: [r.to_dict() for r in v] for k, v in self.trials.items()},
            "computed": self.computed,
            "reused": self.reused,
            "seconds": self.seconds,
            "futures": self.futures,
            "trial_seconds": self.trial_seconds,
            "worker_cpu_seconds": self.worker_cpu_seconds,
        })
