"""Reports of a check: ``verdict.json``, ``report.md``, ``thresholds.csv`` and PNG plots.

This package and :mod:`theorycheck.cli` are the only places that write files.
Everything here consumes the plain dictionary of :meth:`theorycheck.check.CheckResult.to_dict`,
so a stored ``verdict.json`` can be re-rendered without re-running anything.
"""

from theorycheck.report.writer import write_report

__all__ = ["write_report"]
