"""Numbers from a :class:`~theorycheck.law.Law`: float64, log space, elasticities, mpmath.

Mixed into :class:`Law`; the formulas are in :mod:`theorycheck.law.numeric` (float64 and
log-space forms, docs/methods.md §1.3) and :mod:`theorycheck.law.precise`
(certified high precision). The lambdified functions are built once per law
(``cached_property``), since the comparator evaluates elasticities often.

Inputs: ``values`` maps exactly the law's variables to positive floats or arrays
(broadcast together); ``constants`` maps some of its free constants to positive values
(the others default to 1). Anything else is a ValueError naming the culprit, and so
are values outside the law's declared assumptions (``assume="k < n"``,
:mod:`theorycheck.law.assumptions`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from theorycheck.law import numeric, precise
from theorycheck.law.at_values import LawAtValues
from theorycheck.law.assumptions import violations
from theorycheck.symbols import symbol

__all__ = ["LawEvaluation"]


class LawEvaluation:
    """Evaluation methods of a law (needs ``variables``, ``constants``, ``threshold``, ``text``)."""

    variables: tuple[str, ...]
    constants: tuple[str, ...]
    threshold: sp.Expr
    text: str

    @cached_property
    def _args(self) -> tuple[sp.Symbol, ...]:
        return tuple(symbol(n) for n in self.variables + self.constants)

    @cached_property
    def _float_threshold(self):
        return numeric.float_function(self._args, numeric.numeric_form(self.threshold))

    @cached_property
    def _log_form(self) -> sp.Expr:
        return numeric.log_form(numeric.numeric_form(self.threshold), self._args)

    @cached_property
    def _log_threshold(self):
        return numeric.float_function([numeric.log_symbol(a) for a in self._args], self._log_form)

    @cached_property
    def _elasticity_functions(self) -> dict:
        """``name -> d log f / d log name`` as a float function of the log arguments, built on
        first use (the constants' only when a fit asks for its gradient)."""
        return {}

    def _elasticity_function(self, name: str):
        functions = self._elasticity_functions
        if name not in functions:
            u = [numeric.log_symbol(a) for a in self._args]
            functions[name] = numeric.float_function(u, sp.diff(self._log_form, numeric.log_symbol(symbol(name))))
        return functions[name]

    def _constant_arrays(self, constants: Mapping[str, Any] | None) -> list[np.ndarray]:
        if constants is None:
            constants = {}
        if not isinstance(constants, Mapping):
            raise ValueError(f"constants must be a mapping such as {{'C3': 34.0}}, got {constants!r}")
        unknown = sorted(set(constants) - set(self.constants))
        if unknown:
            raise ValueError(f"law {self.text!r} has no constant {unknown}; its constants are {list(self.constants)}")
        full = {c: constants.get(c, 1.0) for c in self.constants}
        return numeric.as_positive_arrays(full, self.constants, "constants")

    def _inputs(self, values: Mapping[str, Any], constants: Mapping[str, Any] | None) -> list[np.ndarray]:
        """Validated float64 arrays, variables then constants, broadcast to one shape."""
        const_arrays = self._constant_arrays(constants)
        var_arrays = numeric.as_positive_arrays(values, self.variables, "values")
        self._check_assumptions(dict(zip(self.variables + self.constants, [*var_arrays, *const_arrays])))
        return list(np.broadcast_arrays(*var_arrays, *const_arrays)) if var_arrays or const_arrays else []

    def _check_assumptions(self, named: Mapping[str, np.ndarray]) -> None:
        """ValueError if some point violates a declared assumption (those naming the
        resource, which is not an input here, are skipped)."""
        usable = [a for a in getattr(self, "assumptions", ()) if {s.name for s in a.free_symbols} <= set(named)]
        bad = violations(usable, named)
        if bad:
            raise ValueError(f"law {self.text!r} is evaluated where its assumption {bad[0]!r} fails; "
                             f"give values inside it (assumptions: {', '.join(self.assumption_texts)})")

    def evaluate(self, values: Mapping[str, Any], constants: Mapping[str, Any] | None = None) -> np.ndarray:
        """Threshold at ``values`` (float64, vectorised; constants default to 1).

        Where the direct formula overflows in an intermediate step, the value is taken
        from the log-space form; OverflowError if the threshold itself exceeds float64
        (use :meth:`log_evaluate` there).
        """
        args = self._inputs(values, constants)
        shape = np.shape(args[0]) if args else ()
        with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
            out = np.array(np.broadcast_to(np.asarray(self._float_threshold(*args), dtype=np.float64), shape))
            bad = ~np.isfinite(out)
            if np.any(bad):
                logs = np.broadcast_to(np.asarray(self._log_threshold(*[np.log(a) for a in args]),
                                                  dtype=np.float64), shape)
                out[bad] = np.exp(logs[bad])
        if np.any(np.isnan(out)):
            raise ValueError(
                f"threshold of {self.text!r} is undefined (NaN) at some of these values; "
                "they are outside the law's domain (e.g. log of a variable below 1 raised to a fractional power)"
            )
        if not np.all(np.isfinite(out)):
            raise OverflowError(
                f"threshold of {self.text!r} overflows float64 at some of these values; use log_evaluate"
            )
        return out

    def log_evaluate(self, values: Mapping[str, Any], constants: Mapping[str, Any] | None = None,
                     *, log_values: bool = False) -> np.ndarray:
        """Natural log of the threshold, computed without forming it (no float64 overflow).

        With ``log_values=True`` the ``values`` are the logs of the variables (so that
        variables beyond float64, e.g. ``log V = 1000``, can be given).
        """
        if log_values:
            if not isinstance(values, Mapping):
                raise ValueError(f"values must be a mapping from name to log value, got {type(values).__name__}")
            extra = sorted(set(values) - set(self.variables))
            missing = [n for n in self.variables if n not in values]
            if extra or missing:
                raise ValueError(f"log values must give exactly {list(self.variables)}; extra {extra}, missing {missing}")
            log_vars = []
            for name in self.variables:
                arr = np.asarray(values[name], dtype=np.float64)
                if not np.all(np.isfinite(arr)):
                    raise ValueError(f"log value of {name} must be finite, got {values[name]!r}")
                log_vars.append(arr)
            const_arrays = self._constant_arrays(constants)
            with np.errstate(over="ignore"):
                self._check_assumptions(dict(zip(self.variables + self.constants,
                                                 [*(np.exp(a) for a in log_vars), *const_arrays])))
            log_consts = [np.log(c) for c in const_arrays]
            args = list(np.broadcast_arrays(*log_vars, *log_consts)) if log_vars or log_consts else []
        else:
            args = [np.log(a) for a in self._inputs(values, constants)]
        return self._log_threshold_of(args)

    def _log_threshold_of(self, args: Sequence[np.ndarray]) -> np.ndarray:
        """``log f`` at the log inputs ``args`` (variables then constants, one shape), a fresh array."""
        with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
            out = np.asarray(self._log_threshold(*args), dtype=np.float64)
        return np.broadcast_to(out, np.shape(args[0]) if args else ()).copy()

    def evaluate_mp(self, values: Mapping[str, Any], constants: Mapping[str, Any] | None = None,
                    dps: int = 50) -> mpmath.mpf:
        """Threshold to ``dps`` certified digits (scalars: int, float, decimal string, mpf).

        Raises :class:`theorycheck.law.PrecisionLost` rather than return wrong digits.
        """
        constants = {} if constants is None else constants
        for what, given, names in (("values", values, self.variables), ("constants", constants, self.constants)):
            if not isinstance(given, Mapping):
                raise ValueError(f"{what} must be a mapping, got {type(given).__name__}")
            extra = sorted(set(given) - set(names))
            if extra:
                raise ValueError(f"{what} has {extra}, which the law {self.text!r} does not have; expected {list(names)}")
        missing = [n for n in self.variables if n not in values]
        if missing:
            raise ValueError(f"values lacks {missing}; expected exactly {list(self.variables)}")
        if getattr(self, "assumptions", ()):  # bad values are reported by precise.evaluate_mp below
            try:
                point = {n: np.float64(float(v)) for n, v in {**{c: 1 for c in self.constants}, **constants,
                                                            **values}.items()}
            except (TypeError, ValueError):
                point = None
            if point is not None:
                self._check_assumptions(point)
        subs = {symbol(n): values[n] for n in self.variables}
        subs.update({symbol(c): constants.get(c, 1) for c in self.constants})
        return precise.evaluate_mp(self.threshold, subs, dps)

    def elasticities(self, points: Mapping[str, Any], constants: Mapping[str, Any] | None = None,
                     *, of_constants: bool = False) -> dict[str, np.ndarray]:
        """Local exponents ``d log f / d log x`` of the threshold for every variable, vectorised
        (symbolic derivatives of the log-space form); with ``of_constants=True`` for every free
        constant instead (``d log f / d log C``: the law fit's exact gradient)."""
        args = [np.log(a) for a in self._inputs(points, constants)]
        return self._elasticities_of(args, self.constants if of_constants else self.variables)

    def _elasticities_of(self, args: Sequence[np.ndarray], names: Sequence[str]) -> dict[str, np.ndarray]:
        """``d log f / d log x`` for each name in ``names`` at the log inputs ``args`` (one shape)."""
        out = {}
        with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
            for name in names:
                value = np.asarray(self._elasticity_function(name)(*args), dtype=np.float64)
                out[name] = np.broadcast_to(value, np.shape(args[0]) if args else ()).copy()
        return out

    def at_values(self, values: Mapping[str, Any]) -> LawAtValues:
        """This law at fixed ``values`` of its variables, validated once: ``log f`` and
        ``d log f / d log C`` for any constants, as :meth:`log_evaluate` and :meth:`elasticities`
        give them (:mod:`theorycheck.law.at_values`; a law fit's many calls on the same cells)."""
        return LawAtValues(self, values)

    def elasticity(self, var: str, point: Mapping[str, Any], constants: Mapping[str, Any] | None = None) -> float:
        """``d log f / d log var`` at one point."""
        if var not in self.variables:
            raise ValueError(f"law {self.text!r} has no variable {var!r}; its variables are {list(self.variables)}")
        value = self.elasticities(point, constants)[var]
        if value.ndim:
            raise ValueError(f"point must hold scalars; use elasticities() for arrays (got shape {value.shape})")
        return float(value)

