"""Full-batch gradient descent (or Adam) from zero (docs/theory.md §3 item 4), dense.

``T`` steps on the empirical cross-entropy ``L̂`` of the same ``N`` training sequences,
from ``W_V = 0, W_KQ = 0``, updating both matrices with the analytic gradients of
:mod:`theorycheck.models.attention` (sums over chunks of sequences):

* ``optimizer="gd"``:   ``W ← W − lr·∇L̂``;
* ``optimizer="adam"``: ``m ← b₁m + (1−b₁)∇``, ``v ← b₂v + (1−b₂)∇²``,
  ``W ← W − lr·m̂/(√v̂ + ε)`` with bias corrections ``m̂ = m/(1−b₁ᵗ)``, ``v̂ = v/(1−b₂ᵗ)``
  (``b₁ = 0.9``, ``b₂ = 0.999``, ``ε = 1e-8``), element-wise on each matrix
  (:class:`theorycheck.optim.Adam`).

Note that ``∇_{W_KQ} L̂ = 0`` at ``W_V = 0``: the first step moves ``W_V`` only.  With
``center_features`` (MLP) the features' mean is recomputed at every step (one more
pass) and held constant in the gradient.  The chunks are read through their token ids
(:mod:`theorycheck.models.contexts`; ``layout="dense"`` is the ``(n, L, d)`` reference).

Every ``record_every`` steps (and at the last) a record goes to ``history``: ``step``,
``loss``, ``train_accuracy``, ``train_selection_accuracy`` (on the training set, at the
weights before that step's update; the record at ``step = T`` is the final weights) and
``recall_accuracy``, ``recall_selection_accuracy`` on a held-out recall set of docs/theory.md §4
drawn from ``SeedSequence(train_seed.entropy, spawn_key=train_seed.spawn_key + (2**32,))``
(distinct from every training block).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from theorycheck.algorithms.limit import selection_diagnostics
from theorycheck.algorithms.three_step import full_gradient
from theorycheck.models.attention import dense_model
from theorycheck.models.training import (
    DEFAULT_DENSE_CACHE_BYTES,
    DENSE_OPTIONS,
    DenseFit,
    DenseTrainingData,
    check_dense_combination,
    feature_mean,
    trial_work as dense_trial_work,
)
from theorycheck.registry import Algorithm
from theorycheck.tasks.retrieval import Embeddings, RetrievalParams, test_batch
from theorycheck.optim import Adam
from theorycheck.seeding import child_seed
from theorycheck.validate import check_choice, check_int, check_options, check_positive, optional

__all__ = ["run_gd", "trial_work", "OPTIMIZERS", "DEFAULT_LR", "DEFAULT_STEPS", "EVAL_SPAWN_KEY"]

OPTIMIZERS = ("gd", "adam")
DEFAULT_LR = {"gd": 10.0, "adam": 0.03}
"""Default learning rates (``lr=None``): gradients at initialisation are ``≈ 1/(L√V)``
small, so plain GD needs a large step. Measured in the paper's regime (docs/theory.md §7.8):
at ``(V, d, L) = (1024, 256, 64)`` plain GD at ``lr = 10`` is still in the early phase after
240 steps (loss at ``ln V``), while ``lr = 100`` leaves it by step ~48; pass ``lr`` there."""
EVAL_SPAWN_KEY = 2**32
DEFAULT_STEPS = 200


#: The rules (theorycheck.validate) of :func:`run_gd`'s options; None: the default.
OPTION_RULES = {
    "steps": partial(check_int, "steps", minimum=1, hint=" (number of gradient steps)"),
    "lr": optional(partial(check_positive, "lr", hint=" (learning rate)")),
    "optimizer": partial(check_choice, "optimizer", choices=OPTIMIZERS),
    "record_every": optional(partial(check_int, "record_every", minimum=1, hint=" (steps between history records)")),
    **DENSE_OPTIONS,
}


def record_spacing(steps: int, record_every: int | None) -> int:
    """Steps between history records: ``record_every``, by default ``max(1, steps // 20)``."""
    return max(1, steps // 20) if record_every is None else record_every


def trial_work(p) -> float:
    """Work of one trial in the retrieval task's cost units
    (:func:`theorycheck.models.training.trial_work`): ``steps + 1`` passes over the training
    sequences (half a pass more each for the centring mean) and a recall evaluation at
    every history record.  The options are read as the trial reads them
    (:func:`theorycheck.tasks.retrieval_task.retrieval_params`)."""
    from theorycheck.tasks.retrieval_task import retrieval_params

    options = retrieval_params(p)[2]
    steps = int(options.get("steps", DEFAULT_STEPS))
    records = steps // record_spacing(steps, options.get("record_every")) + 2
    passes = (steps + 1) * (1.5 if p.get("center_features") else 1.0)
    return dense_trial_work(p, passes, records)


def run_gd(
    params: RetrievalParams,
    emb: Embeddings,
    train_seed: np.random.SeedSequence,
    *,
    steps: int = DEFAULT_STEPS,
    lr: float | None = None,
    optimizer: str = "gd",
    record_every: int | None = None,
    chunk: int | None = None,
    dense_cache_bytes: int = DEFAULT_DENSE_CACHE_BYTES,
    layout: str = "tokens",
    backend: str = "numpy",
) -> DenseFit:
    """``steps`` full-batch steps of GD or Adam from zero (see the module docstring).

    ``lr``: learning rate (default :data:`DEFAULT_LR` of the optimizer);
    ``record_every``: steps between history records (default ``max(1, steps // 20)``);
    ``chunk``: sequences per sub-chunk; ``layout``: ``"tokens"`` or ``"dense"`` (the
    reference; same numbers to rounding, :mod:`theorycheck.models.contexts`); ``backend``:
    array library of the passes and the optimiser's state (``"torch"``: a GPU when there
    is one; :class:`~theorycheck.models.training.DenseTrainingData`).  Returns a
    :class:`~theorycheck.models.training.DenseFit` with ``history`` and diagnostics
    ``loss``, ``train_accuracy``, ``train_selection_accuracy``, ``recall_accuracy``,
    ``recall_selection_accuracy`` (final weights), ``steps``, ``lr``, and the selection
    diagnostics of ``q = W_KQ z_EOS`` (``trigger_coef = z_trigᵀ q`` is the trigger's
    attention-logit advantage; ``selection_margin`` is scale-free).
    """
    steps, lr, optimizer, record_every = check_options(OPTION_RULES, {
        "steps": steps, "lr": lr, "optimizer": optimizer, "record_every": record_every}).values()
    lr = DEFAULT_LR[optimizer] if lr is None else lr
    record_every = record_spacing(steps, record_every)
    data = DenseTrainingData(params, emb, train_seed, chunk=chunk, dense_cache_bytes=dense_cache_bytes,
                             layout=layout, backend=backend)
    model = dense_model(params, emb, data.bk)
    recall = test_batch(params, emb, np.random.default_rng(child_seed(train_seed, EVAL_SPAWN_KEY)))
    centre = params.model == "mlp" and params.center_features
    w_v, w_kq = model.zeros()
    adam = Adam([w_v.shape, w_kq.shape]) if optimizer == "adam" else None
    history = []
    mu = None
    for step in range(steps + 1):
        mu = feature_mean(model, data, w_kq) if centre else None
        loss, grad_v, grad_kq, acc, sel = full_gradient(model, data, w_v, w_kq, mu)
        if step % record_every == 0 or step == steps:
            fit = DenseFit(params=params, emb=emb, w_v=w_v, w_kq=w_kq, feature_mean=mu,
                           diagnostics={}, chunk=data.chunk, layout=data.layout, backend=backend)
            labels, attended = fit.predict(recall)
            history.append({
                "step": step, "loss": loss, "train_accuracy": acc, "train_selection_accuracy": sel,
                "recall_accuracy": float(np.mean(labels == recall.labels)),
                "recall_selection_accuracy": float(np.mean(attended == recall.pos)),
            })
        if step == steps:
            break
        if adam is None:
            w_v = w_v - lr * grad_v
            w_kq = w_kq - lr * grad_kq
        else:
            dv, dkq = adam.step([grad_v, grad_kq], lr)
            w_v = w_v - dv
            w_kq = w_kq - dkq
    diagnostics = selection_diagnostics(emb, data.bk.numpy(w_kq) @ emb.z_eos, params)
    diagnostics.pop("trigger_coef_scaled")
    final = history[-1]
    diagnostics.update({k: float(final[k]) for k in (
        "loss", "train_accuracy", "train_selection_accuracy", "recall_accuracy",
        "recall_selection_accuracy")})
    diagnostics.update({"steps": float(steps), "lr": lr})
    return DenseFit(params=params, emb=emb, w_v=w_v, w_kq=w_kq, feature_mean=mu,
                    diagnostics=diagnostics, history=tuple(history), chunk=data.chunk, layout=data.layout,
                    backend=backend)


ALGORITHM = Algorithm(
    name="gd",
    runners={"attention": "theorycheck.algorithms.gd:run_gd", "mlp": "theorycheck.algorithms.gd:run_gd"},
    dense=True,
    option_rules=OPTION_RULES,
    joint_rule=check_dense_combination,
    description="full gradient descent or Adam from zero (docs/theory.md §3 item 4)",
    work={"attention": "theorycheck.algorithms.gd:trial_work", "mlp": "theorycheck.algorithms.gd:trial_work"},
)
