"""A law at fixed values of its variables: ``log f`` and ``d log f / d log C`` for any constants.

A law fit evaluates one law at the same cells thousands of times, with only the constants
changing (an L-BFGS-B run calls the likelihood's gradient hundreds of times). Through
:meth:`theorycheck.law.Law.log_evaluate` each call validated the values again, checked the
law's assumptions on them again (``sympy.lambdify`` each time) and broadcast every input: on
the published fits of ``tests/test_published_fits_*.py`` that was a fifth of the time. Here the
values are validated and their assumptions checked once; each call checks only the constants.

The numbers are those of ``Law.log_evaluate`` and ``Law.elasticities(of_constants=True)`` to
the last bit: the same lambdified functions of the same arrays (the variables' logs, and each
constant's log taken of the constant broadcast to the cells' shape, as ``Law._inputs`` makes
it). Constants other than positive finite Python or numpy scalars (an array, a name the law
does not have) take the law's own path, whose errors name what is wrong.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from theorycheck.law import numeric

__all__ = ["LawAtValues"]


class LawAtValues:
    """``law`` at ``values`` (a mapping of exactly its variables to positive floats or arrays);
    a ValueError naming a bad value, or a point outside an assumption on the variables alone."""

    def __init__(self, law: Any, values: Mapping[str, Any]) -> None:
        self.law, self.values = law, values
        var_arrays = numeric.as_positive_arrays(values, law.variables, "values")
        names = set(law.variables)
        on_constants = [a for a in getattr(law, "assumptions", ()) if {s.name for s in a.free_symbols} - names]
        self._assumptions_on_constants = bool(on_constants)
        if len(on_constants) < len(getattr(law, "assumptions", ())):
            law._check_assumptions(dict(zip(law.variables, var_arrays)))  # those naming the variables alone
        views = np.broadcast_arrays(*var_arrays) if var_arrays else []
        self.shape = np.shape(views[0]) if views else ()
        self._log_vars = [np.log(a) for a in views]  # positive: as_positive_arrays refused the rest

    def _log_args(self, constants: Mapping[str, Any]) -> list[np.ndarray]:
        """The logs of the variables, then of every constant (absent ones at 1), at the cells' shape."""
        law = self.law
        plain = isinstance(constants, Mapping) and set(constants) <= set(law.constants) and all(
            isinstance(v, (float, int, np.floating, np.integer)) and not isinstance(v, bool)
            and math.isfinite(v) and v > 0 for v in constants.values())
        if not plain or self._assumptions_on_constants:
            return [np.log(a) for a in law._inputs(self.values, constants)]
        consts = [np.broadcast_to(np.asarray(constants.get(c, 1.0), dtype=np.float64), self.shape)
                  for c in law.constants]
        return [*self._log_vars, *(np.log(c) for c in consts)]

    def log_evaluate(self, constants: Mapping[str, Any]) -> np.ndarray:
        """``Law.log_evaluate(values, constants)``."""
        return self.law._log_threshold_of(self._log_args(constants))

    def constant_elasticities(self, constants: Mapping[str, Any], names: Sequence[str]) -> dict[str, np.ndarray]:
        """``Law.elasticities(values, constants, of_constants=True)``, for the constants ``names`` only."""
        return self.law._elasticities_of(self._log_args(constants), names)
