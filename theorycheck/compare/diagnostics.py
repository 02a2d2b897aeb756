"""What a verdict reports beside its decision (:mod:`theorycheck.compare.verdict`): the free
power-law fit, whether the cells collapse onto the fitted law, and the law against its
alternatives (AIC/BIC, :mod:`theorycheck.compare.model_selection`) and log-factor
neighbours (:mod:`theorycheck.compare.evidence`). For trials data (a
:class:`~theorycheck.compare.data.Dataset`) by binomial likelihood, for a
:class:`~theorycheck.compare.threshold_table.ThresholdTable` by its Gaussian likelihood.
None of it changes the verdict's status; ``compare(..., diagnostics=False)`` skips it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

from theorycheck.compare.collapse import FreeCells, quasi_collapse_test
from theorycheck.compare.data import Dataset
from theorycheck.compare.evidence import MISFIT_LEVEL, Alternative, alternatives_from_models
from theorycheck.compare.exponents import LRTest, PowerLawFit, fit_power_law, fit_power_law_wls
from theorycheck.compare.law_fit_result import LawFit
from theorycheck.compare.model_selection import ModelComparison, additive_alternative, compare_models
from theorycheck.compare.table_fit import compare_models_table, table_goodness_of_fit
from theorycheck.compare.threshold_table import ThresholdTable
from theorycheck.threshold.result import Threshold

__all__ = ["compare_alternatives", "dataset_diagnostics", "table_diagnostics"]


def dataset_diagnostics(data: Dataset, q: float, fit: LawFit, free: FreeCells | None = None
                        ) -> tuple[PowerLawFit | None, LRTest | None, list[str]]:
    """Trials data: the free power-law fit (:func:`~theorycheck.compare.exponents.fit_power_law`)
    and the likelihood-ratio test that the cells collapse onto the fitted law
    (:func:`~theorycheck.compare.collapse.quasi_collapse_test`; ``free``: the cells' own fits,
    :func:`~theorycheck.compare.collapse.free_cell_fits`, when already computed), with notes on
    what failed or misfits."""
    notes: list[str] = []
    power = collapse = None
    if data.varied:
        try:
            power = fit_power_law(data, q=q)
        except ValueError as exc:
            notes.append(f"free power-law fit skipped: {exc}")
    if fit.identified:
        collapse = quasi_collapse_test(data, joint_llf=fit.llf, joint_params=fit.n_params, free=free)
        if collapse.df > 0 and collapse.p_value < MISFIT_LEVEL:
            notes.append(f"cells do not collapse onto the fitted law beyond the within-cell dispersion "
                         f"(LR {collapse.statistic:.1f} on {collapse.df} df, p={collapse.p_value:.2g})")
    return power, collapse, notes


def table_diagnostics(law: Any, table: ThresholdTable, ths: Sequence[Threshold], fit: LawFit
                       ) -> tuple[PowerLawFit | None, LRTest | None, list[str]]:
    """A thresholds table: the WLS power-law fit and the chi-square of the law's residuals
    (:func:`~theorycheck.compare.table_fit.table_goodness_of_fit`), with notes."""
    notes: list[str] = []
    power = gof = None
    if table.varied:
        try:
            power = fit_power_law_wls(ths, {v: table.cell_values(v).tolist() for v in table.varied})
        except ValueError as exc:
            notes.append(f"free power-law fit skipped: {exc}")
    if fit.identified:
        gof = table_goodness_of_fit(law, table, fit)
        if gof.df > 0 and gof.p_value < MISFIT_LEVEL:
            notes.append(f"the thresholds scatter around the fitted law beyond their errors "
                         f"(chi2 {gof.statistic:.1f} on {gof.df} df, p={gof.p_value:.2g})")
    return power, gof, notes


def compare_alternatives(shape: Any, data: Dataset, q: float, alternatives: dict[str, Any] | None,
            log_forms: dict[str, Any], width_trends: Sequence[str], ths: Sequence[Threshold],
            notes: list[str], fallback: ThresholdTable | None = None, free: FreeCells | None = None
            ) -> tuple[ModelComparison | None, tuple[Alternative, ...]]:
    """The law against the given (default: additive) alternatives -- ``models`` -- and,
    in the same fits, against its log-factor neighbours (:mod:`.evidence`). ``fallback``:
    the cells' thresholds as a table, given when the joint likelihood of trials ``data`` did
    not identify the law and its constants came from that table; every form is then scored
    there, by the same weighted least squares. ``free``: the cells' own probit fits
    (:func:`~theorycheck.compare.collapse.free_cell_fits` of ``data``), which the forms are
    tested against when they are scored on the trials (no ``fallback``)."""
    if alternatives is None:
        alt = additive_alternative(shape, data.varied)
        alternatives = {} if alt is None else {"additive": alt}
    if not alternatives and not log_forms:
        return None, ()
    laws = {"law": shape, **alternatives, **{k: v for k, v in log_forms.items() if k not in alternatives}}
    scored = data if fallback is None else fallback
    try:
        if isinstance(scored, ThresholdTable):
            every = compare_models_table(laws, scored)
        else:
            every = compare_models(laws, data, q=q, width_trends=width_trends, thresholds=ths)
    except ValueError as exc:
        notes.append(f"model comparison skipped: {exc}")
        return None, ()
    if fallback is not None:
        notes.append("alternative forms scored on the cells' thresholds by weighted least squares, "
                     "as the constants were (the joint likelihood does not identify the law)")
    models = None
    if alternatives:
        kept = tuple(s for s in every.scores if s.name == "law" or s.name in alternatives)
        models = ModelComparison(kept, kept[0].name, min(kept, key=lambda s: s.bic).name)
    ranked, left_out = alternatives_from_models(every, len(scored.cells),
                                                {name: len(law.constants) for name, law in laws.items()})
    ranked = tuple(_with_own_fit(a, laws, every, scored, free) for a in ranked)
    notes.extend(f"`{law}` left out of the neighbouring forms: its fit to these cells is not identified"
                 for law in left_out)
    return models, ranked


def _with_own_fit(alt: Alternative, laws: Mapping[str, Any], every: ModelComparison,
                  scored: Dataset | ThresholdTable, free: FreeCells | None) -> Alternative:
    """``alt`` with the p-value of its own goodness of fit to the cells (:mod:`.evidence`):
    the quasi-likelihood collapse test of its joint fit on trials (against the cells' own
    fits ``free``), the chi-square of its weighted least-squares fit on a thresholds table;
    saturated forms are not tested. Each form's fit is the one its score came from."""
    if alt.saturated:
        return alt
    score = next(s for s in every.scores if s.name == alt.name)
    if isinstance(scored, ThresholdTable):
        test = table_goodness_of_fit(laws[alt.name], scored, score.fit)
    else:
        test = quasi_collapse_test(scored, joint_llf=score.llf, joint_params=score.n_params, free=free)
    p = test.p_value if test.df > 0 and math.isfinite(test.p_value) else None
    return dataclasses.replace(alt, fit_p_value=p)
