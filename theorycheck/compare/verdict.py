"""Verdict of data against a law: consistent, refuted or inconclusive (docs/architecture.md "Controls").

:func:`compare` works in four steps:

1. **Cell thresholds.** Each cell's log threshold and its variance (per-cell probit +
   Fieller, or the joint shared-width model when cells are too sparse; see
   :func:`~theorycheck.compare.cell_model.log_thresholds`). No law is assumed here.
2. **Law fit.** The law's constants are fitted to all points at once by binomial
   likelihood (:mod:`theorycheck.compare.law_fit`): constants with CIs, the transition
   width, the spread of observed/predicted thresholds.
3. **Exponents.** The observed exponent of each varied variable is the least-squares
   slope of the log thresholds on ``log x`` over the cells; the predicted one is the
   same slope of the law at its fitted constants -- its local elasticity averaged over
   the swept points, exact for a monomial (:mod:`theorycheck.compare.trends`). Their
   difference is the slope of the residual, ``tau_x`` (docs/theory.md §6: "fit the whole law's
   constants and test that the residual has no trend in any variable"). Variables with
   three or more values also get a local slope per segment between consecutive
   values, because a law with several terms can match the average slope with the
   wrong local ones.
4. **Decision.** Each ``tau`` (overall and local) goes through the equivalence test of
   :mod:`theorycheck.compare.decide` with the tolerance fixed in advance
   (:data:`~theorycheck.compare.decide.DEFAULT_TOLERANCE` = 0.25 and why). Refuted if
   any variable is refuted; consistent if every varied variable is; else inconclusive,
   with what would decide it. A variable of the law with a single value in the data is
   *untested*, and the verdict says it covers only the varied variables.

``up_to="constants"`` (Θ) keeps the law's log factors in its shape; ``up_to="polylog"``
(Θ̃) freezes them at the centre of the sweep (:mod:`theorycheck.compare.polylog`), so a
Θ̃ verdict does not change when the law is multiplied by ``log(V)^k``; a polylog factor
in the *data* that the law lacks tilts slopes by ``k / log x``, which the tolerance
absorbs for ``|k| <= 1`` and ``x >= 55``.

**Thresholds tables.** ``data`` may also be a
:class:`~theorycheck.compare.threshold_table.ThresholdTable` (one measured threshold and
its uncertainty per cell, e.g. ``check``'s ``thresholds.csv``): step 1 reads the cells'
log thresholds and standard errors from it, step 2 is the Gaussian fit of
:mod:`theorycheck.compare.table_fit`; steps 3 and 4 are unchanged. The free power-law
fit is the WLS one, the collapse test the chi-square of the law's residuals, and the
AIC/BIC model comparison uses the Gaussian likelihood of the table.

Beside the decision, a verdict reports diagnostics that do not change its status (the
free power-law fit, the collapse test, the model comparison):
:mod:`theorycheck.compare.diagnostics`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from theorycheck.compare.cell_model import design_thresholds
from theorycheck.compare.checks import CellResult, ExponentCheck, NoCrossing, Verdict
from theorycheck.compare.collapse import free_cell_fits
from theorycheck.compare.data import Dataset
from theorycheck.compare.decide import DEFAULT_MIN_SPAN, DEFAULT_TOLERANCE, Piece, decide
from theorycheck.compare.direction import check_direction
from theorycheck.compare.diagnostics import compare_alternatives, dataset_diagnostics, table_diagnostics
from theorycheck.compare.evidence import Alternative, log_factor_alternatives
from theorycheck.compare.headline import headline
from theorycheck.compare.law_fit import cell_thresholds, fit_law
from theorycheck.compare.law_fit_result import LawFit
from theorycheck.compare.lower_bound import check_lower_bound
from theorycheck.compare.table_fit import cell_logs, cells_table, fit_law_cells, fit_law_table
from theorycheck.compare.threshold_table import ThresholdTable
from theorycheck.compare.polylog import freeze_polylog
from theorycheck.compare.trends import design_trends, inestimable_trends
from theorycheck.threshold.glm import check_q_level
from theorycheck.wording import counted

_UP_TO = ("constants", "polylog")
#: The reason of a :class:`~theorycheck.compare.checks.NoCrossing` answer.
NO_CROSSING = ("no cell crosses success probability q inside the range it was measured over (every threshold "
               "is censored: the data say where the threshold is not); extend each cell's resource range, or "
               "move the cells to where the resource can buy success")


def _check_inputs(law: Any, data: Any, tolerance: Any, up_to: Any, min_span: Any) -> None:
    if not isinstance(data, (Dataset, ThresholdTable)):
        raise ValueError(f"data must be a theorycheck.compare.Dataset or ThresholdTable, got {type(data).__name__}")
    if law.resource != data.resource:
        raise ValueError(f"the law is about {law.resource!r} but the data vary {data.resource!r}")
    missing = [v for v in law.variables if v not in data.variables]
    if missing:
        raise ValueError(f"the law needs {missing}, which the data lack (data have {list(data.variables)})")
    if (getattr(law, "sense", ">=") == ">=") != data.increasing:
        raise ValueError(f"the law says success {'grows' if law.sense == '>=' else 'falls'} with "
                         f"{law.resource} but the data say the opposite (Dataset.increasing)")
    if isinstance(data, Dataset):
        check_direction(data, law.text)
    for name, value in (("tolerance", tolerance), ("min_span", min_span)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"{name} must be a positive number, got {value!r}")
    if up_to not in _UP_TO:
        raise ValueError(f"up_to must be 'constants' (Θ) or 'polylog' (Θ̃), got {up_to!r}")


def compare(
    law: Any,
    data: Dataset | ThresholdTable,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    level: float = 0.95,
    q: float = 0.5,
    up_to: str = "constants",
    min_span: float = DEFAULT_MIN_SPAN,
    width_trends: bool = True,
    alternatives: dict[str, Any] | None = None,
    lower_bound: Any | None = None,
    lower_bound_constants: dict[str, float] | None = None,
    diagnostics: bool = True,
) -> Verdict | NoCrossing:
    """Three-valued verdict of ``data`` against ``law`` (module docstring); a
    :class:`~theorycheck.compare.checks.NoCrossing` (inconclusive, every cell listed as
    censored) when no cell crosses ``q`` in the range it was measured over.

    ``tolerance``: equivalence margin on exponents (default and its reasons:
    :data:`theorycheck.compare.decide.DEFAULT_TOLERANCE`); ``level``: confidence;
    ``q``: success probability defining thresholds; ``up_to``: ``"constants"`` (Θ) or
    ``"polylog"`` (Θ̃); ``min_span``: decades a variable must span for "consistent";
    ``width_trends``: let the transition width drift with the parameters;
    ``alternatives``: extra laws for the AIC/BIC comparison (default: the additive
    alternative of a product law; ``{}`` skips it); ``lower_bound`` (+ its constants):
    a Law the data must not beat (:mod:`.lower_bound`); ``diagnostics=False`` skips the
    free power-law fit, the collapse test and the model comparison.
    """
    from theorycheck.catalogue import as_law  # a string or catalogue id becomes its Law

    q, level = check_q_level(q, level)
    law = as_law(law)[0]
    if alternatives is not None:
        if not isinstance(alternatives, Mapping):
            raise ValueError(f"alternatives must map names to laws, e.g. {{'square': 'N >= C*V**2'}}, "
                             f"got {type(alternatives).__name__}: {alternatives!r}")
        alternatives = {str(k): as_law(v)[0] for k, v in alternatives.items()}
    if lower_bound is not None:
        lower_bound = as_law(lower_bound)[0]
    _check_inputs(law, data, tolerance, up_to, min_span)
    notes: list[str] = []
    varied = data.varied
    centre = {v: float(np.exp(np.mean(np.log(data.cell_values(v))))) for v in law.variables}
    shape = freeze_polylog(law, centre) if up_to == "polylog" else law
    table = isinstance(data, ThresholdTable)
    if table:
        notes.append(data.describe())
    ths = data.thresholds(q) if table else cell_thresholds(data, q=q, level=level)
    if all(th.estimate is None for th in ths):
        return NoCrossing(law.text, data.resource, NO_CROSSING, tuple(law.variables),
                          tuple(CellResult(c.values, th, None) for c, th in zip(data.cells, ths)), tuple(notes))
    design = design_thresholds(data, ths, q=q, level=level, width_trends=width_trends)
    width_vars, method, cells, theta, cov = list(design.width_vars), design.method, design.cells, design.theta, \
        design.cov
    notes += design.notes
    fit = fit_law_table(shape, data, level=level) if table else \
        fit_law(shape, data, q=q, level=level, width_trends=width_vars, thresholds=ths)
    notes += list(fit.notes)
    if len(cells) > len(varied):
        const = fit.fitted_constants if fit.constants_from != "none" else \
            constants_for_trends(shape, data, cells, theta, cov, fit)
        dt = design_trends(shape, const, data, theta, cov, cells, varied, level)
    else:
        const = fit.fitted_constants
        dt = inestimable_trends(shape, const, data, varied, level)
        notes.append(f"only {counted(len(cells), 'cell')} with a bounded threshold: exponents not estimable")
    notes += list(dt.notes)
    elasticity = shape.elasticities({v: data.cell_values(v) for v in shape.variables}, const) \
        if shape.variables else {}
    checks: dict[str, ExponentCheck] = {}
    for v in sorted({*law.variables, *varied}):
        values = tuple(sorted(set(data.cell_values(v).tolist())))
        moves = tuple(r.text for w, r in dt.confounded.items() if w == v or v in r.partners)
        if v not in dt.variables:
            why = (f"{v} takes the single value {values[0]:g}: its exponent is untested" if len(values) == 1
                   else f"{v} moves with the other variables across the cells ({dt.confounded[v]}): its "
                   "exponent is not identified apart from theirs, untested" if v in dt.confounded
                   else f"{v} varies only across cells without a threshold: its exponent is untested")
            checks[v] = ExponentCheck(v, "untested", None, values=values, reason=why, moves_with=moves)
            continue
        obs, tr = dt.observed[v], dt.trends[v]
        # the range the exponent was read from: cells with a threshold, not censored ones
        values = tuple(sorted(set(data.cell_values(v)[list(dt.cells)].tolist())))
        span = math.log10(values[-1] / values[0])
        pieces = [Piece("overall", tr.estimate, tr.se)] + [
            Piece(f"{seg.lo:g}..{seg.hi:g}", seg.trend.estimate, seg.trend.se)
            for seg in dt.segments.get(v, ())]
        dec = decide(v, pieces, tolerance=tolerance, level=level, span=span,
                     min_span=min_span, lo_value=values[0], hi_value=values[-1])
        el = elasticity.get(v)
        rng = (float(np.min(el)), float(np.max(el))) if el is not None else (0.0, 0.0)
        checks[v] = ExponentCheck(v, dec.status, float(dt.predicted[v]), float(obs.estimate),
                                  (float(obs.ci[0]), float(obs.ci[1])), rng, dec, span,  # plain floats
                                  values, dec.reason, len(values), moves)
    untested = tuple(v for v, c in checks.items() if c.status == "untested")
    status, reason, suggestions = _overall(checks, dt.variables, untested)
    pred_log = predicted_log_threshold(fit, shape, data)
    cell_results = tuple(CellResult(c.values, th, float(math.exp(pl)), design.shared.get(i))
                         for i, (c, th, pl) in enumerate(zip(data.cells, ths, pred_log)))
    ratios = np.array([c.ratio for c in cell_results if c.ratio is not None])
    spread = {"min": float(ratios.min()), "max": float(ratios.max()),
              "gsd": float(np.exp(np.std(np.log(ratios))))} if ratios.size and fit.constants_from != "none" else \
        {"min": None, "max": None, "gsd": None}
    power = collapse = models = lb = None
    alts: tuple[Alternative, ...] = ()
    if diagnostics:
        fallback = cells_table(data, cell_logs(cells, theta, cov)) \
            if not table and fit.constants_from == "thresholds" else None
        # the cells' own probit fits, once for the law's collapse test (an identified fit) and
        # every neighbouring form's (scored on the trials, i.e. without a fallback table)
        free = free_cell_fits(data) if not table and (fit.identified or fallback is None) else None
        power, collapse, more = table_diagnostics(shape, data, ths, fit) if table else \
            dataset_diagnostics(data, q, fit, free)
        notes += more
        logs = {} if up_to == "polylog" else log_factor_alternatives(
            shape, {v: data.cell_values(v) for v in dt.variables})
        models, alts = compare_alternatives(shape, data, q, alternatives, logs, width_vars, ths, notes, fallback,
                                            free)
    thin = [c for c in checks.values() if c.thin]
    if thin:
        notes.append("thin: " + ", ".join(f"{c.variable} rests on {counted(c.cells, 'value')} with a threshold"
                                          for c in thin) + " (fewer than 3: nothing tests the power law)")
    if lower_bound is not None:
        observed = {v: (c.estimate, c.ci) for v, c in checks.items() if c.estimate is not None}
        lb = check_lower_bound(lower_bound, data, ths, exponents=observed,
                               constants=lower_bound_constants, tolerance=tolerance)
        if lb.violated:
            notes.append("the data violate the lower bound " + lb.bound)
    if up_to == "polylog" and shape is not law:
        notes.append(f"Θ̃ comparison: log factors frozen at the centre of the sweep ({shape.text})")
    return Verdict(status, reason, getattr(law, "text", str(law)), data.resource, float(tolerance), level, q,
                   up_to, checks, tuple(v for v in checks if checks[v].status != "untested"), untested,
                   fit.constants, fit.scale, spread, cell_results, fit, method, suggestions, tuple(notes),
                   power, collapse, models, lb, alts, headline(status, checks, float(tolerance), alts))


def reported_thresholds(data: Dataset, *, q: float = 0.5, level: float = 0.95, width_trends: bool = True
                        ) -> list[tuple[float | None, tuple[float | None, float | None]]]:
    """Each cell's threshold and CI as :func:`compare` reports them first for any law
    (:attr:`~theorycheck.compare.checks.CellResult.reported`: the cell's own, or its shared-width
    one where the exponents are read from the joint model), in ``data.cells``' order."""
    q, level = check_q_level(q, level)
    ths = cell_thresholds(data, q=q, level=level)
    shared = {} if all(th.estimate is None for th in ths) else \
        design_thresholds(data, ths, q=q, level=level, width_trends=width_trends).shared
    return [CellResult(c.values, th, None, shared.get(i)).reported for i, (c, th) in enumerate(zip(data.cells, ths))]


