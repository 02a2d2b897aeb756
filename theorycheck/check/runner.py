"""``check``: one call from a law to a verdict.

Pipeline (docs/architecture.md): resolve the target (catalogue id, :class:`~theorycheck.law.Law` or
law string) -> :func:`~theorycheck.check.design.design_sweep` -> one
:class:`~theorycheck.threshold.ThresholdSearch` per cell, all driven by
:func:`~theorycheck.sweep.run_sweep` through the given executor and store ->
:func:`~theorycheck.compare.compare` -> :class:`CheckResult`.

Parallelism, storage and progress are passed in with plain defaults (serial, in memory,
silent); the CLI turns them on. Trial seeds derive from ``entropy`` and each trial's
identity only, so the result does not depend on the executor.
"""

from __future__ import annotations

import math
import platform
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from theorycheck.check.budget import Budget, get_budget
from theorycheck.check.ceilings import cost_capped_note, no_crossing_reason, search_ceiling, stopped_at_ceiling
from theorycheck.check.design import SweepDesign, design_sweep
from theorycheck.check.given_cells import design_given_cells
from theorycheck.check.per_seed import nested_for, quantile_table, trial_counts
from theorycheck.check.where_measured import law_constraints, mark_verdict, regime_for
from theorycheck.check.run_arguments import check_run_arguments
from theorycheck.check.target import Target, resolve_target
from theorycheck.registry import Task
from theorycheck.check.advice import budget_advice
from theorycheck.sweep import CellSpec, run_sweep
from theorycheck.threshold import ThresholdSearch
from theorycheck.threshold.per_seed_search import CriticalTrial, PerSeedSearch

__all__ = ["CheckResult", "check", "plan", "cell_searches"]


