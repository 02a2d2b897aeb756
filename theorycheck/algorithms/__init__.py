"""Training algorithms of docs/theory.md §3 for the token-retrieval task.

Every algorithm is a function ``run_<name>(params, emb, train_seed, **options) -> Fitted``
that trains on the ``params.N`` sequences of :func:`theorycheck.tasks.retrieval.iter_chunks`
drawn from ``train_seed`` and returns an object with

* ``predict(batch) -> (labels, attended)``: predicted labels ``(n,)`` and the position of
  largest attention weight ``(n,)`` (``-1`` where the algorithm has no attention, e.g.
  the one-step readout);
* ``diagnostics``: a mapping of floats (trigger coefficient, selection margin, loss...).

Modules: :mod:`.limit` (early-phase limit, attention-only fast path, docs/theory.md §3 item 2),
:mod:`.one_step` (one-step readout, item 3), :mod:`.dense_reference` (the same formulas
computed densely, for tests and benchmarks), ``three_step``, ``gd`` and ``limit_mlp``
(dense algorithms, items 1, 4 and the MLP limit).

Each algorithm declares itself once, at the end of its module: ``ALGORITHM =
theorycheck.registry.Algorithm(name, runners={model: "module:function"}, dense=...)``.
:mod:`theorycheck.registry` finds these declarations; adding an algorithm is adding a module.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

import numpy as np

__all__ = ["Fitted"]


@runtime_checkable
class Fitted(Protocol):
    """What every algorithm returns."""

    diagnostics: Mapping[str, float]

    def predict(self, batch) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover - protocol
        ...
