"""Regimes: where a law's asymptotic exponents are read.

A regime is a representative **ray** ``x_i = t**alpha_i`` (``t -> oo``; ``alpha_i = 0``
holds ``x_i`` fixed), a description, and optional **constraints** written as
``"A << B"`` (``A = o(B)``), ``"A >> B"``, ``"A <= B"`` (``A = O(B)``), ``"A >= B"``,
``"A ~ B"`` (same order), with ``A``, ``B`` expressions in the variables, e.g.
``("V >> d", "N << L*V", "d**2 >> V*log(V)")``. Along a ray an expression grows as
``t**rho (log t)**kappa``; constraints compare ``(rho, kappa)`` lexicographically.
A constraint may name the law's resource (``N``): it is then read at the threshold.

Rays near the representative one (a **cone**: each growing ``alpha_i`` moved by
``±eps``) that still satisfy the constraints test that a relation is not an accident
of one ray (docs/theory.md §6: exponents of multi-term laws change across a sweep).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import sympy as sp

from theorycheck.law.exponents import leading_term, to_fraction
from theorycheck.law.parse import parse_expression_text
from theorycheck.symbols import is_constant_name, symbol

if TYPE_CHECKING:  # pragma: no cover
    from theorycheck.law.core import Law

__all__ = ["Regime", "as_ray"]

#: Every relation a regime constraint may use (theorycheck.check.regime judges them at
#: measured cells); a Regime's own exponent reasoning takes the first five.
CONSTRAINT_OPS = ("<<", ">>", "<=", ">=", "~", "<", ">")
_OPS = CONSTRAINT_OPS[:5]
_SPLIT = re.compile(r"(<<|>>|<=|>=|~|<|>)")


def as_ray(ray: Mapping[str, Any]) -> dict[str, Fraction]:
    """Validate a ray ``{name: alpha}`` and return exact exponents."""
    if not isinstance(ray, Mapping) or not ray:
        raise ValueError(f"a ray must be a non-empty mapping such as {{'V': 1, 'd': '3/4'}}, got {ray!r}")
    out = {}
    for name, alpha in ray.items():
        symbol(name)  # validates the name
        out[name] = to_fraction(alpha, f"ray exponent of {name}")
    if not any(out.values()):
        raise ValueError(f"ray {ray!r} holds every variable fixed; give some variable a non-zero exponent")
    return out


class Regime:
    """A representative ray plus description and constraints (see module docstring)."""

    __slots__ = ("_ray", "description", "constraints", "_parsed")

    def __init__(self, ray: Mapping[str, Any], description: str = "", constraints: tuple[str, ...] = ()) -> None:
        if isinstance(constraints, str):
            constraints = (constraints,)
        object.__setattr__(self, "_ray", MappingProxyType(dict(sorted(as_ray(ray).items()))))
        object.__setattr__(self, "description", str(description))
        object.__setattr__(self, "constraints", tuple(constraints))
        object.__setattr__(self, "_parsed", tuple(_parse_constraint(c) for c in self.constraints))
        known = [c for c, (lhs, _, rhs) in zip(self.constraints, self._parsed)
                 if all(s.name in self._ray or is_constant_name(s.name) for s in (lhs - rhs).free_symbols)]
        failed = self.violated(self._ray, only=known)
        if failed:
            raise ValueError(f"regime ray {dict(self._ray)} violates its own constraint(s) {failed}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Regime is immutable")

    def __reduce__(self):
        return (Regime, ({k: str(v) for k, v in self._ray.items()}, self.description, self.constraints))

    @property
    def ray(self) -> Mapping[str, Fraction]:
        return self._ray

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Regime) and (self.key(), self.description, self.constraints) == (
            other.key(), other.description, other.constraints)

    def __hash__(self) -> int:
        return hash((self.key(), self.description, self.constraints))

    def __repr__(self) -> str:
        ray = ", ".join(f"{k}: {v}" for k, v in self._ray.items())
        return f"Regime({{{ray}}}, {self.description!r}, {self.constraints!r})"

    def key(self) -> tuple[tuple[str, Fraction], ...]:
        return tuple(self._ray.items())

    def points(self, t: Any) -> dict[str, np.ndarray]:
        """Values ``x = t**alpha`` on the ray for ``t`` (scalar or array, > 1)."""
        t = np.asarray(t, dtype=np.float64)
        if np.any(~(t > 0)):
            raise ValueError("t must be positive")
        return {name: t ** float(alpha) for name, alpha in self._ray.items()}

    def cone(self, eps: Any = Fraction(1, 16)) -> list[dict[str, Fraction]]:
        """The ray and its neighbours: each non-zero exponent moved by ``+eps`` and ``-eps``."""
        eps = to_fraction(eps, "eps")
        if not 0 < eps < 1:
            raise ValueError(f"eps must be in (0, 1), got {eps}")
        rays = [dict(self._ray)]
        for name, alpha in self._ray.items():
            if alpha == 0:
                continue
            for step in (eps, -eps):
                moved = dict(self._ray)
                moved[name] = alpha + step
                if any(moved.values()):
                    rays.append(moved)
        return rays

    def violated(self, ray: Mapping[str, Fraction], law: Law | None = None,
                 only: list[str] | None = None) -> list[str]:
        """The constraints that fail on ``ray`` (the law's resource read at its threshold)."""
        failed = []
        for text, (lhs, op, rhs) in zip(self.constraints, self._parsed):
            if only is not None and text not in only:
                continue
            grow_l, grow_r = _growth(lhs, ray, law, text), _growth(rhs, ray, law, text)
            ok = {"<<": grow_l < grow_r, ">>": grow_l > grow_r, "<=": grow_l <= grow_r,
                  ">=": grow_l >= grow_r, "~": grow_l == grow_r}[op]
            if not ok:
                failed.append(text)
        return failed

    def check(self, law: Law) -> None:
        """Raise ValueError if the ray misses a variable of ``law`` or breaks a constraint."""
        missing = [v for v in law.variables if v not in self._ray]
        if missing:
            raise ValueError(
                f"regime ray {dict(self._ray)} gives no exponent for {missing} of law {law.text!r}; "
                f"add e.g. {{{missing[0]!r}: 0}} to hold it fixed"
            )
        failed = self.violated(self._ray, law)
        if failed:
            raise ValueError(f"law {law.text!r} breaks the regime constraint(s) {failed} on ray {dict(self._ray)}")

    def to_dict(self) -> dict:
        return {
            "ray": {k: str(v) for k, v in self._ray.items()},
            "description": self.description,
            "constraints": list(self.constraints),
        }


def split_constraint(text: str, ops: tuple[str, ...] = CONSTRAINT_OPS) -> tuple[sp.Expr, str, sp.Expr]:
    """``"A op B"`` -> ``(A, op, B)`` as SymPy expressions, ``op`` one of ``ops`` (ValueError
    otherwise): the one parser of regime constraints."""
    if not isinstance(text, str):
        raise ValueError(f"a regime constraint must be a string such as 'V >> d', got {text!r}")
    parts = _SPLIT.split(text)
    if len(parts) != 3 or parts[1] not in ops or not parts[0].strip() or not parts[2].strip():
        raise ValueError(f"regime constraint {text!r} must be 'A op B' with exactly one of "
                         f"{', '.join(ops)} between two expressions, e.g. 'V >> d'")
    return parse_expression_text(parts[0]), parts[1], parse_expression_text(parts[2])


def _parse_constraint(text: str) -> tuple[sp.Expr, str, sp.Expr]:
    return split_constraint(text, _OPS)


def _growth(expr: sp.Expr, ray: Mapping[str, Fraction], law: Law | None, text: str):
    constants = set(law.constants) if law is not None else set()
    if law is not None:
        expr = expr.xreplace({symbol(law.resource): law.threshold})
    names = sorted(s.name for s in expr.free_symbols
                   if s.name not in constants and not (law is None and is_constant_name(s.name)))
    missing = [n for n in names if n not in ray]
    if missing:
        raise ValueError(f"regime constraint {text!r} uses {missing}, which the ray {dict(ray)} does not give")
    return leading_term(expr, ray, names).growth(ray)
