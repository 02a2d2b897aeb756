"""The first success of a monotone 0/1 sequence, in O(log K) evaluations, with a check.

A seed of a task with nested data (docs/theory.md §4; ``Task(nested=...)``) succeeds at
resource value ``r`` iff ``r >= c`` for its critical value ``c``, if its success is
monotone in ``r``.  On a grid ``g_0 < ... < g_{K-1}`` its critical value is then the
smallest index ``i`` with ``success(i)``: found by galloping from a hint (steps 1, 2, 4,
... towards the crossing) and bisecting the last step, ``~2 + 2 log2`` (distance from
the hint) evaluations (:func:`first_success`).  Monotonicity is an assumption; measured,
it fails for small retrieval cells (theorycheck/threshold/per_seed.py), so
:func:`verified_first_success` evaluates ``O(log K)`` points above the index found and
searches again past any failure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

__all__ = ["first_success", "verified_first_success", "scanned_first_success"]


def first_success(success: Callable[[int], bool], K: int, hint: int | None = None,
                  scan: bool = False) -> int:
    """Smallest index ``i`` in ``0..K-1`` with ``success(i)``, assuming monotone success
    (``K`` if none): gallop from ``hint`` (default: the top), then bisect.  ``scan``:
    evaluate all ``K`` points and return the index after the last failure."""
    if scan:
        ok = [success(i) for i in range(K)]
        i = K
        while i > 0 and ok[i - 1]:
            i -= 1
        return i
    h = K - 1 if hint is None else min(K - 1, max(0, hint))
    step = 1
    if success(h):  # gallop down until a failure (or the bottom)
        hi = lo = h
        while True:
            probe = hi - step
            if probe < 0:
                lo = 0
                break
            if not success(probe):
                lo = probe + 1
                break
            hi, step = probe, step * 2
    else:  # gallop up until a success (or the top: no success on the grid)
        failed = h
        while True:
            probe = min(K - 1, failed + step)
            if success(probe):
                lo, hi = failed + 1, probe
                break
            if probe == K - 1:
                return K
            failed, step = probe, step * 2
    while lo < hi:  # success(hi) is known true, everything below lo known false
        mid = (lo + hi) // 2
        if success(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi


def verified_first_success(success: Callable[[int], bool], K: int, found: int,
                           horizon: int | None = None) -> int:
    """From the index ``found`` of :func:`first_success`, check the points above it at
    offsets 1, 2, 4, ... up to ``horizon`` (default: up to the top, which is then
    checked too); on a failure at ``j`` search again above ``j``.  Returns an index from
    which every evaluated point succeeds (``K``: none).  A finite ``horizon`` keeps the
    check near the crossing, where an evaluation costs about what one there does."""
    i = found
    while i < K:
        top = K - 1 if horizon is None else min(K - 1, i + horizon)
        offsets = sorted({min(top, i + 2**m) for m in range(K.bit_length())} - {i})
        bad = next((j for j in offsets if not success(j)), None)
        if bad is None:
            return i
        if bad == K - 1:
            return K
        i = bad + 1 + first_success(lambda t, b=bad: success(b + 1 + t), K - bad - 1, 0)
    return K


def scanned_first_success(scan: Callable[[list[int]], Iterator[bool]], K: int, hint: int,
                          horizon: int, below: int, stride: int = 1) -> tuple[int, dict[int, bool], list[int]]:
    """The first success on a grid ``0..K-1`` read from ascending scans, for a task that
    grows the resource in one pass (``Task(scan=...)``): ``scan(indices)`` yields the
    successes at the increasing ``indices`` lazily, at the cost of about one evaluation at
    the last index pulled plus a small cost per index read.

    Coarse pass, every ``stride``-th index: it starts ``below`` under ``hint`` (and again
    ``below`` further down while its first point succeeds) and reads until the points
    within ``horizon`` after its last failure all succeed.  Fine pass: every index between
    that last failure and the first coarse success after it.  Returns ``(index, outcomes,
    tops)``: the index after the last failure read (``K``: none succeeds), every outcome
    read, and the last index each scan pulled (its cost)."""
    start = max(0, min(K - 1, hint) - below)
    tops: list[int] = []
    while True:
        coarse = list(range(start, K, stride))
        points = iter(scan(coarse))
        first = bool(next(points))
        if first and start > 0:
            tops.append(start)
            start = max(0, start - below)
            continue
        break
    outcomes = {start: first}
    index, n = (start if first else None), 0
    while n < len(coarse) - 1 and (index is None or coarse[n] < index + horizon):
        n += 1
        outcomes[coarse[n]] = ok = bool(next(points))
        if not ok:
            index = None
        elif index is None:
            index = coarse[n]
    tops.append(coarse[n])
    if index is None:
        return K, outcomes, tops
    if index > start and stride > 1:  # the fine points between the last coarse failure and index
        fine = list(range(index - stride + 1, index))
        for i, ok in zip(fine, scan(fine)):
            outcomes[i] = bool(ok)
        tops.append(fine[-1])
        failed = [i for i in fine if not outcomes[i]]
        index = failed[-1] + 1 if failed else fine[0]
    return index, outcomes, tops
