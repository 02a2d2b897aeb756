"""The :class:`Law`: a threshold condition on one resource, over positive symbols.

A law such as ``N >= C3*L*V*(V+d)*log(V)/d**2`` (docs/theory.md §5) says that success needs
the **resource** (``N``) to reach a **threshold** ``f(d, L, V; C3)``. Laws stated in
another form -- ``d**2 >= C1*V*log(V)`` or ``(d**2/2)*log(1 + N/(L*V)) >= V*log(V)`` --
are solved for the resource with SymPy (``solve`` over positive symbols, then
``solveset`` on ``Interval.open(0, oo)``, docs/methods.md §1.1). The **sense** says
which side succeeds: ``'>='`` (resource at least the threshold: ``N``, ``d``) or
``'<='`` (at most: the largest ``V`` a budget allows, after :meth:`Law.solve_for`).

Names that match :func:`theorycheck.symbols.is_constant_name` (``C``, ``C3``, ``c``,
``K1``...) are free constants unless ``constants=[...]`` says otherwise; every other
name is a task variable. ``E`` is Euler's number and ``pi`` is pi (never variables;
:mod:`theorycheck.law.parse`).

``assume="k < n"`` (or a list of such strings) declares where the law is meant to hold
(:mod:`theorycheck.law.assumptions`): ``Law.parse("m >= C*k*log(n/k)", assume="k < n")``
is checked for positivity only where ``k < n``, refuses to be evaluated elsewhere, and
exposes :attr:`Law.assumptions` and the vectorised :meth:`Law.satisfies` for the design.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import sympy as sp

from theorycheck.law.assumptions import parse_assumptions, satisfies
from theorycheck.law.evaluation import LawEvaluation
from theorycheck.law.exponents import Term, leading_term, monomial_parts
from theorycheck.law.parse import parse_law_text
from theorycheck.law.regime import Regime, as_ray
from theorycheck.law.solve import normalise_condition, solve_condition
from theorycheck.symbols import is_constant_name, symbol

__all__ = ["Law"]

_SENSES = (">=", "<=")


class Law(LawEvaluation):
    """A threshold law ``resource >= threshold`` (or ``<=``); see the module docstring.

    >>> law = Law.parse("N >= C3*L*V*(V+d)*log(V)/d**2")
    >>> law.resource, law.variables, law.constants
    ('N', ('L', 'V', 'd'), ('C3',))
    """

    def __init__(self, condition: Any, resource: str | None = None,
                 constants: Iterable[str] | None = None, assume: str | Iterable[str] | None = None) -> None:
        if isinstance(condition, str):
            condition = parse_law_text(condition)
        original = normalise_condition(condition)
        names = sorted({s.name for s in original.free_symbols})
        assumptions = parse_assumptions(assume, names, sp.sstr(original))
        const = _constant_names(names, constants, original)
        if resource is None:
            lhs_vars = sorted({s.name for s in original.lhs.free_symbols} - set(const))
            if len(lhs_vars) != 1:
                raise ValueError(
                    f"cannot tell the resource of {str(original)!r}: its left-hand side has "
                    f"{'no variable' if not lhs_vars else 'variables ' + ', '.join(lhs_vars)}; "
                    f"pass resource=<one of {[n for n in names if n not in const]}>"
                )
            resource = lhs_vars[0]
        if not isinstance(resource, str) or resource not in names or resource in const:
            raise ValueError(
                f"resource {resource!r} is not a variable of {str(original)!r}; "
                f"choose one of {[n for n in names if n not in const]}"
            )
        threshold, sense = solve_condition(original, symbol(resource), [symbol(c) for c in const], assumptions)
        self._set(original, resource, tuple(const), threshold, sense, assumptions)

    def _set(self, original: sp.Basic, resource: str, constants: tuple[str, ...],
             threshold: sp.Expr, sense: str, assumptions: tuple = ()) -> None:
        object.__setattr__(self, "_original", original)
        object.__setattr__(self, "assumptions", tuple(assumptions))
        object.__setattr__(self, "resource", resource)
        object.__setattr__(self, "constants", tuple(sorted(constants)))
        object.__setattr__(self, "threshold", threshold)
        object.__setattr__(self, "sense", sense)
        variables = sorted({s.name for s in threshold.free_symbols} - set(constants) - {resource})
        object.__setattr__(self, "variables", tuple(variables))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Law is immutable")

    def __reduce__(self):
        """Pickle the solved law without its cached (lambdified) functions, e.g. for dask workers."""
        return (_restore, (self._original, self.resource, self.constants, self.threshold, self.sense,
                           self.assumptions))

    # ----------------------------------------------------------------- construction
    @classmethod
    def parse(cls, text: str, resource: str | None = None, constants: Iterable[str] | None = None,
              assume: str | Iterable[str] | None = None) -> Law:
        """Parse a law string safely (see :mod:`theorycheck.law.parse`) and solve it for the resource.

        ``assume``: where the law holds, e.g. ``"k < n"`` or ``["k < n", "k >= 2"]``
        (:mod:`theorycheck.law.assumptions`).
        """
        return cls(parse_law_text(text), resource=resource, constants=constants, assume=assume)

    @classmethod
    def from_threshold(cls, resource: str, expr: Any, sense: str = ">=",
                       constants: Iterable[str] | None = None, assume: str | Iterable[str] | None = None) -> Law:
        """``resource >= expr`` (or ``<=``); ``expr`` a SymPy expression or an expression string."""
        if sense not in _SENSES:
            raise ValueError(f"sense must be '>=' or '<=', got {sense!r}")
        res = symbol(resource)
        if isinstance(expr, str):
            from theorycheck.law.parse import parse_expression_text

            expr = parse_expression_text(expr)
        rel = sp.Ge(res, expr, evaluate=False) if sense == ">=" else sp.Le(res, expr, evaluate=False)
        return cls(rel, resource=resource, constants=constants, assume=assume)

    def solve_for(self, var: str) -> Law:
        """The same condition solved for ``var`` (e.g. the largest ``V`` given ``N, d, L``).

        For a variable that hurts, the sense flips: ``N >= g(V)`` becomes ``V <= g^{-1}(N)``.
        Raises ValueError if ``var`` is not in the law or SymPy finds no closed form.
        """
        names = set(self.variables) | {self.resource}
        if var not in names:
            raise ValueError(f"cannot solve {self.text!r} for {var!r}: variables are {sorted(names)}")
        return Law(self._original, resource=var, constants=self.constants, assume=self.assumption_texts)

    # ------------------------------------------------------------------ identity
    @property
    def condition(self) -> sp.core.relational.Relational:
        """``resource >= threshold`` (or ``<=``) as a SymPy relational."""
        res = symbol(self.resource)
        if self.sense == ">=":
            return sp.Ge(res, self.threshold, evaluate=False)
        return sp.Le(res, self.threshold, evaluate=False)

    @property
    def statement(self) -> sp.Basic:
        """The condition as it was given (before solving for the resource)."""
        return self._original

    def _key(self) -> tuple:
        return (self._original, self.resource, self.constants, self.assumptions)

    # --------------------------------------------------------------- assumptions
    @property
    def assumption_texts(self) -> tuple[str, ...]:
        """The declared assumptions as strings, e.g. ``('k < n',)``."""
        return tuple(sp.sstr(a) for a in self.assumptions)

    def assumptions_within(self, expr: sp.Basic) -> tuple[str, ...]:
        """The assumptions that only name symbols of ``expr`` and the resource: what a law
        derived from this one (an additive alternative, a frozen polylog) can carry over."""
        names = {s.name for s in expr.free_symbols} | {self.resource}
        return tuple(t for a, t in zip(self.assumptions, self.assumption_texts)
                     if {s.name for s in a.free_symbols} <= names)

    def satisfies(self, points: Mapping[str, Any]) -> np.ndarray:
        """Vectorised: True where every declared assumption holds at ``points`` (a mapping
        name -> value or array, broadcast together; constants default to 1)."""
        if not isinstance(points, Mapping):
            raise ValueError(f"points must be a mapping name -> values, got {type(points).__name__}")
        full = {c: 1.0 for c in self.constants}
        full.update(points)
        return satisfies(self.assumptions, full)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Law) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def text(self) -> str:
        """The law as stated, e.g. ``'N >= C3*L*V*(V + d)*log(V)/d**2'``."""
        return sp.sstr(self._original)

    @property
    def latex(self) -> str:
        return sp.latex(self._original)

    @property
    def threshold_text(self) -> str:
        return sp.sstr(self.condition)

    @property
    def threshold_latex(self) -> str:
        return sp.latex(self.condition)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        if self.assumptions:
            return f"Law({self.text!r}, resource={self.resource!r}, assume={list(self.assumption_texts)!r})"
        return f"Law({self.text!r}, resource={self.resource!r})"

    def _repr_latex_(self) -> str:
        return f"${self.latex}$"

    def to_dict(self) -> dict:
        return {
            "law": self.text, "latex": self.latex, "resource": self.resource, "sense": self.sense,
            "threshold": sp.sstr(self.threshold), "threshold_latex": sp.latex(self.threshold),
            "variables": list(self.variables), "constants": list(self.constants),
            "is_monomial": self.is_monomial, "assume": list(self.assumption_texts),
        }

    # ----------------------------------------------------------------- exponents
    @cached_property
    def _monomial(self):
        return monomial_parts(self.threshold, self.variables)

    @property
    def is_monomial(self) -> bool:
        """True if the threshold is ``c * prod x**a * prod log(x)**k``."""
        return self._monomial is not None

    def _term(self, regime: Regime | Mapping[str, Any] | None, what: str) -> Term | None:
        if regime is None:
            if self._monomial is None:
                raise ValueError(
                    f"law {self.text!r} is not a monomial; its {what} depend on the regime: pass a Regime "
                    "(or a ray such as {'V': 1, 'd': '3/4', 'L': '1/4'})"
                )
            return None
        if not isinstance(regime, Regime):
            regime = Regime(regime)
        if self._monomial is not None:
            regime.check(self)
            return None
        regime.check(self)
        term = leading_term(self.threshold, regime.ray, self.variables)
        if term.ambiguous:
            raise ValueError(
                f"on the ray {dict(regime.ray)} several terms of {self.text!r} tie, so the {what} per variable "
                "depend on the constants; choose a ray strictly inside one term's regime"
            )
        return term

    def exponents(self, regime: Regime | Mapping[str, Any] | None = None) -> dict[str, Fraction]:
        """Exponent of every variable: exact for monomials, else limits along ``regime``'s ray."""
        term = self._term(regime, "exponents")
        powers = self._monomial[1] if term is None else term.powers
        return {v: powers.get(v, Fraction(0)) for v in self.variables}

    def log_powers(self, regime: Regime | Mapping[str, Any] | None = None) -> dict[str, Fraction]:
        """Power of ``log(x)`` for every variable (polylog factors), same rules as :meth:`exponents`."""
        term = self._term(regime, "log powers")
        logs = self._monomial[2] if term is None else term.logs
        return {v: logs.get(v, Fraction(0)) for v in self.variables}

    def ray_growth(self, ray: Mapping[str, Any]) -> tuple[Fraction, Fraction]:
        """``(rho, kappa)``: along ``x = t**ray[x]`` the threshold is ``t**rho (log t)**kappa`` up to constants."""
        if isinstance(ray, Regime):
            ray = ray.ray
        ray = as_ray(ray)
        missing = [v for v in self.variables if v not in ray]
        if missing:
            raise ValueError(f"ray {ray} gives no exponent for {missing}; add e.g. {{{missing[0]!r}: 0}}")
        return leading_term(self.threshold, ray, self.variables).growth(ray)

    def ray_exponent(self, ray: Mapping[str, Any]) -> Fraction:
        """``lim log f(t**alpha) / log t`` along the ray."""
        return self.ray_growth(ray)[0]


def _restore(original: sp.Basic, resource: str, constants: tuple[str, ...], threshold: sp.Expr, sense: str,
             assumptions: tuple = ()) -> Law:
    law = object.__new__(Law)
    law._set(original, resource, constants, threshold, sense, assumptions)
    return law


def _constant_names(names: list[str], constants: Iterable[str] | None, rel: sp.Basic) -> list[str]:
    if constants is None:
        return [n for n in names if is_constant_name(n)]
    if isinstance(constants, str):
        constants = [constants]
    given = list(constants)
    unknown = [c for c in given if c not in names]
    if unknown:
        raise ValueError(f"constants {unknown} do not appear in {sp.sstr(rel)!r}; its names are {names}")
    return sorted(given)
