"""Is a sweep inside its law's regime? Regime constraints read numerically at every cell.

A catalogue bound states where its law holds as constraints such as ``"V >> d"``,
``"L << V"``, ``"N << L*V"`` or ``"d**2 >> V*log(V)"`` (:class:`theorycheck.law.Regime`);
a user law may declare assumptions such as ``"k < n"``. Asymptotic statements do not say
how far apart two finite numbers must be, so this module fixes a reading
(docs/theory.md §6: a law's exponents are only those of its regime):

==========  ===========================================  =========================
constraint  holds at a cell when                         name
==========  ===========================================  =========================
``A >> B``  ``A >= MUCH * B``                            much greater
``A << B``  ``MUCH * A <= B``                            much smaller
``A ~ B``   ``1/MUCH < A/B < MUCH``                      same order
``A >= B``  ``A >= B``  (likewise ``>``, ``<=``, ``<``)  read literally
==========  ===========================================  =========================

Why :data:`MUCH` = 4: where a law is a sum or a maximum of two terms ``A + B`` and the
regime says ``A >> B``, the local exponent of the sum in a variable ``x`` is
``e_A + (e_B - e_A) * B/(A + B)`` (the elasticity of a sum). With ``A >= 4 B`` the
neglected term's share ``B/(A+B)`` is at most 1/5, so the exponent a sweep measures
differs from the regime's by at most ``|e_B - e_A|/5`` -- inside the default +-0.25
tolerance on exponents whenever the two terms' exponents differ by at most 1.25, which
covers the catalogue. A factor 2 would allow a share of 1/3 (errors of 1/3 per unit of
exponent difference), a factor 10 would leave most budgets no room to design in.

Why ``<=``, ``>=``, ``<``, ``>`` are literal: they state ``A = O(B)`` with a constant that
no one gives; the only constant a computation can use without inventing one is 1. Write
the constant into the constraint (``"k <= 2*n"``) to mean another.

A constraint that names the law's resource (``N << L*V``) can only be judged at the
measured threshold: give the resource's value in each cell
(:func:`theorycheck.check.where_measured.cells_from_check` uses the threshold estimate). A
value that is missing or ``None`` (a censored cell: no threshold) leaves the constraint *not
judged* at that cell. A cell is in the regime
(``in_regime``) when every constraint holds there, out of it when one fails, and
``None`` when none fails but some could not be judged.

Sides are evaluated in mpmath at 30 digits (no float64 overflow for ``V**1000`` or
``exp(V)``); they must be positive: a side that is not leaves the constraint not
judged at that cell. Parsing goes through :func:`theorycheck.law.regime.split_constraint`
(a checked grammar, never ``eval``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import mpmath
import sympy as sp

from theorycheck.law.regime import split_constraint
from theorycheck.symbols import symbol

__all__ = ["MUCH", "Constraint", "CellRegime", "RegimeReport", "parse_constraint", "evaluate_regime"]

#: Ratio that ``>>`` and ``<<`` demand between their two sides (reason in the module docstring).
MUCH = 4.0
#: Longest summary line (it leads a verdict).
SUMMARY_CHARS = 200
#: Relative slack on the comparisons, for rounding of values built to sit on a boundary.
_ROUNDING = 1e-12
_DIGITS = 30

_NEEDS = {">>": f">= {MUCH:g}", "<<": f"<= {1 / MUCH:g}", "~": f"{1 / MUCH:g}..{MUCH:g}",
          ">=": ">= 1", ">": "> 1", "<=": "<= 1", "<": "< 1"}


@dataclass(frozen=True)
class Constraint:
    """One parsed constraint ``lhs op rhs``."""

    text: str
    lhs: sp.Expr
    op: str
    rhs: sp.Expr

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sorted(s.name for s in (self.lhs.free_symbols | self.rhs.free_symbols)))

    def holds(self, log_ratio: float) -> bool:
        """Whether ``ln(lhs/rhs) = log_ratio`` satisfies the constraint (table above)."""
        much, eps = math.log(MUCH), _ROUNDING
        return {">>": log_ratio >= much - eps, "<<": log_ratio <= -much + eps,
                "~": abs(log_ratio) < much, ">=": log_ratio >= -eps, ">": log_ratio > 0,
                "<=": log_ratio <= eps, "<": log_ratio < 0}[self.op]

    def ratio_label(self) -> str:
        def wrap(e: sp.Expr) -> str:
            return str(e) if (e.is_Atom or e.is_Function) else f"({e})"
        return f"{wrap(self.lhs)}/{wrap(self.rhs)}"


def parse_constraint(text: str) -> Constraint:
    """``"A op B"`` with op one of ``<< >> <= >= < > ~`` -> :class:`Constraint` (ValueError otherwise)."""
    lhs, op, rhs = split_constraint(text)
    return Constraint(text.strip(), lhs, op, rhs)


@dataclass(frozen=True)
class CellRegime:
    """The regime at one cell: which constraints fail, which could not be judged."""

    values: dict[str, float | None]
    in_regime: bool | None
    violated: tuple[str, ...]
    unjudged: tuple[str, ...]
    log10_ratios: dict[str, float | None]  # log10(lhs/rhs) per constraint; None: not judged

    def to_dict(self) -> dict[str, Any]:
        return {"values": dict(self.values), "in_regime": self.in_regime, "violated": list(self.violated),
                "unjudged": list(self.unjudged), "log10_ratios": dict(self.log10_ratios)}


@dataclass(frozen=True)
class RegimeReport:
    """Every constraint at every cell (:func:`evaluate_regime`)."""

    constraints: tuple[Constraint, ...]
    cells: tuple[CellRegime, ...]

    def violations(self) -> dict[str, list[int]]:
        """Constraint text -> indices of the cells where it fails."""
        return {c.text: [i for i, cell in enumerate(self.cells) if c.text in cell.violated]
                for c in self.constraints}

    def unjudged(self) -> dict[str, list[int]]:
        """Constraint text -> indices of the cells where it could not be judged."""
        return {c.text: [i for i, cell in enumerate(self.cells) if c.text in cell.unjudged]
                for c in self.constraints}

    @property
    def in_regime(self) -> list[bool | None]:
        return [cell.in_regime for cell in self.cells]

    @property
    def outside(self) -> bool:
        """Whether some cell is out of the regime."""
        return any(flag is False for flag in self.in_regime)

    def summary(self) -> str:
        """One line (at most :data:`SUMMARY_CHARS` characters) for a verdict's first line."""
        n = len(self.cells)
        if not self.constraints:
            return "the law states no regime constraints"
        if not n:
            return "no cells to judge the regime at"
        texts = ", ".join(c.text for c in self.constraints)
        unjudged = sum(cell.in_regime is None for cell in self.cells)
        if not self.outside:
            if not unjudged:
                return _clip(f"inside the law's regime ({texts}) in {_cells(n, n)}")
            return _clip(f"no cell outside the law's regime ({texts}); {_cells(unjudged, n)} not judged "
                         "(a value such as the threshold is missing)")
        head = f"outside the law's regime in {_cells(sum(f is False for f in self.in_regime), n)}"
        parts = []
        for c in self.constraints:
            bad = self.violations()[c.text]
            if bad:
                logs = [self.cells[i].log10_ratios[c.text] for i in bad]
                span = (_ratio(min(logs)) if min(logs) == max(logs)
                        else f"{_ratio(min(logs))}..{_ratio(max(logs))}")
                parts.append(f"{c.text} fails in {len(bad)}/{n} ({c.ratio_label()} {span}, needs {_NEEDS[c.op]})")
        line = head + ": " + parts[0]
        for k, part in enumerate(parts[1:], start=1):
            more = f"; +{len(parts) - k - 1} more" if k < len(parts) - 1 else ""
            if len(line) + 2 + len(part) + len(more) > SUMMARY_CHARS:
                line += f"; +{len(parts) - k} more"
                break
            line += "; " + part
        return _clip(line)

    def to_dict(self) -> dict[str, Any]:
        return {"constraints": [c.text for c in self.constraints], "much": MUCH,
                "outside": self.outside, "in_regime": self.in_regime, "violations": self.violations(),
                "unjudged": self.unjudged(), "summary": self.summary(),
                "cells": [cell.to_dict() for cell in self.cells]}


