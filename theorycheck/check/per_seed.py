"""Per-seed thresholds in a check (``check(..., thresholds="per-seed")``, CLI ``--thresholds per-seed``).

The glue between :func:`theorycheck.check.check` and
:mod:`theorycheck.threshold.per_seed_search`: the check that a task's data are nested in
the resource (before any work), the thresholds table the verdict is fitted to (each cell's
quantile and order-statistic CI; the seeds' evaluations are neither independent nor
placed blindly, so the law is never fitted to them), and the run's counts (a seed is one
stored record; its evaluations are the trials). docs/thresholds.md, "Per-seed critical
values", has the method and its measured cost.
"""

from __future__ import annotations

import math
from typing import Any

from theorycheck.check.design import SweepDesign
from theorycheck.check.target import Target

__all__ = ["nested_for", "quantile_table", "trial_counts"]


def nested_for(thresholds: str, tgt: Target, design: SweepDesign) -> SweepDesign:
    """``design``, after checking that per-seed thresholds can run on it: the task's data
    must be nested in the resource (``Task(nested=...)``), else a seed has no critical value."""
    if thresholds == "per-seed" and not design.increasing:
        raise ValueError(
            f"per-seed thresholds find the smallest {design.resource} from which a seed succeeds, but the law "
            f"'{tgt.law.text}' says success falls with {design.resource}; use the Bernoulli search "
            "(thresholds='bernoulli', CLI --thresholds bernoulli)"
        )
    if thresholds == "per-seed" and design.resource not in tgt.task.nested:
        raise ValueError(
            f"per-seed thresholds need data nested in the resource {design.resource!r}, and task "
            f"{tgt.task.name!r} declares nested={tgt.task.nested!r}; use the Bernoulli search "
            "(thresholds='bernoulli', CLI --thresholds bernoulli), or declare Task(nested=(...)) if the "
            f"first n samples of a seed are the same for every {design.resource} >= n"
        )
    return design


def quantile_table(measured: list[tuple[dict[str, float], Any]], resource: str) -> Any:
    """A :class:`~theorycheck.compare.threshold_table.ThresholdTable` of per-seed thresholds:
    each cell's estimate and CI (a cell with no estimate or a CI open on one side carries no
    information: censored)."""
    from theorycheck.compare.threshold_table import ThresholdTable

    rows = []
    for params, th in measured:
        lo, hi = th.ci
        bounded = th.estimate is not None and lo > 0 and math.isfinite(hi)
        rows.append({**params, "threshold": th.estimate if bounded else None,
                     "ci_low": lo if bounded else None, "ci_high": hi if bounded else None})
    level = measured[0][1].level
    return ThresholdTable.from_rows(rows, resource=resource, variables=list(measured[0][0]), ci_level=level)


def trial_counts(sweep: Any, thresholds: str) -> dict[str, int]:
    """``{"trials": ...}``: the sweep's trials; per-seed, each seed is one stored record and
    its evaluations are the trials (``{"trials": evaluations, "seeds": seeds}``)."""
    records = sum(len(t) for t in sweep.trials.values())
    if thresholds != "per-seed":
        return {"trials": records}
    return {"trials": sum(r.trials for r in sweep.results.values()), "seeds": records}
