"""Design of a check's sweep: which cells, where each threshold search starts.

One-at-a-time lines through a base point, plus a few joint points (docs/architecture.md):

* every variable ``x`` of the law that the task can set is varied over a geometric range
  around the base value, widened by factors of sqrt(2) on each side in turn while
  (i) the range stays within ``budget.max_span``, (ii) the bound's declared ``ranges``
  and the task's declared valid range of ``x`` allow it (a step landing within float
  rounding of such an end is that end: :func:`_snap`), (iii) the simulator accepts the
  parameters (e.g. orthogonal needs d >= V+2), (iv) the predicted trial cost (law
  threshold with reference constants, times 2) stays under ``budget.max_cost``, and
  (v) the law's regime constraints that can be judged before measuring still hold (below);
* ``budget.points_per_variable`` values are spread geometrically over that range;
* ``budget.joint_points`` cells move two variables at once (to the ends of their ranges;
  other ends where the preferred ones are a line's cell already, as when the base sits at
  the end of a range), which is what separates a multiplicative law from an additive one;
* every cell also satisfies the bound's ``keep`` constraints (design-only, e.g. a storage
  margin), like the regime constraints of rule (v).

**Inside the regime.** A bound states where its law holds (``"V >> d"``, ``"L << V"``,
``"N << L*V"``; :mod:`theorycheck.check.regime` reads ``>>`` as a ratio of at least 4).
The constraints that do not name the resource can be judged before measuring: a line
stops widening where one of them would fail (rule (v)), so that every designed cell is
inside them when the base point is. A base point outside some of them is designed around
anyway, with a note, keeping the constraints it does satisfy (the verdict's first line then
says the sweep left the regime). Constraints
that name the resource (``N << L*V``) can only be judged at the measured threshold,
after the sweep (:func:`theorycheck.check.where_measured.regime_for`).

The search of each cell starts at the law's threshold evaluated with the reference
constants (1 where none is known).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from theorycheck.check.budget import BUDGETS, Budget
from theorycheck.registry import Task
from theorycheck.wording import counted

__all__ = ["SweepDesign", "design_sweep", "check_law_on_task", "predicted", "design_constraints",
           "outside_regime"]


@dataclass(frozen=True)
class SweepDesign:
    """The cells of a check: law-variable values per cell and where each search starts."""

    resource: str
    task: Task
    settings: dict[str, Any]  # simulator settings held fixed (algorithm, embeddings, ...)
    base: dict[str, float]
    varied: dict[str, list[float]]
    cells: list[dict[str, float]]
    starts: list[float]
    budget: Budget
    notes: list[str] = field(default_factory=list)
    given: bool = False  # the cells are the caller's (theorycheck.check.given_cells), not designed
    increasing: bool = True  # success grows with the resource (a '>=' law); False for a capacity ('<=')

    def to_dict(self) -> dict[str, Any]:
        out = {
            "resource": self.resource, "task": self.task.name, "simulation": dict(self.settings),
            "base": dict(self.base), "varied": {k: list(v) for k, v in self.varied.items()},
            "cells": len(self.cells), "budget": self.budget.name, "notes": list(self.notes),
        }
        named = BUDGETS.get(self.budget.name)
        if named is None or named.max_cost != self.budget.max_cost:  # --max-cost, or a Budget of one's own
            out["max_cost"] = self.budget.max_cost
        if self.given:
            out["given_cells"] = [{k: x for k, x in c.items() if k in self.varied or x != self.base.get(k)}
                                  for c in self.cells]
        return out


def _rounder(task: Task):
    """``round(var, x)``: ``x`` as the task will run it (integers by their declared kind, at least 1)."""
    def _round(var: str, x: float) -> float:
        return float(max(1, round(x))) if task.kind(var) == "integer" else float(x)
    return _round


def predicted(law, point: Mapping[str, float], constants: Mapping[str, float]) -> float:
    """The law's threshold at ``point`` (variables the law does not have are ignored)."""
    return float(law.evaluate({v: point[v] for v in law.variables}, constants))


def _feasible(law, task: Task, settings: Mapping[str, Any], point: Mapping[str, float],
              constants: Mapping[str, float], budget: Budget) -> bool:
    """Simulator accepts the point and the trial at twice the predicted threshold is affordable."""
    try:
        start = predicted(law, point, constants)
    except ValueError:
        return False
    if not (math.isfinite(start) and start > 0):
        return False
    declared = task.declared(law.resource)
    if declared is not None and start > declared.high:
        return False  # the predicted threshold lies beyond the resource's valid range
    cap = declared.high if declared is not None else math.inf
    full = {**settings, **point, law.resource: _rounder(task)(law.resource, min(2 * start, cap))}
    try:
        task.check_params(full)
    except ValueError:
        return False
    return task.trial_cost(full) <= budget.max_cost


