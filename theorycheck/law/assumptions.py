"""Declared assumptions of a law, e.g. ``k < n`` for ``m >= C*k*log(n/k)``.

A textbook bound often holds only on part of the positive orthant: ``log(n/k)`` is
positive only when ``k < n``. An assumption is a comparison between expressions in the
law's names (``"k < n"``, ``"d <= V"``, ``"L*V > N"``), parsed by the same safe grammar
as a law (:mod:`theorycheck.law.parse`). The law uses them wherever it needs points of
its domain (docs/theory.md §5):

* the positivity and monotonicity checks of :mod:`theorycheck.law.solve` sample only
  points that satisfy every assumption;
* :meth:`theorycheck.law.Law.evaluate` (and the log-space and elasticity forms) refuse
  values that violate one, naming it;
* :func:`satisfies` is the vectorised test the design code can use to stay inside.

Strict and non-strict comparisons are kept as given (``k < n`` excludes ``k = n``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from theorycheck.law.parse import parse_law_text

__all__ = ["parse_assumptions", "satisfies", "violations"]

_OPS = {sp.GreaterThan: np.greater_equal, sp.StrictGreaterThan: np.greater,
        sp.LessThan: np.less_equal, sp.StrictLessThan: np.less}


def parse_assumptions(assume: str | Iterable[str] | None, names: Iterable[str], law: str
                      ) -> tuple[sp.core.relational.Relational, ...]:
    """Relationals of ``assume`` (one string, or a list/tuple of strings); every name
    in them must be one of ``names`` (the law's own)."""
    if assume is None:
        return ()
    if isinstance(assume, str):
        assume = [assume]
    elif isinstance(assume, (sp.core.relational.Relational, bytes)) or not isinstance(assume, Iterable):
        raise ValueError(f"assume must be a string such as 'k < n' or a list of them, got {assume!r}")
    allowed = set(names)
    out = []
    for text in assume:
        if not isinstance(text, str):
            raise ValueError(f"each assumption must be a string such as 'k < n', got {text!r}")
        if "<<" in text or ">>" in text or "," in text:
            raise ValueError(f"assumption {text!r}: give one plain comparison per string, such as 'k < n' "
                             "(a list for several; '<<'/'>>' belong to a regime, whose factor an assumption "
                             "does not have)")
        try:
            rel = parse_law_text(text)
        except ValueError as exc:
            raise ValueError(f"cannot parse assumption {text!r} ({exc}); give a comparison such as 'k < n'") \
                from None
        unknown = sorted({s.name for s in rel.free_symbols} - allowed)
        if unknown:
            raise ValueError(f"assumption {text!r} names {unknown}, which the law {law!r} does not have; "
                             f"use only {sorted(allowed)}")
        out.append(rel)
    return tuple(out)


def _values(rel: sp.Basic, points: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    names = sorted({s.name for s in rel.free_symbols}, key=str)
    missing = [n for n in names if n not in points]
    if missing:
        raise ValueError(f"assumption {sp.sstr(rel)!r} needs {missing}; the points give {sorted(points)}")
    syms = [sp.Symbol(n) for n in names]
    plain = rel.xreplace({s: sp.Symbol(s.name) for s in rel.free_symbols})
    args = [np.asarray(points[n], dtype=np.float64) for n in names]
    fl = sp.lambdify(syms, plain.lhs, "numpy"), sp.lambdify(syms, plain.rhs, "numpy")
    with np.errstate(all="ignore"):
        return np.asarray(fl[0](*args), dtype=float), np.asarray(fl[1](*args), dtype=float)


def satisfies(assumptions: Sequence[sp.Basic], points: Mapping[str, Any]) -> np.ndarray:
    """Boolean array: True where every assumption holds at ``points`` (arrays broadcast)."""
    result: Any = np.True_
    for rel in assumptions:
        lhs, rhs = _values(rel, points)
        result = np.logical_and(result, _OPS[type(rel)](lhs, rhs))
    shapes = [np.shape(v) for v in points.values()]
    return np.broadcast_to(result, np.broadcast_shapes(*shapes) if shapes else ()).copy()


def violations(assumptions: Sequence[sp.Basic], points: Mapping[str, Any]) -> list[str]:
    """The assumptions (as text) that fail at some of ``points``."""
    bad = []
    for rel in assumptions:
        if not np.all(satisfies((rel,), points)):
            bad.append(sp.sstr(rel))
    return bad
