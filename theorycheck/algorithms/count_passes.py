"""The three count passes of the early-phase limit (docs/theory.md §3 item 2).

Pass 1 ``G₁`` from the (label, token) counts, pass 2 ``g`` from the score table
``Q = W G₁ Eᵀ`` and the per-sequence means, pass 3 ``G₂`` from the (label, attended
token) masses; the formulas are in :mod:`theorycheck.algorithms.limit`.  Each pass walks
the label blocks of :class:`~theorycheck.algorithms.label_blocks.SortedTokens`
(``init`` / ``kernel`` / ``finish`` per block, results added in block order, so the
same bits for any number of threads).  This is the NumPy path; on another array
backend the whole path runs there (:mod:`theorycheck.algorithms.device_counts`).
"""

from __future__ import annotations

import math

import numpy as np

from theorycheck.algorithms.attention_readout import attend
from theorycheck.algorithms.label_blocks import SortedTokens
from theorycheck.tasks.retrieval import Batch, Embeddings

__all__ = ["first_gradient", "key_query_direction", "second_value"]


def _rows(n: int) -> np.ndarray:
    return np.arange(n)


def _pair_index(data: SortedTokens, b: Batch, y0: int, V: int) -> np.ndarray:
    """``(y_n − y0)·V + x_i`` for a sub-batch of label block ``[y0, …)``: flat index into
    the block's ``(B, V)`` table; ``(n, L)`` intp in a reused buffer."""
    flat = data.scratch("pairs", b.tokens.shape, np.intp)
    np.add(b.tokens, ((b.labels - y0) * V)[:, None], out=flat)
    return flat


_RUN_TOKENS = 4096
"""Label runs of at least this many tokens (on average) are processed run by run."""


def _label_runs(b: Batch, y0: int) -> list[tuple[int, int, int]] | None:
    """``[(label − y0, lo, hi), ...]`` for the runs of equal labels of a label-sorted
    sub-batch, or ``None`` when the runs are too short to pay for a Python loop over them
    (then the flat pair index is used).  Run by run, a table row of ``V`` entries stays
    in the L1/L2 cache."""
    cuts = np.flatnonzero(b.labels[1:] != b.labels[:-1]) + 1
    if b.tokens.size < _RUN_TOKENS * (len(cuts) + 1):
        return None
    starts = [0, *cuts.tolist()]
    ends = [*cuts.tolist(), len(b)]
    return [(y - y0, lo, hi) for y, lo, hi in zip(b.labels[starts].tolist(), starts, ends)]


def _sum_in_order(parts) -> np.ndarray:
    """Sum of the per-block results in block order (reproducible for any thread count)."""
    total = None
    for part in parts:
        total = part if total is None else total + part
    return total


def first_gradient(data: SortedTokens, N: int, W: np.ndarray, emb: Embeddings, miv: bool) -> np.ndarray:
    """Pass 1: ``G₁`` from the (label, token) counts ``C`` and label counts ``c``, block
    by block: ``G₁ = Σ_blocks W_kᵀ (C_k E + [miv] c_k z_trigᵀ) / (N L)``."""
    V, L = data.params.V, data.params.L

    def init(k):
        y0, y1 = data.blocks[k]
        return np.zeros((y1 - y0) * V), np.zeros(y1 - y0)  # exact integers in float64

    def kernel(b: Batch, k, state):
        y0 = data.blocks[k][0]
        table, labels = state
        runs = _label_runs(b, y0)
        if runs is None:
            table += np.bincount(_pair_index(data, b, y0, V).ravel(), minlength=table.size)
        else:  # one label per run: count its tokens into its row of the table
            for row, lo, hi in runs:
                table[row * V : (row + 1) * V] += np.bincount(b.tokens[lo:hi].ravel(), minlength=V)
        labels += np.bincount(b.labels - y0, minlength=labels.size)

    def finish(k, state):
        y0, y1 = data.blocks[k]
        table, labels = state
        Wk = W[y0:y1]
        out = Wk.T @ (table.reshape(y1 - y0, V) @ emb.E)
        if miv:
            out += np.outer(Wk.T @ labels, emb.z_trig)
        return out

    return _sum_in_order(data.over_blocks(N, init, kernel, finish)) / (N * L)


