"""Input checks shared by the whole package: one rule per kind of value.

Each check returns the value normalised to a plain Python type, or raises ``ValueError``
with one line: the name, what it must be, the value received and (``hint``) what to do.

Rules (one per kind):

* **integer** (:func:`check_int`): an ``int``/NumPy integer, or a float with an integral
  value (``3.0 -> 3``: sizes computed in floating point, or read from JSON/YAML/CSV, are
  integers to a user); never a ``bool``, a string, ``2.5``, ``nan`` or ``inf``.
* **positive real** (:func:`check_positive`): a real number (``int``, float, NumPy
  scalar; not ``bool``, not a string) that is ``> 0`` and finite; ``allow_inf=True`` also
  accepts ``+inf`` where infinity has a meaning (hard attention, no upper bound).
* **fraction** (:func:`check_fraction`): a real number in ``(0, 1]``;
  **open unit** (:func:`check_open_unit`): a real number in ``(0, 1)`` (a quantile level).
* **bool** (:func:`check_bool`): ``True``/``False`` (NumPy bools too), nothing else.
* **choice** (:func:`check_choice`): one of the listed strings.

An algorithm's options (``--set steps=60``) are checked by a table of rules, one callable
per option name (:func:`check_options`); a rule is one of the checks above with its name
bound (``functools.partial``), wrapped in :func:`optional` where ``None`` means "default".
The code that uses an option applies the same rule, so each rule is written once.

>>> check_int("V", 3.0, 2)
3
>>> check_int("V", 1, 2)
Traceback (most recent call last):
...
ValueError: V must be an integer >= 2, got 1
"""

from __future__ import annotations

import math
import numbers
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = [
    "check_int",
    "check_positive",
    "check_fraction",
    "check_open_unit",
    "check_bool",
    "check_choice",
    "check_options",
    "optional",
]


def _is_bool(value: object) -> bool:
    """A Python or NumPy bool. NumPy is not imported for this (a NumPy bool exists only once
    NumPy is loaded), so that the CLI can refuse bad input without loading it."""
    numpy = sys.modules.get("numpy")
    return isinstance(value, bool) or (numpy is not None and isinstance(value, numpy.bool_))


def _is_real(value: object) -> bool:
    return isinstance(value, numbers.Real) and not _is_bool(value)


def check_int(name: str, value: object, minimum: int = 0, hint: str = "") -> int:
    """``value`` as an ``int >= minimum`` (integral floats accepted, see module docstring)."""
    if isinstance(value, numbers.Integral) and not _is_bool(value):
        number = int(value)
    elif _is_real(value) and math.isfinite(float(value)) and float(value).is_integer():  # type: ignore[arg-type]
        number = int(float(value))  # type: ignore[arg-type]
    else:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}{hint}")
    if number < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {number}{hint}")
    return number


def check_positive(name: str, value: object, hint: str = "", *, allow_inf: bool = False) -> float:
    """``value`` as a float ``> 0``, finite unless ``allow_inf`` (then ``+inf`` passes too)."""
    what = "a positive number or inf" if allow_inf else "a positive finite number"
    if not _is_real(value):
        raise ValueError(f"{name} must be {what}, got {value!r}{hint}")
    number = float(value)  # type: ignore[arg-type]
    if not (number > 0 and (math.isfinite(number) or (allow_inf and number == math.inf))):
        raise ValueError(f"{name} must be {what}, got {number}{hint}")
    return number


def check_fraction(name: str, value: object, hint: str = "") -> float:
    """``value`` as a float in ``(0, 1]``."""
    if not _is_real(value):
        raise ValueError(f"{name} must be a number in (0, 1], got {value!r}{hint}")
    number = float(value)  # type: ignore[arg-type]
    if not 0.0 < number <= 1.0:
        raise ValueError(f"{name} must be a number in (0, 1], got {number}{hint}")
    return number


def check_open_unit(name: str, value: object, hint: str = "") -> float:
    """``value`` as a float strictly between 0 and 1 (e.g. a quantile level ``q``)."""
    if not (_is_real(value) and 0.0 < float(value) < 1.0):  # type: ignore[arg-type]
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {value!r}{hint}")
    return float(value)  # type: ignore[arg-type]


def check_bool(name: str, value: object) -> bool:
    """``value`` as a ``bool``; only ``True``/``False`` (and NumPy bools) pass."""
    if not _is_bool(value):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_choice(name: str, value: object, choices: Iterable[str]) -> str:
    """``value`` unchanged if it is one of ``choices``."""
    choices = tuple(choices)
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value


def optional(rule: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``rule`` that lets ``None`` (the caller's default) through unchanged."""
    return lambda value: None if value is None else rule(value)


def check_options(rules: Mapping[str, Callable[[Any], Any]], options: Mapping[str, Any],
                  owner: str = "") -> dict[str, Any]:
    """``options`` with each value passed through its rule (names without a rule unchanged;
    refusing unknown names is the caller's part). ValueError: the rule's line, prefixed by
    ``owner`` (e.g. ``"algorithm gd"``) when given."""
    out = dict(options)
    for name, value in options.items():
        rule = rules.get(name)
        if rule is None:
            continue
        try:
            out[name] = rule(value)
        except ValueError as exc:
            raise ValueError(f"{owner}: {exc}" if owner else str(exc)) from None
    return out
