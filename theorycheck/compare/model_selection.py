"""Multiplicative or additive? Compare laws by AIC/BIC on the same binomial data.

docs/methods.md §4: fit each candidate with the same error model (here the joint
binomial likelihood of :mod:`theorycheck.compare.law_fit`, with the same transition
width model) and compare ``AIC = -2 llf + 2 k`` and ``BIC = -2 llf + k log n``
(``n`` = number of binomial rows). The default alternative to a product law
``C * h_1(x_1) * h_2(x_2) ...`` is the additive law with the same factors as separate
terms, ``A_1 h_1(x_1) + A_2 h_2(x_2) + ...`` (factors sharing a variable stay together;
factors in variables the data hold fixed form one term: there they are all one constant,
and separate coefficients would not be identified).
A difference of AIC above ~10 is strong support (Burnham & Anderson); within 2 the data
do not choose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from theorycheck.compare.cell_model import shared_width
from theorycheck.compare.data import Dataset
from theorycheck.compare.law_fit import cell_thresholds, fit_law
from theorycheck.symbols import symbol
from theorycheck.threshold.result import Threshold


@dataclass(frozen=True)
class ModelScore:
    """One fitted candidate; ``fit`` is its :class:`~theorycheck.compare.law_fit_result.LawFit`
    (kept for the tests a caller runs on it; not part of the score's dict or equality)."""

    name: str
    law: str
    n_params: int
    llf: float
    aic: float
    bic: float
    identified: bool
    fit: Any = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, name: str, fit: Any) -> "ModelScore":
        """The score of ``fit``, a fitted :class:`~theorycheck.compare.law_fit_result.LawFit`."""
        return cls(name, fit.law, fit.n_params, fit.llf, fit.aic, fit.bic, fit.identified, fit)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "law": self.law, "n_params": self.n_params, "llf": self.llf,
                "aic": self.aic, "bic": self.bic, "identified": self.identified}


@dataclass(frozen=True)
class ModelComparison:
    """Scores sorted by AIC; ``best_aic``/``best_bic`` name the preferred candidates."""

    scores: tuple[ModelScore, ...]
    best_aic: str
    best_bic: str

    def delta_aic(self, name: str) -> float:
        """AIC of ``name`` minus the best AIC (0 for the best)."""
        best = min(s.aic for s in self.scores)
        return next(s.aic for s in self.scores if s.name == name) - best

    def to_dict(self) -> dict[str, Any]:
        return {"scores": [s.to_dict() for s in self.scores], "best_aic": self.best_aic,
                "best_bic": self.best_bic}


def additive_alternative(law: Any, varied: Sequence[str] | None = None) -> Any | None:
    """``A_1 h_1 + A_2 h_2 + ...`` from the factors of a product law (module docstring);
    the groups in no variable of ``varied`` (the data's varied variables, when given)
    are multiplied into one term. ``None`` when fewer than two terms remain."""
    from theorycheck.law import Law

    variables = {symbol(v) for v in law.variables}
    groups: list[tuple[set[sp.Symbol], sp.Expr]] = []
    for factor in sp.Mul.make_args(law.threshold):
        syms = factor.free_symbols & variables
        if not syms:
            continue  # constants and numbers: replaced by the new coefficients
        merged_syms, merged_expr = set(syms), factor
        rest = []
        for g_syms, g_expr in groups:
            if g_syms & merged_syms:
                merged_syms |= g_syms
                merged_expr = merged_expr * g_expr
            else:
                rest.append((g_syms, g_expr))
        groups = rest + [(merged_syms, merged_expr)]
    if varied is not None:
        moving = {symbol(v) for v in varied}
        fixed = [g for g in groups if not g[0] & moving]
        if len(fixed) > 1:
            groups = [g for g in groups if g[0] & moving] + [
                (set().union(*(g[0] for g in fixed)), sp.Mul(*(g[1] for g in fixed)))]
    if len(groups) < 2:
        return None
    groups.sort(key=lambda g: sorted(s.name for s in g[0]))
    names = [f"C_add{i + 1}" for i in range(len(groups))]
    expr = sp.Add(*[symbol(n) * g for n, (_, g) in zip(names, groups)])
    assume = law.assumptions_within(expr) if hasattr(law, "assumptions_within") else None
    return Law.from_threshold(law.resource, expr, sense=getattr(law, "sense", ">="), constants=names, assume=assume)


def compare_models(
    laws: Mapping[str, Any],
    data: Dataset,
    *,
    q: float = 0.5,
    width_trends: Sequence[str] = (),
    thresholds: Sequence[Threshold] | None = None,
) -> ModelComparison:
    """Fit every law in ``laws`` (name -> Law) to ``data``; rank by AIC and BIC."""
    if not laws:
        raise ValueError("give at least one law to compare")
    ths = cell_thresholds(data, q=q) if thresholds is None else thresholds
    shared = shared_width(data, ths, q=q)  # law-independent: once for every law
    scores = []
    for name, law in laws.items():
        fit = fit_law(law, data, q=q, width_trends=width_trends, thresholds=ths, shared=shared)
        scores.append(ModelScore.of(name, fit))
    scores.sort(key=lambda s: s.aic)
    best_bic = min(scores, key=lambda s: s.bic).name
    return ModelComparison(tuple(scores), scores[0].name, best_bic)
