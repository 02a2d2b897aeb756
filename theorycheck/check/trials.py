"""Where a check finds its tasks: :mod:`theorycheck.registry`.

The trial functions and cost models live next to their task declarations
(:mod:`theorycheck.tasks.retrieval_task`, :mod:`theorycheck.tasks.linear_am`); this module
only keeps the old import path of :func:`get_task` and :class:`Task`.
"""

from __future__ import annotations

from theorycheck.registry import Task, get_task

__all__ = ["Task", "get_task"]
