"""Normalise a law's relational and solve it for its resource.

``lhs OP rhs`` with ``OP`` in ``>= > <= <`` is read as ``F >= 0`` where ``F = lhs - rhs``
(or ``rhs - lhs`` for ``<=``; strict and non-strict are the same law). Solving ``F = 0``
for the resource ``R`` uses ``sympy.solve`` over positive symbols, then ``solveset`` on
``Interval.open(0, oo)`` (``solveset`` ignores assumptions, docs/methods.md §1.4
pitfall 3). The **sense** is ``'>='`` if ``F`` increases in ``R`` at the threshold,
``'<='`` if it decreases: decided symbolically when SymPy can, otherwise at fixed
pseudo-random points (seeded; variables in ``[e, 1e4]``, constants in ``[0.5, 20]``),
where the threshold must also be positive. With declared assumptions (e.g. ``k < n``,
:mod:`theorycheck.law.assumptions`) only points that satisfy them are used.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy as sp

from theorycheck.law.assumptions import satisfies
from theorycheck.law.numeric import fold_logs
from theorycheck.symbols import symbol

__all__ = ["normalise_condition", "solve_condition", "ALLOWED_FUNCTIONS"]

#: Function classes a law may contain (LambertW appears when SymPy solves ``x log x = y``).
ALLOWED_FUNCTIONS = (sp.log, sp.exp, sp.Max, sp.Min, sp.LambertW)
_RELATIONS = {sp.GreaterThan: ">=", sp.StrictGreaterThan: ">=", sp.LessThan: "<=", sp.StrictLessThan: "<="}
_CHECK_SEED = 20260517
_CHECK_POINTS = 12
_MAX_DRAWS = 50 * _CHECK_POINTS


def normalise_condition(condition: object) -> sp.core.relational.Relational:
    """Check a SymPy relational and rebuild it on the canonical positive symbols."""
    if isinstance(condition, (bool, sp.logic.boolalg.BooleanAtom)):
        raise ValueError(f"the law evaluated to {condition}; it must compare expressions in variables")
    if type(condition) not in _RELATIONS:
        raise ValueError(
            f"a law must be a relational with >=, >, <= or <, got {type(condition).__name__} ({condition}); "
            "e.g. Law.parse('N >= C*V*log(V)')"
        )
    for node in sp.preorder_traversal(condition):
        if isinstance(node, sp.Symbol) and not isinstance(node, sp.Dummy):
            symbol(node.name)  # validates the name
        elif isinstance(node, sp.Dummy):
            raise ValueError(f"law contains the dummy symbol {node}; use named symbols")
        elif isinstance(node, sp.Function) and not isinstance(node, ALLOWED_FUNCTIONS):
            raise ValueError(
                f"law contains the function {type(node).__name__}; accepted: log, exp, sqrt, Max, Min"
            )
        elif node.is_number and (node.has(sp.I) or node in (sp.oo, -sp.oo, sp.zoo, sp.nan)):
            raise ValueError(f"law contains the number {node}; only finite real numbers are accepted")
    mapping = {s: symbol(s.name) for s in condition.free_symbols}
    mapping.update({f: sp.Rational(str(f)) for f in condition.atoms(sp.Float)})
    sides = [side.xreplace(mapping) for side in (condition.lhs, condition.rhs)]
    return type(condition)(*sides, evaluate=False)


def _sense_symbolic(derivative: sp.Expr) -> str | None:
    if derivative.is_positive:
        return ">="
    if derivative.is_negative:
        return "<="
    return None


def _sample_points(symbols: Sequence[sp.Symbol], constants: Sequence[sp.Symbol],
                   assumptions: Sequence[sp.Basic] = ()) -> list[dict]:
    """Seeded points (variables log-uniform in ``[e, 1e4]``, constants in ``[0.5, 20]``)
    that satisfy ``assumptions``; the first ``_CHECK_POINTS`` of at most ``_MAX_DRAWS`` draws."""
    rng = np.random.default_rng(np.random.SeedSequence(_CHECK_SEED))
    points = []
    for _ in range(_MAX_DRAWS):
        point = {s: float(np.exp(rng.uniform(1.0, np.log(1e4)))) for s in symbols}
        point.update({c: float(rng.uniform(0.5, 20.0)) for c in constants})
        if assumptions and not bool(satisfies(assumptions, {s.name: v for s, v in point.items()})):
            continue
        points.append(point)
        if len(points) == _CHECK_POINTS:
            break
    if len(points) < _CHECK_POINTS // 2:
        raise ValueError(
            f"the assumptions {[sp.sstr(a) for a in assumptions]} hold at only {len(points)} of {_MAX_DRAWS} "
            "random points with variables in [e, 1e4]; state assumptions that leave room (e.g. 'k < n')"
        )
    return points


def _numeric_sense(F: sp.Expr, R: sp.Symbol, threshold: sp.Expr, constants: Sequence[sp.Symbol], law: str,
                   assumptions: Sequence[sp.Basic] = ()) -> str:
    others = sorted((threshold.free_symbols | F.free_symbols) - {R} - set(constants), key=lambda s: s.name)
    others = _with_assumed(others, assumptions, R)
    senses = set()
    valid = 0
    for point in _sample_points(others, [c for c in constants if c in F.free_symbols], assumptions):
        g = threshold.evalf(30, subs=point)
        if not (g.is_real and g.is_finite) or g <= 0:
            continue
        valid += 1
        above = F.evalf(30, subs={**point, R: g * sp.Float("1.001", 30)})
        below = F.evalf(30, subs={**point, R: g / sp.Float("1.001", 30)})
        if not (above.is_real and below.is_real):
            continue
        if above > 0 > below:
            senses.add(">=")
        elif above < 0 < below:
            senses.add("<=")
        else:
            senses.add("?")
    if valid < _CHECK_POINTS // 2:
        raise ValueError(f"the threshold of {law!r} for {R} is not positive at typical values (e.g. all variables in [e, 1e4])")
    if len(senses) != 1 or "?" in senses:
        raise ValueError(f"{law!r} is not monotone in {R} near its threshold; cannot state it as {R} >= f or {R} <= f")
    return senses.pop()


def _candidates(F: sp.Expr, R: sp.Symbol, law: str) -> list[sp.Expr]:
    try:
        sols = sp.solve(F, R, simplify=False)
    except NotImplementedError:
        sols = []
    sols = [s for s in sols if R not in s.free_symbols and not s.has(sp.I)]
    if sols:
        return sols
    result = sp.solveset(F, R, sp.Interval.open(0, sp.oo))
    if isinstance(result, sp.FiniteSet):
        return [s for s in result if R not in s.free_symbols]
    raise ValueError(
        f"SymPy cannot solve {law!r} for {R} in closed form (got {type(result).__name__}); "
        f"state the law with {R} alone on one side, or solve for another variable"
    )


def solve_condition(rel: sp.core.relational.Relational, R: sp.Symbol,
                    constants: Sequence[sp.Symbol], assumptions: Sequence[sp.Basic] = ()) -> tuple[sp.Expr, str]:
    """``(threshold, sense)`` with the law equivalent to ``R >= threshold`` or ``R <= threshold``.

    ``assumptions`` (relationals over the law's names) restrict the points at which
    positivity and the sense are checked numerically; those that involve ``R`` itself
    cannot be tested before ``R`` is known and are left to evaluation time.
    """
    assumptions = tuple(a for a in assumptions if R not in a.free_symbols)
    op = _RELATIONS[type(rel)]
    law = sp.sstr(rel)
    flip = {">=": "<=", "<=": ">="}
    monomial = _monomial_side(rel, R)
    if monomial is not None:  # A * R**p  OP  B  <=>  R >= (B/A)**(1/p) (sense flips when p < 0 or R is on the right)
        coeff, p, other, on_left = monomial
        threshold = (other / coeff) ** (1 / p)
        sense = op if on_left else flip[op]
        sense = sense if p > 0 else flip[sense]
    else:
        # logs that share a cofactor (log(A) + log(V)) folded into one, and a log of a constant's expression
        # (log(A*V)) an atom to the solver: solved through, sympy splits it into log(A) + log(V) across a sum, whose
        # terms the log-space evaluator needs positive (log A = 0 at A = 1)
        F = fold_logs(rel.lhs - rel.rhs if op == ">=" else rel.rhs - rel.lhs)
        opaque = {f: sp.Dummy(positive=True) for f in F.atoms(sp.log)
                  if R not in f.free_symbols and f.free_symbols & set(constants)}
        back = {v: k for k, v in opaque.items()}
        sols = [s.xreplace(back) for s in _candidates(F.xreplace(opaque), R, law)]
        positive = [s for s in sols if s.is_positive is not False]
        if len(positive) > 1:
            positive = [s for s in positive if _positive_at_points(s, constants, assumptions)]
        if len(positive) != 1:
            raise ValueError(
                f"{law!r} has {len(positive)} positive solutions for {R} ({positive}); cannot pick a threshold"
            )
        threshold = positive[0]
        sense = _sense_symbolic(sp.diff(F, R).subs(R, threshold)) or _numeric_sense(
            F, R, threshold, constants, law, assumptions)
    if R in threshold.free_symbols:
        raise ValueError(f"{law!r}: the threshold for {R} depends on {R}")
    _check_positive(threshold, constants, law, R, assumptions)
    return threshold, sense


def _monomial_side(rel: sp.Basic, R: sp.Symbol) -> tuple[sp.Expr, sp.Rational, sp.Expr, bool] | None:
    """``(A, p, B, on_left)`` if one side is ``A * R**p`` (``A > 0`` free of ``R``) and the other is free of ``R``."""
    for side, other, on_left in ((rel.lhs, rel.rhs, True), (rel.rhs, rel.lhs, False)):
        if R not in side.free_symbols or R in other.free_symbols:
            continue
        with_r = [f for f in sp.Mul.make_args(side) if R in f.free_symbols]
        if len(with_r) != 1:
            return None
        factor = with_r[0]
        p = sp.Integer(1) if factor == R else (factor.exp if factor.is_Pow and factor.base == R else None)
        if p is None or not p.is_Rational or p == 0:
            return None
        coeff = sp.Mul(*[f for f in sp.Mul.make_args(side) if R not in f.free_symbols])
        if not coeff.is_positive:
            return None
        return coeff, p, other, on_left
    return None


def _with_assumed(syms: Sequence[sp.Symbol], assumptions: Sequence[sp.Basic], R: sp.Symbol) -> list[sp.Symbol]:
    """``syms`` plus the variables the assumptions name (so that they can be tested)."""
    extra = {s for a in assumptions for s in a.free_symbols} - set(syms) - {R}
    return sorted({*syms, *extra}, key=lambda s: s.name)


def _positive_at_points(expr: sp.Expr, constants: Sequence[sp.Symbol],
                        assumptions: Sequence[sp.Basic] = ()) -> bool:
    syms = _with_assumed(sorted(expr.free_symbols - set(constants), key=lambda s: s.name), assumptions, None)
    for point in _sample_points(syms, [c for c in constants if c in expr.free_symbols], assumptions):
        value = expr.evalf(30, subs=point)
        if not (value.is_real and value > 0):
            return False
    return True


def _check_positive(threshold: sp.Expr, constants: Sequence[sp.Symbol], law: str, R: sp.Symbol,
                    assumptions: Sequence[sp.Basic] = ()) -> None:
    if threshold.is_positive:
        return
    if not _positive_at_points(threshold, constants, assumptions):
        where = "variables in [e, 1e4]" + (f" with {', '.join(sp.sstr(a) for a in assumptions)}" if assumptions
                                            else "; declare assumptions such as assume='k < n' if it needs them")
        raise ValueError(f"the threshold of {law!r} for {R} is not positive at typical values ({where})")
