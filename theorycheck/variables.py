"""Variables of a task: :class:`Variable` and the shorthand that declares them.

A variable is positive (laws take its logarithm) and has a kind (integer or real) and a
valid range; :meth:`Variable.check` is the one place a value is tested against it.
Pure and cheap to import: the standard library only.

>>> n = Variable("n", "integer", 2)
>>> n.coerce(7.6), n.check(3.0)
(8, 3)
>>> n.check(1)
Traceback (most recent call last):
...
ValueError: n must be an integer >= 2, got 1
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

__all__ = ["Variable", "KINDS", "declared_variables"]

KINDS = ("integer", "real")


def _identifier(what: str, name: Any) -> str:
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"{what} name must be a Python identifier such as 'n' or 'p', got {name!r}")
    return name


@dataclass(frozen=True)
class Variable:
    """A numeric variable of a task: ``kind`` ``"integer"`` or ``"real"``, valid range
    ``[low, high]``. Every variable is positive (laws take its logarithm): ``low``
    defaults to 1 for an integer and to 0, excluded, for a real."""

    name: str
    kind: str = "real"
    low: float | None = None
    high: float = math.inf
    description: str = ""

    def __post_init__(self) -> None:
        _identifier("variable", self.name)
        if self.kind not in KINDS:
            raise ValueError(f"variable {self.name}: kind must be 'integer' or 'real', got {self.kind!r}")
        low = self.low if self.low is not None else (1 if self.kind == "integer" else 0)
        for bound in (low, self.high):
            if isinstance(bound, bool) or not isinstance(bound, numbers.Real) or math.isnan(bound):
                raise ValueError(f"variable {self.name}: low and high must be numbers, got {bound!r}")
        if not 0 <= low < self.high:
            raise ValueError(f"variable {self.name}: need 0 <= low < high, got low={low}, high={self.high}")
        object.__setattr__(self, "low", low)

    @property
    def range_text(self) -> str:
        """The valid range in words: ``an integer >= 2``, ``a real number in (0, 1]``."""
        noun = "an integer" if self.kind == "integer" else "a real number"
        if self.low == 0 and self.kind == "real":
            return f"{noun} > 0" if self.high == math.inf else f"{noun} in (0, {self.high:g}]"
        return f"{noun} >= {self.low:g}" if self.high == math.inf else f"{noun} in [{self.low:g}, {self.high:g}]"

    def coerce(self, value: Any) -> int | float:
        """The value a trial runs: the nearest integer for an ``integer`` variable, a float
        otherwise. ValueError for a non-number (booleans and NaN included)."""
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value):
            raise ValueError(f"{self.name} must be {self.range_text}, got {value!r}")
        if self.kind == "integer":
            if not math.isfinite(value):
                raise ValueError(f"{self.name} must be {self.range_text}, got {value!r}")
            return int(round(value))
        return float(value)

    def check(self, value: Any) -> int | float:
        """:meth:`coerce`, then ValueError unless the value lies in the valid range."""
        typed = self.coerce(value)
        below = typed <= 0 if (self.low == 0 and self.kind == "real") else typed < self.low
        if below or typed > self.high:
            raise ValueError(f"{self.name} must be {self.range_text}, got {value!r}")
        return typed


def declared_variables(what: str, items: Any) -> Mapping[str, Variable]:
    """Declared variables as a read-only mapping ``name -> Variable``, from a sequence of
    :class:`Variable` or a mapping ``name -> Variable | kind | (kind, low[, high[, description]])``:
    ``{"n": ("integer", 2, 4096), "p": ("real", 0, 1), "beta": "real"}``."""
    if isinstance(items, Mapping):
        items = [_shorthand(what, name, spec) for name, spec in items.items()]
    out: dict[str, Variable] = {}
    for v in items or ():
        if not isinstance(v, Variable):
            raise ValueError(f"{what} must be Variable objects, got {v!r}; e.g. Variable('n', 'integer', 2)")
        if v.name in out:
            raise ValueError(f"{what}: variable {v.name!r} is declared twice")
        out[v.name] = v
    return MappingProxyType(out)


def _shorthand(what: str, name: str, spec: Any) -> Variable:
    if isinstance(spec, Variable):
        if spec.name != name:
            raise ValueError(f"{what}: key {name!r} holds Variable {spec.name!r}; use the same name")
        return spec
    if isinstance(spec, str):
        return Variable(name, spec)
    if isinstance(spec, tuple) and 1 <= len(spec) <= 4:
        return Variable(name, *spec)
    raise ValueError(f"{what}: {name!r} must be a Variable, 'integer' / 'real', or (kind, low, high), "
                     f"got {spec!r}")
