"""Assertions about laws for users' test suites (see :mod:`theorycheck.testing`).

Every assertion raises ``AssertionError`` with a message that says what failed, where,
and by how much; bad arguments (a law without the named variable, a regime that misses
a variable...) raise ``ValueError`` before any work, as everywhere in theorycheck.
Laws may be given as :class:`~theorycheck.law.Law`, as catalogue
:class:`~theorycheck.catalogue.Bound` (then its directions, regime and reference
constants are the defaults) or as law strings (parsed with :meth:`Law.parse`).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np

from theorycheck.catalogue import as_law
from theorycheck.law import Law, Regime, relation
# re-exported: they lived here until 2026-11-27 (import path kept)
from theorycheck.testing.threshold_assertions import assert_threshold_consistent, assert_threshold_refuted

__all__ = [
    "assert_monotone",
    "assert_dominates",
    "assert_threshold_consistent",
    "assert_threshold_refuted",
    "as_law",
    "law_values",
]

_SHOWN = 5  # violations listed in a message


def _point_rows(points: Any) -> tuple[Mapping | None, list[Mapping] | None]:
    """``(mapping, None)`` for a mapping of scalars/arrays, ``(None, rows)`` for an iterable
    of mappings; anything else is a ValueError."""
    if isinstance(points, Mapping):
        return points, None
    rows = list(points) if isinstance(points, Iterable) and not isinstance(points, str) else None
    if not rows or not all(isinstance(r, Mapping) for r in rows):
        raise ValueError(
            "points must be a mapping {variable: value or array} or a non-empty list of such mappings, "
            f"got {points!r}"
        )
    return None, rows


def law_values(law: Law, points: Any) -> dict[str, np.ndarray]:
    """The law's variables from ``points`` (a mapping of scalars/arrays, or an iterable of
    such mappings), as float arrays; other keys are ignored, missing ones are a ValueError."""
    source, rows = _point_rows(points)
    out = {}
    for name in law.variables:
        if rows is None:
            if name not in source:
                raise ValueError(f"points lack {name!r}, a variable of {law.text!r}; they give {sorted(source)}")
            out[name] = np.asarray(source[name], dtype=np.float64)
        else:
            missing = [i for i, r in enumerate(rows) if name not in r]
            if missing:
                raise ValueError(f"point {missing[0]} lacks {name!r}, a variable of {law.text!r}")
            out[name] = np.asarray([float(r[name]) for r in rows], dtype=np.float64)
    if out:
        try:
            out = dict(zip(out, np.broadcast_arrays(*out.values())))
        except ValueError:
            shapes = {k: v.shape for k, v in out.items()}
            raise ValueError(f"point arrays do not broadcast together: {shapes}") from None
    return out


def _check_positive(law: Law, values: Mapping[str, np.ndarray], constants: Mapping[str, float] | None,
                    shape: tuple[int, ...]) -> None:
    """ValueError naming the first point where the threshold of ``law`` is not positive."""
    try:
        level = np.broadcast_to(np.asarray(law.evaluate(values, constants), dtype=float), shape)
    except OverflowError:  # above float64: positive
        return
    off = np.atleast_1d(~(level > 0))
    if off.any():
        idx = tuple(int(i) for i in next(zip(*np.nonzero(off)))) if level.ndim else ()
        raise ValueError(f"the threshold of {law.text!r} is {float(level[idx]):.4g} (not positive) at "
                         f"{_point_text(values, idx)}: test directions where the law is positive")


def _point_text(values: Mapping[str, np.ndarray], index: tuple[int, ...]) -> str:
    return "{" + ", ".join(f"{k}: {float(v[index]):.4g}" for k, v in values.items()) + "}"


def assert_monotone(law: Any, directions: Mapping[str, str] | None = None, points: Any = None, *,
                    constants: Mapping[str, float] | None = None, strict: bool = False) -> None:
    """Assert that ``law`` moves in the declared ``directions`` at every point.

    ``directions`` maps variables to ``"helps"`` (increasing it makes the condition easier
    to meet) or ``"hurts"``; default: the Bound's. For a law ``N >= f(d, L, V)`` (sense
    ``>=``), "d helps" means ``∂ log f / ∂ log d <= 0`` and "L hurts" means ``>= 0``; for a
    capacity law ``V <= g(N, d, L)`` (sense ``<=``) the signs flip. The resource itself
    must help for ``>=`` laws and hurt for ``<=`` laws. A declared variable the law does
    not contain has elasticity 0 (weakly monotone; fails with ``strict=True``); when the
    points do not name it either, a UserWarning says so (it may be a misspelling).
    Elasticities are SymPy derivatives of the log threshold (:meth:`Law.elasticities`),
    so the test is exact up to float rounding (slack ``1e-9``).

    A complete test::

        from hypothesis import given
        from theorycheck.law import Law, Regime
        from theorycheck.testing import assert_monotone, regime_points

        LAW = Law.parse("N >= C*L*V*(V + d)*log(V)/d**2")
        REGIME = Regime({"V": 1, "d": "3/4", "L": "1/4"}, "V >> d", ("V >> d",))

        @given(point=regime_points(LAW, REGIME))
        def test_law_directions(point):
            assert_monotone(LAW, {"N": "helps", "d": "helps", "L": "hurts", "V": "hurts"}, point)
    """
    law, bound = as_law(law)
    if directions is None:
        if bound is None:
            raise ValueError("give directions={variable: 'helps' | 'hurts'} (only a catalogue Bound has defaults)")
        directions = bound.directions
    if not isinstance(directions, Mapping) or not directions:
        raise ValueError(f"directions must be a non-empty mapping such as {{'d': 'helps'}}, got {directions!r}")
    bad = {k: v for k, v in directions.items() if v not in ("helps", "hurts")}
    if bad:
        raise ValueError(f"directions must be 'helps' or 'hurts', got {bad}")
    if points is None:
        raise ValueError("give the points to test, e.g. points={'d': [8, 64], 'L': [4, 4], 'V': [256, 256]}")
    source, rows = _point_rows(points)
    points = source if rows is None else rows  # an iterator of points is read once
    if bound is None or directions is not bound.directions:  # a name of the user's own: a typo?
        given = set(source) if rows is None else {k for r in rows for k in r}
        unknown = sorted(k for k in directions if k not in law.variables and k != law.resource and k not in given)
        if unknown:  # kept as weakly monotone (docstring), but never silently
            warnings.warn(f"directions name {unknown}, which is neither a variable of {law.text!r} "
                          f"({', '.join([law.resource, *law.variables])}) nor in the points: taken as flat "
                          "(elasticity 0); check the spelling", UserWarning, stacklevel=2)
    values = law_values(law, points)
    res_dir = directions.get(law.resource)
    if res_dir is not None:
        expected = "helps" if law.sense == ">=" else "hurts"
        if res_dir != expected:
            raise AssertionError(
                f"{law.text!r}: the resource {law.resource} is declared to {res_dir[:-1]}, but a "
                f"'{law.sense}' law says more {law.resource} {'meets' if expected == 'helps' else 'breaks'} "
                f"the condition (it {expected[:-1]}s)"
            )
    elasticities = law.elasticities(values, constants) if law.variables else {}
    shape = np.shape(next(iter(values.values()))) if values else ()
    if values:  # a log elasticity means nothing where the threshold is not positive
        _check_positive(law, values, constants, shape)
    failures = []
    for var, declared in directions.items():
        if var == law.resource:
            continue
        e = elasticities.get(var, np.zeros(shape))
        # sign of d log(threshold)/d log(var) that the declaration requires
        sign = -1.0 if (declared == "helps") == (law.sense == ">=") else 1.0
        wrong = (sign * e < 1e-12) if strict else (sign * e < -1e-9)
        wrong = wrong | ~np.isfinite(e)
        for index in zip(*np.nonzero(np.atleast_1d(wrong))):
            idx = index if e.ndim else ()
            failures.append(
                f"{var} declared to {declared[:-1]} but d log(threshold)/d log {var} = "
                f"{float(np.asarray(e)[idx]):+.4g} at {_point_text(values, idx) if values else '{}'}"
            )
    if failures:
        more = f" (and {len(failures) - _SHOWN} more)" if len(failures) > _SHOWN else ""
        raise AssertionError(
            f"{law.text!r} is not {'strictly ' if strict else ''}monotone in the declared directions: "
            + "; ".join(failures[:_SHOWN]) + more
        )


def _regime_points(regime: Regime, law: Law, t_values: Iterable[float]) -> dict[str, np.ndarray]:
    """``x = t**alpha`` for every ray of the regime's cone that keeps its constraints."""
    rays = [r for r in regime.cone() if not regime.violated(r, law)]
    t = np.asarray(list(t_values), dtype=np.float64)
    cols: dict[str, list[np.ndarray]] = {name: [] for name in regime.ray}
    for ray in rays:
        for name in cols:
            cols[name].append(t ** float(ray.get(name, Fraction(0))))
    return {name: np.concatenate(parts) for name, parts in cols.items()}


