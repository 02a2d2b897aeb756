"""Write a check's report files into an output directory.

Files: ``verdict.json`` (the whole result), ``report.md``, ``thresholds.csv`` and the PNG
figures of :mod:`theorycheck.report.plots`.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from theorycheck.jsonable import dumps
from theorycheck.report import plots
from theorycheck.report.markdown import report_markdown

__all__ = ["write_report", "write_thresholds_csv"]


def write_thresholds_csv(result: dict[str, Any], path: Path) -> Path:
    """One row per cell: its parameters, the threshold with its CI (an open end as ``0`` or
    ``inf``; ``theorycheck fit`` reads the file back), the prediction and the trials spent."""
    params = sorted({k for c in result["cells"] for k in c["params"]})
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow([*params, "threshold", "ci_low", "ci_high", "predicted", "trials"])
        for c in result["cells"]:
            th = c["threshold"]
            lo, hi = th.get("ci") or [None, None]
            if th.get("estimate") is not None and hi is None:
                hi = math.inf  # an open upper end (the dict writes it None): "inf", read back by fit
            w.writerow([*(c["params"].get(p) for p in params), th.get("estimate"), lo, hi,
                        c.get("predicted"), sum(p[2] for p in th.get("points", []))])
    return path


def write_report(result: dict[str, Any], out: Path) -> dict[str, Path]:
    """Write every report file of ``result`` into ``out`` (created if needed); return their paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    figures: dict[str, str] = {}
    resource = result["design"]["resource"]
    for var in result["design"]["varied"]:
        p = plots.plot_thresholds(result, var, out / f"thresholds_{var}.png")
        figures[p.name] = f"Measured {resource}* against {var} (log-log, 95% CIs), fitted and predicted slopes."
        p = plots.plot_phase(result, var, out / f"phase_{var}.png")
        figures[p.name] = f"Phase diagram: success fraction over ({resource}, {var}) and the law's boundary."
    p = plots.plot_collapse(result, out / "collapse.png")
    figures[p.name] = "Observed / predicted threshold across all cells (flat = the law holds up to a constant)."
    for name in figures:
        written[name] = out / name
    written["verdict.json"] = out / "verdict.json"
    written["verdict.json"].write_text(dumps(result) + "\n")
    written["report.md"] = out / "report.md"
    written["report.md"].write_text(report_markdown(result, figures))
    written["thresholds.csv"] = write_thresholds_csv(result, out / "thresholds.csv")
    return written
