"""Reports of a check: ``verdict.json``, ``report.md``, ``thresholds.csv`` and PNG plots.

This package and :mod:`theorycheck.cli` are the only places that write files.
Everything here consumes the plain dictionary of :meth:`theorycheck.check.CheckResult.to_dict`,
so a stored ``verdict.json`` can be re-rendered without re-running anything.
"""

from typing import Any

__all__ = ["write_report"]


def __getattr__(name: str) -> Any:
    # write_report pulls in matplotlib: loaded on first use, so that the terminal renderer
    # (theorycheck.report.terminal, used by every command's exit path) stays light.
    if name == "write_report":
        from theorycheck.report.writer import write_report

        return write_report
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