def key_query_direction(data: SortedTokens, N: int, W, G1, emb, miv: bool) -> np.ndarray:
    """Pass 2: ``g`` from the block's score table ``Q_k[y, x] = e_xᵀ G₁ᵀ w_y`` and the
    per-sequence means; token sums added in block order."""
    V, L = data.params.V, data.params.L

    def init(k):
        y0, y1 = data.blocks[k]
        R = W[y0:y1] @ G1  # rows r_y = G₁ᵀ w_y
        Q = (R @ emb.E.T).ravel()
        return {"Q": Q, "q": R @ emb.z_trig, "sums": np.zeros(V), "trig": 0.0}

    def kernel(b: Batch, k, st):
        y0 = data.blocks[k][0]
        n = len(b)
        S = data.scratch("scores", b.tokens.shape, np.float64)  # S[n, i] = Q[y_n, x_i]
        runs = _label_runs(b, y0)
        if runs is None:
            np.take(st["Q"], _pair_index(data, b, y0, V), out=S, mode="clip")
        else:
            for row, lo, hi in runs:
                np.take(st["Q"][row * V : (row + 1) * V], b.tokens[lo:hi], out=S[lo:hi], mode="clip")
        shift = S.mean(axis=1)
        if miv:
            marker = st["q"][b.labels - y0]
            shift += marker / L
        np.subtract(S, shift[:, None], out=S)
        st["sums"] += np.bincount(b.tokens.ravel(), weights=S.ravel(), minlength=V)
        informative = S[_rows(n), b.pos]
        if miv:
            st["sums"] += np.bincount(b.tokens[_rows(n), b.pos], weights=marker, minlength=V)
            informative = informative + marker
        st["trig"] += float(informative.sum())

    def finish(k, st):
        return np.append(st["sums"], st["trig"])

    total = _sum_in_order(data.over_blocks(N, init, kernel, finish))
    return (total[:V] @ emb.E + total[V] * emb.z_trig) / (N * L)


def second_value(data: SortedTokens, N: int, W, emb, a, alpha, beta, scale, miv: bool):
    """Pass 3: ``G₂`` from the (label, attended token) masses ``D_k`` of each block; also
    the training selection accuracy."""
    from scipy.sparse import csr_matrix  # on first use: the registry imports this module for its name

    V = data.params.V
    hard = math.isinf(beta)
    d = emb.E.shape[1]

    def init(k):
        y0, y1 = data.blocks[k]
        # hard attention: one attended token per sequence, D_k is kept as its (row, token)
        # pairs and D_k E is a sparse product (N·d work instead of V²·d); soft: dense D_k
        D = [] if hard else np.zeros((y1 - y0) * V)
        return {"D": D, "c": np.zeros(y1 - y0), "hits": 0}

    def kernel(b: Batch, k, st):
        y0 = data.blocks[k][0]
        n = len(b)
        out = data.scratch("scores", b.tokens.shape, np.float64)
        attended, sigma = attend(b.tokens, b.pos, a, alpha, beta, scale, out=out)
        hit = attended == b.pos
        rel = b.labels - y0
        if hard:
            st["D"].append(rel * V + b.tokens[_rows(n), attended])
            informative = hit
        else:
            st["D"] += np.bincount(_pair_index(data, b, y0, V).ravel(), weights=sigma.ravel(),
                                   minlength=st["D"].size)
            informative = sigma[_rows(n), b.pos]
        if miv:
            st["c"] += np.bincount(rel, weights=informative, minlength=st["c"].size)
        st["hits"] += int(hit.sum())

    def finish(k, st):
        y0, y1 = data.blocks[k]
        Wk = W[y0:y1]
        if hard:
            flat = np.concatenate(st["D"]) if st["D"] else np.zeros(0, dtype=np.intp)
            D = csr_matrix((np.ones(flat.size), (flat // V, flat % V)), shape=(y1 - y0, V))
            out = Wk.T @ (D @ emb.E)
        else:
            out = Wk.T @ (st["D"].reshape(y1 - y0, V) @ emb.E)
        if miv:
            out += np.outer(Wk.T @ st["c"], emb.z_trig)
        return np.append(out.ravel(), st["hits"])

    total = _sum_in_order(data.over_blocks(N, init, kernel, finish))
    return total[:-1].reshape(d, d) / N, float(total[-1]) / N
