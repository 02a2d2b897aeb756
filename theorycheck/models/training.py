"""Shared pieces of the dense training algorithms (three steps, GD, MLP limit).

* :class:`DenseTrainingData`: the ``N`` training sequences of a seed as
  ``(contexts, labels, pos)`` sub-chunks of at most ``chunk`` sequences
  (:mod:`theorycheck.models.contexts`); the same data as
  :func:`theorycheck.tasks.retrieval.iter_chunks` (via
  :class:`~theorycheck.tasks.training_passes.TrainingPasses`), replayable for every pass.
  ``layout="tokens"`` (default) reads the embedding rows through the token ids, memory
  ``O(chunk·(L + V))``; ``layout="dense"`` builds the ``(n, L, d)`` keys and values (the
  reference), kept between passes when they fit in ``dense_cache_bytes``.
  ``backend="torch"`` (or ``cupy``, ``array_api_strict``; :mod:`theorycheck.backend`):
  the data are drawn on the host from the same seeds, moved to the device once (compact
  tokens, widened per chunk) and every pass runs there in the token layout, in chunks of
  :func:`default_chunk` ``(…, device=True)`` sequences.
* :class:`DenseFit`: a trained ``(W_V, W_KQ)`` pair with the Fitted protocol
  (``predict``, ``diagnostics``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from theorycheck.backend import check_backend, get_backend, namespace
from theorycheck.tasks.training_passes import DEFAULT_CACHE_BYTES, TrainingPasses, compact_token_dtype, draw_into
from theorycheck.models.attention import DenseModel, dense_model
from theorycheck.models.contexts import DenseContexts, TokenContexts
from theorycheck.tasks.retrieval import Batch, Embeddings, RetrievalParams
from theorycheck.validate import check_int, optional

__all__ = [
    "DenseTrainingData",
    "DenseFit",
    "DEFAULT_DENSE_CACHE_BYTES",
    "DENSE_OPTIONS",
    "LAYOUTS",
    "contexts",
    "pass_work",
    "trial_work",
    "default_chunk",
    "feature_mean",
    "dense_keys_values",
    "check_dense_combination",
]

DEFAULT_DENSE_CACHE_BYTES = 256 * 2**20
"""Keep the dense training keys and values between passes up to this many bytes."""


LAYOUTS = ("tokens", "dense")


def default_chunk(params: RetrievalParams, layout: str = "tokens", device: bool = False) -> int:
    """Sequences per sub-chunk: about ``2**20`` floats (8 MiB) per ``(n, L, d)`` array
    (``dense``), or ``2**21`` floats (16 MiB) per ``(n, V)`` logit array (``tokens``);
    on a device (``device=True``) ``2**25`` floats (256 MiB) per ``(n, V)`` array, of which
    a pass holds about four at once (logits, ``p − e_y``, the one-hot rows, ``S``)."""
    if layout == "dense":
        return max(1, (1 << 20) // (params.L * params.d))
    return max(1, (1 << (25 if device else 21)) // max(params.V, params.d, params.m or 0))


def pass_work(p, sequences: float | None = None, *, logits: bool = True) -> float:
    """Work of one pass (loss and both gradients) over ``sequences`` sequences (default
    ``N``) in the token layout, in the retrieval task's cost units (one token visit of
    the fast path, ~16 ns; :func:`theorycheck.tasks.retrieval_task.retrieval_cost`).

    A sequence costs ``2·V·w + 2·d·w`` products in large matrix products (logits and
    their back-projection, ``∇W_V`` and ``J``; ``w = d``, or ``m`` for the MLP; ~0.08 ns,
    ``/200``), two sparse reads of ``L`` embedding rows (``2·L·d`` products at ~0.4 ns,
    ``/37``) and ``V`` exponentials (``/8``).  Against single-thread Adam trials of 60 steps
    in a check (2026-11-24, ``(V, d) = (1024, 256)``): 30.5 s at ``(L, N) = (64, 7098)`` and
    ~200 s at ``(256, 28391)``, where ``gd.trial_work`` predicts 31 s and 193 s.
    ``logits=False``: a pass at ``W_V = 0``, which skips the logits, their back-projection
    and the exponentials (:meth:`~theorycheck.models.attention.DenseModel.loss_and_gradients`)."""
    n = p["N"] if sequences is None else sequences
    V, d, L = p["V"], p["d"], p["L"]
    w = p.get("m") or d
    per_label = (2 * V * w / 200 + V / 8) if logits else 0.0
    return float(n * (per_label + 2 * d * w / 200 + 2 * L * d / 37))


def trial_work(p, passes: float, evaluations: int) -> float:
    """Work of one trial of a dense algorithm in the retrieval task's cost units: ``passes``
    passes over the ``N`` training sequences (:func:`pass_work`), ``evaluations`` forward
    passes (half a pass each) over the ``V·contexts`` test sequences, and drawing the
    ``N·L`` training tokens."""
    recall = p["V"] * int(p.get("contexts") or 1)
    return passes * pass_work(p) + evaluations * pass_work(p, recall) / 2 + p["N"] * p["L"]


def contexts(params: RetrievalParams, emb: Embeddings, batch: Batch, layout: str = "tokens", backend=None):
    """The :mod:`~theorycheck.models.contexts` of ``batch`` in ``layout``; on ``backend``
    (a :class:`~theorycheck.backend.Backend`; one other than NumPy's) the token layout
    with the batch's ids and the embeddings moved there."""
    if backend is not None and backend.xp is not None:
        return TokenContexts(backend.put_int(batch.tokens), backend.put_int(batch.pos), backend.keep(emb.E),
                             backend.keep(emb.z_trig), params.marker_in_value, backend)
    if layout == "dense":
        return DenseContexts(*dense_keys_values(params, emb, batch))
    return TokenContexts(batch.tokens, batch.pos, emb.E, emb.z_trig, params.marker_in_value)


def check_dense_combination(options) -> None:
    """The options of a dense algorithm that go together: ``layout="dense"`` (explicit keys
    and values) is the host's reference, so no other ``backend`` takes it.  ValueError (one
    line) otherwise; options absent from ``options`` are at their defaults."""
    backend = options.get("backend", "numpy")
    if options.get("layout", "tokens") == "dense" and backend != "numpy":
        raise ValueError(f"layout='dense' is the host's reference layout; with backend={backend!r} "
                         "leave layout at 'tokens' (the default)")


def dense_keys_values(params: RetrievalParams, emb: Embeddings,
                      batch: Batch) -> tuple[np.ndarray, np.ndarray]:
    """Keys ``k_i = e_{x_i} + 1{i=ℓ} z_trig`` and values ``v_i`` (``(n, L, d)`` float64),
    as :func:`theorycheck.tasks.retrieval.keys_values` but read-only and with
    ``values is keys`` when ``marker_in_value`` (no copy: half the memory and time)."""
    n = len(batch)
    keys = emb.E[batch.tokens]
    values = None if params.marker_in_value else keys.copy()
    keys[np.arange(n), batch.pos] += emb.z_trig
    keys.setflags(write=False)
    if values is None:
        return keys, keys
    values.setflags(write=False)
    return keys, values


def check_layout(layout: str) -> str:
    """``layout`` if it is one of :data:`LAYOUTS`, else a ValueError naming them."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(map(repr, LAYOUTS))}, got {layout!r}")
    return layout


#: The rules (theorycheck.validate) of :class:`DenseTrainingData`'s options, which the dense
#: algorithms declare as their own (``--set layout=dense``): None is the default.
DENSE_OPTIONS = {
    "chunk": optional(partial(check_int, "chunk", minimum=1, hint=" (sequences per sub-chunk)")),
    "dense_cache_bytes": partial(check_int, "dense_cache_bytes", minimum=0, hint=" (bytes; 0: keep nothing)"),
    "layout": check_layout,
    "backend": check_backend,
}


class DenseTrainingData:
    """The ``params.N`` training sequences of ``train_seed`` as sub-chunks.

    Iterating yields ``(ctx, labels, pos)`` with ``ctx`` the chunk's
    :mod:`~theorycheck.models.contexts` in ``layout``, ``n <= chunk`` sequences, always
    in the same order (sums over chunks are reproducible bit for bit).  ``chunk``:
    sequences per sub-chunk (default :func:`default_chunk`); ``dense_cache_bytes``
    (``layout="dense"``): keep the dense arrays between passes when they fit
    (``N·L·d·8`` bytes, twice that without ``marker_in_value``; ``0`` never keeps them).
    ``backend``: ``"numpy"`` (the host) or another array library, where the training data
    are kept for every pass (``N·L`` compact tokens) and the chunks are token-layout
    contexts of that library (``layout="dense"`` is the host's reference only).
    """

    def __init__(self, params: RetrievalParams, emb: Embeddings, train_seed: np.random.SeedSequence,
                 *, chunk: int | None = None, dense_cache_bytes: int = DEFAULT_DENSE_CACHE_BYTES,
                 layout: str = "tokens", backend: str = "numpy"):
        if not isinstance(train_seed, np.random.SeedSequence):
            raise ValueError(
                f"train_seed must be a numpy.random.SeedSequence, got {type(train_seed).__name__}")
        self.params, self.emb, self.layout = params, emb, check_layout(layout)
        check_dense_combination({"layout": layout, "backend": backend})
        self.bk = get_backend(backend)
        self.chunk = DENSE_OPTIONS["chunk"](chunk) or default_chunk(params, layout, self.bk.xp is not None)
        cache = DENSE_OPTIONS["dense_cache_bytes"](dense_cache_bytes)
        self._seed = train_seed
        self._passes = TrainingPasses(params, emb, train_seed, cache_bytes=DEFAULT_CACHE_BYTES)
        arrays = 1 if params.marker_in_value else 2
        self._keep = layout == "dense" and arrays * params.N * params.L * params.d * 8 <= cache
        self._kept: list[tuple] | None = None
        self._device: tuple | None = None

    def _device_chunks(self) -> Iterator[tuple]:
        """The chunks on the backend: the first ``N`` training sequences of the seed (the
        same data as the host's, in training order), drawn and moved there on first use."""
        bk, params = self.bk, self.params
        if self._device is None:
            tokens = np.empty((params.N, params.L), dtype=compact_token_dtype(params.V))
            pos = np.empty(params.N, dtype=np.int64)
            labels = np.empty(params.N, dtype=np.int64)
            draw_into(params, self.emb, self._seed, tokens, pos, labels, 1)
            self._device = (bk.put_as_is(tokens), bk.put_int(pos), bk.put_int(labels))
        tokens, pos, labels = self._device
        E, z = bk.keep(self.emb.E), bk.keep(self.emb.z_trig)
        for lo in range(0, params.N, self.chunk):
            hi = min(params.N, lo + self.chunk)
            ctx = TokenContexts(bk.xp.astype(tokens[lo:hi, ...], bk.xp.int64), pos[lo:hi], E, z,
                                params.marker_in_value, bk)
            yield ctx, labels[lo:hi], pos[lo:hi]

    def __iter__(self) -> Iterator[tuple]:
        if self.bk.xp is not None:
            yield from self._device_chunks()
            return
        if self._kept is not None:
            yield from self._kept
            return
        kept: list[tuple[np.ndarray, ...]] = []
        for batch in self._passes.map(lambda b: b):
            for lo in range(0, len(batch), self.chunk):
                part = Batch(batch.tokens[lo:lo + self.chunk], batch.pos[lo:lo + self.chunk],
                             batch.labels[lo:lo + self.chunk])
                item = (contexts(self.params, self.emb, part, self.layout), part.labels, part.pos)
                if self._keep:
                    kept.append(item)
                yield item
        if self._keep:
            self._kept = kept


def feature_mean(model: DenseModel, data: DenseTrainingData, w_kq: np.ndarray) -> np.ndarray:
    """``μ = (1/N) Σ_n relu(A o_n)`` over the training sequences, attention from ``W_KQ``
    (the mean that ``center_features`` subtracts; one pass over the data)."""
    total, count = None, 0
    for ctx, _, _ in data:
        sums, n = model.feature_sums(ctx, w_kq)
        total = sums if total is None else total + sums
        count += n
    return total / count


@dataclass(frozen=True)
class DenseFit:
    """Trained weights ``W_V`` (``d×d`` or ``d×m``), ``W_KQ`` (``d×d``) and the features'
    mean ``μ`` (MLP with ``center_features``; else ``None``).

    ``predict(batch)``: labels ``argmax_y f(X)_y`` and attended positions
    ``argmax_i σ_i``; ``history``: records taken during training (GD), each a dict.
    ``backend``: where the weights live and the predictions run (``"numpy"``: the host).
    """

    params: RetrievalParams
    emb: Embeddings = field(repr=False)
    w_v: np.ndarray = field(repr=False)
    w_kq: np.ndarray = field(repr=False)
    feature_mean: np.ndarray | None = field(repr=False)
    diagnostics: Mapping[str, float]
    history: tuple[Mapping[str, float], ...] = ()
    chunk: int = 4096
    layout: str = "tokens"
    backend: str = "numpy"

    @property
    def model(self) -> DenseModel:
        return dense_model(self.params, self.emb, self.backend)

    def _forward(self, batch: Batch):
        """``(backend, forward pass)`` of each sub-chunk of ``batch``."""
        bk, model = get_backend(self.backend), self.model
        for lo in range(0, len(batch), self.chunk):
            part = Batch(batch.tokens[lo:lo + self.chunk], batch.pos[lo:lo + self.chunk],
                         batch.labels[lo:lo + self.chunk])
            ctx = contexts(self.params, self.emb, part, self.layout, bk)
            yield bk, model.forward(ctx, self.w_v, self.w_kq, self.feature_mean)

    def scores(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """Logits ``(n, V)`` and attention weights ``(n, L)`` (dense, in sub-chunks; on the host)."""
        logits, sigmas = [], []
        for bk, fwd in self._forward(batch):
            logits.append(bk.numpy(fwd.logits))
            sigmas.append(bk.numpy(fwd.sigma))
        V, L = self.params.V, self.params.L
        return (np.concatenate(logits) if logits else np.zeros((0, V)),
                np.concatenate(sigmas) if sigmas else np.zeros((0, L)))

    def predict(self, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
        """Labels and attended positions (the argmaxes taken where the weights live)."""
        labels, attended = [], []
        for bk, fwd in self._forward(batch):
            for out, a in ((labels, fwd.logits), (attended, fwd.sigma)):
                out.append(bk.numpy(namespace(a).argmax(a, axis=1)))
        if not labels:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        return np.concatenate(labels), np.concatenate(attended)

    def to_dict(self) -> dict:
        """JSON-able summary: params, diagnostics, history (not the weight matrices)."""
        return {
            "params": self.params.to_dict(),
            "diagnostics": {k: float(v) for k, v in self.diagnostics.items()},
            "history": [{k: float(v) for k, v in rec.items()} for rec in self.history],
        }
