"""The early-phase limit's count path on an array backend, counting included (docs/theory.md §3 item 2).

The same three passes as :mod:`theorycheck.algorithms.count_passes` (formulas in
:mod:`theorycheck.algorithms.limit`), written once against the Python array API
(:mod:`theorycheck.backend`: PyTorch on a GPU or CPU, CuPy, or the strict
reference namespace), so that on an accelerator nothing of size ``N·L`` is touched by the
host after the draw:

* the training data are drawn on the host from their seeds (NumPy, data blocks in
  parallel threads: :func:`theorycheck.tasks.training_passes.draw_into`, the same data
  as on every backend), moved to the device once and sorted there by label;
* label blocks of ``B`` labels (``B·V <= 2**27`` table entries, 1 GiB of float64) are
  contiguous rows of the sorted data; per block, pass 1 counts ``C_k[y, x]`` with one
  ``bincount`` of ``(y − y0)·V + x``, pass 2 gathers ``S[n, i] = Q_k[y_n, x_i]`` from
  ``Q_k = W_k G₁ Eᵀ``, subtracts the per-sequence means and scatter-adds the token sums
  ``b_x`` with a weighted ``bincount``, pass 3 attends (argmax, or softmax for finite
  ``β``) and counts the attended (label, token) masses ``D_k``;
* the products ``W_kᵀ (C_k E)``, ``W_k G₁ Eᵀ`` and ``W_kᵀ (D_k E)`` run on the device.

Time ``O(N·L + V²·d)`` as on the host; device memory ``2·N·L`` bytes for the tokens
(their compact dtype, int16 up to ``V = 32768``; each sub-batch of :data:`CHUNK_TOKENS`
is widened to int64, the index dtype every library takes) plus, per block, two ``B×V``
float64 tables.  Nested data: :class:`DeviceTokens` drawn at ``n_max`` serves
every ``N <= n_max`` (rows whose training index is below ``N``), as
:class:`~theorycheck.algorithms.label_blocks.SortedTokens` does on the host.
"""

from __future__ import annotations

import math

import numpy as np

from theorycheck.backend import Backend, get_backend
from theorycheck.tasks.retrieval import Embeddings
from theorycheck.tasks.training_passes import PASS_OPTIONS, compact_token_dtype, draw_into
from theorycheck.validate import check_int

__all__ = ["DeviceTokens", "device_passes", "attend_on", "predict_on"]

BLOCK_ENTRIES = 1 << 27
"""Largest ``(labels or rows) × V`` table of one block on the device (1 GiB of float64)."""

CHUNK_TOKENS = 1 << 24
"""Tokens of one sub-batch of a block's rows (its int64 indices and float64 gathers:
128 MiB each), so that device memory does not grow with ``N`` beyond the tokens."""


