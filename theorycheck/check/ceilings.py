"""How far a check's searches may go in the resource, and what a check says when they stop there.

A law's reference constants can be far off, so a cell's search may ask for a resource value
far above the law's prediction. It never asks beyond its **ceiling**: ``start * 2**k`` for the
largest ``k`` with ``2**k <= MAX_OVERSHOOT`` whose trial stays within ``MAX_COST_FACTOR``
times the budget's trial-cost cap (:mod:`theorycheck.check.budget`, ``--max-cost``). A cell
whose threshold lies above its ceiling comes back censored ("no threshold below ...").

The two limits mean different things. At ``MAX_OVERSHOOT`` the resource has grown 4096-fold
past the prediction without success: another condition binds (for the retrieval task e.g.
storage, ``d^2 >~ V log V``). At the cost cap the budget stopped the search: the threshold may
lie just above, and ``--max-cost`` (or a larger budget) lifts the cap. A check says which
(:func:`cost_capped_note`, :func:`no_crossing_reason`) instead of reading a cost cap as a wall.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from theorycheck.wording import counted

__all__ = ["MAX_OVERSHOOT", "MAX_COST_FACTOR", "search_ceiling", "cost_capped", "stopped_at_ceiling",
           "cost_capped_note", "no_crossing_reason"]

#: A cell's search never asks for more than this multiple of the predicted threshold ...
MAX_OVERSHOOT = 4096.0
#: ... nor for a trial costing more than this multiple of the budget's cost cap.
MAX_COST_FACTOR = 16.0


def search_ceiling(design: Any, cell: Mapping[str, float], start: float) -> float:
    """Largest resource value a cell's search may try (module docstring)."""
    return _ceiling(design, cell, start)[0]


def cost_capped(design: Any, cell: Mapping[str, float], start: float) -> bool:
    """Whether the cell's ceiling is the budget's cost cap rather than ``MAX_OVERSHOOT``."""
    return _ceiling(design, cell, start)[1]


def _ceiling(design: Any, cell: Mapping[str, float], start: float) -> tuple[float, bool]:
    """``(ceiling, capped)``: the ceiling, and whether the cost cap (not the overshoot) set it."""
    ceiling = start
    while ceiling * 2 <= start * MAX_OVERSHOOT:
        trial = {**design.settings, **cell, design.resource: ceiling * 2}
        if design.task.trial_cost(trial) > MAX_COST_FACTOR * design.budget.max_cost:
            return ceiling, True
        ceiling *= 2
    return ceiling, False


def stopped_at_ceiling(threshold: Any, ceiling: float) -> bool:
    """Whether a cell's search ended censored at its ``ceiling``: no crossing found, and at the
    largest value tried (the ceiling) still on the failing side (no success where success grows
    with the resource, all successes where it falls)."""
    if threshold.censored is None or not threshold.points:
        return False
    top, k, n = max(threshold.points)
    return top >= 0.999 * ceiling and k == (0 if threshold.increasing else n)


def cost_capped_note(design: Any, censored: Sequence[tuple[Mapping[str, float], float]]) -> str | None:
    """The note for ``censored`` cells (``(cell, start)`` of cells whose threshold lies above
    their ceiling) whose ceiling was the cost cap; ``None`` when there are none."""
    capped = []
    for cell, start in censored:
        top, by_cost = _ceiling(design, cell, start)
        if by_cost:
            capped.append((cell, top))
    if not capped:
        return None
    where = "; ".join(", ".join(f"{k}={v:g}" for k, v in cell.items()) + f": {design.resource} <= {top:g}"
                      for cell, top in capped)
    return (f"{counted(len(capped), 'censored cell')} stopped at the {design.budget.name} budget's trial-cost cap, not "
            f"for want of success ({where}): their thresholds may lie just above; --max-cost (e.g. inf) "
            "or a larger budget lifts the cap")


def no_crossing_reason(resource: str, any_cost_capped: bool) -> str:
    """Why a check where no cell crossed q is inconclusive."""
    if any_cost_capped:
        return (f"no cell reached success probability q below its search ceiling, and in some cells that "
                f"ceiling is the budget's trial-cost cap ({MAX_COST_FACTOR:g}x its max_cost), not a wall in "
                f"{resource}: rerun with --max-cost (e.g. inf) or a larger budget to measure them")
    return (f"no cell reached success probability q below its search ceiling ({MAX_OVERSHOOT:g}x the "
            f"law's prediction): the sweep sits where {resource} cannot buy success (another condition "
            "binds: for the retrieval task e.g. storage d^2 >~ V log V); move the base point or check "
            "that condition instead")
