"""Several passes over the streamed training data, with bounded memory.

An algorithm that needs the training set more than once (the early-phase limit needs
three passes) maps a per-chunk function over :class:`TrainingPasses` once per pass.
The data are those of :func:`theorycheck.tasks.retrieval.iter_chunks` (replayable from
their seeds).  Two modes:

* **cached** (the compact tokens, int16 when ``V <= 32768``, fit in ``cache_bytes``):
  the first pass draws every chunk into one ``(N, L)`` array, sorts the sequences by
  label (stable) and keeps it; every pass then walks row-chunks of the sorted array.
  Sorting by label makes the ``V×V`` table look-ups of the fast path hit a few table
  rows per chunk (cache-friendly), which measured ~2x faster than unsorted data.
* **streamed** (otherwise): every pass draws the chunks again from their seeds and
  sorts each chunk by label; memory stays ``O(chunk)`` as ``N`` grows.

Per-chunk functions receive tokens as ``intp`` (what NumPy indexing wants) in a
per-thread buffer that is reused for the next chunk, plus :meth:`TrainingPasses.scratch`
for their own reusable buffers: no fresh memory (and no page faults) per chunk.
Results come back in chunk order whatever the number of ``threads``, so sums over
chunks are bit-for-bit reproducible; NumPy's bincount, take, reductions and the
generator release the GIL, so ``threads=2`` overlaps work on two cores.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TypeVar

import numpy as np

from theorycheck.tasks.retrieval import Batch, block_rows, chunk_count, draw_chunk
from theorycheck.validate import check_int, optional

__all__ = ["TrainingPasses", "compact_token_dtype", "cache_settings", "cache_size", "thread_scratch", "ordered_map", "draw_into", "DEFAULT_CACHE_BYTES", "DEFAULT_CHUNK_TOKENS", "PASS_OPTIONS"]

DEFAULT_CACHE_BYTES = 512 << 20
"""Keep the compact training tokens in memory between passes up to this many bytes
(building the sorted cache briefly needs twice that)."""

DEFAULT_CHUNK_TOKENS = 1 << 18
"""Tokens per chunk: the per-chunk buffers (a few MB) stay in the CPU caches."""

R = TypeVar("R")


def compact_token_dtype(V: int) -> type:
    """The smallest integer dtype that holds tokens ``0..V-1`` in a cache (int16 up to ``V = 32768``)."""
    return np.int16 if V - 1 <= np.iinfo(np.int16).max else np.int32


#: The rules (theorycheck.validate) of the token caches' options, which the algorithms that
#: use these caches declare as their own (``--set threads=2``): None is the default.
PASS_OPTIONS = {
    "chunk_tokens": optional(partial(check_int, "chunk_tokens", minimum=1, hint=" (tokens per sub-batch)")),
    "threads": partial(check_int, "threads", minimum=1, hint=" (worker threads)"),
    "cache_bytes": partial(check_int, "cache_bytes", minimum=0, hint=" (bytes of token cache; 0: none)"),
}


def cache_settings(params, n: int, seed, chunk_tokens, cache_bytes, threads, row_bytes: int
                   ) -> tuple[int, int, type, bool]:
    """The checked settings both token caches start from (this module's
    :class:`TrainingPasses` and :class:`theorycheck.algorithms.label_blocks.SortedTokens`):
    ``(tokens per chunk, threads, token dtype, cached)``, where ``cached`` says whether ``n``
    sequences of ``L`` compact tokens plus ``row_bytes`` per sequence (positions, labels,
    the sort order) fit in ``cache_bytes``. ValueError for a seed that is not a
    ``SeedSequence`` or a count that is not a positive integer."""
    if not isinstance(seed, np.random.SeedSequence):
        raise ValueError(f"train_seed must be a numpy.random.SeedSequence, got {type(seed).__name__}")
    tokens = PASS_OPTIONS["chunk_tokens"](chunk_tokens) or DEFAULT_CHUNK_TOKENS
    threads = PASS_OPTIONS["threads"](threads)
    cache_bytes = PASS_OPTIONS["cache_bytes"](cache_bytes)
    return tokens, threads, compact_token_dtype(params.V), cache_size(params, n, row_bytes) <= cache_bytes


def cache_size(params, n: int, row_bytes: int) -> int:
    """Bytes of a token cache of ``n`` sequences: ``n·(L·b + row_bytes)``, ``b`` the bytes of a compact token
    (:func:`compact_token_dtype`) and ``row_bytes`` each sequence's other columns (16 in :class:`TrainingPasses`,
    ``SORTED_ROW_BYTES`` = 24 in :class:`theorycheck.algorithms.label_blocks.SortedTokens`)."""
    return n * (params.L * np.dtype(compact_token_dtype(params.V)).itemsize + row_bytes)


def ordered_map(fn: Callable[[int], R], n: int, threads: int) -> Iterator[R]:
    """``fn(0), ..., fn(n-1)`` computed by ``threads`` threads, yielded in index order
    (at most ``threads + 1`` results pending: bounded memory)."""
    if threads == 1 or n <= 1:
        for k in range(n):
            yield fn(k)
        return
    with ThreadPoolExecutor(threads) as pool:
        window: deque = deque()
        for k in range(n):
            window.append(pool.submit(fn, k))
            if len(window) > threads:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()


def draw_into(params, emb, seed, tokens: np.ndarray, pos: np.ndarray, labels: np.ndarray, threads: int) -> None:
    """Fill ``tokens``, ``pos``, ``labels`` (``n = len(pos)`` rows) with the first ``n``
    training sequences of ``seed``, block by block (:func:`~theorycheck.tasks.retrieval.draw_chunk`;
    the same data for any thread count)."""
    n, per_block = len(pos), block_rows(params.L)

    def fill(k: int) -> None:
        b = draw_chunk(params, emb, seed, n, per_block, k)
        lo = k * per_block
        tokens[lo : lo + len(b)] = b.tokens
        pos[lo : lo + len(b)] = b.pos
        labels[lo : lo + len(b)] = b.labels

    for _ in ordered_map(fill, chunk_count(params, n, per_block), threads):
        pass


def thread_scratch(local: threading.local, name: str, shape: tuple[int, ...], dtype, floor: int) -> np.ndarray:
    """A reusable array of ``shape`` for the calling thread, kept in ``local`` under ``name``
    and at least ``floor`` elements long (contents undefined)."""
    buffers = local.__dict__.setdefault("buffers", {})
    size = int(np.prod(shape))
    buf = buffers.get(name)
    if buf is None or buf.size < size or buf.dtype != np.dtype(dtype):
        buf = buffers[name] = np.empty(max(size, floor), dtype=dtype)
    return buf[:size].reshape(shape)


class TrainingPasses:
    """The ``params.N`` training sequences of ``seed``, as label-sorted chunks.

    ``chunk_tokens``: tokens per chunk (rounded to whole data blocks when streaming);
    ``cache_bytes``: keep the data between passes when it fits; ``threads``: worker
    threads for :meth:`map` (1 = serial; results do not depend on it).
    """

    def __init__(self, params, emb, seed: np.random.SeedSequence, *, chunk_tokens=None,
                 cache_bytes: int = DEFAULT_CACHE_BYTES, threads: int = 1):
        tokens, self.threads, self.token_dtype, self.cached = cache_settings(
            params, params.N, seed, chunk_tokens, cache_bytes, threads, row_bytes=16)
        self.params, self.emb, self.seed = params, emb, seed
        rows = max(1, tokens // params.L)
        per_block = block_rows(params.L)
        if self.cached:  # drawn block by block, then walked in chunks of any size
            self.rows = rows
            self.n_chunks = -(-params.N // rows)
        else:  # streamed chunks are whole data blocks
            self.rows = max(1, round(rows / per_block)) * per_block
            self.n_chunks = chunk_count(params, params.N, self.rows)
        self._sorted: Batch | None = None
        self._local = threading.local()

    # ---------------------------------------------------------------- buffers
    def scratch(self, name: str, shape: tuple[int, ...], dtype) -> np.ndarray:
        """A per-thread reusable array of ``shape`` (contents undefined)."""
        return thread_scratch(self._local, name, shape, dtype, self.rows * self.params.L)

    def _as_intp(self, b: Batch) -> Batch:
        if b.tokens.dtype == np.intp:
            return b
        tokens = self.scratch("_tokens", b.tokens.shape, np.intp)
        np.copyto(tokens, b.tokens, casting="safe")
        return Batch(tokens, b.pos, b.labels)

    # ---------------------------------------------------------------- chunks
    def _streamed(self, index: int) -> Batch:
        b = draw_chunk(self.params, self.emb, self.seed, self.params.N, self.rows, index)
        order = np.argsort(b.labels, kind="stable")
        return self._as_intp(Batch(b.tokens[order], b.pos[order], b.labels[order]))

    def _cached(self, index: int) -> Batch:
        s = self._sorted
        lo, hi = index * self.rows, min(self.params.N, (index + 1) * self.rows)
        return self._as_intp(Batch(s.tokens[lo:hi], s.pos[lo:hi], s.labels[lo:hi]))

    def _build_cache(self) -> None:
        """Draw all chunks into one array, then sort the sequences by label."""
        N, L = self.params.N, self.params.L
        tokens = np.empty((N, L), dtype=self.token_dtype)
        pos = np.empty(N, dtype=np.int64)
        labels = np.empty(N, dtype=np.int64)

        draw_into(self.params, self.emb, self.seed, tokens, pos, labels, self.threads)
        order = np.argsort(labels, kind="stable")
        sorted_tokens = np.take(tokens, order, axis=0)
        del tokens
        self._sorted = Batch(sorted_tokens, pos[order], labels[order])

    def _ordered(self, task: Callable[[int], R], n: int) -> Iterator[R]:
        return ordered_map(task, n, self.threads)

    def map(self, fn: Callable[[Batch], R]) -> Iterator[R]:
        """``fn(chunk)`` for every chunk, in chunk order (one pass over the data).  The
        chunk's ``tokens`` are ``intp`` in a buffer reused for the next chunk: ``fn``
        must not keep them."""
        if self.cached:
            if self._sorted is None:
                self._build_cache()
            source = self._cached
        else:
            source = self._streamed
        yield from self._ordered(lambda k: fn(source(k)), self.n_chunks)