def _overall(checks: dict[str, ExponentCheck], varied: Sequence[str],
             untested: Sequence[str]) -> tuple[str, str, tuple[str, ...]]:
    tested = [c for c in checks.values() if c.status != "untested"]
    scope = ""
    if untested:
        scope = (f"; covers only the varied variables ({', '.join(varied) or 'none'}): "
                 f"{', '.join(untested)} untested (single value)")
    suggestions = tuple(c.decision.suggestion for c in tested if c.decision and c.decision.suggestion)
    if not tested:
        return ("inconclusive", "no variable takes two or more values: only the constant can be fitted" + scope,
                ("vary at least one parameter over >= 1 decade",))
    refuted = [c for c in tested if c.status == "refuted"]
    if refuted:
        return "refuted", "; ".join(c.reason for c in refuted) + scope, suggestions
    if all(c.status == "consistent" for c in tested):
        return "consistent", "every tested exponent is within tolerance: " + \
            "; ".join(c.reason for c in tested) + scope, suggestions
    open_ = [c for c in tested if c.status == "inconclusive"]
    return "inconclusive", "; ".join(c.reason for c in open_) + scope, suggestions


def predicted_log_threshold(fit: LawFit, law: Any, data: Dataset) -> np.ndarray:
    """``log K + log f(x; C)`` of a fit (no trends), one value per cell of ``data``."""
    vals = {v: data.cell_values(v) for v in law.variables}
    out = np.asarray(law.log_evaluate(vals, fit.fitted_constants), dtype=float) + fit.log_scale
    return np.broadcast_to(out, (len(data.cells),)).copy()


def constants_for_trends(law: Any, data: Dataset, cells: Sequence[int], theta: np.ndarray,
                         cov: np.ndarray, fit: LawFit) -> dict[str, float]:
    """Point constants at which the law's local exponents are read when no fit identified them
    (``fit.constants_from == "none"``): the weighted least-squares fit of the law to the log
    thresholds ``theta`` of ``cells`` that the exponents use, errors from ``cov``
    (:func:`theorycheck.compare.table_fit.fit_law_cells`; its least-squares point exists
    even where its CIs do not). The likelihood's own point when that fit has nothing to use."""
    found = fit_law_cells(law, data, cell_logs(cells, theta, cov))
    return dict(fit.fitted_constants) if found is None else dict(found.fitted_constants)