def _block_size(V: int) -> int:
    return max(1, min(V, BLOCK_ENTRIES // V))


class DeviceTokens:
    """The first ``n_max`` training sequences of ``seed`` on backend ``bk``, sorted by
    label (stably: within a label, in training order), with each row's training index."""

    def __init__(self, params, emb: Embeddings, seed: np.random.SeedSequence, backend, *,
                 n_max: int | None = None, threads: int = 1):
        self.bk = bk = get_backend(backend)
        if bk.xp is None:
            raise ValueError("DeviceTokens needs an array backend other than numpy (the numpy "
                             "count path is theorycheck.algorithms.label_blocks.SortedTokens)")
        if not isinstance(seed, np.random.SeedSequence):
            raise ValueError(f"train_seed must be a numpy.random.SeedSequence, got {type(seed).__name__}")
        self.n_max = params.N if n_max is None else check_int("n_max", n_max, 1)
        threads = PASS_OPTIONS["threads"](threads)
        self.params, self.emb = params, emb
        V, L, n = params.V, params.L, self.n_max
        tokens = np.empty((n, L), dtype=compact_token_dtype(V))
        pos = np.empty(n, dtype=np.int64)
        labels = np.empty(n, dtype=np.int64)
        draw_into(params, emb, seed, tokens, pos, labels, threads)
        xp = bk.xp
        y = bk.put_int(labels)
        order = xp.argsort(y, stable=True)
        # kept in the narrow dtype (int16/int32: 2-4 bytes a token), widened per sub-batch
        self.tokens = xp.take(bk.put_as_is(tokens), order, axis=0)
        self.pos = xp.take(bk.put_int(pos), order)
        self.labels = xp.take(y, order)
        self.index = order  # training index of each sorted row
        self.starts = np.concatenate([[0], np.cumsum(np.bincount(labels, minlength=V))])
        B = _block_size(V)
        self.blocks = [(y0, min(V, y0 + B)) for y0 in range(0, V, B)]

    def block(self, k: int, N: int):
        """Rows of label block ``k`` with a training index below ``N``, in sub-batches of
        at most :data:`CHUNK_TOKENS` tokens: ``(tokens (n, L) int64, pos (n,), label − y0
        (n,))`` on the device."""
        if N > self.n_max:
            raise ValueError(f"N must be <= n_max = {self.n_max} (the data drawn), got N={N}")
        xp, L = self.bk.xp, self.params.L
        y0, y1 = self.blocks[k]
        lo, hi = int(self.starts[y0]), int(self.starts[y1])
        step = max(1, CHUNK_TOKENS // L)
        for a in range(lo, hi, step):
            b = min(hi, a + step)
            tokens, pos, labels = self.tokens[a:b, ...], self.pos[a:b], self.labels[a:b]
            if N < self.n_max:
                keep = self.index[a:b] < N
                tokens, pos, labels = tokens[keep], pos[keep], labels[keep]
            yield xp.astype(tokens, xp.int64), pos, labels - y0


def _outer(xp, u, v):
    return xp.expand_dims(u, axis=1) * xp.expand_dims(v, axis=0)


def _flat(xp, x):
    return xp.reshape(x, (-1,))


def _arange(xp, n: int, like):
    """``0..n-1`` as int64 on the device of ``like``."""
    return xp.arange(n, dtype=xp.int64, device=like.device)


def _at(xp, rows2d, pos):
    """``rows2d[n, pos[n]]`` for every row ``n`` (a gather on the flattened array)."""
    n, L = rows2d.shape
    return xp.take(_flat(xp, rows2d), _arange(xp, n, pos) * L + pos)


def attend_on(xp, tokens, pos, a, alpha: float, beta: float, scale: float):
    """Step-2 attention on the device (as :func:`theorycheck.algorithms.attention_readout.attend`):
    logits ``a_{x_i} + 1{i=ℓ}·α``; the argmax position (first on ties) and, for finite
    ``β``, the weights ``softmax(β·logits/scale)`` (else ``None``)."""
    n, L = tokens.shape
    informative = xp.astype(xp.expand_dims(_arange(xp, L, pos), axis=0) == xp.expand_dims(pos, axis=1),
                            xp.float64)
    scores = xp.reshape(xp.take(a, _flat(xp, tokens)), (n, L)) + informative * alpha
    attended = xp.argmax(scores, axis=1)
    if math.isinf(beta):
        return attended, None
    weights = xp.exp((scores - xp.max(scores, axis=1, keepdims=True)) * (beta / scale))
    return attended, weights / xp.sum(weights, axis=1, keepdims=True)


def _pairs(xp, rel, tokens, V: int):
    """``(y − y0)·V + x`` for every (sequence, slot) of a sub-batch, flattened: the index
    into its block's ``(B, V)`` table."""
    return _flat(xp, xp.expand_dims(rel * V, axis=1) + tokens)


def _block_value(xp, Wd, y0: int, y1: int, table, c, E, z):
    """A block's share ``W_kᵀ (T_k E) [+ (W_kᵀ c_k) z_trigᵀ]`` of ``G₁`` or ``G₂``, with the
    block's ``(label, token)`` table ``T_k`` flattened and ``c = None`` without the marker."""
    WkT = xp.permute_dims(Wd[y0:y1, ...], (1, 0))
    out = WkT @ (xp.reshape(table, (y1 - y0, E.shape[0])) @ E)
    return out if c is None else out + _outer(xp, WkT @ c, z)


def device_passes(data: DeviceTokens, N: int, W: np.ndarray, miv: bool, beta: float, diagnose):
    """``(G₁, g, G₂, train selection accuracy)`` of the limit trained on the first ``N``
    sequences of ``data``, as NumPy arrays; ``diagnose(g)`` gives the selection
    diagnostics (``trigger_coef``, ``logit_scale``) of the host path."""
    bk, emb = data.bk, data.emb
    xp = bk.xp
    V, L = data.params.V, data.params.L
    E, Wd, z = bk.keep(emb.E), bk.keep(W), bk.keep(emb.z_trig)

    def zeros(n: int):
        return xp.zeros(n, dtype=xp.float64, device=E.device)

    # pass 1: G₁ = Σ_k W_kᵀ (C_k E + [miv] c_k z_trigᵀ) / (N L)
    G1 = 0.0
    for k, (y0, y1) in enumerate(data.blocks):
        B = y1 - y0
        C, c = zeros(B * V), zeros(B) if miv else None
        for tokens, _, rel in data.block(k, N):
            C = C + bk.bincount(_pairs(xp, rel, tokens, V), minlength=B * V)
            if miv:
                c = c + bk.bincount(rel, minlength=B)
        G1 = G1 + _block_value(xp, Wd, y0, y1, C, c, E, z)
    G1 = G1 / (N * L)

    # pass 2: g = (Σ_x b_x e_x + (Σ_n s_{n,ℓ_n}) z_trig) / (N L)
    sums, trig = zeros(V), 0.0
    for k, (y0, y1) in enumerate(data.blocks):
        R = Wd[y0:y1, ...] @ G1  # rows r_y = G₁ᵀ w_y
        Q = _flat(xp, R @ xp.permute_dims(E, (1, 0)))
        for tokens, pos, rel in data.block(k, N):
            S = xp.reshape(xp.take(Q, _pairs(xp, rel, tokens, V)), tokens.shape)
            shift = xp.mean(S, axis=1)
            if miv:
                marker = xp.take(R @ z, rel)
                shift = shift + marker / L
            S = S - xp.expand_dims(shift, axis=1)
            sums = sums + bk.bincount(_flat(xp, tokens), _flat(xp, S), minlength=V)
            informative = _at(xp, S, pos)
            if miv:
                sums = sums + bk.bincount(_at(xp, tokens, pos), marker, minlength=V)
                informative = informative + marker
            trig = trig + xp.sum(informative)
    g = bk.numpy((sums @ E + trig * z) / (N * L))

    # pass 3: G₂ = Σ_k W_kᵀ (D_k E + [miv] c'_k z_trigᵀ) / N, D_k the attended masses
    diagnostics = diagnose(g)
    alpha, scale = diagnostics["trigger_coef"], diagnostics["logit_scale"]
    a = bk.put(emb.E @ g)
    G2, hits = 0.0, 0
    for k, (y0, y1) in enumerate(data.blocks):
        B = y1 - y0
        D, c = zeros(B * V), zeros(B) if miv else None
        for tokens, pos, rel in data.block(k, N):
            attended, sigma = attend_on(xp, tokens, pos, a, alpha, beta, scale)
            hit = attended == pos
            if sigma is None:
                D = D + bk.bincount(rel * V + _at(xp, tokens, attended), minlength=B * V)
                informative = xp.astype(hit, xp.float64)
            else:
                D = D + bk.bincount(_pairs(xp, rel, tokens, V), _flat(xp, sigma), minlength=B * V)
                informative = _at(xp, sigma, pos)
            if miv:
                c = c + bk.bincount(rel, informative, minlength=B)
            hits = hits + xp.sum(xp.astype(hit, xp.int64))
        G2 = G2 + _block_value(xp, Wd, y0, y1, D, c, E, z)
    return (bk.numpy(G1), g, bk.numpy(G2 / N), float(bk.numpy(hits)) / N, diagnostics)


def predict_on(bk: Backend, emb: Embeddings, G2, miv: bool, tokens, pos, a, alpha, beta, scale):
    """:func:`theorycheck.algorithms.attention_readout.predict_labels` on the device:
    ``argmax_y`` of ``u_yᵀ G₂ o(X) + σ_ℓ·[miv] u_yᵀ G₂ z_trig`` in blocks of rows (each
    ``rows×V`` logits table at most :data:`BLOCK_ENTRIES`), ``M = U G₂`` formed there.
    Returns NumPy (labels, attended)."""
    xp = bk.xp
    V = emb.E.shape[0]
    Ed, ad = bk.keep(emb.E), bk.put(a)
    Md = bk.keep(emb.U) @ bk.put(G2)  # rows u_yᵀ G₂
    MdT = xp.permute_dims(Md, (1, 0))
    markerd = Md @ bk.keep(emb.z_trig) if miv else None
    t_all, p_all = bk.put_int(tokens), bk.put_int(pos)
    labels, attended_all = [], []
    step = _block_size(V)
    for lo in range(0, tokens.shape[0], step):
        hi = min(tokens.shape[0], lo + step)  # the standard has no slices past the end
        t, ps = t_all[lo:hi, ...], p_all[lo:hi]
        n = t.shape[0]
        attended, sigma = attend_on(xp, t, ps, ad, alpha, beta, scale)
        if sigma is None:
            logits = xp.take(Ed, _at(xp, t, attended), axis=0) @ MdT
            weight = xp.astype(attended == ps, xp.float64)
        else:
            rows = xp.expand_dims(_arange(xp, n, t) * V, axis=1)
            o = xp.reshape(bk.bincount(_flat(xp, rows + t), _flat(xp, sigma), minlength=n * V), (n, V)) @ Ed
            logits = o @ MdT
            weight = _at(xp, sigma, ps)
        if markerd is not None:
            logits = logits + _outer(xp, weight, markerd)
        labels.append(bk.numpy(xp.argmax(logits, axis=1)))
        attended_all.append(bk.numpy(attended))
    return np.concatenate(labels).astype(np.int64), np.concatenate(attended_all).astype(np.int64)
