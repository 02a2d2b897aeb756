"""Exponents along a ray by SymPy limits (Gruntz, one variable ``t``): the reference
method behind :func:`theorycheck.law.exponents.leading_term` and its fallback.

On ``x = t**alpha`` (``alpha = 0``: ``x`` stays a fixed positive symbol), with
``E_x = x d log f / dx`` the local elasticity:

* exponent ``a_x = lim_{t -> oo} E_x``;
* log power ``k_x = lim_{t -> oo} (E_x - a_x) log x``
  (docs/methods.md §1.2 step 2; multivariate ``Order`` is never used, §1.4 pitfall 4).

Constants stay symbolic positive symbols; a limit that depends on them (a ray on which
two terms tie) or that SymPy cannot evaluate raises ValueError.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from theorycheck.law.terms import Term, to_fraction

__all__ = ["limit_term"]

RayKey = tuple[tuple[str, Fraction], ...]


def _ray_key(ray: Mapping[str, Fraction]) -> RayKey:
    return tuple(sorted((k, Fraction(v)) for k, v in ray.items()))


def limit_term(expr: sp.Expr, ray: Mapping[str, Fraction], variables: Sequence[str]) -> Term:
    """Same as :func:`leading_term` but always by SymPy limits (slower; a cross-check)."""
    return _limit_cached(expr, _ray_key(ray), tuple(sorted(variables)))


@lru_cache(maxsize=1024)
def _limit_cached(expr: sp.Expr, ray: RayKey, variables: tuple[str, ...]) -> Term:
    t = sp.Symbol("t", positive=True)
    ray_map = dict(ray)
    syms = {s.name: s for s in expr.free_symbols}
    to_ray = {syms[x]: t ** sp.Rational(a.numerator, a.denominator)
              for x, a in ray_map.items() if a != 0 and x in syms}
    logf = sp.log(expr)
    powers: dict[str, Fraction] = {}
    logs: dict[str, Fraction] = {}
    for x in variables:
        if x not in syms:
            continue
        elasticity = (syms[x] * sp.diff(logf, syms[x])).xreplace(to_ray)
        a = _rational_limit(elasticity, t, f"exponent of {x}")
        log_x = sp.Rational(ray_map[x].numerator, ray_map[x].denominator) * sp.log(t) if ray_map[x] != 0 \
            else sp.log(syms[x])
        k = _rational_limit((elasticity - sp.Rational(a.numerator, a.denominator)) * log_x, t, f"log power of {x}")
        if a:
            powers[x] = a
        if k:
            logs[x] = k
    return Term(None, 1, powers, logs)


def _rational_limit(expr: sp.Expr, t: sp.Symbol, what: str) -> Fraction:
    try:
        value = sp.limit(expr, t, sp.oo)
    except (NotImplementedError, ValueError, TypeError, RecursionError) as exc:
        raise ValueError(f"SymPy could not compute the {what} along the ray ({exc})") from None
    if isinstance(value, sp.Limit) or value.has(sp.Limit):
        raise ValueError(f"SymPy could not evaluate the {what} along the ray (limit left unevaluated)")
    if not value.is_Rational:
        raise ValueError(
            f"the {what} along the ray is {value}, not a rational number "
            "(the ray may sit on a boundary between terms, or hold a variable fixed inside a log)"
        )
    return to_fraction(value)
