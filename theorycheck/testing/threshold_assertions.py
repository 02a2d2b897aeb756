"""Assertions about measured or planted thresholds (see :mod:`theorycheck.testing`).

:func:`assert_threshold_consistent` and :func:`assert_threshold_refuted` run the comparator
(:func:`theorycheck.compare.compare`, docs/methods.md) on a
:class:`~theorycheck.compare.Dataset` and fail with the verdict's reason. Laws may be given
as in :mod:`theorycheck.testing.assertions` (Law, catalogue Bound or law string).
"""

from __future__ import annotations

from typing import Any

from theorycheck.catalogue import as_law
from theorycheck.law import Law

__all__ = ["assert_threshold_consistent", "assert_threshold_refuted"]


def _verdict(law: Any, data: Any, compare_kwargs: dict) -> tuple[Law, Any]:
    from theorycheck.compare import Dataset, compare

    law, bound = as_law(law)
    if not isinstance(data, Dataset):
        raise ValueError(
            f"data must be a theorycheck.compare.Dataset (from planted_dataset, measure_dataset or "
            f"Dataset.from_rows), got {type(data).__name__}"
        )
    return law, compare(law, data, **compare_kwargs)


def _summary(law: Law, verdict: Any) -> str:
    parts = [f"{law.text!r} is {verdict.status} with the data: {verdict.reason}"]
    suggestions = getattr(verdict, "suggestions", ())
    if suggestions:
        parts.append("to decide: " + "; ".join(suggestions))
    return ". ".join(parts)


def assert_threshold_consistent(law: Any, data: Any, *, allow_inconclusive: bool = False, **compare_kwargs: Any):
    """Assert that thresholds ``data`` are ``consistent`` with ``law``; return the Verdict.

    ``data`` is a :class:`theorycheck.compare.Dataset`: planted
    (:func:`theorycheck.planted.planted_dataset`), measured (:func:`measure_dataset`) or
    your own (``Dataset.from_rows``). ``compare_kwargs`` go to
    :func:`theorycheck.compare.compare` (``tolerance``, ``level``, ``q``, ``up_to``...).
    A ``refuted`` verdict fails with its reason; an ``inconclusive`` one fails too
    unless ``allow_inconclusive=True`` (the message says what would decide it).

    A complete test::

        from theorycheck.law import Law
        from theorycheck.planted import planted_dataset
        from theorycheck.testing import assert_threshold_consistent

        def test_planted_law_is_recovered():
            law = Law.parse("N >= C*L*V**2*log(V)/d**2")
            data = planted_dataset(law, grid={"V": [64, 512], "d": [16, 128], "L": [2, 32]},
                                   constants={"C": 3.0}, width=0.1, trials=16, seed=0)
            assert_threshold_consistent(law, data)
    """
    law, verdict = _verdict(law, data, compare_kwargs)
    if verdict.status == "consistent" or (allow_inconclusive and verdict.status == "inconclusive"):
        return verdict
    raise AssertionError(_summary(law, verdict))


def assert_threshold_refuted(law: Any, data: Any, **compare_kwargs: Any):
    """Assert that ``data`` refute ``law`` (the comparator says ``refuted``); return the Verdict.

    The control of docs/architecture.md: a law whose exponent is off by a clear margin must be
    refuted by data planted from the right one. See :func:`assert_threshold_consistent`
    for ``data`` and ``compare_kwargs``.
    """
    law, verdict = _verdict(law, data, compare_kwargs)
    if verdict.status == "refuted":
        return verdict
    raise AssertionError(_summary(law, verdict) + " (expected: refuted)")
