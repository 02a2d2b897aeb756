"""Θ̃ comparisons: strip a law's polylog factors before comparing shapes.

``f = Θ̃(g)`` means equality up to constant *and* polylogarithmic factors. On a finite
sweep a factor ``log(V)^k`` is not constant: it tilts the local log-log slope in ``V``
by ``k / log V`` (0.14-0.24 per power of log over ``V`` in 64..1024), a tilt that tends
to 0 only in the limit. For a Θ̃ verdict that tilt must not count, so every ``log(...)``
in the law's threshold is *frozen* at its value at the geometric centre of the swept
cells (rounded to 4 digits): ``log(V) -> log(256)``. The frozen law has the power-law skeleton of the
original (for a monomial times polylog it is exactly ``C' * prod x^a``; in a sum of
terms the relative weights are kept at the centre), so multiplying the law by
``log(V)^k`` changes only its constant and never the verdict. Logs of the resource or
of constants are left alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import sympy as sp

from theorycheck.symbols import symbol


def freeze_polylog(law: Any, centre: Mapping[str, float]) -> Any:
    """The law with each ``log(arg(x))`` replaced by its value at ``centre``.

    ``centre`` gives a value for each of the law's variables. Returns the law itself
    when it has no log of its variables.
    """
    from theorycheck.law import Law

    variables = {symbol(v) for v in law.variables}
    subs = {symbol(v): sp.nsimplify(float(f"{float(centre[v]):.4g}")) for v in law.variables}
    frozen: dict[sp.Expr, sp.Expr] = {}
    for node in sorted(law.threshold.atoms(sp.log), key=sp.count_ops, reverse=True):
        free = node.free_symbols
        if not free or not free <= variables:
            continue
        exact = node.xreplace(subs)
        value = float(exact)
        if not math.isfinite(value):
            raise ValueError(f"cannot freeze {node} at the centre {dict(centre)}: value {value}")
        frozen[node] = exact
    if not frozen:
        return law
    expr = law.threshold.xreplace(frozen)
    constants = [c for c in law.constants if symbol(c) in expr.free_symbols]
    sense = getattr(law, "sense", ">=")
    assume = law.assumptions_within(expr) if hasattr(law, "assumptions_within") else None
    return Law.from_threshold(law.resource, expr, sense=sense, constants=constants, assume=assume)
