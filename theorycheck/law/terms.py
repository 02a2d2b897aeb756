"""Exact building blocks: rational exponents, monomial parts, leading terms.

* :func:`to_fraction` -- exponents are exact ``Fraction``s (never floats);
* :func:`monomial_parts` -- ``c * prod x**a_x * prod log(x)**k_x`` read off
  ``as_powers_dict`` after ``expand_power_base(force=True)`` (all symbols positive;
  docs/methods.md §1.2 step 1; ``Poly`` is avoided, it rejects rational exponents);
* :class:`Term` -- the leading behaviour of an expression along a ray ``x = t**alpha``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp

__all__ = ["to_fraction", "monomial_parts", "Term"]


def to_fraction(value: object, what: str = "value") -> Fraction:
    """Exact Fraction from an int, Fraction, SymPy Rational, string ``'3/4'`` or a float with a small denominator."""
    if isinstance(value, bool):
        raise ValueError(f"{what} must be a rational number, got {value!r}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, sp.Rational):
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{what} must be a rational number such as '3/4', got {value!r}") from None
    if isinstance(value, float):
        frac = Fraction(value).limit_denominator(1000)
        if float(frac) != value:
            raise ValueError(f"{what} {value!r} is not a simple fraction; pass Fraction or a string like '3/4'")
        return frac
    if isinstance(value, sp.Expr) and value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    raise ValueError(f"{what} must be a rational number, got {value!r}")


def monomial_parts(expr: sp.Expr, variables: Sequence[str]):
    """``(coefficient, exponents, log powers)`` if ``expr`` is a monomial times polylog, else None.

    >>> from theorycheck.symbols import V, d, symbol
    >>> monomial_parts(3 * symbol("C") * V**2 * sp.log(V) / d, ["V", "d"])
    (3*C, {'V': Fraction(2, 1), 'd': Fraction(-1, 1)}, {'V': Fraction(1, 1)})
    """
    names = set(variables)
    coeff = sp.Integer(1)
    powers: dict[str, Fraction] = {}
    logs: dict[str, Fraction] = {}
    expanded = sp.expand_power_base(expr, force=True)
    for base, exponent in expanded.as_powers_dict().items():
        base_names = {s.name for s in base.free_symbols}
        if not base_names & names:
            if {s.name for s in sp.sympify(exponent).free_symbols} & names:
                return None
            coeff *= base**exponent
            continue
        if not (isinstance(exponent, (int, sp.Rational)) or sp.sympify(exponent).is_Rational):
            return None
        power = to_fraction(sp.Rational(exponent))
        if base.is_Symbol:
            powers[base.name] = powers.get(base.name, Fraction(0)) + power
        elif isinstance(base, sp.log) and base.args[0].is_Symbol and base.args[0].name in names:
            name = base.args[0].name
            logs[name] = logs.get(name, Fraction(0)) + power
        else:
            return None
    return coeff, {k: v for k, v in powers.items() if v}, {k: v for k, v in logs.items() if v}


@dataclass(frozen=True)
class Term:
    """Leading behaviour ``coeff * prod x**powers[x] * prod log(x)**logs[x]`` along a ray.

    ``coeff`` is the exact coefficient when known (numbers and constants), else None;
    ``ambiguous`` marks a sum whose dominant terms tie on the ray with different
    per-variable exponents (``rho`` and ``kappa`` are still right, ``powers`` is not).
    """

    coeff: sp.Expr | None
    sign: int
    powers: Mapping[str, Fraction] = field(default_factory=dict)
    logs: Mapping[str, Fraction] = field(default_factory=dict)
    ambiguous: bool = False

    def growth(self, ray: Mapping[str, Fraction]) -> tuple[Fraction, Fraction]:
        """``(rho, kappa)``: the term is ``t**rho (log t)**kappa`` up to a constant on the ray."""
        rho = sum((ray[x] * p for x, p in self.powers.items()), Fraction(0))
        kappa = sum((k for x, k in self.logs.items() if ray[x] != 0), Fraction(0))
        return rho, kappa

    def key(self) -> tuple:
        return tuple(sorted(self.powers.items())), tuple(sorted(self.logs.items()))
