"""Asymptotic relations between two laws' thresholds on a regime: Θ, Θ̃, O, Ω.

For thresholds ``f`` and ``g`` of the same resource and every ray of the regime's cone
(:meth:`Regime.cone`, rays that break a constraint are dropped), write
``f = t**rho_f (log t)**kappa_f`` along the ray (:mod:`theorycheck.law.exponents`):

* ``"Theta"``      -- ``(rho, kappa)`` equal on every ray: ``f = Θ(g)``;
* ``"SoftTheta"``  -- ``rho`` equal on every ray, ``kappa`` not: ``f = Θ̃(g)`` (equal up to polylog);
* ``"O"``          -- ``(rho_f, kappa_f) <= (rho_g, kappa_g)`` lexicographically on every ray,
  strictly on some, with some ``rho`` different: ``f = O(g)`` and not Θ̃;
* ``"Omega"``      -- the reverse;
* ``"incomparable"`` -- the order changes between rays of the cone.

This is the ray-based notion of docs/methods.md §1.2 (multivariate ``Order`` is
not used). The relation also reports the per-variable exponents and log powers of both
laws on the representative ray and names the variables where they differ.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from theorycheck.law.core import Law
from theorycheck.law.exponents import to_fraction
from theorycheck.law.regime import Regime

__all__ = ["Relation", "relation", "KINDS"]

KINDS = ("Theta", "SoftTheta", "O", "Omega", "incomparable")


def _frac_dict(d: dict[str, Fraction] | None) -> dict[str, str] | None:
    return None if d is None else {k: str(v) for k, v in d.items()}


@dataclass(frozen=True)
class Relation:
    """Outcome of :func:`relation` (see the module docstring for ``kind``)."""

    kind: str
    f: str
    g: str
    regime: str
    rays: tuple[dict[str, Fraction], ...]
    growth_f: tuple[tuple[Fraction, Fraction], ...]
    growth_g: tuple[tuple[Fraction, Fraction], ...]
    exponents_f: dict[str, Fraction] | None
    exponents_g: dict[str, Fraction] | None
    log_powers_f: dict[str, Fraction] | None
    log_powers_g: dict[str, Fraction] | None
    differences: tuple[str, ...]

    @property
    def soft_theta(self) -> bool:
        """``f = Θ̃(g)`` (Θ included)."""
        return self.kind in ("Theta", "SoftTheta")

    @property
    def f_is_O_of_g(self) -> bool:  # noqa: N802 - O is the notation
        """``f = O(g)`` on every ray of the cone (polylog factors counted)."""
        return all(a <= b for a, b in zip(self.growth_f, self.growth_g))

    @property
    def g_is_O_of_f(self) -> bool:  # noqa: N802
        return all(b <= a for a, b in zip(self.growth_f, self.growth_g))

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind, "f": self.f, "g": self.g, "regime": self.regime,
            "rays": [_frac_dict(r) for r in self.rays],
            "growth_f": [[str(a), str(b)] for a, b in self.growth_f],
            "growth_g": [[str(a), str(b)] for a, b in self.growth_g],
            "exponents_f": _frac_dict(self.exponents_f), "exponents_g": _frac_dict(self.exponents_g),
            "log_powers_f": _frac_dict(self.log_powers_f), "log_powers_g": _frac_dict(self.log_powers_g),
            "differences": list(self.differences), "f_is_O_of_g": self.f_is_O_of_g,
            "g_is_O_of_f": self.g_is_O_of_f,
        }


def _per_variable(law: Law, regime: Regime) -> tuple[dict | None, dict | None]:
    try:
        return law.exponents(regime), law.log_powers(regime)
    except ValueError:  # terms tie on the ray: per-variable exponents undefined there
        return None, None


def _classify(growth_f: list, growth_g: list) -> str:
    if growth_f == growth_g:
        return "Theta"
    if all(a[0] == b[0] for a, b in zip(growth_f, growth_g)):
        return "SoftTheta"
    if all(a <= b for a, b in zip(growth_f, growth_g)):
        return "O"
    if all(a >= b for a, b in zip(growth_f, growth_g)):
        return "Omega"
    return "incomparable"


def relation(f: Law, g: Law, regime: Regime, eps: Any = Fraction(1, 16)) -> Relation:
    """How ``f``'s threshold compares with ``g``'s on ``regime`` (ray plus a cone of width ``eps``)."""
    if not isinstance(f, Law) or not isinstance(g, Law):
        raise ValueError(f"relation() compares two Law objects, got {type(f).__name__} and {type(g).__name__}")
    if not isinstance(regime, Regime):
        regime = Regime(regime)
    if f.resource != g.resource:
        raise ValueError(
            f"cannot compare thresholds of different resources ({f.resource!r} in {f.text!r}, "
            f"{g.resource!r} in {g.text!r}); use solve_for() to put both in the same resource"
        )
    regime.check(f)
    regime.check(g)
    eps = to_fraction(eps, "eps")
    rays = [r for r in regime.cone(eps) if not regime.violated(r, f) and not regime.violated(r, g)]
    growth_f = [f.ray_growth(r) for r in rays]
    growth_g = [g.ray_growth(r) for r in rays]
    kind = _classify(growth_f, growth_g)
    exp_f, logs_f = _per_variable(f, regime)
    exp_g, logs_g = _per_variable(g, regime)
    differences = []
    if exp_f is not None and exp_g is not None:
        for var in sorted(set(exp_f) | set(exp_g)):
            a, b = exp_f.get(var, Fraction(0)), exp_g.get(var, Fraction(0))
            if a != b:
                differences.append(f"exponent of {var}: {a} vs {b}")
        for var in sorted(set(logs_f) | set(logs_g)):
            a, b = logs_f.get(var, Fraction(0)), logs_g.get(var, Fraction(0))
            if a != b:
                differences.append(f"log power of {var}: {a} vs {b}")
    else:
        differences.append("per-variable exponents undefined on the representative ray (terms tie)")
    for ray, gf, gg in zip(rays, growth_f, growth_g):
        if gf != gg:
            where = ", ".join(f"{k}={v}" for k, v in ray.items())
            differences.append(f"on ray ({where}): t^{gf[0]} log^{gf[1]} vs t^{gg[0]} log^{gg[1]}")
    return Relation(
        kind=kind, f=f.text, g=g.text, regime=regime.description or repr(regime), rays=tuple(rays),
        growth_f=tuple(growth_f), growth_g=tuple(growth_g), exponents_f=exp_f, exponents_g=exp_g,
        log_powers_f=logs_f, log_powers_g=logs_g, differences=tuple(differences),
    )