def _cells(k: int, n: int) -> str:
    if k == n:
        return "the only cell" if n == 1 else f"all {n} cells"
    return f"{k} of {n} cells"


def _ratio(log10: float) -> str:
    return f"{10 ** log10:.3g}" if abs(log10) < 300 else f"1e{log10:+.0f}"


def _clip(line: str) -> str:
    return line if len(line) <= SUMMARY_CHARS else line[: SUMMARY_CHARS - 3] + "..."


def _as_constraints(constraints: Any) -> tuple[Constraint, ...]:
    if hasattr(constraints, "constraints") and not isinstance(constraints, (str, bytes)):
        constraints = constraints.constraints  # a theorycheck.law.Regime
    if isinstance(constraints, str):
        constraints = (constraints,)
    if not isinstance(constraints, Iterable):
        raise ValueError(f"constraints must be a Regime or strings such as 'V >> d', got {constraints!r}")
    return tuple(c if isinstance(c, Constraint) else parse_constraint(c) for c in constraints)


def _value(name: str, value: Any) -> mpmath.mpf | None:
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(f"cell value {name}={value!r} is not a number; give a positive number or None")
    try:
        number = mpmath.mpf(value)
    except (TypeError, ValueError):
        raise ValueError(f"cell value {name}={value!r} is not a number; give a positive number or None") from None
    if not (mpmath.isfinite(number) and number > 0):
        raise ValueError(f"cell value {name}={value!r} must be positive and finite (or None: not measured)")
    return number


