"""Three gradient steps with finite step sizes (docs/theory.md §3 item 1), dense.

From ``W_V = 0, W_KQ = 0``, with real softmax attention and cross-entropy gradients of
the empirical loss ``L̂`` on the ``N`` training sequences (chunked: every gradient is a
sum of per-chunk gradients; the chunks are read through their token ids,
:mod:`theorycheck.models.contexts`):

* ``W_V¹  = −η ∇_{W_V} L̂(0, 0)``             (``= η G₁`` exactly: ``p`` and ``σ`` are uniform);
* ``W_KQ¹ = −γ ∇_{W_KQ} L̂(W_V¹, 0)``          (``= γη g z_EOSᵀ + O(γη²)``);
* ``W_V²  = W_V¹ − γ' ∇_{W_V} L̂(W_V¹, W_KQ¹)`` (``→ γ' G₂`` in direction as ``η → 0``, ``γ' → ∞``).

Both models of docs/theory.md §2 (``params.model``).  With ``center_features`` the MLP
features are ``relu(A o) − μ``, ``μ`` the training features' mean at the current
attention (uniform for steps 1-2, ``W_KQ¹`` for step 3 and prediction), held constant
in the gradients.

**Step size of step 2.** Give ``gamma`` directly, or ``beta`` (default
:data:`DEFAULT_BETA`): then ``γ = β / |z_trigᵀ(−∇_{W_KQ}L̂) z_EOS|``, so the trigger alone
gives the informative position an attention-logit advantage of exactly ``β`` -- the
scale-free inverse temperature of :mod:`theorycheck.algorithms.limit`, whose soft
attention ``β·k_iᵀg/|α|`` this reproduces as ``η → 0`` (there ``γη|z_EOS|²|α| = β``).
"""

from __future__ import annotations

from functools import partial

import numpy as np

from theorycheck.algorithms.limit import selection_diagnostics
from theorycheck.backend import namespace
from theorycheck.models.attention import dense_model
from theorycheck.models.training import (
    DEFAULT_DENSE_CACHE_BYTES,
    DENSE_OPTIONS,
    DenseFit,
    DenseTrainingData,
    check_dense_combination,
    feature_mean,
    pass_work,
    trial_work as dense_trial_work,
)
from theorycheck.registry import Algorithm
from theorycheck.tasks.retrieval import Embeddings, RetrievalParams
from theorycheck.validate import check_options, check_positive, optional

__all__ = ["run_three_step", "DEFAULT_BETA", "full_gradient", "trial_work"]

DEFAULT_BETA = 10.0
"""Default trigger logit advantage after step 2 (used when ``gamma`` is not given)."""


def full_gradient(model, data: DenseTrainingData, w_v, w_kq, mu, *, with_kq: bool = True):
    """``(L̂, ∇_{W_V} L̂, ∇_{W_KQ} L̂ or None, train accuracy, train selection accuracy)``:
    means over the ``N`` training sequences of the per-chunk sums."""
    xp = namespace(w_v)
    loss, grad_v, grad_kq, correct, selected, count = 0.0, xp.zeros_like(w_v), None, 0, 0, 0
    if with_kq:
        grad_kq = xp.zeros_like(w_kq)
    for ctx, labels, pos in data:
        part = model.loss_and_gradients(ctx, labels, w_v, w_kq, mu, pos=pos, with_kq=with_kq)
        loss += part.loss
        grad_v += part.grad_v
        if with_kq:
            grad_kq += part.grad_kq
        correct += part.correct
        selected += part.selected
        count += part.count
    if with_kq:
        grad_kq /= count
    return loss / count, grad_v / count, grad_kq, correct / count, selected / count


def trial_work(p) -> float:
    """Work of one trial in the retrieval task's cost units
    (:func:`theorycheck.models.training.trial_work`): two full passes over the training
    sequences (one more for the two centring means), the first step's pass at ``W_V = 0``
    without logits, and one prediction of the test set."""
    return dense_trial_work(p, 3.0 if p.get("center_features") else 2.0, 1) + pass_work(p, logits=False)


#: The rules (theorycheck.validate) of :func:`run_three_step`'s options; None: the default.
OPTION_RULES = {
    "eta": partial(check_positive, "eta", hint=" (first value step size; the early-phase limit is eta -> 0)"),
    "gamma": optional(partial(check_positive, "gamma", hint=" (key-query step size)")),
    "beta": optional(partial(check_positive, "beta", hint=" (trigger attention-logit advantage after step 2; "
                                                          "use the limit algorithm for beta=inf)")),
    "gamma_prime": partial(check_positive, "gamma_prime", hint=" (second value step size, large)"),
    **DENSE_OPTIONS,
}


