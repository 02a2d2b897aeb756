"""Hypothesis strategies for property tests of laws (see :mod:`theorycheck.testing`).

* :func:`regime_points` -- points ``x = t**alpha`` inside a law's regime: ``t`` log-uniform
  in ``t_range``, ``alpha`` the regime's ray with each growing exponent moved by up to
  ``eps`` (the cone of :meth:`theorycheck.law.Regime.cone`), rays that break a
  constraint of the regime rejected (docs/theory.md §6: local exponents of multi-term laws
  change across a sweep, so a property should hold on a cone, not one ray);
* :func:`monomial_laws` -- laws ``resource >= C * prod x**a_x * log(V)**k`` with random
  rational exponents: their exponents are known exactly (``law.exponents()``), the
  oracle for the comparator;
* :func:`planted_datasets` -- binomial success/failure data from a planted threshold law
  (:func:`theorycheck.planted.planted_dataset`), one dataset per drawn seed.

Every strategy checks its arguments when it is built (ValueError), not when drawn.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import sympy as sp
from hypothesis import strategies as st

from theorycheck.law import Law, Regime
from theorycheck.law.assumptions import violations
from theorycheck.law.exponents import to_fraction
from theorycheck.symbols import symbol
from theorycheck.testing.assertions import as_law

__all__ = ["regime_points", "monomial_laws", "planted_datasets"]

_STEPS = 8  # cone perturbations are multiples of eps/_STEPS (exact fractions)


def regime_points(law: Any, regime: Regime | Mapping[str, Any] | None = None, *,
                  t_range: tuple[float, float] = (10.0, 1e4), eps: Any = Fraction(1, 16),
                  fixed: Mapping[str, float] | None = None) -> st.SearchStrategy[dict[str, float]]:
    """Points ``{variable: value}`` inside the regime of ``law`` (see module docstring).

    ``law``: a Law, a Bound (its regime is the default) or a law string. Variables held
    fixed by the ray (exponent 0) take their value from ``fixed`` (default 1). The points
    give every variable of the ray; :func:`~theorycheck.testing.assert_monotone` and
    friends pick the law's own.

    >>> from hypothesis import given
    >>> from theorycheck import catalogue
    >>> bound = catalogue.get("vural2026.gradient_noise")
    >>> @given(regime_points(bound))
    ... def test(point):
    ...     assert point["V"] > point["d"] > 1      # V = t, d = t^(3/4 +- 1/16)
    >>> test()
    """
    law, bound = as_law(law)
    if regime is None:
        if bound is None:
            raise ValueError("give a regime (a Regime or a ray such as {'V': 1, 'd': '3/4'}); "
                             "only catalogue Bounds carry one")
        regime = bound.regime
    elif not isinstance(regime, Regime):  # the user's own ray: a name the law lacks is a typo
        extra = sorted(k for k in regime if k not in law.variables)
        if extra:
            raise ValueError(f"the regime's ray names {extra}, not a variable of {law.text!r} "
                             f"(its variables: {', '.join(law.variables)}); check the spelling or drop them")
    if not isinstance(regime, Regime):
        regime = Regime(regime)
    regime.check(law)
    eps = to_fraction(eps, "eps")
    if not 0 <= eps < 1:
        raise ValueError(f"eps must be in [0, 1), got {eps}")
    lo, hi = (float(x) for x in t_range)
    if not (1.0 < lo <= hi and math.isfinite(hi)):
        raise ValueError(f"t_range must be (lo, hi) with 1 < lo <= hi < inf, got {t_range!r}")
    fixed = dict(fixed or {})
    bad = {k: v for k, v in fixed.items() if not (isinstance(v, (int, float)) and v > 0)}
    if bad:
        raise ValueError(f"fixed values must be positive numbers, got {bad}")
    growing = [name for name, alpha in regime.ray.items() if alpha != 0]
    unknown = sorted(k for k in fixed if k not in regime.ray)  # the ray holds every law variable (check)
    if unknown:
        raise ValueError(f"fixed names {unknown}, not a variable of {law.text!r} or of the regime's ray "
                         f"({', '.join(regime.ray)}); check the spelling")
    moving = sorted(k for k in fixed if k in growing)
    if moving:
        raise ValueError(f"fixed holds {moving}, which the regime's ray grows ({', '.join(f'{k}: {regime.ray[k]}' for k in moving)}); "
                         "give the ray exponent 0 to hold a variable fixed, or drop it from fixed")
    allowed: dict[tuple, bool] = {}

    def inside(ray: dict[str, Fraction]) -> bool:
        key = tuple(sorted(ray.items()))
        if key not in allowed:
            allowed[key] = any(ray.values()) and not regime.violated(ray, law)
        return allowed[key]

    steps = st.integers(-_STEPS, _STEPS) if eps > 0 else st.just(0)
    rays = st.fixed_dictionaries({n: steps for n in growing}).map(
        lambda j: {n: a + (eps * Fraction(j[n], _STEPS) if n in j else 0) for n, a in regime.ray.items()}
    ).filter(inside)
    log_t = st.floats(math.log(lo), math.log(hi), allow_nan=False, allow_infinity=False)

    def point(ray: dict[str, Fraction], u: float) -> dict[str, float]:
        out = {n: math.exp(u * float(a)) if a != 0 else float(fixed.get(n, 1.0)) for n, a in ray.items()}
        out.update({k: float(v) for k, v in fixed.items() if k not in out})
        return out

    assumed = [a for a in law.assumptions if {x.name for x in a.free_symbols} <= set(regime.ray)]
    if assumed:  # the law's own assumptions (e.g. k < n): the ray must meet them somewhere
        ends = [point(dict(regime.ray), math.log(t)) for t in (lo, hi)]
        broken = [violations(assumed, e) for e in ends]
        if broken[0] and broken[1]:
            ray = "{" + ", ".join(f"{k}: {a}" for k, a in regime.ray.items()) + "}"
            raise ValueError(f"the regime's ray {ray} breaks the law's assumption "
                             f"{broken[0][0]!r} at both ends of t_range {t_range!r}; change the ray or t_range")
        return st.builds(point, rays, log_t).filter(lambda p: not violations(assumed, p))
    return st.builds(point, rays, log_t)


def monomial_laws(resource: str = "N", variables: Sequence[str] = ("d", "L", "V"), *,
                  max_abs_exponent: Any = 2, denominators: Sequence[int] = (1, 2),
                  log_variable: str | None = "V", max_log_power: int = 1, constant: str = "C",
                  min_nonzero: int = 1) -> st.SearchStrategy[Law]:
    """Laws ``resource >= constant * prod x**a_x * log(log_variable)**k`` with random exponents.

    Each ``a_x`` is a fraction ``j/q`` with ``q`` in ``denominators`` and
    ``|a_x| <= max_abs_exponent``; at least ``min_nonzero`` of them are non-zero;
    ``k`` in ``0..max_log_power`` (``log_variable=None``: no log factor). The drawn law's
    ``exponents()`` and ``log_powers()`` are exactly the drawn values.

    >>> from hypothesis import given
    >>> @given(monomial_laws(variables=("d", "V")))
    ... def test(law):
    ...     assert law.is_monomial and set(law.exponents()) <= {"d", "V"}
    >>> test()
    """
    names = [symbol(v).name for v in variables]
    if len(set(names)) != len(names) or not names:
        raise ValueError(f"variables must be distinct names, got {variables!r}")
    symbol(resource)
    if resource in names:
        raise ValueError(f"the resource {resource!r} cannot also be a variable of the threshold")
    symbol(constant)
    top = to_fraction(max_abs_exponent, "max_abs_exponent")
    if top <= 0:
        raise ValueError(f"max_abs_exponent must be positive, got {max_abs_exponent!r}")
    dens = sorted({int(q) for q in denominators})
    if not dens or dens[0] < 1:
        raise ValueError(f"denominators must be positive integers, got {denominators!r}")
    if log_variable is not None and log_variable not in names:
        raise ValueError(f"log_variable {log_variable!r} must be one of the variables {names} (or None)")
    if isinstance(max_log_power, bool) or not isinstance(max_log_power, int) or max_log_power < 0:
        raise ValueError(f"max_log_power must be an integer >= 0, got {max_log_power!r}")
    if not 0 <= min_nonzero <= len(names):
        raise ValueError(f"min_nonzero must be in 0..{len(names)}, got {min_nonzero!r}")
    choices = sorted({Fraction(j, q) for q in dens for j in range(-int(top * q), int(top * q) + 1)
                      if abs(Fraction(j, q)) <= top})
    exps = st.fixed_dictionaries({n: st.sampled_from(choices) for n in names}).filter(
        lambda e: sum(1 for a in e.values() if a != 0) >= min_nonzero)
    logs = st.integers(0, max_log_power) if log_variable is not None else st.just(0)

    def build(e: dict[str, Fraction], k: int) -> Law:
        expr = symbol(constant)
        for n, a in e.items():
            expr = expr * symbol(n) ** sp.Rational(a.numerator, a.denominator)
        if k:
            expr = expr * sp.log(symbol(log_variable)) ** k
        return Law.from_threshold(resource, expr, constants=[constant])

    return st.builds(build, exps, logs)


def planted_datasets(law: Any, grid: Mapping[str, Sequence[float]] | None = None, *,
                     constants: Mapping[str, float] | None = None, width: float = 0.1, trials: int = 16,
                     seeds: st.SearchStrategy[int] | None = None, **planted_kwargs: Any):
    """Datasets planted from ``law`` (:func:`theorycheck.planted.planted_dataset`), one per seed.

    ``grid`` defaults to ``(10, 100, 1000)`` for every variable of the law (27 cells for
    three variables); ``constants`` to the Bound's reference constants (else 1);
    ``width`` is the probit transition width in log resource, ``trials`` per point;
    ``seeds`` draws the planting seed (default ``integers(0, 2**32 - 1)``). Other
    keywords go to ``planted_dataset`` (``q``, ``multipliers``, ``integer``...).
    To plant from random laws, compose with :func:`monomial_laws`::

        cases = monomial_laws(variables=("d", "V")).flatmap(
            lambda law: planted_datasets(law).map(lambda data: (law, data)))
    """
    from theorycheck.planted import planted_dataset

    law, bound = as_law(law)
    if grid is None:
        grid = {v: (10.0, 100.0, 1000.0) for v in law.variables}
    if constants is None and bound is not None:
        constants = dict(bound.constants)
    planted_dataset(law, grid=grid, constants=constants, width=width, trials=trials, seed=0,
                    **planted_kwargs)  # validates every argument now
    seeds = st.integers(0, 2**32 - 1) if seeds is None else seeds
    return seeds.map(lambda s: planted_dataset(law, grid=grid, constants=constants, width=width, trials=trials,
                                               seed=s, **planted_kwargs))
