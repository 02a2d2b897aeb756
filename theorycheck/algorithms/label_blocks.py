"""Label-sorted training tokens, walked in blocks of labels (data layout of the count path).

The count path of the early-phase limit (docs/theory.md §3 item 2) needs, per pass,
tables indexed by (label ``y``, token ``x``): counts ``C[y, x]``, scores ``Q[y, x]`` and
attention masses ``D[y, x]``.  A ``V×V`` float64 table is 2 GiB at ``V = 16384``, so the
labels are split into *blocks* ``[y0, y1)`` of ``B`` labels (``B·V <= 2**21`` entries,
16 MiB) and every table exists only for one block at a time.  Each block is an
independent work item: its rows of the tables, and its share of every sum, are computed
by one thread, and per-block results are combined in block order.  The block partition
depends on ``V`` only, never on the number of threads, so results are bit-for-bit the
same for any ``threads``.  NumPy's ``bincount``, ``take``, reductions and BLAS release
the GIL, so threads over blocks use the cores (set BLAS to one thread per worker).

Two layouts of the same data (:func:`theorycheck.tasks.retrieval.iter_chunks`):

* **cached** (the compact tokens, int16 when ``V <= 32768``, fit in ``cache_bytes``, by default
  :func:`default_cache_bytes`):
  all ``n_max`` sequences are drawn once (data blocks in parallel), stably sorted by
  label and kept; label ``y`` owns the rows ``starts[y]:starts[y+1]``, in training order.
  Because the data are nested (the first ``N`` sequences are the same for every
  ``n_max >= N``), a pass over the first ``N`` sequences only keeps the rows whose
  training index is below ``N`` (:meth:`SortedTokens.block_batches`): one draw serves
  every ``N <= n_max`` (per-seed critical values, :mod:`theorycheck.threshold.quantile`).
* **streamed** (otherwise): every pass draws the chunks again from their seeds and sorts
  each by label; the per-block accumulators then live across chunks (memory ``8·V²`` bytes
  a pass, 8 GiB at ``V = 32768``: the default budget caches wherever that is no more).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from theorycheck.tasks.retrieval import Batch, block_rows, check_int, chunk_count, draw_chunk
# one token-cache budget and chunk size for every pass over the training data
from theorycheck.tasks.training_passes import (
    DEFAULT_CACHE_BYTES,
    DEFAULT_CHUNK_TOKENS,
    cache_settings,
    draw_into,
    ordered_map,
    thread_scratch,
)

__all__ = ["SortedTokens", "block_labels", "default_cache_bytes", "DEFAULT_CACHE_BYTES", "DEFAULT_CHUNK_TOKENS",
           "SORTED_ROW_BYTES"]

#: Bytes a cached sequence keeps beside its tokens: its position, its label and its place in the sort order
#: (:func:`theorycheck.tasks.training_passes.cache_size`).
SORTED_ROW_BYTES = 24


_BLOCK_ENTRIES = 1 << 21
_SMALL_ENTRIES = 1 << 14
_STREAM_TOKENS = 1 << 22
_MIN_BLOCKS = 16

R = TypeVar("R")


def block_labels(V: int) -> int:
    """Labels per block: ``B·V <= 2**21`` table entries, about 16 blocks (work for
    several threads) but no block below ``2**14`` entries unless it holds all ``V``
    labels (small ``V``: one block, no per-block overhead).  Depends on ``V`` only."""
    return max(1, min(V, max(-(-V // _MIN_BLOCKS), _SMALL_ENTRIES // V), _BLOCK_ENTRIES // V))


def default_cache_bytes(V: int) -> int:
    """The token cache's default budget, ``max(512 MiB, 4·V²)`` bytes. Streamed, each pass keeps its
    (label, token) float64 tables, ``8·V²`` bytes, across the chunks; the cache, built at twice its
    size, peaks no higher than that up to ``4·V²`` bytes (``V = 32768``: a 4 GiB cache against 8 GiB
    of tables; until 2026-12-06 the budget was 512 MiB at every ``V``, and a read-out at
    ``(32768, 1250, 16, 8·10⁶)`` streamed and peaked at 9.7 GB)."""
    return max(DEFAULT_CACHE_BYTES, 4 * V * V)


@dataclass(frozen=True)
class _Part:
    """Label-sorted sequences: ``tokens`` (compact dtype), ``pos``, ``labels``, training
    index ``order`` (``None`` when the part holds exactly the sequences of the pass) and
    ``starts`` (rows of label ``y`` are ``starts[y]:starts[y+1]``)."""

    tokens: np.ndarray
    pos: np.ndarray
    labels: np.ndarray
    order: np.ndarray | None
    starts: np.ndarray


class SortedTokens:
    """The first ``n_max`` training sequences of ``seed``, sorted by label, in label
    blocks (see the module docstring).  ``chunk_tokens``: tokens per sub-batch;
    ``cache_bytes``: keep the data when they fit (``None``: :func:`default_cache_bytes`);
    ``threads``: worker threads."""

    def __init__(self, params, emb, seed: np.random.SeedSequence, *, n_max: int | None = None,
                 chunk_tokens: int | None = None, cache_bytes: int | None = None,
                 threads: int = 1):
        self.n_max = params.N if n_max is None else check_int("n_max", n_max, 1)
        budget = default_cache_bytes(params.V) if cache_bytes is None else cache_bytes
        tokens, self.threads, self.token_dtype, self.cached = cache_settings(
            params, self.n_max, seed, chunk_tokens, budget, threads, row_bytes=SORTED_ROW_BYTES)
        self.params, self.emb, self.seed = params, emb, seed
        self.rows = max(1, tokens // params.L)  # sequences per sub-batch
        per_block = block_rows(params.L)
        # streamed parts: whole data blocks; by default 2**22 tokens per part (each part
        # costs a sort and a round of block tasks), else ``chunk_tokens``
        part_rows = self.rows if chunk_tokens is not None else max(1, (_STREAM_TOKENS // params.L))
        self.stream_rows = max(1, round(part_rows / per_block)) * per_block
        V = params.V
        B = block_labels(V)
        self.blocks = [(y0, min(V, y0 + B)) for y0 in range(0, V, B)]
        self._cache: _Part | None = None
        self._local = threading.local()

    # ------------------------------------------------------------------ buffers
    def scratch(self, name: str, shape: tuple[int, ...], dtype) -> np.ndarray:
        """A per-thread reusable array of ``shape`` (contents undefined)."""
        return thread_scratch(self._local, name, shape, dtype, self.rows * self.params.L)

    # ------------------------------------------------------------------ parts
    def _sorted(self, tokens, pos, labels, keep_order: bool) -> _Part:
        order = np.argsort(labels, kind="stable")
        starts = np.zeros(self.params.V + 1, dtype=np.int64)
        np.cumsum(np.bincount(labels, minlength=self.params.V), out=starts[1:])
        return _Part(np.take(tokens, order, axis=0), pos[order], labels[order],
                     order if keep_order else None, starts)

    def _build_cache(self) -> _Part:
        n, L = self.n_max, self.params.L
        tokens = np.empty((n, L), dtype=self.token_dtype)
        pos = np.empty(n, dtype=np.int64)
        labels = np.empty(n, dtype=np.int64)
        draw_into(self.params, self.emb, self.seed, tokens, pos, labels, self.threads)
        return self._sorted(tokens, pos, labels, keep_order=True)

    def parts(self, N: int) -> Iterator[_Part]:
        """The first ``N`` sequences (``N <= n_max``) as label-sorted parts: one part
        when cached, one per streamed chunk otherwise."""
        if N > self.n_max:
            raise ValueError(f"N must be <= n_max = {self.n_max} (the data drawn), got N={N}")
        if self.cached:
            if self._cache is None:
                self._cache = self._build_cache()
            yield self._cache
            return
        for index in range(chunk_count(self.params, N, self.stream_rows)):
            b = draw_chunk(self.params, self.emb, self.seed, N, self.stream_rows, index)
            yield self._sorted(b.tokens, b.pos, b.labels, keep_order=False)

    def block_batches(self, part: _Part, block: int, N: int) -> Iterator[Batch]:
        """Sub-batches (``intp`` tokens in a reused per-thread buffer) of the sequences
        of ``part`` with a label in block ``block`` and a training index below ``N``."""
        y0, y1 = self.blocks[block]
        lo, hi = int(part.starts[y0]), int(part.starts[y1])
        tokens, pos, labels = part.tokens[lo:hi], part.pos[lo:hi], part.labels[lo:hi]
        if part.order is not None and N < len(part.order):
            keep = part.order[lo:hi] < N
            tokens, pos, labels = tokens[keep], pos[keep], labels[keep]
        for a in range(0, len(labels), self.rows):
            b = min(len(labels), a + self.rows)
            t = self.scratch("_tokens", (b - a, self.params.L), np.intp)
            np.copyto(t, tokens[a:b], casting="safe")
            yield Batch(t, pos[a:b], labels[a:b])

    def over_blocks(self, N: int, init: Callable[[int], object],
                    kernel: Callable[[Batch, int, object], None],
                    finish: Callable[[int, object], R]) -> Iterator[R]:
        """One pass over the first ``N`` sequences: for every label block ``k``,
        ``state = init(k)``, ``kernel(batch, k, state)`` for each of its sub-batches (in
        training-data order), then ``finish(k, state)``; results yielded in block order."""
        if self.cached:
            part = next(self.parts(N))

            def whole(k: int):
                state = init(k)
                for batch in self.block_batches(part, k, N):
                    kernel(batch, k, state)
                return finish(k, state)

            yield from ordered_map(whole, len(self.blocks), self.threads)
            return
        states = [init(k) for k in range(len(self.blocks))]
        for part in self.parts(N):
            def add(k: int, part=part) -> None:
                for batch in self.block_batches(part, k, N):
                    kernel(batch, k, states[k])

            for _ in ordered_map(add, len(self.blocks), self.threads):
                pass
        yield from ordered_map(lambda k: finish(k, states[k]), len(self.blocks), self.threads)
