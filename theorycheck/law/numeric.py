"""Numbers from law expressions: float64, plain and in log space.

Two evaluators of a threshold ``f(x_1, ..., x_k)`` (docs/methods.md §1.3, §2):

* **plain float64** -- ``lambdify`` of ``f`` after rewriting ``log(1 + x)`` as
  ``log1p(x)`` and ``exp(x) - 1`` as ``expm1(x)`` (no cancellation for small ``x``);
  where an intermediate step overflows, :class:`~theorycheck.law.Law` takes the value
  from the log-space form, and raises :class:`OverflowError` only if the value itself
  does not fit in float64;
* **log space** -- ``lambdify`` of an expression for ``log f`` in the variables
  ``u_i = log x_i``, built recursively so that nothing overflows: ``log(x y) = u_x + u_y``,
  ``log(a + b) = logaddexp(log a, log b)``, ``log(x**p) = p u_x``,
  ``log(log a) = log(log a)`` with ``log a`` itself in log form, ``log W(z) = log z - W(z)``
  with ``W(e^s)`` computed from ``s`` (Lambert W);
  the local elasticity ``∂ log f / ∂ log x_i`` is the derivative of that form in ``u_i``;
* high precision (certified) lives in :mod:`theorycheck.law.precise`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp
from sympy.codegen.cfunctions import expm1, log1p
from sympy.codegen.numpy_nodes import logaddexp

__all__ = [
    "as_positive_arrays",
    "numeric_form",
    "log_form",
    "fold_logs",
    "float_function",
    "log_symbol",
]


class wexp(sp.Function):  # noqa: N801 - SymPy function names are lower case
    """``wexp(s) = W(exp(s))``, the principal Lambert W of ``e^s``, for real ``s``."""

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        w = wexp(self.args[0])
        return w / (1 + w)


def _wexp_numpy(s: Any) -> np.ndarray:
    from scipy.special import lambertw  # scipy on first evaluation, not on import (CLI start)

    s = np.asarray(s, dtype=np.float64)
    out = np.empty_like(s)
    small = s < 500.0
    out[small] = lambertw(np.exp(s[small])).real
    big = ~small
    if np.any(big):
        sb = s[big]
        w = sb - np.log(sb)  # W(e^s) = s - log s + o(1); Newton on w + log w = s
        for _ in range(8):
            w = w - (w + np.log(w) - sb) / (1.0 + 1.0 / w)
        out[big] = w
    return out


def _lambertw_numpy(z: Any) -> np.ndarray:
    from scipy.special import lambertw

    return lambertw(np.asarray(z, dtype=np.float64)).real


_MODULES = [{"LambertW": _lambertw_numpy, "wexp": _wexp_numpy}, "numpy"]


def log_symbol(sym: sp.Symbol) -> sp.Symbol:
    """The real symbol ``log_<name>`` standing for ``log(sym)`` in log forms."""
    return sp.Symbol(f"log_{sym.name}", real=True)


def as_positive_arrays(values: Mapping[str, Any], names: Sequence[str], what: str) -> list[np.ndarray]:
    """Validate ``values`` for exactly ``names``; return float64 arrays broadcast together.

    Raises ValueError naming the missing, unexpected or non-positive entry.
    """
    if not isinstance(values, Mapping):
        raise ValueError(f"{what} must be a mapping from name to value, got {type(values).__name__}")
    extra = sorted(set(values) - set(names))
    if extra:
        raise ValueError(
            f"{what} has {', '.join(map(repr, extra))}, which the law does not have; "
            f"expected exactly {list(names)}"
        )
    missing = [n for n in names if n not in values]
    if missing:
        raise ValueError(f"{what} lacks {', '.join(map(repr, missing))}; expected exactly {list(names)}")
    arrays = []
    for name in names:
        try:
            arr = np.asarray(values[name], dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a positive number or array, got {values[name]!r}") from None
        bad = ~(np.isfinite(arr) & (arr > 0))
        if np.any(bad):
            first = float(arr[bad].flat[0]) if arr.ndim else float(arr)
            where = f" (at index {tuple(int(i) for i in np.argwhere(bad)[0])})" if arr.ndim else ""
            raise ValueError(f"{name} must be positive and finite, got {first!r}{where}")
        arrays.append(arr)
    try:
        return list(np.broadcast_arrays(*arrays)) if arrays else []
    except ValueError:
        shapes = {n: np.shape(a) for n, a in zip(names, arrays)}
        raise ValueError(f"{what} have shapes {shapes} that do not broadcast together") from None


def numeric_form(expr: sp.Expr) -> sp.Expr:
    """Rewrite ``expr`` for accurate float evaluation (same value, better conditioning).

    Powers with non-constant exponents become ``exp(e*log b)``; ``log(1 + x)`` becomes
    ``log1p(x)``; ``c*exp(x) - c`` becomes ``c*expm1(x)``.
    """

    def pow_to_exp(e: sp.Expr) -> sp.Expr:
        if e.is_Pow and not e.exp.is_number:
            return sp.exp(e.exp * sp.log(e.base))
        return e

    expr = expr.replace(lambda e: e.is_Pow and not e.exp.is_number, pow_to_exp)

    def fix(e: sp.Expr) -> sp.Expr:
        if isinstance(e, sp.log) and e.args[0].is_Add:
            arg = e.args[0]
            const, rest = arg.as_independent(*arg.free_symbols, as_Add=True)
            if const == 1 and rest != 0:
                return log1p(rest)
        if e.is_Add:
            const, rest = e.as_independent(*e.free_symbols, as_Add=True)
            for term in sp.Add.make_args(rest):
                coeff, factor = term.as_coeff_Mul()
                if isinstance(factor, sp.exp) and const != 0 and coeff == -const:
                    # const + coeff*exp(x) = coeff*(exp(x) - 1)
                    return e - term - const + coeff * expm1(factor.args[0])
        return e

    return expr.replace(lambda e: isinstance(e, sp.log) or e.is_Add, fix)


def log_form(expr: sp.Expr, variables: Sequence[sp.Symbol]) -> sp.Expr:
    """An expression for ``log(expr)`` in the symbols ``log_symbol(x)`` (``x`` in ``variables``).

    Built so that float64 evaluation does not overflow where ``log(expr)`` is finite.
    Parts it cannot treat this way fall back to ``log(expr)`` with ``x = exp(u_x)``.
    """
    u = {x: log_symbol(x) for x in variables}
    return _log_of(fold_logs(expr), u)


def fold_logs(expr: sp.Expr) -> sp.Expr:
    """Every sum's logs that share a cofactor, folded: ``c log a + c log b - c log e = c log(a b / e)``.

    The same value for positive ``a, b, e`` (all of a law's names are positive). The log-space form
    takes each term of a sum as positive (``logaddexp`` of their logs), so ``log A + log V``, which is
    ``log V`` at ``A = 1`` where a fit starts, had no finite form there; ``log(A V)`` has
    (docs/methods.md §1.4, pitfall 10).
    """

    def fold(e: sp.Expr) -> sp.Expr:
        groups: dict[sp.Expr, list[tuple[sp.Expr, sp.Expr]]] = {}  # cofactor: (log's argument, term)
        rest = []
        for term in e.args:
            factors = sp.Mul.make_args(term)
            logs = [f for f in factors if isinstance(f, sp.log)]
            if len(logs) != 1:
                rest.append(term)
                continue
            cofactor = sp.Mul(*[f for f in factors if f is not logs[0]])
            arg = logs[0].args[0]
            if cofactor.could_extract_minus_sign():
                cofactor, arg = -cofactor, 1 / arg
            groups.setdefault(cofactor, []).append((arg, term))
        if all(len(group) < 2 for group in groups.values()):
            return e
        folded = [c * sp.log(sp.Mul(*[a for a, _ in group])) if len(group) > 1 else group[0][1]
                  for c, group in groups.items()]
        return sp.Add(*rest, *folded)

    return expr.replace(lambda e: e.is_Add, fold)


def _plain_of(expr: sp.Expr, u: Mapping[sp.Symbol, sp.Symbol]) -> sp.Expr:
    expr = expr.replace(lambda e: isinstance(e, sp.LambertW) and len(e.args) == 1,
                        lambda e: wexp(_log_of(e.args[0], u)))
    return expr.xreplace({x: sp.exp(ux) for x, ux in u.items()})


def _log_of(e: sp.Expr, u: Mapping[sp.Symbol, sp.Symbol]) -> sp.Expr:
    if e in u:
        return u[e]
    if e.is_number:
        return sp.log(e) if e.is_positive else sp.log(_plain_of(e, u))
    if e.is_Mul:
        return sp.Add(*[_log_of(a, u) for a in e.args])
    if e.is_Pow:
        return _plain_of(e.exp, u) * _log_of(e.base, u)
    if e.is_Add and all(a.as_coeff_Mul()[0].is_positive for a in e.args):
        logs = [_log_of(a, u) for a in e.args]
        acc = logs[0]
        for other in logs[1:]:
            acc = logaddexp(acc, other)
        return acc
    if isinstance(e, sp.log) and len(e.args) == 1:
        return sp.log(_log_of(e.args[0], u))
    if isinstance(e, sp.exp):
        return _plain_of(e.args[0], u)
    if isinstance(e, (sp.Max, sp.Min)):
        return type(e)(*[_log_of(a, u) for a in e.args])
    if isinstance(e, sp.LambertW) and len(e.args) == 1:
        inner = _log_of(e.args[0], u)
        return inner - wexp(inner)  # W e^W = z  =>  log W = log z - W
    if isinstance(e, log1p):
        return sp.log(logaddexp(sp.Integer(0), _log_of(e.args[0], u)))
    if isinstance(e, expm1):
        y = _plain_of(e.args[0], u)
        return y + sp.log(-expm1(-y))  # log(e^y - 1) for y > 0, no overflow, no cancellation
    return sp.log(_plain_of(e, u))


def float_function(args: Sequence[sp.Symbol], expr: sp.Expr):
    """``lambdify(args, expr)`` with numpy plus Lambert W support, float64 throughout."""
    return sp.lambdify(list(args), expr, modules=_MODULES)
