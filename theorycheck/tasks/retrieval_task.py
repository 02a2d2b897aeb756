"""The token-retrieval task declared for the registry: variables, trial, cost (docs/theory.md §1-4).

The trial runs :func:`theorycheck.simulate.simulate` on the flat settings of a sweep cell
(the task variables, the resource value and the simulator settings ``algorithm``,
``options``, ``embeddings``, ...). Training data are nested in ``N``: the first ``n``
sequences are the same for every ``N >= n`` (:func:`theorycheck.tasks.retrieval.iter_chunks`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from theorycheck.registry import Task, Variable, get_algorithm
from theorycheck.tasks.retrieval import EMBEDDING_KINDS, MODELS, RetrievalParams

__all__ = ["TASK", "retrieval_params", "retrieval_trial", "retrieval_cost"]


def retrieval_params(params: Mapping[str, Any]) -> tuple[RetrievalParams, str, dict[str, Any]]:
    """Split a flat settings dict into (RetrievalParams, algorithm, algorithm options).

    An algorithm's option may be given flat (``beta=4``, as ``--set beta=4``) or inside
    ``options``; the flat one wins where both are given. The options are checked against
    the algorithm's declaration (names and values, :meth:`theorycheck.registry.Algorithm.check_options`),
    so that a bad value is refused before any trial runs."""
    settings = TASK.coerce(params)
    algorithm = settings.pop("algorithm", "limit")
    options = dict(settings.pop("options", {}) or {})
    fields = set(RetrievalParams.__dataclass_fields__)
    unknown = sorted(set(settings) - fields)
    if unknown:
        known_options = get_algorithm(algorithm).options(settings.get("model", "attention"))
        options.update({k: settings.pop(k) for k in unknown if k in known_options})
        unknown = [k for k in unknown if k not in known_options]
    if unknown:
        raise ValueError(
            f"retrieval task has no parameter(s) {unknown}; known: {sorted(fields)} "
            f"plus 'algorithm', 'options' and the {algorithm} algorithm's options"
        )
    p = RetrievalParams(**settings)
    # ValueError naming the valid algorithms / models (check_options looks up the runner of
    # p.model first), then unknown options or a bad value
    return p, algorithm, get_algorithm(algorithm).check_options(p.model, options)


def retrieval_trial(params: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """One token-retrieval trial (docs/theory.md §1-4) through :func:`theorycheck.simulate.simulate`."""
    from theorycheck.simulate import simulate

    p, algorithm, options = retrieval_params(params)
    out = simulate(p, algorithm, seed=seed, **options)
    return {
        "success": bool(out.success),
        "accuracy": float(out.accuracy),
        "selection_accuracy": float(out.selection_accuracy),
    }  # no wall-clock time: the same seed stores the same record


TOKEN_VISIT_SECONDS = 16e-9
"""CPU seconds of one unit of :func:`retrieval_cost` (one token visit of the fast path, one
thread; measured 2026-11-23, below): what bench scripts multiply a cost model by."""


def retrieval_cost(p: Mapping[str, Any]) -> float:
    """Work of one trial in units of one token visit of the fast path (~16 ns of CPU).

    The fast path is O(N*L + V^2*d) (docs/theory.md §3); its V^2*d products run at BLAS
    speed, about 80x cheaper per term than a token visit (gather + bincount). Measured on
    one thread (CPU seconds, 2026-11-23): 1.62 s for N*L = 1.0e8 tokens at V = 256
    (V^2*d negligible), 1.67 s for V^2*d = 8.6e9 at (V, d, L, N) = (4096, 512, 4, 2000)
    (tokens negligible): 16 ns a token, 0.19 ns a V^2*d term. Dense algorithms (declared
    ``dense`` for the model) touch N*L*d numbers (N*L*m for the MLP).

    An algorithm may declare its own ``work`` for a model (the MLP limit does:
    :func:`theorycheck.algorithms.limit_mlp.trial_work`); it replaces the ``N*L`` term.
    """
    algorithm = get_algorithm(p.get("algorithm", "limit"))
    model = p.get("model", "attention")
    work = algorithm.trial_work(model, p)
    if work is None:
        work = p["N"] * p["L"] * ((p.get("m") or p["d"]) if algorithm.is_dense(model) else 1.0)
    return float(work + p["V"] ** 2 * p["d"] / 80.0)


TASK = Task(
    name="retrieval",
    trial=retrieval_trial,
    variables=(
        Variable("N", "integer", 1, description="number of training sequences (sample size)"),
        Variable("d", "integer", 1, description="embedding dimension"),
        Variable("L", "integer", 1, description="sequence length"),
        Variable("V", "integer", 2, description="vocabulary size = number of token-label facts"),
        Variable("m", "integer", 1, description="MLP width (attention-MLP model)"),
        Variable("zeta", "real", description="norm of the trigger embedding z_trig"),
    ),
    resource="N",
    defaults={"V": 128, "d": 128, "L": 16, "N": 10000, "zeta": 1.0},
    validate=retrieval_params,
    cost=retrieval_cost,
    description="token retrieval with a trigger marking the informative position (docs/theory.md §1)",
    nested=("N",),
    settings=(Variable("contexts", "integer", 1, description="test contexts per token"),),
    choices={"embeddings": EMBEDDING_KINDS, "model": MODELS},
)
