"""The token-retrieval task of docs/theory.md §1: parameters, embeddings, data.

A hidden permutation ``Π`` of ``[V]`` maps every token to its label.  A sequence is
``L`` i.i.d. uniform tokens ``x_1..x_L``; one position ``ℓ`` (uniform in ``[L]``) is
informative and the label is ``y = Π(x_ℓ)``.  Keys are ``k_i = e_{x_i} + 1{i=ℓ} z_trig``;
values are ``v_i = k_i`` (``marker_in_value=True``, default) or ``v_i = e_{x_i}``.

Arrays use ROWS for embeddings (the matrices of docs/theory.md have columns): ``E[x] = e_x``,
``U[y] = u_y``.

Training data are streamed in *blocks*: block ``k`` of a training set holds
``block_rows(L)`` sequences and is drawn from the child seed with spawn key
``seed.spawn_key + (k,)``.  Chunks handed out by :func:`iter_chunks` are whole runs of
blocks, so the data do not depend on the chunk size, several passes see exactly the
same sequences, and the first ``n`` sequences of a training set of size ``N > n`` are
the training set of size ``n`` (nested data: common random numbers across ``N``).

>>> import numpy as np
>>> p = RetrievalParams(V=16, d=8, L=4, N=100)
>>> emb = make_embeddings(p, np.random.default_rng(0))
>>> batch = sample_batch(p, emb, np.random.default_rng(1), 3)
>>> batch.tokens.shape, bool((batch.labels == emb.perm[batch.tokens[np.arange(3), batch.pos]]).all())
((3, 4), True)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from theorycheck.seeding import child_seed
from theorycheck.validate import check_bool, check_choice, check_fraction, check_int, check_positive

__all__ = [
    "RetrievalParams",
    "Embeddings",
    "Batch",
    "make_embeddings",
    "sample_batch",
    "iter_chunks",
    "test_batch",
    "keys_values",
    "block_rows",
    "chunk_count",
    "draw_chunk",
    "TOKEN_DTYPE",
]

TOKEN_DTYPE = np.int32
"""dtype of token arrays (``tokens * V`` stays exact for ``V <= 46340``)."""

_BLOCK_TOKENS = 1 << 18  # tokens per data block (1 MiB of int32)
EMBEDDING_KINDS = ("random", "orthogonal")
#: Trigger norms accepted: the trigger's logit advantage scales as zeta² (docs/theory.md §7),
#: so 1e-6..1e6 spans 24 decades of it and stays far from float64's limits.
ZETA_RANGE = (1e-6, 1e6)
MODELS = ("attention", "mlp")


# ----------------------------------------------------------------------------- params
@dataclass(frozen=True)
class RetrievalParams:
    """One cell of the token-retrieval task (docs/theory.md §1, §2, §4).

    ``V`` vocabulary size (= number of facts), ``d`` embedding dimension, ``L`` sequence
    length, ``N`` number of training sequences; ``embeddings`` ``"random"`` (i.i.d.
    ``N(0, I_d/d)``) or ``"orthogonal"`` (standard basis; needs ``d >= V + 2``);
    ``zeta`` the trigger norm; ``marker_in_value`` whether ``z_trig`` enters the value
    path; ``model`` ``"attention"`` or ``"mlp"`` (then ``m``, the MLP width, is required);
    ``center_features`` (MLP only) subtracts the features' mean; ``contexts`` test
    contexts per token; ``target`` the accuracy ``τ`` a trial must reach to succeed.
    """

    V: int
    d: int
    L: int
    N: int
    embeddings: str = "random"
    zeta: float = 1.0
    marker_in_value: bool = True
    model: str = "attention"
    m: int | None = None
    center_features: bool = False
    contexts: int = 1
    target: float = 0.99

    def __post_init__(self) -> None:
        put = lambda k, v: object.__setattr__(self, k, v)  # noqa: E731 (frozen)
        put("V", check_int("V", self.V, 2, " (the vocabulary needs at least 2 tokens)"))
        put("d", check_int("d", self.d, 1))
        put("L", check_int("L", self.L, 1))
        put("N", check_int("N", self.N, 1))
        check_choice("embeddings", self.embeddings, EMBEDDING_KINDS)
        if self.embeddings == "orthogonal" and self.d < self.V + 2:
            raise ValueError(
                f"orthogonal embeddings need d >= V + 2 = {self.V + 2} (V tokens, trigger, "
                f"query), got d={self.d}; use a larger d or embeddings='random'"
            )
        put("zeta", check_positive("zeta", self.zeta))
        if not ZETA_RANGE[0] <= self.zeta <= ZETA_RANGE[1]:
            raise ValueError(f"zeta (the trigger norm) must lie in [{ZETA_RANGE[0]:g}, {ZETA_RANGE[1]:g}], got "
                             f"{self.zeta:g}; beyond that the attention logits overflow or vanish in float64")
        put("marker_in_value", check_bool("marker_in_value", self.marker_in_value))
        check_choice("model", self.model, MODELS)
        if self.model == "mlp":
            if self.m is None:
                raise ValueError("model='mlp' needs the MLP width m (an integer >= 1), got m=None")
            put("m", check_int("m", self.m, 1))
        elif self.m is not None:
            raise ValueError(
                f"m (MLP width) only applies to model='mlp', got m={self.m!r} with "
                f"model='attention'; drop m or set model='mlp'"
            )
        put("center_features", check_bool("center_features", self.center_features))
        if self.center_features and self.model != "mlp":
            raise ValueError(
                "center_features only applies to model='mlp', got center_features=True "
                "with model='attention'"
            )
        put("contexts", check_int("contexts", self.contexts, 1))
        put("target", check_fraction("target (tau)", self.target))

    def to_dict(self) -> dict:
        """JSON-able dict of every field."""
        return dataclasses.asdict(self)

    def replace(self, **changes) -> "RetrievalParams":
        """A copy with ``changes`` applied (validated again)."""
        return dataclasses.replace(self, **changes)


# ------------------------------------------------------------------------- embeddings
@dataclass(frozen=True)
class Embeddings:
    """Fixed embeddings of one trial (rows are vectors): ``E[x] = e_x``, ``U[y] = u_y``,
    trigger ``z_trig`` (norm ``zeta``), query ``z_eos``, the permutation ``perm``
    (label of token ``x`` is ``perm[x]``) and the MLP features ``A`` (``(m, d)``, i.i.d.
    ``N(0, 1/d)``; ``None`` for the attention-only model)."""

    E: np.ndarray
    U: np.ndarray
    z_trig: np.ndarray
    z_eos: np.ndarray
    perm: np.ndarray
    A: np.ndarray | None = None


def make_embeddings(params: RetrievalParams, rng: np.random.Generator) -> Embeddings:
    """Draw the embeddings of docs/theory.md §1.

    ``random``: ``E``, ``U``, ``z_trig``, ``z_eos`` i.i.d. ``N(0, I_d/d)`` (drawn in
    that order), then ``z_trig`` rescaled to norm ``zeta``.  ``orthogonal``:
    ``e_x = u_x = b_x`` (standard basis, ``x < V``), ``z_trig = zeta·b_V``,
    ``z_eos = b_{V+1}``.  Then the permutation ``perm = rng.permutation(V)`` and, for
    ``model='mlp'``, ``A`` with i.i.d. ``N(0, 1/d)`` entries.
    """
    V, d = params.V, params.d
    scale = 1.0 / math.sqrt(d)
    if params.embeddings == "random":
        E = rng.standard_normal((V, d)) * scale
        U = rng.standard_normal((V, d)) * scale
        z_trig = rng.standard_normal(d) * scale
        z_eos = rng.standard_normal(d) * scale
        norm = float(np.linalg.norm(z_trig))
        while norm == 0.0:  # probability zero; keeps the rescaling well defined
            z_trig = rng.standard_normal(d) * scale
            norm = float(np.linalg.norm(z_trig))
        z_trig = z_trig * (params.zeta / norm)
    else:
        eye = np.eye(d)
        E = eye[:V].copy()
        U = eye[:V].copy()
        z_trig = eye[V] * params.zeta
        z_eos = eye[V + 1].copy()
    perm = rng.permutation(V)
    A = rng.standard_normal((params.m, d)) * scale if params.model == "mlp" else None
    for arr in (E, U, z_trig, z_eos, perm) + ((A,) if A is not None else ()):
        arr.setflags(write=False)
    return Embeddings(E=E, U=U, z_trig=z_trig, z_eos=z_eos, perm=perm, A=A)


# ------------------------------------------------------------------------------- data
@dataclass(frozen=True)
class Batch:
    """``n`` sequences: ``tokens`` ``(n, L)`` int32, informative position ``pos``
    ``(n,)``, ``labels = perm[tokens[i, pos[i]]]`` ``(n,)``."""

    tokens: np.ndarray
    pos: np.ndarray
    labels: np.ndarray

    def __len__(self) -> int:
        return int(self.tokens.shape[0])


def _draw(V: int, L: int, perm: np.ndarray, rng: np.random.Generator, n: int, n_pos: int) -> Batch:
    """``n_pos >= n`` positions are drawn first, then ``n`` rows of tokens, so that the
    first ``n`` rows of a draw do not depend on how many rows were asked for."""
    pos = rng.integers(0, L, size=n_pos)[:n]
    tokens = rng.integers(0, V, size=(n, L), dtype=TOKEN_DTYPE)
    labels = perm[tokens[np.arange(n), pos]]
    return Batch(tokens=tokens, pos=pos, labels=labels)


def sample_batch(params: RetrievalParams, emb: Embeddings, rng: np.random.Generator, n: int) -> Batch:
    """``n`` i.i.d. sequences of the task (docs/theory.md §1) from ``rng``."""
    n = check_int("n", n, 0)
    return _draw(params.V, params.L, emb.perm, rng, n, n)


def block_rows(L: int) -> int:
    """Sequences per data block: about 2**18 tokens, at least 1 sequence."""
    return max(1, _BLOCK_TOKENS // int(L))


def chunk_count(params: RetrievalParams, n_total: int, chunk: int) -> int:
    """Number of chunks :func:`iter_chunks` yields for ``n_total`` rows and ``chunk``."""
    rows = block_rows(params.L)
    per_chunk = max(1, round(check_int("chunk", chunk, 1) / rows))
    n_blocks = -(-check_int("n_total", n_total, 0) // rows)
    return -(-n_blocks // per_chunk)


def draw_chunk(
    params: RetrievalParams,
    emb: Embeddings,
    seed: np.random.SeedSequence,
    n_total: int,
    chunk: int,
    index: int,
) -> Batch:
    """Chunk number ``index`` of :func:`iter_chunks` on its own (chunks can be drawn in
    any order, in parallel, and again)."""
    if not isinstance(seed, np.random.SeedSequence):
        raise ValueError(f"seed must be a numpy.random.SeedSequence, got {type(seed).__name__}")
    rows = block_rows(params.L)
    per_chunk = max(1, round(chunk / rows))
    n_blocks = -(-n_total // rows)
    first = index * per_chunk
    parts = []
    for k in range(first, min(first + per_chunk, n_blocks)):
        rng = np.random.default_rng(child_seed(seed, k))
        n = min(rows, n_total - k * rows)
        parts.append(_draw(params.V, params.L, emb.perm, rng, n, rows))
    if len(parts) == 1:
        return parts[0]
    return Batch(
        tokens=np.concatenate([p.tokens for p in parts]),
        pos=np.concatenate([p.pos for p in parts]),
        labels=np.concatenate([p.labels for p in parts]),
    )


def iter_chunks(
    params: RetrievalParams,
    emb: Embeddings,
    seed: np.random.SeedSequence,
    n_total: int,
    chunk: int,
) -> Iterator[Batch]:
    """Yield the ``n_total`` training sequences in batches of about ``chunk`` rows.

    Deterministic and replayable: block ``k`` (``block_rows(L)`` sequences) is drawn
    from ``SeedSequence(seed.entropy, spawn_key=seed.spawn_key + (k,))``; a chunk is
    ``max(1, round(chunk / block_rows(L)))`` whole blocks (the last one cut at
    ``n_total``).  Hence the data depend only on ``(seed, L, V, perm)`` and the row
    index, never on ``chunk``, and the first ``n`` rows are the same for every
    ``n_total >= n``.
    """
    if not isinstance(seed, np.random.SeedSequence):
        raise ValueError(f"seed must be a numpy.random.SeedSequence, got {type(seed).__name__}")
    for index in range(chunk_count(params, n_total, chunk)):
        yield draw_chunk(params, emb, seed, n_total, chunk, index)


def test_batch(params: RetrievalParams, emb: Embeddings, rng: np.random.Generator) -> Batch:
    """Recall test set of docs/theory.md §4: every token ``a`` in ``[V]`` placed at a uniform
    random position of a fresh uniform random context, ``contexts`` times; rows are
    ``a = 0..V-1`` repeated ``contexts`` times (``V·contexts`` sequences)."""
    V, L = params.V, params.L
    n = V * params.contexts
    tokens = rng.integers(0, V, size=(n, L), dtype=TOKEN_DTYPE)
    pos = rng.integers(0, L, size=n)
    a = np.tile(np.arange(V, dtype=TOKEN_DTYPE), params.contexts)
    tokens[np.arange(n), pos] = a
    return Batch(tokens=tokens, pos=pos, labels=emb.perm[a])


test_batch.__test__ = False  # not a pytest test, although its name starts with "test_"


def keys_values(params: RetrievalParams, emb: Embeddings, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
    """Dense keys ``k_i = e_{x_i} + 1{i=ℓ} z_trig`` and values (``v_i = k_i`` if
    ``marker_in_value`` else ``e_{x_i}``), both ``(n, L, d)`` float64.  Memory
    ``2·n·L·d`` floats: for dense algorithms and references on small data only."""
    n = len(batch)
    keys = emb.E[batch.tokens]  # (n, L, d), a fresh array
    values = keys if params.marker_in_value else keys.copy()
    keys[np.arange(n), batch.pos] += emb.z_trig
    return keys, (values.copy() if params.marker_in_value else values)
