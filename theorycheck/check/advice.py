"""What an inconclusive check's "to decide" advice means in budgets.

The comparator says about how many times the trials per cell would decide an
inconclusive exponent (:attr:`theorycheck.compare.decide.Decision.more_trials`; a cell's
threshold CI narrows like ``1/√trials``). A check buys that precision through its
budget's CI target, :attr:`theorycheck.check.budget.Budget.ci_rel_width` ``w`` (a cell's
search stops once ``hi/lo − 1 <= w``): going from ``w`` to ``w'`` costs about ``(w/w')²``
the trials a cell. The budgets are not ordered in that respect (``standard`` has more
cells than ``quick`` but a looser target, 0.08 against 0.06), so "more trials per cell"
alone does not say which to choose; this names the least precise budget that is precise
enough, or says that none is and the line must be wider instead.
"""

from __future__ import annotations

from typing import Any

from theorycheck.check.budget import BUDGETS, Budget

__all__ = ["budget_advice"]


def budget_advice(budget: Budget, verdict: Any) -> str | None:
    """One line of advice for an inconclusive ``verdict`` measured under ``budget``, or
    None when no exponent asks for more trials per cell."""
    if getattr(verdict, "status", None) != "inconclusive" or not hasattr(verdict, "exponents"):
        return None  # (a NoCrossing has no exponents: its advice is about the ceiling)
    wanted = [c.decision.more_trials for c in verdict.exponents.values()
              if c.decision is not None and c.decision.more_trials is not None]
    if not wanted:
        return None
    more = max(wanted)
    now = budget.ci_rel_width
    enough = [b for b in BUDGETS.values() if (now / b.ci_rel_width) ** 2 >= more]
    if not enough:
        return (f"no budget narrows the cells' thresholds by the ~{more:g}x in trials needed (the tightest, "
                f"paper, targets ±{BUDGETS['paper'].ci_rel_width / 2:.0%} a cell, now ±{now / 2:.1%}); widen "
                "the line instead (--budget full spans up to 32x a variable; --cells places cells anywhere)")
    pick = max(enough, key=lambda b: b.ci_rel_width)  # the cheapest target that suffices
    return (f"with the command line: --budget {pick.name} (budget='{pick.name}') targets ±{pick.ci_rel_width / 2:.1%} "
            f"a cell, against ±{now / 2:.1%} now: about {(now / pick.ci_rel_width) ** 2:.1f}x the trials a cell")
