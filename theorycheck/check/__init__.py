"""The check pipeline: law -> sweep design -> thresholds -> verdict (``theorycheck check``).

The names below are imported on first use (PEP 562), so that ``theorycheck.check.budget``
or ``theorycheck.check.ablation`` can be read without loading the pipeline's statistics
(the CLI validates ``--budget`` before it imports anything heavy).
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

from theorycheck import _CallableModule

__all__ = ["BUDGETS", "Budget", "CheckResult", "check", "get_budget", "plan"]

_LAZY = {"BUDGETS": "budget", "Budget": "budget", "get_budget": "budget",
         "CheckResult": "runner", "check": "runner", "plan": "runner"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


# ``from theorycheck import check`` gives this package; calling it runs :func:`check`.
sys.modules[__name__].__class__ = _CallableModule
