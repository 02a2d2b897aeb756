"""Every catalogue bound that declares an ``expected`` verdict gets it from its own check.

In the spirit of diffrax's declared-order tests (each solver declares its order, one
parametrised test measures it): a :class:`~theorycheck.catalogue.Expected` records the
verdict of ``check(bound.id, budget=..., entropy=...)`` when it was measured, and this test
runs the same call again. The check is seeded (``entropy``), so the verdict is a
deterministic function of the code: a change means the simulator, the design or the
comparator changed what the catalogue says about the bound, and the declaration (or the
change) must be looked at. Slow (a quick-budget check each); ``pytest -m slow``.
"""

import pytest

from theorycheck import catalogue
from theorycheck.check import check

DECLARED = [b for b in catalogue.all_bounds() if b.expected is not None]


def test_some_bound_declares_an_expected_verdict():
    """Not vacuous: the parametrised test below has something to run."""
    assert DECLARED


@pytest.mark.slow
@pytest.mark.parametrize("bound", DECLARED, ids=lambda b: b.id)
def test_declared_verdict_is_what_the_check_returns(bound):
    expected = bound.expected
    result = check(bound.id, budget=expected.budget, entropy=expected.entropy)
    verdict = result.to_dict()["verdict"]
    assert result.status == expected.verdict, (
        f"{bound.id}: declared {expected.verdict} on budget {expected.budget} "
        f"({expected.measured}), got {result.status}: {verdict['reason']}"
    )