def _log_ratio(c: Constraint, functions, cell: Mapping[str, mpmath.mpf | None]) -> float | None:
    """ln(lhs/rhs) at ``cell``, or None when a value is missing or a side is not positive."""
    args = [cell.get(name) for name in c.names]
    if any(a is None for a in args):
        return None
    with mpmath.workdps(_DIGITS):
        try:
            lhs, rhs = (mpmath.mpf(f(*args)) for f in functions)
        except (ValueError, ZeroDivisionError, TypeError):
            return None
        if not (mpmath.isfinite(lhs) and mpmath.isfinite(rhs) and lhs > 0 and rhs > 0):
            return None
        return float(mpmath.log(lhs) - mpmath.log(rhs))


@functools.lru_cache(maxsize=256)
def _lambdified(c: Constraint) -> tuple:
    """Both sides of ``c`` as mpmath functions of ``c.names`` (made once per constraint: a
    design evaluates the same few constraints at every candidate point of its lines)."""
    return tuple(sp.lambdify([symbol(n) for n in c.names], side, modules="mpmath") for side in (c.lhs, c.rhs))


def evaluate_regime(constraints: Any, cells: Sequence[Mapping[str, Any]]) -> RegimeReport:
    """Evaluate ``constraints`` (a :class:`~theorycheck.law.Regime`, one string or several)
    at every cell (``{name: value}``; value ``None`` = not measured). Constraints are
    parsed and the values checked before any evaluation; a name that no cell gives is a
    ValueError."""
    parsed = _as_constraints(constraints)
    if isinstance(cells, Mapping) or not isinstance(cells, Sequence):
        raise ValueError(f"cells must be a list of {{name: value}} mappings, got {type(cells).__name__}")
    checked = []
    for i, cell in enumerate(cells):
        if not isinstance(cell, Mapping):
            raise ValueError(f"cell {i} must be a mapping {{name: value}}, got {cell!r}")
        checked.append({str(k): _value(str(k), v) for k, v in cell.items()})
    known = set().union(*(cell.keys() for cell in checked)) if checked else set()
    for c in parsed:
        missing = [n for n in c.names if n not in known]
        if missing and checked:
            raise ValueError(f"regime constraint {c.text!r} uses {missing}, which no cell gives "
                             f"(cells give {sorted(known)}); add them to the cells or drop the constraint")
    functions = {c.text: _lambdified(c) for c in parsed}
    out = []
    for raw, cell in zip(cells, checked):
        logs, violated, unjudged = {}, [], []
        for c in parsed:
            log_ratio = _log_ratio(c, functions[c.text], cell)
            logs[c.text] = None if log_ratio is None else log_ratio / math.log(10)
            if log_ratio is None:
                unjudged.append(c.text)
            elif not c.holds(log_ratio):
                violated.append(c.text)
        in_regime = False if violated else (None if unjudged else True)
        values = {str(k): (None if v is None else float(v)) for k, v in raw.items()}
        out.append(CellRegime(values, in_regime, tuple(violated), tuple(unjudged), logs))
    return RegimeReport(parsed, tuple(out))