def assert_dominates(upper: Any, lower: Any, regime: Regime | Mapping[str, Any] | None = None,
                     constants: Mapping[str, float] | None = None, *, points: Any = None,
                     t_values: Iterable[float] = (1e2, 1e3, 1e4, 1e6)):
    """Assert that the sufficient condition ``upper`` dominates the necessary condition
    ``lower`` on ``regime``; return the :class:`~theorycheck.law.Relation`.

    Both laws are about the same resource. For ``>=`` laws (``N >= f``) the upper bound's
    required resource must be at least the lower bound's: asymptotically
    ``f_lower = O(f_upper)`` on every ray of the regime's cone
    (:func:`theorycheck.law.relation`, polylog factors counted), and, when
    ``constants`` is given (one mapping for the free constants of both laws; missing
    ones are 1), ``f_upper >= f_lower`` numerically at ``points`` (default:
    ``x = t**alpha`` for ``t`` in ``t_values`` on every ray of the cone). For ``<=`` laws
    (capacities) the inequalities flip. ``regime`` defaults to the lower (then upper)
    Bound's regime.

    A complete test::

        from theorycheck import catalogue
        from theorycheck.testing import assert_dominates

        def test_upper_bound_above_lower_bound():
            upper = catalogue.get("vural2026.gradient_noise")
            lower = catalogue.get("vural2026.lower")
            assert_dominates(upper, lower, lower.regime, constants={"C3": 34.0})
    """
    up, up_bound = as_law(upper)
    low, low_bound = as_law(lower)
    if regime is None:
        source = low_bound or up_bound
        if source is None:
            raise ValueError("give a regime (a Regime or a ray such as {'V': 1, 'd': '3/4'}); "
                             "only catalogue Bounds carry one")
        regime = source.regime
    if not isinstance(regime, Regime):
        regime = Regime(regime)
    if up.sense != low.sense:
        raise ValueError(f"the laws have different senses ({up.text!r}: {up.sense}, {low.text!r}: {low.sense}); "
                         "solve both for the same resource with Law.solve_for")
    rel = relation(up, low, regime)  # ValueError: different resources, or the regime misses a variable
    asymptotic_ok = rel.g_is_O_of_f if up.sense == ">=" else rel.f_is_O_of_g
    if not asymptotic_ok:
        raise AssertionError(
            f"{up.text!r} does not dominate {low.text!r} on {rel.regime}: relation {rel.kind} "
            f"(upper {'>=' if up.sense == '>=' else '<='} lower must hold asymptotically); "
            + "; ".join(rel.differences[:_SHOWN])
        )
    if constants is None:
        return rel
    if not isinstance(constants, Mapping):
        raise ValueError(f"constants must be a mapping such as {{'C3': 34.0}}, got {constants!r}")
    unknown = sorted(set(constants) - set(up.constants) - set(low.constants))
    if unknown:
        raise ValueError(f"constants {unknown} belong to neither {up.text!r} nor {low.text!r}")
    pts = _regime_points(regime, up, t_values) if points is None else points
    log_up = up.log_evaluate(law_values(up, pts), {c: constants[c] for c in up.constants if c in constants})
    log_low = low.log_evaluate(law_values(low, pts), {c: constants[c] for c in low.constants if c in constants})
    gap = (log_up - log_low) if up.sense == ">=" else (log_low - log_up)
    bad = np.nonzero(np.atleast_1d(gap < -1e-9))[0]
    if bad.size:
        vals = {k: np.atleast_1d(v) for k, v in law_values(up, pts).items()}
        i = int(bad[np.argmin(np.atleast_1d(gap)[bad])])
        raise AssertionError(
            f"{up.text!r} falls below {low.text!r} at {bad.size} of {np.size(gap)} points with constants "
            f"{dict(constants)}; worst at {_point_text(vals, (i,)) if vals else '{}'}: upper/lower = "
            f"{float(np.exp(np.atleast_1d(gap)[i])):.4g}"
            + ("" if up.sense == ">=" else " (capacity form: lower/upper)")
        )
    return rel
