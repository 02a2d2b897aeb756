"""The one JSON normaliser: every result, record, report and CLI output goes through it.

:func:`jsonable` maps a value to plain JSON types with one rule per kind:

* mappings -> ``dict`` with ``str`` keys; lists, tuples and NumPy arrays -> ``list``;
  sets -> sorted ``list``;
* ``bool``/NumPy bool -> ``bool``; integers (NumPy too) -> ``int``;
* other real numbers (float, NumPy floats, :class:`fractions.Fraction`) -> ``float``,
  except ``NaN`` -> ``None`` and ``±inf`` -> ``"inf"``/``"-inf"`` (strict JSON, RFC 8259,
  has neither; a reader can tell "undefined" from "unbounded");
* :class:`numpy.random.SeedSequence` -> ``{"entropy": ..., "spawn_key": [...]}`` (what
  rebuilds it); paths -> ``str``; an object with ``to_dict()`` -> its dict, normalised;
* ``str`` and ``None`` unchanged; anything else raises ``ValueError`` naming its type.

:func:`canonical_json` (sorted keys, no whitespace: equal values give equal text, used
for store keys) and :func:`dumps` (indented, for files and terminals) write strict JSON
of ``jsonable(value)``.

>>> from fractions import Fraction
>>> jsonable({"a": np.float64("nan"), "b": (np.int32(3), -math.inf), 2: Fraction(1, 4)})
{'a': None, 'b': [3, '-inf'], '2': 0.25}
"""

from __future__ import annotations

import json
import math
import numbers
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["jsonable", "canonical_json", "dumps"]


def _number(value: float) -> float | str | None:
    if math.isnan(value):
        return None
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return value


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON types (rules in the module docstring)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return _number(float(value))
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=repr)
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.random.SeedSequence):
        entropy = value.entropy
        if isinstance(entropy, (list, tuple, np.ndarray)):
            entropy = [int(e) for e in entropy]
        return {"entropy": jsonable(entropy), "spawn_key": [int(k) for k in value.spawn_key]}
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if callable(getattr(value, "to_dict", None)):
        return jsonable(value.to_dict())
    raise ValueError(
        f"value of type {type(value).__name__} is not JSON-serialisable ({value!r:.60}); "
        "use str/int/float/bool/None, lists and dicts (NumPy values are converted)"
    )


def canonical_json(value: Any) -> str:
    """Strict JSON of ``jsonable(value)`` with sorted keys and no whitespace."""
    return json.dumps(jsonable(value), sort_keys=True, separators=(",", ":"), allow_nan=False)


def dumps(value: Any, indent: int | None = 2, sort_keys: bool = True) -> str:
    """Strict, indented JSON of ``jsonable(value)`` (files, terminals)."""
    return json.dumps(jsonable(value), indent=indent, sort_keys=sort_keys, allow_nan=False)
