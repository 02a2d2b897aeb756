"""Helpers for your own test suite: assertions about laws and hypothesis strategies.

A law is a claim; these helpers turn the usual claims into one-line test assertions,
so that a paper's bounds can live in a test suite like any other code (docs/architecture.md:
"theory declared on the object and tested empirically").

Assertions (:mod:`theorycheck.testing.assertions` and
:mod:`theorycheck.testing.threshold_assertions`, no hypothesis needed):

* :func:`assert_monotone` -- a law moves in its declared directions ("``d`` helps,
  ``L`` hurts") at every given point;
* :func:`assert_dominates` -- a sufficient condition (upper bound on the required
  resource) is never below a necessary one (lower bound) on a regime: asymptotically,
  and numerically when constants are given;
* :func:`assert_threshold_consistent` / :func:`assert_threshold_refuted` -- measured or
  planted thresholds come back ``consistent`` with (or ``refuted`` by) a law under the
  comparator (:func:`theorycheck.compare.compare`); the AssertionError carries the
  verdict's reason.

Data (:mod:`theorycheck.testing.data`): :func:`measure_dataset` (thresholds of a trial
function in several cells, as a :class:`~theorycheck.compare.Dataset`) and
:func:`simulated_trial` (a deterministic simulator trial for it).

Strategies (:mod:`theorycheck.testing.strategies`, need ``hypothesis``):
:func:`regime_points` (points inside a law's regime), :func:`monomial_laws` (laws
``C * prod x**a * log(V)**k`` with random exponents), :func:`planted_datasets`
(binomial data from a planted threshold law, :mod:`theorycheck.planted`).

A complete test file::

    from hypothesis import given, settings
    from theorycheck import catalogue
    from theorycheck.testing import assert_monotone, regime_points

    BOUND = catalogue.get("vural2026.gradient_noise")

    @settings(max_examples=25)
    @given(point=regime_points(BOUND))
    def test_gradient_noise_moves_as_declared(point):
        assert_monotone(BOUND, BOUND.directions, point)
"""

from __future__ import annotations

from typing import Any

from theorycheck.testing.assertions import assert_dominates, assert_monotone
from theorycheck.testing.threshold_assertions import assert_threshold_consistent, assert_threshold_refuted
from theorycheck.testing.data import measure_dataset, simulated_trial

__all__ = [
    "assert_dominates",
    "assert_monotone",
    "assert_threshold_consistent",
    "assert_threshold_refuted",
    "measure_dataset",
    "monomial_laws",
    "planted_datasets",
    "regime_points",
    "simulated_trial",
]

_STRATEGIES = ("regime_points", "monomial_laws", "planted_datasets")


def __getattr__(name: str) -> Any:
    """Import the hypothesis strategies on first use (hypothesis is a test dependency)."""
    if name in _STRATEGIES:
        try:
            from theorycheck.testing import strategies
        except ImportError as exc:  # pragma: no cover - hypothesis is in the test extra
            raise ImportError(
                f"theorycheck.testing.{name} needs hypothesis: pip install 'theorycheck[test]' "
                f"(or pip install hypothesis); import failed with: {exc}"
            ) from exc
        return getattr(strategies, name)
    raise AttributeError(f"module 'theorycheck.testing' has no attribute {name!r}")
