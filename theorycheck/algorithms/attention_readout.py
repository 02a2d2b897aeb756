"""Step-2 attention of the early-phase limit and the readout ``argmax_y u_yᵀ G o(X)``.

Used by :mod:`theorycheck.algorithms.limit` for training (pass 3) and prediction.  The
attention logits of position ``i`` are ``a_{x_i} + 1{i=ℓ}·α`` with token scores
``a_x = e_xᵀ g`` and trigger coefficient ``α = z_trigᵀ g`` (docs/theory.md §3 item 2); hard
attention (``β = ∞``) takes the argmax (first one on ties), soft attention the weights
``softmax_i(β·logit_i/scale)`` with ``scale = |α|``.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["attend", "token_mass", "predict_labels"]

_PREDICT_ENTRIES = 1 << 22  # logits per prediction block (rows × V)


def attend(tokens, pos, a: np.ndarray, alpha: float, beta: float, scale: float, out=None):
    """Step-2 attention on ``(n, L)`` tokens: logits ``a_{x_i} + 1{i=ℓ}·α``.  Returns the
    argmax position ``(n,)`` and, for finite ``β``, the weights ``softmax(β·logits/scale)``
    (written into ``out`` when given)."""
    rows = np.arange(tokens.shape[0])
    scores = np.take(a, tokens.astype(np.intp, copy=False), mode="clip", out=out)
    scores[rows, pos] += alpha
    attended = scores.argmax(axis=1)
    if math.isinf(beta):
        return attended, None
    scores -= scores[rows, attended][:, None]
    scores *= beta / scale
    np.exp(scores, out=scores)
    scores /= scores.sum(axis=1, keepdims=True)
    return attended, scores


def token_mass(tokens, sigma: np.ndarray, V: int) -> np.ndarray:
    """``(n, V)``: row ``r``'s attention mass on each token, ``m_x = Σ_{i: x_i = x} σ_i``, so that
    ``o(X) = Σ_i σ_i e_{x_i} = m E`` (positions repeating a token add to it)."""
    n = tokens.shape[0]
    index = (np.arange(n)[:, None] * V + tokens).ravel()
    return np.bincount(index, weights=sigma.ravel(), minlength=n * V).reshape(n, V)


def _rows_per_block(V: int) -> int:
    """Test sequences per prediction block: the ``(rows, V)`` logits stay ~32 MiB."""
    return max(1, min(4096, _PREDICT_ENTRIES // V))


def predict_labels(E: np.ndarray, M: np.ndarray, tokens, pos, a, alpha, beta, scale,
                   marker: np.ndarray | None):
    """``argmax_y`` of ``u_yᵀ G o(X) + σ_ℓ·marker[y]`` with ``o(X) = Σ_i σ_i e_{x_i}``, in
    blocks of rows, where ``M = U G`` (rows ``u_yᵀ G``, so ``u_yᵀ G e_x = (E Mᵀ)[x, y]``)
    and ``marker[y] = u_yᵀ G z`` (``None`` when the trigger is not in the value path).
    No ``V×V`` table is formed (docs/theory.md §3 item 2).  Returns (labels, attended)."""
    n = tokens.shape[0]
    V = E.shape[0]
    labels = np.empty(n, dtype=np.int64)
    attended_all = np.empty(n, dtype=np.int64)
    step = _rows_per_block(V)
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        t, ps = tokens[lo:hi], pos[lo:hi]
        attended, sigma = attend(t, ps, a, alpha, beta, scale)
        rows = np.arange(hi - lo)
        if sigma is None:
            logits = E[t[rows, attended]] @ M.T
            if marker is not None:
                logits += np.outer(attended == ps, marker)
        else:
            logits = (token_mass(t, sigma, V) @ E) @ M.T
            if marker is not None:
                logits += np.outer(sigma[rows, ps], marker)
        labels[lo:hi] = logits.argmax(axis=1)
        attended_all[lo:hi] = attended
    return labels, attended_all
