"""Certified high-precision evaluation of a law's threshold (mpmath interval arithmetic).

The threshold is evaluated in ``mpmath.iv`` interval arithmetic, at doubling working
precision, until the enclosure's relative half-width is below ``10**-dps``; the midpoint
is then returned. If ``max_prec`` bits do not suffice (catastrophic cancellation, a value
of exactly 0, a value outside the domain) :class:`PrecisionLost` is raised instead of
returning digits that cannot be vouched for (docs/methods.md §2, §1.4 pitfall 8).

SymPy's ``evalf(strict=True)`` is not used: in SymPy 1.14 it returns ``-1.0`` "at full
precision" for ``V*log(1 + 1/V) - 1 + 1/(2*V)`` at ``V = 10**200`` (true value
``~ 3.3e-401``), because ``log`` of an argument within ``1e-200`` of 1 is not flagged.
Inputs are taken exactly: ints, floats (their binary value), decimal strings such as
``"1e400"`` (beyond float64), ``mpmath.mpf``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import mpmath
import numpy as np
import sympy as sp

__all__ = ["PrecisionLost", "evaluate_mp"]


class PrecisionLost(ArithmeticError):
    """High-precision evaluation could not certify the requested digits."""


def _exact(value: Any, name: str, dps: int) -> sp.Expr:
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    if isinstance(value, (int, np.integer)):
        number = sp.Integer(int(value))
    elif isinstance(value, (float, np.floating)):
        if not np.isfinite(value):
            raise ValueError(f"{name} must be positive and finite, got {value!r}")
        number = sp.Rational(float(value))  # the exact binary value of the double
    elif isinstance(value, str):
        try:
            number = sp.Rational(value.strip())
        except (TypeError, ValueError, SyntaxError):
            raise ValueError(f"{name} must be a decimal number string such as '1e400', got {value!r}") from None
    elif isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise ValueError(f"{name} must be positive and finite, got {value!r}")
        number = sp.Float(value, dps + 10)
    elif isinstance(value, sp.Expr) and value.is_number and value.is_real:
        number = value
    else:
        raise ValueError(
            f"{name} must be a scalar (int, float, decimal string, mpmath.mpf), got {type(value).__name__}"
        )
    if not number.is_positive:
        raise ValueError(f"{name} must be positive, got {value!r}")
    return number


def _interval(e: sp.Expr, env: Mapping[sp.Symbol, Any], prec: int):
    """Enclosure of ``e`` as an ``mpmath.iv`` interval (``iv.prec`` already set to ``prec``)."""
    iv = mpmath.iv
    if e.is_Symbol:
        return env[e]
    if e.is_Rational:
        return iv.mpf(int(e.p)) / int(e.q)
    if e.is_Float:
        r = sp.Rational(e)
        return iv.mpf(int(r.p)) / int(r.q)
    if e is sp.pi:
        return iv.pi
    if e is sp.E:
        return iv.e
    args = [_interval(a, env, prec) for a in e.args]
    if e.is_Add:
        total = args[0]
        for a in args[1:]:
            total = total + a
        return total
    if e.is_Mul:
        total = args[0]
        for a in args[1:]:
            total = total * a
        return total
    if e.is_Pow:
        if e.exp.is_Integer:
            return args[0] ** int(e.exp)
        return iv.exp(args[1] * iv.log(args[0]))
    if isinstance(e, sp.log) and len(args) == 1:
        return iv.log(args[0])
    if isinstance(e, sp.exp):
        return iv.exp(args[0])
    if isinstance(e, (sp.Max, sp.Min)):
        pick = max if isinstance(e, sp.Max) else min
        ends = [_ends(a) for a in args]
        return iv.mpf([pick(lo for lo, _ in ends), pick(hi for _, hi in ends)])
    if isinstance(e, sp.LambertW) and len(args) == 1:
        lo, hi = _ends(args[0])  # W is increasing on [-1/e, oo): evaluate the ends, widen outwards
        with mpmath.workprec(prec + 40):
            w_lo, w_hi = mpmath.lambertw(lo).real, mpmath.lambertw(hi).real
            slack = mpmath.mpf(2) ** (-prec)
            return iv.mpf([w_lo - abs(w_lo) * slack - slack * 1e-300, w_hi + abs(w_hi) * slack + slack * 1e-300])
    raise ValueError(f"cannot evaluate {type(e).__name__} ({e}) in high precision")


def _ends(x: Any) -> tuple[mpmath.mpf, mpmath.mpf]:
    lo, hi = x._mpi_
    return mpmath.mp.make_mpf(lo), mpmath.mp.make_mpf(hi)


def evaluate_mp(expr: sp.Expr, values: Mapping[sp.Symbol, Any], dps: int, max_prec: int = 8192) -> mpmath.mpf:
    """``expr`` at ``values`` to ``dps`` certified significant digits, as an ``mpmath.mpf``.

    Interval arithmetic (``mpmath.iv``) at doubling precision until the enclosure's
    relative half-width is below ``10**-dps``; :class:`PrecisionLost` if ``max_prec``
    bits do not suffice (or the enclosure keeps containing 0). ``evalf(strict=True)`` is
    not used: SymPy 1.14 returns ``-1.0`` "at full precision" for
    ``V*log(1 + 1/V) - 1 + 1/(2*V)`` at ``V = 10**200`` (true value ``~ 3.3e-401``).
    """
    if not isinstance(dps, int) or isinstance(dps, bool) or not 5 <= dps <= 10_000:
        raise ValueError(f"dps must be an integer in [5, 10000], got {dps!r}")
    exact = {sym: _exact(val, sym.name, dps) for sym, val in values.items()}
    iv = mpmath.iv
    saved = iv.prec
    prec = int(dps * 3.33) + 30
    try:
        while prec <= max(max_prec, int(dps * 3.33) + 30):
            iv.prec = prec
            env = {sym: _interval(val, {}, prec) for sym, val in exact.items()}
            try:
                lo, hi = _ends(_interval(expr, env, prec))
            except (ValueError, ZeroDivisionError, TypeError, mpmath.libmp.libhyper.NoConvergence):
                lo = hi = None
            if lo is not None and mpmath.isfinite(lo) and mpmath.isfinite(hi) and (lo > 0 or hi < 0):
                with mpmath.workprec(prec):
                    mid, half = (lo + hi) / 2, (hi - lo) / 2
                    if half <= abs(mid) * mpmath.mpf(10) ** (-dps):
                        with mpmath.workdps(dps):
                            return +mid
            prec *= 2
    finally:
        iv.prec = saved
    raise PrecisionLost(
        f"cannot certify {dps} digits of {expr} at {dict((k.name, v) for k, v in values.items())} "
        f"with {max_prec} bits (cancellation, a zero value, or a value outside the domain)"
    )
