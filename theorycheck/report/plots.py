"""The three figures of a check report (matplotlib, no pyplot state).

* ``thresholds_<x>.png`` -- measured thresholds against each varied variable ``x`` on
  log-log axes, with 95% CIs, the fitted slope and the law's predicted slope;
* ``phase_<x>.png`` -- the phase diagram: success fraction of every evaluated point over
  (resource, ``x``), the measured thresholds, and the law's boundary with the fitted constant;
* ``collapse.png`` -- observed / predicted threshold in every cell: a law that holds up to a
  constant puts every cell on one horizontal line.

Each function takes the dictionary of a :class:`~theorycheck.check.CheckResult` and a path,
and returns the path written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["plot_thresholds", "plot_phase", "plot_collapse", "line_cells"]


def _figure() -> Figure:
    fig = Figure(figsize=(5.4, 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def line_cells(result: dict[str, Any], var: str) -> list[dict[str, Any]]:
    """Cells on the one-at-a-time line of ``var``: every other varied variable at its base value."""
    base = result["design"]["base"]
    others = [v for v in result["design"]["varied"] if v != var]
    cells = [
        c
        for c in result["cells"]
        if all(np.isclose(c["params"][o], base[o]) for o in others)
        and c["threshold"].get("estimate") is not None
    ]
    return sorted(cells, key=lambda c: c["params"][var])


def _errorbars(cells: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    est = np.array([c["threshold"]["estimate"] for c in cells], dtype=float)
    lo = np.array([c["threshold"]["ci"][0] for c in cells], dtype=float)
    hi = np.array([c["threshold"]["ci"][1] for c in cells], dtype=float)
    lo = np.where(np.isfinite(lo), lo, est)
    hi = np.where(np.isfinite(hi), hi, est)
    return est, np.vstack([np.maximum(est - lo, 0.0), np.maximum(hi - est, 0.0)])


def plot_thresholds(result: dict[str, Any], var: str, path: Path) -> Path:
    """Log-log thresholds against ``var`` with fitted and predicted slopes (slopes in the legend)."""
    resource = result["design"]["resource"]
    cells = line_cells(result, var)
    fig = _figure()
    ax = fig.add_subplot()
    if cells:
        x = np.array([c["params"][var] for c in cells], dtype=float)
        est, err = _errorbars(cells)
        ax.errorbar(x, est, yerr=err, fmt="o", color="k", capsize=3, label=f"measured {resource}* (95% CI)")
        pred = np.array([c.get("predicted", np.nan) for c in cells], dtype=float)
        if np.all(np.isfinite(pred)):
            ax.plot(x, pred, "--", color="tab:blue", label=_slope_label("law (fitted constant)", var, result, "predicted"))
        fit = result["verdict"].get("exponents", {}).get(var, {})
        if fit.get("estimate") is not None and np.isfinite(fit["estimate"]):
            xm = float(np.exp(np.mean(np.log(x))))
            ym = float(np.exp(np.mean(np.log(est))))
            xs = np.geomspace(x.min(), x.max(), 20)
            ax.plot(xs, ym * (xs / xm) ** fit["estimate"], "-", color="tab:red", alpha=0.8,
                    label=_slope_label("fitted power law", var, result, "estimate"))
        ax.set_xscale("log")
        ax.set_yscale("log")
    else:
        ax.text(0.5, 0.5, f"no cell varies {var} alone", ha="center", transform=ax.transAxes)
    ax.set_xlabel(var)
    ax.set_ylabel(f"threshold {resource}*")
    ax.set_title(f"{resource}* against {var} (others at base)")
    ax.legend(fontsize=8)
    fig.savefig(path, dpi=110)
    return path


def _slope_label(prefix: str, var: str, result: dict[str, Any], field: str) -> str:
    fit = result["verdict"].get("exponents", {}).get(var, {})
    value = fit.get(field)
    if field == "estimate" and value is not None and fit.get("ci"):
        lo, hi = fit["ci"]
        return f"{prefix}: slope {value:.2f} [{lo:.2f}, {hi:.2f}]"
    if value is not None:
        return f"{prefix}: slope {float(value):.2f}"
    return prefix


def plot_phase(result: dict[str, Any], var: str, path: Path) -> Path:
    """Success fraction over (resource, ``var``) with the law's boundary (fitted constant)."""
    resource = result["design"]["resource"]
    cells = line_cells(result, var)
    fig = _figure()
    ax = fig.add_subplot()
    xs, ys, fr = [], [], []
    for c in cells:
        for r, k, n in c["threshold"]["points"]:
            xs.append(c["params"][var])
            ys.append(r)
            fr.append(k / n)
    if xs:
        sc = ax.scatter(xs, ys, c=fr, cmap="RdYlGn", vmin=0, vmax=1, s=36, edgecolors="k", linewidths=0.3)
        fig.colorbar(sc, ax=ax, label="success fraction")
        x = np.array([c["params"][var] for c in cells], dtype=float)
        est, err = _errorbars(cells)
        ax.errorbar(x, est, yerr=err, fmt="_", color="k", capsize=4, markersize=14, label=f"measured {resource}*")
        pred = np.array([c.get("predicted", np.nan) for c in cells], dtype=float)
        if np.all(np.isfinite(pred)):
            ax.plot(x, pred, "--", color="tab:blue", label="law boundary (fitted constant)")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.legend(fontsize=8)
    ax.set_xlabel(var)
    ax.set_ylabel(resource)
    ax.set_title(f"phase diagram: success over ({resource}, {var})")
    fig.savefig(path, dpi=110)
    return path


def plot_collapse(result: dict[str, Any], path: Path) -> Path:
    """Observed / predicted threshold per cell, with CIs; one flat line means the law holds."""
    cells = [c for c in result["cells"] if c["threshold"].get("estimate") is not None and c.get("predicted")]
    fig = _figure()
    ax = fig.add_subplot()
    if cells:
        pred = np.array([c["predicted"] for c in cells], dtype=float)
        est, err = _errorbars(cells)
        ratio = est / pred
        ax.errorbar(pred, ratio, yerr=err / pred, fmt="o", color="k", capsize=3, label="cells (95% CI)")
        ax.axhline(1.0, color="tab:blue", ls="--", label="law with fitted constant")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.legend(fontsize=8)
    ax.set_xlabel("predicted threshold (fitted constant)")
    ax.set_ylabel("observed / predicted")
    ax.set_title("collapse: observed / predicted across cells")
    fig.savefig(path, dpi=110)
    return path
