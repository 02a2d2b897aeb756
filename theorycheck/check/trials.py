"""Trial functions of a check: ``trial(params, seed) -> {"success": bool, ...}``.

Top-level (picklable) functions, one per task, so that any executor -- a process pool or
a dask cluster -- can run them. ``params`` holds every setting of the trial: the task
variables of the cell, the resource value, and the simulator settings (``algorithm``,
``embeddings``, ...). The seed is the :class:`numpy.random.SeedSequence` the sweep
derives from (cell, resource value, replicate); the simulator spawns from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from theorycheck.simulate import resolve_algorithm, simulate
from theorycheck.tasks.linear_am import LinearAMParams, simulate_linear_am
from theorycheck.tasks.retrieval import RetrievalParams

__all__ = ["TASKS", "Task", "retrieval_trial", "linear_am_trial", "get_task"]

#: Parameters the simulators take as integers (the sweep and the design propose floats).
INTEGER_PARAMS = frozenset({"N", "d", "L", "V", "m", "contexts", "steps"})


def _typed(params: Mapping[str, Any]) -> dict[str, Any]:
    """Integers where the simulator wants them (the search proposes floats)."""
    return {k: int(round(v)) if k in INTEGER_PARAMS and v is not None else v for k, v in params.items()}


def retrieval_params(params: Mapping[str, Any]) -> tuple[RetrievalParams, str, dict[str, Any]]:
    """Split a flat settings dict into (RetrievalParams, algorithm, algorithm options)."""
    settings = _typed(params)
    algorithm = settings.pop("algorithm", "limit")
    options = dict(settings.pop("options", {}) or {})
    fields = set(RetrievalParams.__dataclass_fields__)
    unknown = sorted(set(settings) - fields)
    if unknown:
        raise ValueError(
            f"retrieval task has no parameter(s) {unknown}; known: {sorted(fields)} "
            "plus 'algorithm' and 'options'"
        )
    p = RetrievalParams(**settings)
    resolve_algorithm(algorithm, p.model)  # ValueError naming the valid algorithms
    return p, algorithm, options


def retrieval_trial(params: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """One token-retrieval trial (THEORY §1-4) through :func:`theorycheck.simulate.simulate`."""
    p, algorithm, options = retrieval_params(params)
    out = simulate(p, algorithm, seed=seed, **options)
    return {
        "success": bool(out.success),
        "accuracy": float(out.accuracy),
        "selection_accuracy": float(out.selection_accuracy),
        "seconds": float(out.seconds),
    }


def linear_am_params(params: Mapping[str, Any]) -> LinearAMParams:
    settings = _typed(params)
    fields = set(LinearAMParams.__dataclass_fields__)
    unknown = sorted(set(settings) - fields)
    if unknown:
        raise ValueError(f"linear-am task has no parameter(s) {unknown}; known: {sorted(fields)}")
    return LinearAMParams(**settings)


def linear_am_trial(params: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """One linear associative memory trial (the control task of THEORY §5)."""
    out = simulate_linear_am(linear_am_params(params), seed=seed)
    return {"success": bool(out.success), "accuracy": float(out.accuracy), "seconds": float(out.seconds)}


class Task:
    """What the check needs to know of a task: its trial, variables, validation and cost."""

    def __init__(self, name: str, trial: Callable, variables: tuple[str, ...],
                 validate: Callable[[Mapping[str, Any]], Any], cost: Callable[[Mapping[str, float]], float],
                 defaults: Mapping[str, Any]) -> None:
        self.name, self.trial, self.variables = name, trial, variables
        self.validate, self.cost, self.defaults = validate, cost, dict(defaults)


def _retrieval_cost(p: Mapping[str, float]) -> float:
    """Work of one trial in units of one token visit of the fast path (~30 ns).

    The fast path is O(N*L + V^2*d) (THEORY §3); a V^2*d product runs at BLAS speed,
    about 10x cheaper per term than a token visit (gather + bincount). The dense
    algorithms (three-step, gd, MLP) touch N*L*d numbers.
    """
    dense = p.get("algorithm") in ("three-step", "gd") or p.get("model") == "mlp"
    width = p.get("m") or p["d"]
    nl = p["N"] * p["L"] * (width if dense else 1.0)
    return float(nl + 0.1 * p["V"] ** 2 * p["d"])


def _linear_am_cost(p: Mapping[str, float]) -> float:
    """BLAS work of the memory and its read-out, (V d^2 + V^2 d) per pass, in token-visit units."""
    passes = 1 + (3 * p.get("steps", 500) if p.get("method") == "gd" else 0)
    return 0.02 * passes * float(p["V"] * p["d"] ** 2 + p["V"] ** 2 * p["d"])


TASKS: dict[str, Task] = {
    "retrieval": Task(
        "retrieval", retrieval_trial, ("N", "d", "L", "V", "m", "zeta"),
        retrieval_params, _retrieval_cost, {"V": 128, "d": 128, "L": 16, "N": 10000, "zeta": 1.0},
    ),
    "linear-am": Task(
        "linear-am", linear_am_trial, ("V", "d"),
        linear_am_params, lambda p: _linear_am_cost(p), {"V": 256, "d": 64},
    ),
}


def get_task(name: str) -> Task:
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; choose one of {', '.join(TASKS)}") from None
