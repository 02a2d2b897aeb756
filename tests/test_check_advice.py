"""An inconclusive check's "more trials per cell" names the budget that buys them.

The budgets are not ordered by precision (standard's CI target, 0.08, is looser than
quick's, 0.06), so a user who read "about 2.3x the trials per cell" and picked the next
budget up got noisier cells."""

from types import SimpleNamespace

from theorycheck.check.advice import budget_advice
from theorycheck.check.budget import get_budget


def _verdict(status, *more):
    checks = {f"x{i}": SimpleNamespace(decision=SimpleNamespace(more_trials=m)) for i, m in enumerate(more)}
    return SimpleNamespace(status=status, exponents=checks)


def test_the_cheapest_budget_precise_enough_is_named():
    # from quick (±3%): full (±2.5%) buys 1.44x, paper (±2%) 2.25x
    assert "--budget full" in budget_advice(get_budget("quick"), _verdict("inconclusive", 1.2))
    assert "--budget paper" in budget_advice(get_budget("quick"), _verdict("inconclusive", 1.2, 2.0))
    # from standard (±4%), quick itself is more precise: 1.78x
    assert "--budget quick" in budget_advice(get_budget("standard"), _verdict("inconclusive", 1.5))


def test_no_budget_is_named_when_none_is_precise_enough_or_none_is_needed():
    assert "widen the line" in budget_advice(get_budget("paper"), _verdict("inconclusive", 1.5))
    assert budget_advice(get_budget("quick"), _verdict("consistent", 2.0)) is None
    assert budget_advice(get_budget("quick"), _verdict("inconclusive", None)) is None