def run_three_step(
    params: RetrievalParams,
    emb: Embeddings,
    train_seed: np.random.SeedSequence,
    *,
    eta: float = 1.0,
    gamma: float | None = None,
    beta: float | None = None,
    gamma_prime: float = 1e4,
    chunk: int | None = None,
    dense_cache_bytes: int = DEFAULT_DENSE_CACHE_BYTES,
    layout: str = "tokens",
    backend: str = "numpy",
) -> DenseFit:
    """Three finite gradient steps (docs/theory.md §3 item 1); see the module docstring.

    ``eta`` (``η > 0``): first value step; the early-phase regime is ``η·max|f| ≪ 1``
    (logits ``≈ η/(L·V)``, so ``η = 1`` is already small), and ``W_V²`` keeps ``ηG₁`` with
    weight ``η/γ'`` beside the step-3 term: measured, ``η/γ' ≳ 1`` raises the threshold at
    soft attention, more at longer ``L``; with the trigger in the value path a moderate ``η``
    lowers it instead (the step-3 gradient at ``W_V¹`` carries less of the labels' marginal
    bias) and a large one raises it (docs/theory.md §7.12).  ``gamma`` (``γ > 0``) or
    ``beta`` (``β > 0``, trigger logit advantage; default 10): key-query step.
    ``gamma_prime`` (``γ' > 0``): second value step (large).  ``chunk``: sequences per
    sub-chunk; ``layout``: ``"tokens"`` or ``"dense"`` (the reference; same numbers to
    rounding, :mod:`theorycheck.models.contexts`); ``backend``: array library of the
    passes (:class:`~theorycheck.models.training.DenseTrainingData`; ``"torch"`` runs on a
    GPU when there is one; the same data, the same numbers to rounding).  Diagnostics: the losses at the three evaluation points,
    ``gamma``, ``beta`` (the trigger logit advantage ``z_trigᵀ W_KQ¹ z_EOS``), the
    selection diagnostics of :func:`~theorycheck.algorithms.limit.selection_diagnostics`
    on ``ĝ = W_KQ¹ z_EOS/(γη|z_EOS|²)`` (→ the limit's ``g``), training selection accuracy.
    """
    eta, gamma, beta, gamma_prime = check_options(OPTION_RULES, {
        "eta": eta, "gamma": gamma, "beta": beta, "gamma_prime": gamma_prime}).values()
    check_combination({"gamma": gamma, "beta": beta})
    if gamma is None and beta is None:
        beta = DEFAULT_BETA
    data = DenseTrainingData(params, emb, train_seed, chunk=chunk, dense_cache_bytes=dense_cache_bytes,
                             layout=layout, backend=backend)
    model = dense_model(params, emb, data.bk)
    host = data.bk.numpy
    centre = params.model == "mlp" and params.center_features
    w_v0, w_kq0 = model.zeros()

    mu1 = feature_mean(model, data, w_kq0) if centre else None
    loss1, grad, _, _, _ = full_gradient(model, data, w_v0, w_kq0, mu1, with_kq=False)
    w_v1 = -eta * grad
    loss2, _, grad_kq, _, _ = full_gradient(model, data, w_v1, w_kq0, mu1)
    advantage = abs(float(emb.z_trig @ host(grad_kq) @ emb.z_eos))
    if gamma is None:
        if advantage == 0.0:
            raise ValueError("the key-query gradient has no trigger component (z_trig·∇·z_EOS = 0); "
                             "give gamma explicitly instead of beta")
        gamma = beta / advantage
    w_kq1 = -gamma * grad_kq
    mu2 = feature_mean(model, data, w_kq1) if centre else None
    loss3, grad, _, _, selection = full_gradient(model, data, w_v1, w_kq1, mu2, with_kq=False)
    w_v2 = w_v1 - gamma_prime * grad

    z2 = float(emb.z_eos @ emb.z_eos)
    g_hat = (host(w_kq1) @ emb.z_eos) / (gamma * eta * z2)
    diagnostics = selection_diagnostics(emb, g_hat, params)
    diagnostics.update({
        "loss_step1": loss1, "loss_step2": loss2, "loss_step3": loss3,
        "eta": eta, "gamma": gamma, "gamma_prime": gamma_prime,
        "beta": float(emb.z_trig @ host(w_kq1) @ emb.z_eos),
        "train_selection_accuracy": selection,
    })
    return DenseFit(params=params, emb=emb, w_v=w_v2, w_kq=w_kq1, feature_mean=mu2,
                    diagnostics=diagnostics, chunk=data.chunk, layout=data.layout, backend=backend)


def check_combination(options) -> None:
    """The three-step's options that go together (the ``joint_rule`` of its declaration):
    ``gamma`` or ``beta``, not both; the dense algorithms' layout and backend
    (:func:`~theorycheck.models.training.check_dense_combination`)."""
    gamma, beta = options.get("gamma"), options.get("beta")
    if gamma is not None and beta is not None:
        raise ValueError(f"give gamma or beta, not both; got gamma={gamma!r}, beta={beta!r}")
    check_dense_combination(options)


ALGORITHM = Algorithm(
    name="three-step",
    runners={"attention": "theorycheck.algorithms.three_step:run_three_step",
             "mlp": "theorycheck.algorithms.three_step:run_three_step"},
    dense=True,
    option_rules=OPTION_RULES,
    joint_rule=check_combination,
    description="three finite gradient steps (docs/theory.md §3 item 1)",
    work={"attention": "theorycheck.algorithms.three_step:trial_work",
          "mlp": "theorycheck.algorithms.three_step:trial_work"},
)
