"""Dense forward pass, cross-entropy loss and analytic gradients (docs/theory.md §2-3).

The two models of docs/theory.md §2 on keys ``k_i`` and values ``v_i``
(arrays use ROWS: ``U[y] = u_y``):

* attention-only: ``σ = softmax_i(k_iᵀ W_KQ z_EOS)``, ``o = Σ_i σ_i v_i``,
  logits ``f = Uᵀ W_V o`` (``U @ W_V @ o`` in row convention), ``W_V ∈ R^{d×d}``;
* attention-MLP: ``f = Uᵀ W_V φ(o)``, ``φ(o) = relu(A o) − μ`` with ``A ∈ R^{m×d}``
  fixed, ``W_V ∈ R^{d×m}``; ``μ = 0`` unless ``center_features`` (then ``μ`` is the
  features' mean over the training sequences, held constant in the gradient, see
  :func:`feature_sums`).

Per-sequence loss ``ℓ = −log softmax(f)_y`` with ``p = softmax(f)`` and gradients

* ``∇_{W_V} ℓ = U(p − e_y) φ(o)ᵀ``;
* ``∇_{W_KQ} ℓ = Σ_i σ_i [(v_i − o)ᵀ J] k_i z_EOSᵀ`` with ``J = ∂ℓ/∂o``:
  ``J = W_Vᵀ U(p − e_y)`` (attention-only), ``J = Aᵀ[1{A o > 0} ⊙ W_Vᵀ U(p − e_y)]`` (MLP).

A chunk of sequences enters only through the sums over positions of
:mod:`theorycheck.models.contexts` (``ctx``): explicit ``(n, L, d)`` keys and values, or
token ids read through the embedding rows (same numbers, no ``n·L·d`` arrays).
Everything returns SUMS over the sequences of a chunk, so that an algorithm streaming
over chunks adds them up and divides by ``N`` once. Float64 throughout.

The arrays may belong to any library of the Python array API (PyTorch on a GPU, CuPy, the
strict reference namespace; :mod:`theorycheck.backend`): every operation is the
standard's, taken from the namespace of the arrays it is given, and on NumPy arrays the
numbers are the host path's, bit for bit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from theorycheck.backend import get_backend, namespace

__all__ = ["DenseModel", "Forward", "LossGradients", "dense_model", "softmax_rows"]

Array = NDArray[np.float64]


def softmax_rows(scores: Array) -> Array:
    """Softmax along the last axis, shifted by the row maximum (no overflow)."""
    xp = namespace(scores)
    weights = xp.exp(scores - xp.max(scores, axis=-1, keepdims=True))
    return weights / xp.sum(weights, axis=-1, keepdims=True)


def _count(xp, hits) -> int:
    """How many entries of the boolean array ``hits`` are true."""
    return int(xp.sum(xp.astype(hits, xp.int64)))


@dataclass(frozen=True)
class Forward:
    """Intermediate quantities of one forward pass on ``n`` sequences."""

    sigma: Array  # (n, L) attention weights
    o: Array  # (n, d) attended vector
    pre: Array | None  # (n, m) pre-activations A o (MLP only)
    phi: Array  # (n, d) or (n, m) features fed to W_V (o itself for attention-only)
    logits: Array  # (n, V)


@dataclass(frozen=True)
class LossGradients:
    """Sums over a chunk: loss, gradients, correct predictions, sequences whose largest
    attention weight is on the informative position (``-1`` if ``pos`` was not given),
    number of sequences.  ``grad_kq`` is ``None`` when it was not asked for."""

    loss: float
    grad_v: Array  # same shape as W_V
    grad_kq: Array | None  # (d, d)
    correct: int
    selected: int
    count: int


@dataclass(frozen=True)
class DenseModel:
    """The fixed (untrained) part of a model: label embeddings, query, MLP features.

    ``A is None`` means attention-only. ``feature_mean`` (shape ``(m,)``) is subtracted
    from ``relu(A o)`` and treated as a constant by the gradients.
    """

    U: Array  # (V, d)
    z_eos: Array  # (d,)
    A: Array | None = None  # (m, d)

    @property
    def is_mlp(self) -> bool:
        return self.A is not None

    @property
    def value_shape(self) -> tuple[int, int]:
        """Shape of ``W_V``: ``(d, d)`` attention-only, ``(d, m)`` MLP."""
        d = self.U.shape[1]
        return (d, d) if self.A is None else (d, self.A.shape[0])

    def zeros(self) -> tuple[Array, Array]:
        """The initialisation ``W_V = 0, W_KQ = 0``."""
        d, xp = self.U.shape[1], namespace(self.U)
        return (xp.zeros(self.value_shape, dtype=xp.float64, device=self.U.device),
                xp.zeros((d, d), dtype=xp.float64, device=self.U.device))

    def attention(self, ctx, w_kq: Array) -> Array:
        """``σ_n = softmax_i(k_iᵀ W_KQ z_EOS)``, shape ``(n, L)``."""
        return softmax_rows(ctx.scores(w_kq @ self.z_eos))

    def features(self, o: Array, feature_mean: Array | None = None) -> tuple[Array | None, Array]:
        """``(A o, relu(A o) − μ)`` for the MLP, ``(None, o)`` for attention-only."""
        if self.A is None:
            return None, o
        pre = o @ self.A.T
        phi = _relu(pre)
        if feature_mean is not None:
            phi = phi - feature_mean
        return pre, phi

    def forward(
        self,
        ctx,
        w_v: Array,
        w_kq: Array,
        feature_mean: Array | None = None,
        sigma: Array | None = None,
    ) -> Forward:
        """Forward pass; ``sigma`` overrides the attention (e.g. hard attention)."""
        if sigma is None:
            sigma = self.attention(ctx, w_kq)
        o = ctx.attend(sigma)
        pre, phi = self.features(o, feature_mean)
        logits = (phi @ w_v.T) @ self.U.T
        return Forward(sigma=sigma, o=o, pre=pre, phi=phi, logits=logits)

    def loss_and_gradients(
        self,
        ctx,
        labels: NDArray[np.integer],
        w_v: Array,
        w_kq: Array,
        feature_mean: Array | None = None,
        *,
        pos: NDArray[np.integer] | None = None,
        with_kq: bool = True,
    ) -> LossGradients:
        """Summed cross-entropy and its analytic gradients on one chunk (docs/theory.md §3).

        ``pos`` (informative positions) only feeds the ``selected`` count; ``with_kq=False``
        skips the ``W_KQ`` gradient (returned as ``None``).

        At ``W_V = 0`` (the first step of every algorithm that starts there) the logits
        vanish, so ``p = 1/V`` and ``U(p − e_y) = ū − u_y`` with ``ū`` the mean label
        embedding: the ``n·V`` logits and their back-projection are skipped
        (:meth:`_at_zero_values`; the same sums to rounding, ``J = 0`` exactly)."""
        if not _any_nonzero(w_v):
            return self._at_zero_values(ctx, labels, w_kq, feature_mean, pos=pos, with_kq=with_kq)
        fwd = self.forward(ctx, w_v, w_kq, feature_mean)
        xp = namespace(fwd.logits)
        n, V = fwd.logits.shape
        logits = fwd.logits
        top = xp.max(logits, axis=1, keepdims=True)
        delta = xp.exp(logits - top)
        norm = xp.sum(delta, axis=1)
        picked = xp.take_along_axis(logits, labels[:, None], axis=1)[:, 0]
        loss = float(xp.sum(top[:, 0] + xp.log(norm) - picked))
        delta /= norm[:, None]  # p
        if xp is np:
            delta[np.arange(n), labels] -= 1.0  # p − e_y
        else:  # the standard has no scatter: subtract the one-hot rows (the same numbers)
            label_rows = xp.arange(V, dtype=labels.dtype, device=labels.device)[None, :] == labels[:, None]
            delta = delta - xp.astype(label_rows, delta.dtype)
        back = delta @ self.U  # (n, d): U(p − e_y) per sequence
        grad_v = back.T @ fwd.phi
        grad_kq = None
        if with_kq:
            dphi = back @ w_v  # ∂ℓ/∂φ = W_Vᵀ U(p − e_y)
            if self.A is None:
                jac = dphi
            else:
                jac = (dphi * xp.astype(fwd.pre > 0.0, dphi.dtype)) @ self.A  # ∂ℓ/∂o
            # ∂ℓ/∂s_i = σ_i (v_i − o)ᵀ J ; ∂ℓ/∂(W_KQ z_EOS) = Σ_i ∂ℓ/∂s_i k_i
            o_dot_j = xp.sum(fwd.o * jac, axis=1)
            dquery = ctx.value_key_sum(fwd.sigma, jac) - ctx.key_sum(fwd.sigma * o_dot_j[:, None])
            grad_kq = dquery[:, None] * self.z_eos[None, :]  # the outer product
        correct = _count(xp, xp.argmax(logits, axis=1) == labels)
        selected = _selected(xp, fwd.sigma, pos)
        return LossGradients(loss=loss, grad_v=grad_v, grad_kq=grad_kq, correct=correct,
                             selected=selected, count=n)

    def _at_zero_values(self, ctx, labels, w_kq, feature_mean, *, pos, with_kq) -> LossGradients:
        """:meth:`loss_and_gradients` at ``W_V = 0``: every logit is 0, so each sequence's
        loss is ``log V``, ``p − e_y = 1/V − e_y`` and ``U(p − e_y) = ū − u_y``;
        ``J = W_Vᵀ(·) = 0``, so ``∇W_KQ = 0``; the prediction is label 0 (``argmax`` of a
        row of zeros)."""
        sigma = self.attention(ctx, w_kq)
        _, phi = self.features(ctx.attend(sigma), feature_mean)
        xp = namespace(phi)
        V = self.U.shape[0]
        n = phi.shape[0]
        back = xp.mean(self.U, axis=0)[None, :] - xp.take(self.U, labels, axis=0)
        grad_kq = xp.zeros_like(w_kq) if with_kq else None
        selected = _selected(xp, sigma, pos)
        return LossGradients(loss=n * float(np.log(V)), grad_v=back.T @ phi, grad_kq=grad_kq,
                             correct=_count(xp, labels == 0), selected=selected, count=n)

    def feature_sums(self, ctx, w_kq: Array) -> tuple[Array, int]:
        """``(Σ_n relu(A o_n), n)`` on a chunk: the pieces of the centring mean ``μ``."""
        if self.A is None:
            raise ValueError("feature_sums needs the attention-MLP model (A is None)")
        o = ctx.attend(self.attention(ctx, w_kq))
        return namespace(o).sum(_relu(o @ self.A.T), axis=0), ctx.n


def _selected(xp, sigma: Array, pos) -> int:
    """Sequences whose largest attention weight is on the informative position; ``-1``
    when ``pos`` is not given."""
    return -1 if pos is None else _count(xp, xp.argmax(sigma, axis=1) == pos)


def _any_nonzero(w: Array) -> bool:
    """Whether any entry of ``w`` is non-zero."""
    xp = namespace(w)
    return bool(xp.any(w != 0.0))


def _relu(pre: Array) -> Array:
    """``max(pre, 0)`` element-wise."""
    if isinstance(pre, np.ndarray):
        return np.maximum(pre, 0.0)
    return namespace(pre).clip(pre, min=0.0)


def dense_model(params, emb, backend="numpy") -> DenseModel:
    """The :class:`DenseModel` of ``params.model`` (``"attention"`` or ``"mlp"``), its
    arrays on ``backend`` (a :class:`~theorycheck.backend.Backend` or its name; NumPy:
    the embeddings themselves)."""
    put = get_backend(backend).keep
    if params.model == "attention":
        return DenseModel(U=put(emb.U), z_eos=put(emb.z_eos), A=None)
    if params.model == "mlp":
        if emb.A is None:
            raise ValueError("model='mlp' needs embeddings with MLP features A; got A=None")
        return DenseModel(U=put(emb.U), z_eos=put(emb.z_eos), A=put(emb.A))
    raise ValueError(f"model must be 'attention' or 'mlp', got {params.model!r}")
