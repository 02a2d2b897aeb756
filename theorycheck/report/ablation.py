"""Figure of the embeddings ablation: thresholds against one variable for each arm."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from theorycheck.report.plots import _errorbars, _figure, line_cells

__all__ = ["plot_ablation"]


def plot_ablation(results: dict[str, dict[str, Any]], var: str, path: Path) -> Path:
    """One log-log curve of measured thresholds against ``var`` per arm, with fitted slopes."""
    fig = _figure()
    ax = fig.add_subplot()
    for (name, result), color in zip(results.items(), ("tab:red", "tab:blue", "tab:green"), strict=False):
        cells = line_cells(result, var)
        if not cells:
            continue
        x = np.array([c["params"][var] for c in cells], dtype=float)
        est, err = _errorbars(cells)
        fit = result["verdict"].get("exponents", {}).get(var, {})
        slope = fit.get("estimate")
        label = f"{name} embeddings" + (f": slope {slope:.2f}" if slope is not None else "")
        ax.errorbar(x, est, yerr=err, fmt="o-", color=color, capsize=3, label=label)
    resource = next(iter(results.values()))["design"]["resource"]
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(var)
    ax.set_ylabel(f"threshold {resource}*")
    ax.set_title(f"{resource}* against {var}: random vs orthogonal embeddings")
    ax.legend(fontsize=8)
    fig.savefig(path, dpi=110)
    return path
