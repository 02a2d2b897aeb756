"""Evidence beside the verdict: does a neighbouring form of the law fit decisively better?

The equivalence test on exponents (:mod:`theorycheck.compare.decide`) tolerates a missing
log factor by design (its tolerance ±0.25 absorbs ``k / log x`` for ``|k| <= 1``), so a
law ``N >= C*V`` on data whose truth is ``V log V`` can come back *consistent*. The data
may still tell the two apart. Next to the verdict, every **neighbouring form** of the law
is fitted to the same data with the same error model and scored by BIC
(docs/methods.md §4; docs/theory.md §6):

* the law times ``log(x)`` and the law divided by ``log(x)``, for each varied variable
  ``x`` whose swept values all exceed 1 (one more / one fewer log factor; same number of
  parameters as the law);
* the additive alternative of a product law
  (:func:`theorycheck.compare.model_selection.additive_alternative`).

``delta_bic = BIC(law) - BIC(alternative)``; an alternative with
``delta_bic >`` :data:`DECISIVE_DELTA_BIC` ``= 10`` *fits decisively better* (Kass &
Raftery 1995, "very strong" evidence: a Bayes factor above ~150), and the verdict line
says so: "consistent within ±0.25; but `N >= C*V*log(V)` fits decisively better
(ΔBIC = 41)". The status itself is unchanged: it answers the question fixed in advance
(are the exponents within the tolerance?); the evidence says what else the data prefer.
Under ``up_to="polylog"`` (Θ̃) log factors do not count by definition, so only the
additive alternative is scored.

A form with at least as many constants as the data have cells is **saturated**: it can
pass through every cell's threshold whatever they are (the additive neighbour of a law in
two variables, on a line of two cells), so its better fit measures only the law's own
misfit, not the form. It is listed with its ΔBIC and marked saturated, and never called
decisive.

A form can fit decisively better than the law and still miss the cells: on a line where
``N*`` is flat in ``L``, the law ``∝ L`` and its neighbour ``∝ L/log L`` both miss, the
neighbour by less. So each alternative also carries its own **goodness of fit**, the test
the law's notes report for the law (the quasi-likelihood collapse test of
:mod:`theorycheck.compare.collapse` on trials, the chi-square of
:func:`~theorycheck.compare.table_fit.table_goodness_of_fit` on a thresholds table), and
the verdict line says "(ΔBIC = 1814; it too misses the cells, p < 1e-12)" when that test
rejects at :data:`MISFIT_LEVEL`, the level of the law's own misfit notes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from theorycheck.symbols import symbol

__all__ = ["DECISIVE_DELTA_BIC", "MISFIT_LEVEL", "Alternative", "log_factor_alternatives",
           "alternatives_from_models", "evidence_phrase"]

#: ΔBIC above which an alternative form "fits decisively better" (module docstring).
DECISIVE_DELTA_BIC = 10.0

#: p-value below which a form "misses the cells" (module docstring).
MISFIT_LEVEL = 0.01


@dataclass(frozen=True)
class Alternative:
    """One neighbouring form of the law and its BIC difference to the law."""

    name: str
    law: str
    delta_bic: float
    delta_aic: float
    #: as many constants as cells: it fits every cell whatever the data (module docstring)
    saturated: bool = False
    #: p-value of the form's own goodness of fit to the cells; None when not tested (no df left)
    fit_p_value: float | None = None

    @property
    def decisive(self) -> bool:
        return self.delta_bic > DECISIVE_DELTA_BIC and not self.saturated

    @property
    def misses_cells(self) -> bool:
        """Whether the form's own goodness-of-fit test rejects it at :data:`MISFIT_LEVEL`."""
        return self.fit_p_value is not None and self.fit_p_value < MISFIT_LEVEL

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "law": self.law, "delta_bic": self.delta_bic,
                "delta_aic": self.delta_aic, "decisive": self.decisive, "saturated": self.saturated,
                "fit_p_value": self.fit_p_value, "misses_cells": self.misses_cells}


def log_factor_alternatives(law: Any, values: Mapping[str, Sequence[float]]) -> dict[str, Any]:
    """``{"times log(x)": law*log(x), "over log(x)": law/log(x)}`` for each ``x`` in
    ``values`` (its swept values) that the law has and whose values all exceed 1."""
    from theorycheck.law import Law

    out: dict[str, Any] = {}
    sense = getattr(law, "sense", ">=")
    for v, xs in values.items():
        if v not in law.variables or not len(xs) or float(np.min(xs)) <= 1.0:
            continue
        for name, expr in ((f"times log({v})", law.threshold * sp.log(symbol(v))),
                           (f"over log({v})", law.threshold / sp.log(symbol(v)))):
            assume = law.assumptions_within(expr) if hasattr(law, "assumptions_within") else None
            out[name] = Law.from_threshold(law.resource, expr, sense=sense, constants=list(law.constants),
                                           assume=assume)
    return out


def alternatives_from_models(models: Any, n_cells: int, n_constants: Mapping[str, int]
                             ) -> tuple[tuple[Alternative, ...], tuple[str, ...]]:
    """The alternatives of a :class:`~theorycheck.compare.model_selection.ModelComparison`
    holding the candidate ``"law"``, best first, and the laws of the candidates left out
    because their fit is not identified (or its BIC not finite). ``n_cells``: the data's
    cells; ``n_constants``: each form's number of constants (by name); a form with
    ``n_constants >= n_cells`` is marked saturated. Nothing is compared, and nothing left
    out, when the law's own fit is not identified."""
    scores = {s.name: s for s in models.scores}
    ref = scores.get("law")
    if ref is None or not ref.identified:
        return (), ()
    out, left_out = [], []
    for name, s in scores.items():
        if name == "law":
            continue
        if not (s.identified and np.isfinite(s.bic)):
            left_out.append(s.law)
            continue
        out.append(Alternative(s.name, s.law, float(ref.bic - s.bic), float(ref.aic - s.aic),
                               n_constants[name] >= n_cells))
    return tuple(sorted(out, key=lambda a: -a.delta_bic)), tuple(left_out)


def evidence_phrase(alternatives: Sequence[Alternative], *, by_name: bool = False) -> str | None:
    """``"but `N >= C*V*log(V)` fits decisively better (ΔBIC = 41)"`` for the best decisive
    alternative, ending ``"(ΔBIC = 41; it too misses the cells, p = 3e-05)"`` when its own
    goodness-of-fit test rejects it; ``None`` when none is decisive. ``by_name``: name the
    form by its change from the law (``"but the law times log(V) fits ..."``), shorter
    than its formula."""
    best = next((a for a in alternatives if a.decisive), None)
    if best is None:
        return None
    form = f"`{best.law}`"
    if by_name:
        form = f"the law {best.name}" if best.name.startswith(("times log(", "over log(")) else \
            f"the {best.name} form"
    if not best.misses_cells:
        return f"but {form} fits decisively better (ΔBIC = {best.delta_bic:.0f})"
    p = "p < 1e-12" if best.fit_p_value < 1e-12 else f"p = {best.fit_p_value:.1g}"
    return f"but {form} fits decisively better (ΔBIC = {best.delta_bic:.0f}; it too misses the cells, {p})"
