"""Budgets of a check: how wide, how dense and how deep a sweep may go.

=========  ===============================================================  ==========
budget     design                                                           wall time
=========  ===============================================================  ==========
quick      3 values per varied variable over up to 8x, 4 trials a point,   <= 5 min
           the first 2 variables only, thresholds to ~+-3% (CI hi/lo       on 2 cores
           <= e^0.06), trial cost capped, no joint points                   (~45 s here)
standard   5 values per variable over up to 16x, 2 joint points             <= 30 min
paper      every variable, 3 values over up to 8x (lines as narrow as       <= 30 min
           1.4x, e.g. d and V in the three-step laws' regime wedge),        on 2 cores
           thresholds to ~+-2% (e^0.04), 2 joint points, trial cost to      (--workers 2)
           ~5 s: the in-regime check of the paper's laws
full       7 values per variable over up to 32x, 4 joint points             unbounded
=========  ===============================================================  ==========

A varied variable needs a line of at least ``min_span`` (max/min; 1.5, and 1.4 for
``paper``) or it is held fixed. A line narrower than half a decade can refute an
exponent but never make it consistent (:data:`theorycheck.compare.decide.DEFAULT_MIN_SPAN`),
so a narrow line is worth measuring only where the exponent may be off.

The cost of one retrieval trial of the fast path grows like ``N*L + V**2*d/80`` in token
visits of ~16 ns (docs/theory.md §3, :func:`theorycheck.tasks.retrieval_task.retrieval_cost`);
``max_cost`` caps it at twice the predicted threshold so that a quick check never wanders
into minute-long trials: quick 6e7 (~1 s of CPU a trial, what an in-regime cell of the
three-step laws at (V, d) = (2048, 512) needs), standard 3e8 (~5 s), full 2e9. A check that cannot span enough of a variable inside its
budget says so in its verdict (``inconclusive``: range too narrow).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["Budget", "BUDGETS", "get_budget"]


@dataclass(frozen=True)
class Budget:
    """Sweep limits of one budget level (see the module table)."""

    name: str
    points_per_variable: int
    max_span: float  # largest ratio max/min of a varied variable
    seeds_per_point: int  # trials per evaluated resource value
    max_trials_per_cell: int
    max_cost: float  # cap on N*L + V**2*d at twice the predicted threshold
    joint_points: int
    ci_rel_width: float  # stop a cell's search when its threshold CI is this narrow (ratio hi/lo - 1)
    max_variables: int  # vary at most this many variables (in the bound's order); the rest held fixed
    min_span: float = 1.5  # a line narrower than this (max/min) is not varied

    def to_dict(self) -> dict:
        return asdict(self)


BUDGETS: dict[str, Budget] = {
    "quick": Budget("quick", 3, 8.0, 4, 480, 6e7, 0, 0.06, 2),
    "standard": Budget("standard", 5, 16.0, 6, 400, 3e8, 2, 0.08, 6),
    "paper": Budget("paper", 3, 8.0, 4, 600, 3e8, 2, 0.04, 6, min_span=1.4),
    "full": Budget("full", 7, 32.0, 8, 800, 2e9, 4, 0.05, 6),
}


def get_budget(name: str | Budget) -> Budget:
    """Look a budget up by name; ``ValueError`` names the valid ones."""
    if isinstance(name, Budget):
        return name
    try:
        return BUDGETS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown budget {name!r}: choose one of {', '.join(BUDGETS)} "
            "(quick <= 5 min, standard and paper <= 30 min on 2 cores, full unbounded)"
            + ("" if isinstance(name, str) else ", or a Budget, e.g. "
               "dataclasses.replace(get_budget('quick'), max_trials_per_cell=24)")
        ) from None