def design_constraints(constraints, resource: str, names) -> tuple:
    """The constraints (texts or parsed) that can be judged before measuring: those that
    name only ``names`` (the design's variables) and not ``resource``."""
    from theorycheck.check.regime import parse_constraint

    parsed = [c if hasattr(c, "names") else parse_constraint(c) for c in constraints]
    return tuple(c for c in parsed if resource not in c.names and set(c.names) <= set(names))


def outside_regime(constraints, point: Mapping[str, float]) -> list[str]:
    """Texts of the design-time ``constraints`` that fail at ``point``."""
    if not constraints:
        return []
    from theorycheck.check.regime import evaluate_regime

    cell = evaluate_regime(constraints, [{n: point[n] for c in constraints for n in c.names}]).cells[0]
    return list(cell.violated)


def _snap(x: float, *ends: float) -> float:
    """``x``, or the end it lies within float rounding of: sqrt(2) steps from 2 reach
    0.9999999999999999 and 8.000000000000002, never the range ends 1 and 8."""
    return next((e for e in ends if 0 < e < math.inf and abs(x / e - 1) <= 1e-9), x)


def _range(var: str, law, task: Task, settings, base, constants, budget: Budget,
           limits: tuple[float, float] | None, inside=lambda point: True) -> tuple[float, float]:
    _round = _rounder(task)
    lo = hi = float(base[var])
    lo_min, hi_max = limits if limits else (0.0, math.inf)
    step = math.sqrt(2.0)
    grow_hi = grow_lo = True
    while (grow_hi or grow_lo) and hi / lo < budget.max_span * (1 + 1e-9):
        for side in ("hi", "lo"):
            if side == "hi" and grow_hi:
                cand = _snap(_round(var, hi * step), hi_max)
                if cand <= hi:  # an integer at 1: round(sqrt(2)) = 1 would never grow (a hang)
                    cand = _round(var, hi + 1)
                ok = hi < cand <= hi_max and cand / lo <= budget.max_span * (1 + 1e-9) and _feasible(
                    law, task, settings, {**base, var: cand}, constants, budget) and inside({**base, var: cand})
                hi, grow_hi = (cand, True) if ok else (hi, False)
            if side == "lo" and grow_lo:
                cand = _snap(_round(var, lo / step), lo_min)
                ok = cand >= max(lo_min, 1e-12) and cand < lo and hi / cand <= budget.max_span * (1 + 1e-9) \
                    and _feasible(law, task, settings, {**base, var: cand}, constants, budget) \
                    and inside({**base, var: cand})
                lo, grow_lo = (cand, True) if ok else (lo, False)
    return lo, hi


def _spread(task: Task, var: str, base: float, lo: float, hi: float, n: int,
            ends: tuple[float, ...] = ()) -> list[float]:
    """``n`` values evenly spread on the sqrt(2)-lattice through ``base`` from ``lo`` to ``hi``
    (the 2^(1/4)-lattice for a line under 2x, so that it still gets 3 values).

    The base value itself need not be one of them: each one-at-a-time line holds the
    other variables at their base values, which is all the design needs. A value within
    float rounding of one of the range's declared ``ends`` is that end (:func:`_snap`).
    """
    per_doubling = 2
    # a line under 2x holds one sqrt(2) step: take quarter steps so that it gets 3 values
    if n >= 3 and round(2 * math.log2(hi / lo)) < 2:
        per_doubling = 4
    a = round(per_doubling * math.log2(base / lo))
    b = round(per_doubling * math.log2(hi / base))
    steps = sorted({int(round(k)) for k in np.linspace(-a, b, n)})
    step = math.sqrt(2.0) ** (2 / per_doubling)  # exactly sqrt(2) on the usual lattice
    return sorted({_snap(_rounder(task)(var, base * step ** k), *ends) for k in steps})


def check_law_on_task(law, task: Task) -> None:
    """The task can vary the law's resource and set every variable of the law (ValueError)."""
    if law.resource not in task.variables:
        raise ValueError(
            f"the {task.name} task cannot vary {law.resource!r} (the law's resource); "
            f"its variables are {', '.join(task.variables)}"
        )
    foreign = [v for v in law.variables if v not in task.variables]
    if foreign:
        raise ValueError(
            f"law {law.text!r} depends on {foreign}, which the {task.name} task cannot set "
            f"(its variables: {', '.join(task.variables)}); pass values for them as constants "
            "or check the law against another task"
        )


