"""The read-out's wall as a task: hard attention's read-out at infinite ``N``, its threshold in ``d`` (theory.md §7.12).

A trial is one seed of :func:`theorycheck.simulate.readout_accuracy` (``algorithms.population_readout``): the
three-step limit with hard attention, its step-2 values at their expectation, so that what is left of a
finite sample is step 1's ``g`` and ``α`` (fitted on ``n_per_fact·V`` sequences of length ``L``). It
succeeds when its test accuracy reaches ``target`` (0.99). The resource is ``d``: the threshold is the
wall, the ``d`` from which half the seeds recall, which ``vural2026.readout_wall`` states as

    d² ≥ C log V (s V + (s + 1) d).

The law's ``s`` is the trigger's share of the stored values: ``s = 1 + ζ²`` with the trigger in the value
path (``ζ = sqrt(s − 1)``), and ``s = 1`` is the trigger out of it (``ζ = 1/2`` then, which hard
attention's wall does not see: docs/theory.md §7.12). The values of ``s`` between 1 and 1.25 are refused:
the walls were measured from ``ζ = 1/2`` on, and ``s → 1`` from above is not the trigger out (a trigger faint
in the value is faint in the keys too, where it selects the fact). The draws are a ``limit`` trial's
with the same seed (:func:`theorycheck.simulate.trial_draws`). Data are not nested in ``d`` (the
embeddings of each ``d`` are drawn afresh), so thresholds come from the Bernoulli search.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from theorycheck.registry import Task, Variable
from theorycheck.tasks.retrieval import RetrievalParams
from theorycheck.tasks.retrieval_task import retrieval_cost

__all__ = ["TASK", "readout_params", "readout_trial", "S_MIN_IN", "ZETA_OUT"]

ZETA_OUT = 0.5
"""The trigger norm at ``s = 1`` (the trigger out of the value path): the published trigger-out lines' value."""
S_MIN_IN = 1.25
"""The smallest ``s > 1`` (``ζ = 1/2``, the smallest trigger norm of the published trigger-in walls)."""


def readout_params(params: Mapping[str, Any]) -> RetrievalParams:
    """A flat settings dict (``V``, ``d``, ``s``, ``L``, ``n_per_fact``, ``target``, ``contexts``) as the
    :class:`~theorycheck.tasks.retrieval.RetrievalParams` of the limit's trial; a ValueError naming a bad one."""
    p = TASK.coerce({**TASK.defaults, **params})
    unknown = sorted(set(p) - {*TASK.variables, *TASK.settings})
    if unknown:
        raise ValueError(f"readout-wall task has no parameter(s) {unknown}; known: "
                         f"{sorted({*TASK.variables, *TASK.settings})}")
    s = p["s"]
    if not (s == 1.0 or s >= S_MIN_IN):
        raise ValueError(f"s (the trigger's share, 1 + zeta^2 with the trigger in the value path) must be 1 (the "
                         f"trigger out) or at least {S_MIN_IN:g} (zeta >= 1/2), got {s:g}")
    return RetrievalParams(V=p["V"], d=p["d"], L=p["L"], N=p["n_per_fact"] * p["V"],
                           zeta=ZETA_OUT if s == 1.0 else math.sqrt(s - 1.0), marker_in_value=s > 1.0,
                           contexts=p["contexts"], target=p["target"])


def readout_trial(params: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """One seed's read-out at infinite ``N`` (the module docstring): its success and test accuracy."""
    from theorycheck.simulate import readout_accuracy

    rp = readout_params(params)
    accuracy = readout_accuracy(rp, seed)
    return {"success": bool(accuracy >= rp.target), "accuracy": accuracy}


def readout_cost(p: Mapping[str, Any]) -> float:
    """1.25 times the limit's cost (:func:`~theorycheck.tasks.retrieval_task.retrieval_cost`) at the step-1
    sample ``n_per_fact·V``: the read-out adds a ``V·d²`` product and a test set. Measured (one thread,
    2026-12-06, ``s = 2``): 0.76, 1.21 and 2.60 s of CPU a trial at ``(V, d)`` = (2048, 424), (2896, 506) and
    (4096, 620), where this predicts 0.61, 1.29 and 2.94 s at 16 ns a unit."""
    q = {**TASK.defaults, **p}
    return 1.25 * retrieval_cost({"V": q["V"], "d": q["d"], "L": q["L"], "N": q["n_per_fact"] * q["V"]})


TASK = Task(
    name="readout-wall",
    trial=readout_trial,
    variables=(
        Variable("V", "integer", 2, description="vocabulary size = number of token-label facts"),
        Variable("d", "integer", 1, description="embedding dimension"),
        Variable("s", "real", 1.0, description="the trigger's share of the stored values: 1 + zeta^2 with the "
                 "trigger in the value path, 1 with it out"),
    ),
    resource="d",
    defaults={"V": 1024, "d": 256, "s": 1.0, "L": 16, "n_per_fact": 250, "target": 0.99, "contexts": 1},
    validate=readout_params,
    cost=readout_cost,
    description="hard attention's read-out of the three-step limit at infinite N; its wall in d "
                "(docs/theory.md §7.12)",
    settings=(
        Variable("L", "integer", 1, description="sequence length of step 1's sample"),
        Variable("n_per_fact", "integer", 1, description="step 1's sample, in sequences per fact (N / V)"),
        Variable("target", "real", 0.0, 1.0, description="the test accuracy a trial must reach"),
        Variable("contexts", "integer", 1, description="test contexts per token"),
    ),
)
