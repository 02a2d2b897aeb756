"""A check on cells the caller chooses, in place of the budget's lines.

``check(ID, cells=[{"V": 2048, "d": 512, "L": 64}, ...])`` (CLI: ``--cells
"V=2048,d=512,L=64; V=4096,d=1024,L=16"``) measures the threshold at exactly these
cells, for a table a paper prints, a wedge that no one-at-a-time line fits in (the
three-step laws' regime, docs/theory.md §7.8), or a few cells added where a verdict was
unsure. One cell measures its threshold alone (with the law's constant there; no exponent, so
the verdict is inconclusive): a reference point, such as a limit's threshold beside a probe's.
Everything else is the check's: the budget sets the trials, the CI width and the trial-cost
ceiling of every search; the comparator fits the law to all cells at once
(``theorycheck fit`` does the same with thresholds measured elsewhere).

A cell gives values of task variables (not the resource); what it leaves out comes from
the base point. Each cell is checked by the task before any work, and the constraints of
the law's regime that can be judged before measuring are reported per cell in the notes
(they do not remove a cell: the caller chose it). The search of each cell starts at the
law's prediction with the reference constants, as in a designed sweep.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from theorycheck.check.budget import Budget
from theorycheck.check.design import (
    SweepDesign,
    _rounder,
    check_law_on_task,
    design_constraints,
    outside_regime,
    predicted,
)
from theorycheck.registry import Task
from theorycheck.validate import check_positive
from theorycheck.wording import counted

__all__ = ["design_given_cells"]


def design_given_cells(law, task: Task, cells: Any, *, settings: Mapping[str, Any], base: Mapping[str, float],
                       budget: Budget, constants: Mapping[str, float] | None = None,
                       constraints=()) -> SweepDesign:
    """The design whose cells are ``cells`` (a list of ``{variable: value}``), with the
    arguments of :func:`~theorycheck.check.design.design_sweep`; ValueError (one line,
    naming the cell) on anything the task or the law cannot run."""
    if isinstance(cells, (str, Mapping)) or not isinstance(cells, Sequence) or not cells:
        raise ValueError(f"cells must be a non-empty list of mappings {{variable: value}}, got {cells!r}; "
                         "give one cell for its threshold, two or more that differ in a variable of the "
                         "law for its exponents")
    check_law_on_task(law, task)
    resource = law.resource
    constants = {c: float((constants or {}).get(c, 1.0)) for c in law.constants}
    _round = _rounder(task)
    base = {k: float(v) for k, v in base.items() if k != resource}
    full, starts = [], []
    for i, cell in enumerate(cells):
        if not isinstance(cell, Mapping) or not cell:
            raise ValueError(f"cell {i} must be a non-empty mapping {{variable: value}}, got {cell!r}")
        if resource in cell:
            raise ValueError(f"cell {i} gives the resource {resource}, which the check measures; drop it")
        unknown = sorted(set(cell) - set(task.variables))
        if unknown:
            raise ValueError(f"cell {i} names {unknown}, not variables of task {task.name!r} "
                             f"({', '.join(task.variables)})")
        point = {**base, **{str(k): _round(str(k), check_positive(f"cell {i}: {k}", v)) for k, v in cell.items()}}
        missing = [v for v in law.variables if v not in point]
        if missing:
            raise ValueError(f"cell {i} gives no value for {missing} and the base point has none; "
                             "give it in every cell or with --base")
        if point in full:
            raise ValueError(f"cell {i} repeats cell {full.index(point)} ({dict(cell)}); give each cell once")
        try:
            start = _round(resource, predicted(law, point, constants))
            task.check_params({**settings, **point, resource: start})
        except (ValueError, OverflowError) as exc:
            raise ValueError(f"cell {i} ({dict(cell)}) cannot be simulated: {exc}") from None
        full.append(point)
        starts.append(start)
    names = sorted({k for c in full for k in c})
    varied = {v: sorted({c[v] for c in full}) for v in names if len({c[v] for c in full}) > 1}
    if len(full) > 1 and not any(v in varied for v in law.variables):
        raise ValueError(f"the cells do not vary any variable of the law ({', '.join(law.variables)}); "
                         "an exponent needs at least two values of one")
    notes = [f"{counted(len(full), 'cell')} given by the caller (the {budget.name} budget "
             "sets the searches, not the cells)"]
    regime = design_constraints(constraints, resource, names)
    outside = [(i, outside_regime(regime, c)) for i, c in enumerate(full)]
    outside = [(i, fails) for i, fails in outside if fails]
    if outside:
        notes.append("cell(s) outside the law's regime: " + "; ".join(
            f"{i} ({', '.join(fails)} fails)" for i, fails in outside))
    untested = [v for v in law.variables if v not in varied]
    if len(full) == 1:
        notes.append("one cell: its threshold and the law's constant, no exponent tested (the verdict "
                     "is inconclusive); give two or more cells for exponents")
    elif untested:
        notes.append(f"{', '.join(untested)} the same in every cell: exponent(s) untested")
    return SweepDesign(resource, task, dict(settings), base, varied, full, starts, budget, notes, given=True,
                       increasing=law.sense == ">=")
