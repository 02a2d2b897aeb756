"""What a law fit returns: its constants with CIs (:class:`Estimate`) and the fit itself
(:class:`LawFit`), shared by the binomial fit (:mod:`theorycheck.compare.law_fit`) and the
thresholds-table fit (:mod:`theorycheck.compare.table_fit`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from theorycheck.compare.exponents import Exponent

__all__ = ["Estimate", "LawFit", "exp_or_inf"]


@dataclass(frozen=True)
class Estimate:
    """A positive quantity estimated on the log scale: ``estimate`` and its CI."""

    estimate: float
    ci: tuple[float, float]
    log_se: float

    def to_dict(self) -> dict[str, Any]:
        return {"estimate": self.estimate, "ci": list(self.ci), "log_se": self.log_se}


@dataclass(frozen=True)
class LawFit:
    """A law fitted to all cells (:func:`theorycheck.compare.law_fit.fit_law`, or
    :func:`theorycheck.compare.table_fit.fit_law_table` for a thresholds table)."""

    law: str
    constants: dict[str, Estimate]
    scale: Estimate | None
    trends: dict[str, Exponent]
    width: float
    width_trends: dict[str, Exponent]
    llf: float
    n_params: int
    nobs: int
    identified: bool
    notes: tuple[str, ...] = ()
    fitted_constants: dict[str, float] = field(default_factory=dict)
    log_scale: float = 0.0
    centres: dict[str, float] = field(default_factory=dict)
    #: where the constants come from: "likelihood" (the joint fit), "thresholds" (weighted least
    #: squares on the cells' log thresholds, fit_law_table, when the transitions do not line up)
    #: or "none" (not identified: CIs [0, inf])
    constants_from: str = "likelihood"

    @property
    def aic(self) -> float:
        return -2.0 * self.llf + 2.0 * self.n_params

    @property
    def bic(self) -> float:
        return -2.0 * self.llf + self.n_params * math.log(max(self.nobs, 1))

    def to_dict(self) -> dict[str, Any]:
        return {
            "law": self.law,
            "constants": {k: v.to_dict() for k, v in self.constants.items()},
            "scale": None if self.scale is None else self.scale.to_dict(),
            "trends": {k: v.to_dict() for k, v in self.trends.items()},
            "width": self.width,
            "width_trends": {k: v.to_dict() for k, v in self.width_trends.items()},
            "llf": self.llf, "aic": self.aic, "bic": self.bic,
            "n_params": self.n_params, "identified": self.identified, "notes": list(self.notes),
            "constants_from": self.constants_from,
        }


def exp_or_inf(x: float) -> float:
    """``exp(x)``, ``inf`` where it would overflow."""
    return math.exp(x) if x < 700 else math.inf
