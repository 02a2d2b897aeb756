"""Boundary checks shared by the task parameters: each returns the normalised value or
raises ``ValueError`` naming the parameter, the value received and the valid range.

>>> check_int("V", 1, 2)
Traceback (most recent call last):
...
ValueError: V must be an integer >= 2, got 1
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_int", "check_choice", "check_fraction", "check_bool"]


def check_int(name: str, value, minimum: int, hint: str = "") -> int:
    """Return ``value`` as a Python int, or raise ValueError naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ValueError(
                f"{name} must be an integer >= {minimum}, got {value!r}{hint}"
            )
    if value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value}{hint}")
    return int(value)


def check_choice(name: str, value, choices: tuple[str, ...]) -> str:
    """Raise ValueError unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise ValueError(
            f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}"
        )
    return value


def check_fraction(name: str, value) -> float:
    """``value`` must be a real number in (0, 1]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a number in (0, 1], got {value!r}")
    value = float(value)
    if not (0.0 < value <= 1.0):
        raise ValueError(f"{name} must be a number in (0, 1], got {value}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)
