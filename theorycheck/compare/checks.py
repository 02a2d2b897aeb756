"""Result types of :func:`theorycheck.compare.compare`: per-exponent checks, cells, the verdict."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from theorycheck.compare.decide import Decision
from theorycheck.compare.evidence import Alternative
from theorycheck.compare.exponents import LRTest, PowerLawFit
from theorycheck.compare.law_fit_result import Estimate, LawFit
from theorycheck.compare.lower_bound import LowerBoundCheck
from theorycheck.compare.model_selection import ModelComparison
from theorycheck.jsonable import jsonable
from theorycheck.threshold.result import Threshold


#: An exponent read off fewer distinct values of its variable (cells with a threshold)
#: is flagged *thin*: two points always lie on a line, so nothing checks the power law.
THIN_CELLS = 3


@dataclass(frozen=True)
class ExponentCheck:
    """Observed against predicted exponent of one variable."""

    variable: str
    status: str
    predicted: float | None
    estimate: float | None = None
    ci: tuple[float, float] | None = None
    predicted_range: tuple[float, float] | None = None
    decision: Decision | None = None
    span_decades: float = 0.0
    values: tuple[float, ...] = ()
    reason: str = ""
    #: distinct values of the variable among the cells with a threshold
    cells: int = 0
    #: relations of variables that move together across the cells and involve this one
    #: (``"d ∝ V^1"``): its exponent is read along them, or, if it is the one dropped, untested
    moves_with: tuple[str, ...] = ()

    @property
    def thin(self) -> bool:
        """Whether the exponent rests on fewer than :data:`THIN_CELLS` values of the variable."""
        return self.status != "untested" and self.cells < THIN_CELLS

    def to_dict(self) -> dict[str, Any]:
        return {
            "estimate": self.estimate, "ci": None if self.ci is None else list(self.ci),
            "predicted": self.predicted, "status": self.status,
            "predicted_range": None if self.predicted_range is None else list(self.predicted_range),
            "span_decades": self.span_decades, "values": list(self.values), "reason": self.reason,
            "suggestion": None if self.decision is None else self.decision.suggestion,
            "trend_ci_tost": None if self.decision is None else list(self.decision.tost_ci),
            "window": None if self.decision is None else self.decision.window,
            "cells": self.cells, "thin": self.thin, "moves_with": list(self.moves_with),
        }


@dataclass(frozen=True)
class CellResult:
    """One cell: its parameters, measured threshold and the fitted law's prediction."""

    params: dict[str, float]
    threshold: Threshold
    predicted: float | None  # None where no constant was fitted (no cell has a threshold)
    #: ``{"threshold", "ci"}`` of the cell in the joint cell model with a shared width, where
    #: the exponents were read from it (method "joint"); else None
    shared_width: dict[str, Any] | None = None

    @property
    def reported(self) -> tuple[float | None, tuple[float | None, float | None]]:
        """The threshold and CI the reports show first: the shared-width ones where the exponents
        were read from them, else the cell's own (``None`` where censored or unbounded)."""
        if self.shared_width:
            return self.shared_width["threshold"], tuple(self.shared_width["ci"])
        return self.threshold.estimate, tuple(self.threshold.ci)

    @property
    def ratio(self) -> float | None:
        """Observed over predicted threshold, the observed one :attr:`reported`'s (until
        2026-12-02 always the cell's own, so a shared-width cell's printed ``N*`` and its ratio
        disagreed)."""
        observed = self.reported[0]
        return None if observed is None else observed / self.predicted

    def to_dict(self) -> dict[str, Any]:
        th = self.threshold.to_dict()
        return {"params": self.params, "threshold": th["estimate"], "ci": th["ci"],
                "method": th["method"], "predicted": self.predicted, "ratio": self.ratio,
                "trials": th["trials"], "warnings": th["warnings"], "censored": th["estimate"] is None,
                "censored_side": th["censored"], "censored_beyond": th["censored_beyond"],
                "shared_width": self.shared_width}


@dataclass(frozen=True)
class Verdict:
    """The answer of :func:`compare`; ``to_dict()`` is its JSON form."""

    status: str
    reason: str
    law: str
    resource: str
    tolerance: float
    level: float
    q: float
    up_to: str
    exponents: dict[str, ExponentCheck]
    tested: tuple[str, ...]
    untested: tuple[str, ...]
    constants: dict[str, Estimate]
    scale: Estimate | None
    ratio_spread: dict[str, float | None]
    cells: tuple[CellResult, ...]
    fit: LawFit
    method: str
    suggestions: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    power_fit: PowerLawFit | None = None
    collapse: LRTest | None = None
    models: ModelComparison | None = None
    lower_bound: LowerBoundCheck | None = None
    alternatives: tuple[Alternative, ...] = ()
    headline: str = ""

    @property
    def constant(self) -> dict[str, Any]:
        """Fitted constants (and the overall factor ``K`` when the law needs one)."""
        out = {k: v.to_dict() for k, v in self.constants.items()}
        if self.scale is not None:
            out["K"] = self.scale.to_dict()
        return out

    def __repr__(self) -> str:  # the generated one printed ~10k characters
        shown = ", ".join(f"{v}: {c.status}" + (f" {c.estimate:.3g} [{c.ci[0]:.3g}, {c.ci[1]:.3g}]"
                                                 f" vs {c.predicted:.3g}" if c.estimate is not None and c.ci
                                                 and c.predicted is not None else "")
                          for v, c in self.exponents.items())
        return f"Verdict({self.status}: {self.law}; {shown}; {len(self.cells)} cells)"

    def to_dict(self) -> dict[str, Any]:
        """Strict JSON (:func:`theorycheck.jsonable.jsonable`)."""
        return jsonable({
            "verdict": self.status, "headline": self.headline or self.status, "reason": self.reason, "law": self.law, "resource": self.resource,
            "tolerance": self.tolerance, "level": self.level, "q": self.q, "up_to": self.up_to,
            "method": self.method, "tested": list(self.tested), "untested": list(self.untested),
            "exponents": {k: v.to_dict() for k, v in self.exponents.items()},
            "constant": self.constant, "ratio_spread": self.ratio_spread,
            "width": self.fit.width if self.fit.identified else None, "fit": self.fit.to_dict(),
            "cells": [c.to_dict() for c in self.cells],
            "suggestions": list(self.suggestions), "notes": list(self.notes),
            "power_fit": None if self.power_fit is None else self.power_fit.to_dict(),
            "collapse": None if self.collapse is None else self.collapse.to_dict(),
            "models": None if self.models is None else self.models.to_dict(),
            "lower_bound": None if self.lower_bound is None else self.lower_bound.to_dict(),
            "alternatives": [a.to_dict() for a in self.alternatives],
        })


@dataclass(frozen=True)
class NoCrossing:
    """The answer when no cell's success probability crosses ``q`` inside the range
    measured: every threshold is censored, there is nothing to fit, and the verdict is
    inconclusive. ``cells`` lists each censored cell (``censored_beyond``: how far it was
    explored); ``to_dict()`` has the keys of :meth:`Verdict.to_dict` that apply."""

    law: str
    resource: str
    reason: str
    variables: tuple[str, ...] = ()
    cells: tuple[CellResult, ...] = ()
    notes: tuple[str, ...] = ()
    status: str = "inconclusive"

    def to_dict(self) -> dict[str, Any]:
        return jsonable({
            "verdict": self.status, "headline": self.status, "reason": self.reason, "law": self.law,
            "resource": self.resource, "tested": [], "untested": list(self.variables), "exponents": {},
            "cells": [c.to_dict() for c in self.cells], "notes": [self.reason, *self.notes],
        })
