"""Serial driver of the adaptive search: :func:`find_threshold` runs a
:class:`~theorycheck.threshold.search.ThresholdSearch` with a trial function, one trial
after another (a sweep engine drives the same ask/tell protocol in parallel)."""

from __future__ import annotations

from collections.abc import Callable

from theorycheck.threshold.result import Threshold
from theorycheck.threshold.search import ThresholdSearch


def find_threshold(trial: Callable[[float, int], bool], **search_kwargs: object) -> Threshold:
    """Serial driver: run a :class:`ThresholdSearch` with ``trial(resource, replicate)``.

    ``replicate`` counts the trials already run at that resource (0, 1, ...), so a
    deterministic ``trial`` gives reproducible searches.
    """
    if not callable(trial):
        raise ValueError(f"trial must be callable trial(resource, replicate) -> bool, got {trial!r}")
    search = ThresholdSearch(**search_kwargs)
    counts: dict[float, int] = {}
    while requests := search.ask():
        for resource, n_new in requests:
            first = counts.get(resource, 0)
            outcome = [bool(trial(resource, first + i)) for i in range(n_new)]
            counts[resource] = first + n_new
            search.tell(resource, sum(outcome), n_new)
    return search.result()