@dataclass(frozen=True)
class CheckResult:
    """Everything a check found: target, design, per-cell thresholds, verdict, provenance."""

    target: dict[str, Any]
    design: dict[str, Any]
    cells: list[dict[str, Any]]
    verdict: Any  # theorycheck.compare.Verdict
    run: dict[str, Any]
    environment: dict[str, Any]
    caveats: list[str] = field(default_factory=list)
    regime: dict[str, Any] = field(default_factory=dict)

    @property
    def status(self) -> str:
        return self.verdict.status

    def __repr__(self) -> str:  # the generated one printed ~16k characters of nested dicts
        return (f"CheckResult({self.target.get('id')}: {self.status}, {len(self.cells)} cells, "
                f"{self.run.get('trials', 0)} trials; "
                "print() shows the verdict, .to_dict() everything)")

    def __str__(self) -> str:
        """The verdict as ``theorycheck check`` prints it."""
        from theorycheck.report.terminal import render_verdict

        return render_verdict(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        verdict = mark_verdict(self.verdict.to_dict(), self.regime)  # the first line says where it was measured
        return {
            "target": self.target, "design": self.design, "cells": self.cells,
            "verdict": verdict, "run": self.run, "regime": self.regime,
            "environment": self.environment, "caveats": list(self.caveats),
        }


def plan(target: Any, *, budget: str | Budget = "quick", task: str | Task | None = None,
         settings: Mapping[str, Any] | None = None, base: Mapping[str, float] | None = None,
         vary: tuple[str, ...] | None = None,
         ranges: Mapping[str, tuple[float, float]] | None = None,
         assume: str | tuple[str, ...] | None = None,
         cells: list[Mapping[str, float]] | None = None,
         thresholds: str = "bernoulli") -> tuple[Target, SweepDesign]:
    """Resolve the target and design its sweep, without running anything (all input checks).

    A setting that names a task variable (``settings={"zeta": 0.5}``), or a setting the base point
    carries (a task's default such as the ``readout-wall`` task's ``target``), moves the base point
    there: it is what every trial runs and what the report states (a cell's values override the
    settings, so a default left in the base would silently undo the setting). It is refused when
    ``base`` gives the same name another value, or when the design varies it.
    ``cells``: measure these cells instead of the budget's lines (:mod:`.given_cells`);
    ``thresholds="per-seed"`` needs a task whose data are nested in the resource."""
    check_run_arguments(thresholds=thresholds)
    tgt = resolve_target(target, task=task, settings=settings, base=base, vary=vary, ranges=ranges, assume=assume)
    moved = tgt.task.coerce({k: v for k, v in (settings or {}).items() if k in tgt.task.variables or k in tgt.base})
    if moved:
        clash = {k: (v, base[k]) for k, v in moved.items() if base and k in base and base[k] != v}
        if clash:
            raise ValueError(f"settings and base disagree on {clash} (setting, base): give each task "
                             "variable or default once, with --base")
        rest = {k: v for k, v in settings.items() if k not in moved}
        tgt = resolve_target(target, task=task, settings=rest, base={**(base or {}), **moved}, vary=vary,
                             ranges=ranges, assume=assume)
    common = dict(settings=tgt.settings, base=tgt.base, budget=get_budget(budget), constants=tgt.constants,
                  constraints=(*law_constraints(tgt.id, tgt.law), *tgt.keep))
    if cells is not None:
        if vary or ranges:
            raise ValueError("cells replace the designed lines, which vary and ranges shape; drop "
                             f"{'vary' if vary else 'ranges'} (got {vary or ranges!r})")
        return tgt, nested_for(thresholds, tgt, design_given_cells(tgt.law, tgt.task, cells, **common))
    try:
        design = design_sweep(tgt.law, tgt.task, ranges=tgt.ranges, vary=tgt.vary, **common)
    except OverflowError as exc:  # a base point or range so large that the law's threshold overflows
        raise ValueError(f"the design for {tgt.id} at base {dict(tgt.base)} leaves float64 ({exc}); choose a "
                         "smaller base point or ranges (--base, ranges=)") from None
    varied_settings = sorted(set(moved) & set(design.varied))
    if varied_settings:
        raise ValueError(f"the setting(s) {varied_settings} fix a variable this sweep varies "
                         f"({', '.join(design.varied)}); drop the setting, or pass --vary without it")
    if not design.varied:
        raise ValueError(
            f"nothing to vary for {tgt.id}: none of {list(tgt.law.variables)} can be varied within "
            f"the {design.budget.name} budget ({'; '.join(design.notes) or 'the law has no variable'})"
        )
    return tgt, nested_for(thresholds, tgt, design)


def cell_searches(design: SweepDesign, q: float, thresholds: str = "bernoulli") -> dict[str, CellSpec]:
    """The sweep cells of ``design`` (for :func:`theorycheck.sweep.run_sweep` with the task's
    trial, or :class:`CriticalTrial` of it per-seed): one threshold search per cell, started
    at ``design.starts`` (a bench may replace them), on the resource as the task declares it: integers
    rounded, a real resource searched in log space, both inside its valid range.
    ``thresholds="per-seed"``: a :class:`PerSeedSearch` per cell, with the same start,
    range, CI target and trial budget (its evaluations count as trials)."""
    b, task = design.budget, design.task
    declared = task.declared(design.resource)
    integer = declared is None or declared.kind == "integer"
    lower = declared.low if declared is not None and declared.low > 0 else None
    high = declared.high if declared is not None else math.inf
    cells = {}
    for i, (cell, start) in enumerate(zip(design.cells, design.starts, strict=True)):
        key = "cell%02d:" % i + ",".join(f"{k}={v:g}" for k, v in sorted(cell.items()))
        upper = min(search_ceiling(design, cell, start), high)
        # the values the trial runs (integers as integers) are the values recorded
        params = task.coerce({**design.settings, **cell})
        if thresholds == "per-seed":
            search = PerSeedSearch(
                start=min(start, upper), q=q, seeds_per_round=b.seeds_per_point, integer=integer,
                lower=lower, upper=upper, max_evaluations=b.max_trials_per_cell,
                rel_width=b.ci_rel_width, resource=design.resource,
            )
            params.update(search.trial_params)
        else:
            search = ThresholdSearch(
                start=min(start, upper), q=q, seeds_per_point=b.seeds_per_point, integer=integer,
                lower=lower, upper=upper,
                max_trials=b.max_trials_per_cell, rel_width=b.ci_rel_width, resource=design.resource,
                increasing=design.increasing,
            )
        cells[key] = CellSpec(params, design.resource, search)
    return cells


def check(target: Any, *, budget: str | Budget = "quick", task: str | Task | None = None,
          settings: Mapping[str, Any] | None = None, base: Mapping[str, float] | None = None,
          vary: tuple[str, ...] | None = None, ranges: Mapping[str, tuple[float, float]] | None = None,
          assume: str | tuple[str, ...] | None = None, entropy: int = 2026, q: float = 0.5,
          tolerance: float | None = None, executor=None, store=None, progress=None,
          cells: list[Mapping[str, float]] | None = None, thresholds: str = "bernoulli") -> CheckResult:
    """Check ``target`` against simulation and return a :class:`CheckResult`.

    Main arguments: ``target`` -- a catalogue id (``"vural2026.one_step"``), a
    :class:`~theorycheck.catalogue.Bound`, a :class:`~theorycheck.law.Law` or a law string
    (then ``task`` -- a registered name or a :class:`~theorycheck.registry.Task` -- and
    ``settings`` say what to simulate); ``budget`` -- ``quick``,
    ``standard``, ``paper`` or ``full`` (:mod:`theorycheck.check.budget`).

    Other arguments: ``base`` overrides the base point, ``vary`` restricts the varied
    variables, ``ranges`` (``{variable: (low, high)}``) bounds the design, ``assume`` (e.g.
    ``"k < n"``) says where a user's law holds (cells outside it are not designed), ``cells``
    (``[{"V": 2048, "d": 512, "L": 64}, ...]``) measures these cells instead of the budget's
    lines (:mod:`theorycheck.check.given_cells`), ``entropy`` seeds every trial, ``q`` the success probability defining the
    threshold, ``tolerance`` the equivalence margin on exponents (default: the
    comparator's), ``executor``/``store``/``progress`` as in :func:`theorycheck.sweep.run_sweep`,
    ``thresholds`` how each cell's threshold is measured: ``"bernoulli"`` (default) or
    ``"per-seed"`` (nested data only; :mod:`theorycheck.threshold.per_seed_search`).
    """
    from theorycheck.compare import Dataset, compare
    from theorycheck.compare.checks import NoCrossing

    # every argument the sweep would only use late, checked before any work
    vary = check_run_arguments(vary=vary, entropy=entropy, q=q, tolerance=tolerance, store=store,
                               thresholds=thresholds)
    tgt, design = plan(target, budget=budget, task=task, settings=settings, base=base, vary=vary,
                       ranges=ranges, assume=assume, cells=cells, thresholds=thresholds)
    t0 = time.perf_counter()
    trial = (CriticalTrial(tgt.task.trial, design.resource, tgt.task.scan, tgt.task.cost)
             if thresholds == "per-seed" else tgt.task.trial)
    sweep = run_sweep(cell_searches(design, q, thresholds), trial, entropy=entropy,
                      executor=executor, store=store, progress=progress)
    columns = (*tgt.law.variables, *(v for v in design.varied if v not in tgt.law.variables))
    keys = list(sweep.results)
    params = [{v: cell[v] for v in columns} for cell in design.cells]
    measured = [(p, sweep.results[k]) for k, p in zip(keys, params, strict=True)]
    # per-seed evaluations are neither independent nor placed blindly: the law is fitted to
    # each cell's quantile and its order-statistic CI, not to them
    data = quantile_table(measured, design.resource) if thresholds == "per-seed" else \
        Dataset.from_thresholds(measured)
    kwargs = {} if tolerance is None else {"tolerance": tolerance}
    verdict = compare(tgt.law, data, q=q, lower_bound=tgt.lower_law, **kwargs)
    # cells censored at their search ceiling: at the cost cap, say that --max-cost lifts it
    at_ceiling = [(cell, start) for k, cell, start in zip(keys, design.cells, design.starts, strict=True)
                  if stopped_at_ceiling(sweep.results[k], search_ceiling(design, cell, start))]
    capped = cost_capped_note(design, at_ceiling)
    if isinstance(verdict, NoCrossing):  # every search stopped at its ceiling: say so
        verdict = replace(verdict, reason=no_crossing_reason(design.resource, capped is not None))
    if capped is not None:
        verdict = replace(verdict, notes=(*verdict.notes, capped))
    advice = budget_advice(design.budget, verdict)  # "more trials per cell" as a budget to choose
    if advice is not None:
        verdict = replace(verdict, suggestions=(*verdict.suggestions, advice))
    if thresholds == "per-seed":  # report each cell's quantile and CI, not the table's normal approximation
        by_id = {_cell_id(p): th for p, th in measured}
        verdict = replace(verdict, cells=tuple(replace(c, threshold=by_id.get(_cell_id(c.params), c.threshold))
                                               for c in verdict.cells))
    # the fitted law's prediction, and the shared-width threshold where the exponents used it
    fitted = {_cell_id(c.params): {"predicted": c.predicted, "shared_width": c.shared_width}
              for c in verdict.cells}
    cells = [{"key": k, "params": p, "threshold": sweep.results[k].to_dict(),
              **fitted.get(_cell_id(p), {"predicted": None, "shared_width": None})}
             for k, p in zip(keys, params, strict=True)]
    # the law's regime (and a user law's assumptions) at every cell, the resource read at
    # its measured threshold; sets cells[i]["in_regime"] (docs/theory.md §5, check/regime.py)
    regime = regime_for(tgt.id, tgt.law, cells, design.resource, design.base)
    return CheckResult(
        target=tgt.to_dict(),
        design={**design.to_dict(), "q": q, "entropy": entropy, "thresholds": thresholds},
        cells=cells, verdict=verdict,
        run={**trial_counts(sweep, thresholds), "computed": sweep.computed,
             "reused": sweep.reused, "seconds": round(time.perf_counter() - t0, 2)},
        environment=_environment(entropy, sweep.identity.code_version),
        caveats=list(design.notes) + list(tgt.caveats),
        regime=regime,
    )


def _cell_id(params: Mapping[str, float]) -> tuple:
    return tuple(sorted((k, round(float(v), 9)) for k, v in params.items()))


def _environment(entropy: int, code_version: str) -> dict[str, Any]:
    import matplotlib
    import numpy
    import scipy
    import statsmodels
    import sympy

    import theorycheck

    return {
        "theorycheck": theorycheck.__version__, "code_version": code_version,  # the one the store was keyed by
        "python": platform.python_version(), "numpy": numpy.__version__, "scipy": scipy.__version__,
        "sympy": sympy.__version__, "statsmodels": statsmodels.__version__,
        "matplotlib": matplotlib.__version__, "entropy": entropy,
    }
