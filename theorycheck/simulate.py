"""One simulation trial: ``(params, algorithm, seed) -> Outcome`` (docs/theory.md §4).

The seed becomes a :class:`numpy.random.SeedSequence` ``S``; three children
``SeedSequence(S.entropy, spawn_key=S.spawn_key + (i,))`` (``i = 0, 1, 2``) draw the
embeddings, the training data and the test data.  They are built explicitly (not with
``S.spawn``, which counts calls), so the same seed gives the same outcome bit for bit,
however often and wherever it runs.  Only ``seconds`` (wall time) differs between runs.

The test set (docs/theory.md §4): every token ``a`` at a uniform random position of a fresh
random context, ``params.contexts`` times; recall accuracy is the fraction of these
``V·contexts`` sequences whose label is predicted, selection accuracy the fraction whose
informative position gets the largest attention weight (``NaN`` for algorithms without
attention), success is ``accuracy >= params.target``.

>>> from theorycheck.tasks.retrieval import RetrievalParams
>>> out = simulate(RetrievalParams(V=32, d=48, L=4, N=2000), "limit", seed=1)
>>> out.accuracy == simulate(RetrievalParams(V=32, d=48, L=4, N=2000), "limit", seed=1).accuracy
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from theorycheck.algorithms.device_memory import retry_out_of_memory
from theorycheck.outcome import Outcome
from theorycheck.registry import get_algorithm
from theorycheck.seeding import child_seed, seed_record, seed_sequence
from theorycheck.tasks.retrieval import Batch, Embeddings, RetrievalParams, make_embeddings, test_batch

__all__ = ["simulate", "trial_draws", "readout_accuracy", "check_memory", "resolve_algorithm", "seed_sequence",
           "seed_record"]


def resolve_algorithm(name: str, model: str = "attention") -> Callable:
    """The function that runs algorithm ``name`` for ``model``, from the declarations of
    :mod:`theorycheck.registry` (imported on first use). ValueError naming the valid
    algorithms, or the models the algorithm supports."""
    return get_algorithm(name).runner(model)


#: Largest working set one trial may plan for (bytes): half of a 2-core CI machine's 24 GiB,
#: overridable by the environment variable THEORYCHECK_MEMORY_GB.
MEMORY_CAP_BYTES = 12 * 2**30


def check_memory(params: RetrievalParams, dense: bool) -> None:
    """ValueError before any work when the trial's arrays would exceed the memory cap.

    Estimate (float64): the token and label embeddings ``2·V·d``, the ``(V, d)`` products of
    the read-out, and for dense algorithms the sub-chunks' ``(n, V)`` logits and their
    temporaries, ~16 MiB each (:class:`theorycheck.models.training.DenseTrainingData`; the
    compact training tokens are cached by the fast path's rule for every algorithm), plus,
    for the MLP, its ``m×d`` feature map and value direction (docs/theory.md §3), and for
    the MLP limit its four ``V×m`` tables (:mod:`theorycheck.algorithms.limit_mlp`).
    """
    import os

    dense_bytes = 64.0 * 2**20 if dense else 0.0
    m = params.m or 0
    tables = 0.0 if dense else 4 * params.V * m  # the MLP limit's V×m tables (limit_mlp)
    need = 8.0 * (4 * params.V * params.d + 2 * m * params.d + tables) + dense_bytes
    cap = float(os.environ.get("THEORYCHECK_MEMORY_GB", MEMORY_CAP_BYTES / 2**30)) * 2**30
    if need > cap:
        raise ValueError(f"this trial needs about {need / 2**30:.1f} GiB (V={params.V}, d={params.d}, N={params.N}, "
                         f"L={params.L}{', dense' if dense else ''}), above the cap of {cap / 2**30:.0f} GiB; use "
                         "smaller sizes, or raise THEORYCHECK_MEMORY_GB if the machine has the memory")


def trial_draws(params: RetrievalParams, seed) -> tuple[Embeddings, np.random.SeedSequence, Batch]:
    """What a trial draws from its seed: the embeddings (child stream 0), the seed of its
    training data (child 1, drawn by the algorithm) and the test set (child 2)."""
    ss = seed_sequence(seed)
    emb = make_embeddings(params, np.random.default_rng(child_seed(ss, 0)))
    return emb, child_seed(ss, 1), test_batch(params, emb, np.random.default_rng(child_seed(ss, 2)))


def simulate(params: RetrievalParams, algorithm: str = "limit", seed=0, **options) -> Outcome:
    """Run one trial of ``algorithm`` on the task ``params`` and score it (docs/theory.md §4).

    ``options`` go to the algorithm (e.g. ``beta`` for ``limit``).  Raises ValueError
    before any work for a bad algorithm name, seed or option.
    """
    if not isinstance(params, RetrievalParams):
        raise ValueError(f"params must be a RetrievalParams, got {type(params).__name__}")
    declared = get_algorithm(algorithm)
    fn = declared.runner(params.model)
    options = declared.check_options(params.model, options)  # as the CLI and check do
    check_memory(params, declared.is_dense(params.model))
    start = time.perf_counter()
    emb, train_seed, test = trial_draws(params, seed)

    def run():  # on an accelerator shared with other trials, run again once memory frees
        fitted = fn(params, emb, train_seed, **options)
        return (fitted, *fitted.predict(test))

    fitted, predicted, attended = retry_out_of_memory(
        run, f"(V, d, L, N) = ({params.V}, {params.d}, {params.L}, {params.N})")
    accuracy = float(np.mean(predicted == test.labels))
    attended = np.asarray(attended)
    selection = math.nan if (attended < 0).any() else float(np.mean(attended == test.pos))
    diagnostics = dict(getattr(fitted, "diagnostics", {}) or {})
    seconds = time.perf_counter() - start

    def optional(key):
        value = diagnostics.get(key)
        return None if value is None else float(value)

    return Outcome(
        params={"task": "retrieval", **params.to_dict()},
        algorithm=algorithm,
        seed=seed_record(seed),
        options=dict(options),
        accuracy=accuracy,
        selection_accuracy=selection,
        success=bool(accuracy >= params.target),
        trigger_coef=optional("trigger_coef"),
        selection_margin=optional("selection_margin"),
        seconds=seconds,
        extras={"diagnostics": diagnostics, "n_test": len(test)},
    )


def readout_accuracy(params: RetrievalParams, seed=0) -> float:
    """One seed of hard attention's read-out at infinite ``N`` on the draws of a ``limit`` trial with ``seed``: the
    fraction of its test set recalled (:func:`theorycheck.algorithms.population_readout.population_accuracy`; the
    trial of the ``readout-wall`` task, which reaches the algorithms through this module, as the retrieval task's
    trial reaches them through :func:`simulate`)."""
    from theorycheck.algorithms.population_readout import population_accuracy  # it draws with trial_draws above

    return population_accuracy(params, seed)


# ``from theorycheck import simulate`` gives this module; calling it runs :func:`simulate`.
import sys as _sys  # noqa: E402  (kept in one hunk at the end of the module)

from theorycheck import _CallableModule  # noqa: E402

_sys.modules[__name__].__class__ = _CallableModule