def design_sweep(law, task: Task, *, settings: Mapping[str, Any], base: Mapping[str, float],
                 budget: Budget, constants: Mapping[str, float] | None = None,
                 ranges: Mapping[str, tuple[float, float]] | None = None,
                 vary: tuple[str, ...] | None = None, constraints=()) -> SweepDesign:
    """Design the sweep of ``law`` on ``task`` (see the module docstring). ``constraints``:
    the law's regime (strings such as ``"V >> d"``); those that do not name the resource
    bound every line (rule (v))."""
    constants = {c: float(constants.get(c, 1.0)) if constants else 1.0 for c in law.constants}
    check_law_on_task(law, task)
    extra = [v for v in (vary or ()) if v not in law.variables]
    unknown = [v for v in extra if v not in task.variables or v == law.resource]
    if unknown:
        raise ValueError(
            f"cannot vary {unknown}: the {task.name} task's variables are "
            f"{', '.join(v for v in task.variables if v != law.resource)}"
        )
    # Every task variable gets a value: the law's, the varied ones, and the task's defaults.
    fixed = {k: float(v) for k, v in {**task.defaults, **dict(base)}.items() if k != law.resource}
    missing = [v for v in (*law.variables, *extra) if v not in fixed]
    if missing:
        other = (f" (the law solves for {law.resource}, the task measures {task.resource}: a law about the "
                 f"task's resource needs {task.resource} on its left)" if law.resource != task.resource
                 and task.resource in missing else "")
        raise ValueError(f"no base value for {missing}{other}; give one with base={{{missing[0]!r}: VALUE}} "
                         f"(--base {missing[0]}=VALUE)")
    base = fixed
    start = predicted(law, base, constants)
    _round = _rounder(task)
    task.check_params({**settings, **base, law.resource: _round(law.resource, start)})  # the real reason
    if not _feasible(law, task, settings, base, constants, budget):
        raise ValueError(
            f"the base point {base} is not simulable within the {budget.name} budget "
            f"(invalid parameters or a predicted trial cost above {budget.max_cost:g}); "
            "choose another base point or a larger budget"
        )
    # A varied variable the law does not contain is predicted to have exponent 0
    # (e.g. L for orthogonal embeddings, docs/theory.md §6).
    vary = tuple(vary or law.variables)[: budget.max_variables]
    notes: list[str] = []
    regime = design_constraints(constraints, law.resource, base)
    base_outside = outside_regime(regime, base)
    if base_outside:
        notes.append(f"the base point is outside the law's regime ({', '.join(base_outside)} fails there); "
                     "cells designed around it anyway")

    kept = tuple(c for c in regime if c.text not in base_outside)  # the constraints the base satisfies

    def inside(point: Mapping[str, float]) -> bool:
        return not outside_regime(kept, point)

    skipped = [v for v in (vary or law.variables) if v not in vary]
    varied: dict[str, list[float]] = {}
    for var in vary:
        lim = tuple(ranges[var]) if ranges and var in ranges else (0.0, math.inf)
        declared = task.declared(var)
        if declared is not None:  # the task's declared valid range bounds every design
            lim = (max(lim[0], declared.low), min(lim[1], declared.high))
        lo, hi = _range(var, law, task, settings, base, constants, budget, lim, inside)
        if hi / lo < budget.min_span:
            notes.append(f"{var} could not be varied around {base[var]:g} within the budget"
                         f"{' and the regime' if kept else ''}; held fixed")
            continue
        varied[var] = _spread(task, var, base[var], lo, hi, budget.points_per_variable, lim)
        if hi / lo < budget.max_span / 1.01:
            notes.append(f"{var} spans only {hi / lo:.1f}x ({lo:g}..{hi:g}) within the {budget.name} budget"
                         f"{' and the regime' if kept else ''}")
    untested = [v for v in law.variables if v not in varied]
    if untested:
        notes.append(f"{', '.join(untested)} held fixed in this design: exponent(s) untested"
                     + (" (use a larger budget to vary them)" if skipped else ""))
    cells: list[dict[str, float]] = []
    for var, values in varied.items():
        cells += [c for c in ({**base, var: x} for x in values) if c not in cells]
    names = list(varied)
    for i in range(budget.joint_points):
        if len(names) < 2:
            break
        a, b = names[i % len(names)], names[(i + 1) % len(names)]
        order = [(-1, -1), (0, 0), (-1, 0), (0, -1)]
        first = (i // max(1, len(names))) % 4
        # the preferred pair of ends first; the others where it is a line's cell already
        # (a base at the end of its range) or cannot be simulated or leaves the regime
        for ends in order[first:] + order[:first]:
            cell = {**base, a: varied[a][ends[0]], b: varied[b][ends[1]]}
            if cell not in cells and _feasible(law, task, settings, cell, constants, budget) and inside(cell):
                cells.append(cell)
                break
    if law.assumptions:  # a law in textbook form holds where its assumptions do (e.g. k < n)
        if not bool(law.satisfies(base)):
            raise ValueError(f"the base point {base} breaks the law's assumption(s) "
                             f"{', '.join(law.assumption_texts)}; choose a base point inside them")
        outside = [c for c in cells if not bool(law.satisfies(c))]
        if outside:
            notes.append(f"{counted(len(outside), 'cell')} left out: outside the law's assumption(s) "
                         f"{', '.join(law.assumption_texts)}")
            cells = [c for c in cells if c not in outside]
    starts = [_round(law.resource, predicted(law, c, constants)) for c in cells]
    return SweepDesign(law.resource, task, dict(settings), base, varied, cells, starts, budget, notes,
                       increasing=law.sense == ">=")
