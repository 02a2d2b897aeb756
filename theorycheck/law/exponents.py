"""Exponents of a law: exact for monomials, leading terms along rays otherwise.

Notions (docs/theory.md §6; docs/methods.md §1.2; multivariate ``Order`` is never used):

* **monomial** ``f = c * prod x_i**a_i * prod log(x_i)**k_i``: the exponents ``a_i`` and
  the polylog powers ``k_i`` are read off ``as_powers_dict`` exactly (as Fractions);
* **ray** ``x_i = t**alpha_i`` (``t -> oo``; ``alpha_i = 0`` holds ``x_i`` fixed): the
  **ray exponent** is ``rho = lim log f / log t`` and the **ray log power**
  ``kappa = lim (t d/dt log f - rho) * log t``, so ``f = t**rho (log t)**kappa`` up to
  constants along the ray;
* **exponent of x_i in a regime** = the limit of the local elasticity
  ``E_i = d log f / d log x_i`` along the regime's ray, and its log power
  ``k_i = lim (E_i - a_i) * log x_i``. For a sum these are the exponents of the term
  that dominates along the ray; on a ray where two different terms tie they depend on
  the constants, and we refuse to give them.

:func:`leading_term` computes these by structural recursion (products add, powers
scale, sums keep their dominant term, ``log`` of a growing argument is ``rho log t``,
``log(1 + v)`` with ``v -> 0`` is ``v``, ``exp(v) - 1`` with ``v -> 0`` is ``v``,
``exp(c W(z)) = (z / W(z))**c``); anything else falls back to :func:`limit_term`,
which takes the same limits with SymPy's Gruntz algorithm (one variable ``t``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

import sympy as sp

from theorycheck.law.limits import _limit_cached, _ray_key, limit_term
from theorycheck.law.terms import Term, monomial_parts, to_fraction

__all__ = ["Term", "monomial_parts", "leading_term", "limit_term", "to_fraction"]


class _Unsupported(Exception):
    """The structural recursion cannot treat this node; use limits instead."""


def _merge(a: Mapping[str, Fraction], b: Mapping[str, Fraction], scale: Fraction = Fraction(1)) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, Fraction(0)) + scale * v
    return {k: v for k, v in out.items() if v}


def _sign_of(coeff: sp.Expr) -> int:
    if coeff.is_positive:
        return 1
    if coeff.is_negative:
        return -1
    raise _Unsupported(f"sign of {coeff} unknown")


class _Walker:
    """Structural recursion computing the leading :class:`Term` of an expression."""

    def __init__(self, ray: Mapping[str, Fraction]) -> None:
        self.ray = ray

    def vanishes(self, term: Term) -> bool:
        rho, kappa = term.growth(self.ray)
        return rho < 0 or (rho == 0 and kappa < 0)

    def constant(self, term: Term) -> bool:
        return term.growth(self.ray) == (0, 0)

    def lead(self, e: sp.Expr) -> Term:
        if e.is_Symbol:
            if e.name in self.ray:
                return Term(sp.Integer(1), 1, {e.name: Fraction(1)})
            return Term(e, _sign_of(e))
        if e.is_number:
            if e == 0:
                raise _Unsupported("zero")
            return Term(e, _sign_of(e))
        if e.is_Mul:
            return self.product([self.lead(a) for a in e.args])
        if e.is_Pow:
            return self.power(e)
        if e.is_Add:
            return self.add(e)
        if isinstance(e, sp.log) and len(e.args) == 1:
            return self.log(e.args[0])
        if isinstance(e, sp.exp):
            return self.exp(e.args[0])
        if isinstance(e, sp.LambertW) and len(e.args) == 1:
            inner = self.lead(e.args[0])
            if inner.sign < 0 or inner.growth(self.ray)[0] <= 0:
                raise _Unsupported("LambertW of a non-growing argument")
            return self.log(e.args[0])  # W(z) = log z - log log z + o(1)
        if isinstance(e, (sp.Max, sp.Min)):
            return self.extremum([self.lead(a) for a in e.args], isinstance(e, sp.Max))
        raise _Unsupported(f"node {type(e).__name__}")

    def product(self, terms: list[Term]) -> Term:
        coeff: sp.Expr | None = sp.Integer(1)
        sign, powers, logs, amb = 1, {}, {}, False
        for t in terms:
            coeff = None if coeff is None or t.coeff is None else coeff * t.coeff
            sign *= t.sign
            powers, logs = _merge(powers, t.powers), _merge(logs, t.logs)
            amb = amb or t.ambiguous
        return Term(coeff, sign, powers, logs, amb)

    def power(self, e: sp.Pow) -> Term:
        if not e.exp.is_Rational:
            if e.exp.is_number:
                raise _Unsupported("irrational exponent")
            return self.exp(e.exp * sp.log(e.base))
        p = to_fraction(e.exp)
        base = self.lead(e.base)
        if base.sign < 0 and p.denominator != 1:
            raise _Unsupported("fractional power of a negative term")
        coeff = None if base.coeff is None else base.coeff ** sp.Rational(p.numerator, p.denominator)
        sign = base.sign ** abs(p.numerator) if base.sign < 0 else 1
        return Term(coeff, sign, _merge({}, base.powers, p), _merge({}, base.logs, p), base.ambiguous)

    def add(self, e: sp.Add) -> Term:
        terms: list[sp.Expr] = []
        for arg in e.args:  # c * exp(v) with v -> 0 is c + c*v + O(c v**2); b**e = exp(e log b)
            small, rest = [], []
            for f in sp.Mul.make_args(arg):
                v = _exponent_of(f)
                if v is not None and self.vanishes(self.lead(v)):
                    small.append(v)
                else:
                    rest.append(f)
            if small:
                rest_term = sp.Mul(*rest)
                terms += [rest_term, rest_term * sp.Add(*small)]
            else:
                terms.append(arg)
        groups: dict[tuple, list[Term]] = {}
        for arg in terms:
            t = self.lead(arg)
            groups.setdefault(t.key(), []).append(t)
        merged: list[Term] = []
        for members in groups.values():
            if len(members) == 1:
                merged.append(members[0])
                continue
            if any(m.coeff is None for m in members):
                raise _Unsupported("cannot add coefficients")
            total = sp.expand(sp.Add(*[m.coeff for m in members]))
            if total != 0:
                merged.append(Term(total, _sign_of(total), members[0].powers, members[0].logs,
                                   any(m.ambiguous for m in members)))
        if not merged:
            raise _Unsupported("leading terms cancel")
        return self.extremum(merged, True)

    def extremum(self, terms: list[Term], largest: bool) -> Term:
        growths = [t.growth(self.ray) for t in terms]
        best = max(growths) if largest else min(growths)
        tied = [t for t, g in zip(terms, growths) if g == best]
        first = tied[0]
        if len(tied) == 1:
            return first
        if any(t.sign != first.sign for t in tied):
            raise _Unsupported("tied terms of opposite signs")
        amb = len({t.key() for t in tied}) > 1 or any(t.ambiguous for t in tied)
        return Term(None, first.sign, first.powers, first.logs, amb)

    def log(self, arg: sp.Expr) -> Term:
        if arg.is_Symbol and arg.name in self.ray:
            return Term(sp.Integer(1), 1, {}, {arg.name: Fraction(1)})
        inner = self.lead(arg)
        if inner.sign < 0:
            raise _Unsupported("log of a negative term")
        rho, kappa = inner.growth(self.ray)
        if rho > 0:  # log a = rho log t (1 + o(1)); attribute log t to the growing variables
            logs = {x: self.ray[x] * p / rho for x, p in inner.powers.items() if self.ray[x] != 0}
            return Term(None, 1, {}, {x: v for x, v in logs.items() if v}, inner.ambiguous)
        if rho == 0 and kappa == 0 and arg.is_Add:
            const, rest = arg.as_independent(*arg.free_symbols, as_Add=True)
            if const == 1 and rest != 0 and self.vanishes(self.lead(rest)):
                return self.lead(rest)  # log(1 + v) = v + O(v**2)
        if rho == 0 and kappa == 0 and not inner.powers and not inner.logs and inner.coeff is not None:
            value = sp.log(inner.coeff)
            return Term(value, _sign_of(value))
        raise _Unsupported("log of a non-growing argument")

    def exp(self, arg: sp.Expr) -> Term:
        coeff, rest = arg.as_coeff_Mul()
        if isinstance(rest, sp.LambertW) and len(rest.args) == 1:
            z = rest.args[0]
            return self.lead((z / rest) ** coeff)  # exp(W(z)) = z / W(z)
        inner = self.lead(arg)
        if self.vanishes(inner):
            return Term(sp.Integer(1), 1)
        if self.constant(inner) and not inner.powers and not inner.logs and inner.coeff is not None:
            return Term(sp.exp(inner.coeff), 1)
        if arg.is_Mul or isinstance(arg, sp.log):  # exp(c log x) = x**c
            c, body = arg.as_coeff_Mul()
            if isinstance(body, sp.log) and body.args[0].is_Symbol and body.args[0].name in self.ray:
                return Term(sp.Integer(1), 1, {body.args[0].name: to_fraction(c)})
        raise _Unsupported("exp of a non-vanishing argument")


def _exponent_of(factor: sp.Expr) -> sp.Expr | None:
    """``v`` if ``factor`` is ``exp(v)`` or ``b**e`` with a non-numeric ``e`` (``v = e log b``), else None."""
    if isinstance(factor, sp.exp):
        return factor.args[0]
    if factor.is_Pow and not factor.exp.is_number:
        return factor.exp * sp.log(factor.base)
    return None


@lru_cache(maxsize=4096)
def _leading_cached(expr: sp.Expr, ray: tuple, variables: tuple[str, ...]) -> Term:
    ray_map = dict(ray)
    try:
        return _Walker(ray_map).lead(expr)
    except _Unsupported:
        return _limit_cached(expr, ray, variables)


def leading_term(expr: sp.Expr, ray: Mapping[str, Fraction], variables: Sequence[str]) -> Term:
    """Leading :class:`Term` of ``expr`` (positive) along ``x = t**ray[x]``; cached.

    Every name in ``variables`` must be in ``ray``; other symbols are positive constants.
    """
    return _leading_cached(expr, _ray_key(ray), tuple(sorted(variables)))
