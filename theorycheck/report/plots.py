"""The three figures of a check report (matplotlib, no pyplot state).

* ``thresholds_<x>.png`` -- measured thresholds against each varied variable ``x`` on
  log-log axes, with 95% CIs, the fitted slope and the law's predicted slope;
* ``phase_<x>.png`` -- the phase diagram: success fraction of every evaluated point over
  (resource, ``x``), the measured thresholds, and the law's boundary with the fitted constant;
* ``collapse.png`` -- observed / predicted threshold in every cell, labelled by its varied
  values, with the tolerance band: a law that holds up to a constant puts every cell on one
  horizontal line.

Log axes get few, unrotated-or-slanted, non-overlapping labels (:func:`readable_log_axis`).

Each function takes the dictionary of a :class:`~theorycheck.check.CheckResult` and a path,
and returns the path written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import FixedFormatter, FixedLocator, FuncFormatter, LogLocator, NullFormatter, NullLocator

__all__ = ["plot_thresholds", "plot_phase", "plot_collapse", "line_cells", "readable_log_axis", "tolerance_band"]


def _figure() -> Figure:
    fig = Figure(figsize=(5.4, 4.0), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _tick_label(x: float) -> str:
    """``16``, ``0.25``, ``1000``, ``2e5``: integers below 10^4 as integers, large or
    small values as mantissa-e-exponent."""
    if x == 0:
        return "0"
    if 1e-3 <= abs(x) < 1e4:
        return str(int(round(x))) if abs(x - round(x)) < 1e-9 * abs(x) else f"{x:.3g}"
    mant, exp = f"{x:.1e}".split("e")
    return f"{mant.rstrip('0').rstrip('.')}e{int(exp)}"


def readable_log_axis(axis: Any, values: Any = None, *, fixed: bool = False, max_ticks: int = 6) -> None:
    """Ticks a reader can read on a log axis: few labelled ticks, no minor labels
    (matplotlib labels minor ticks on narrow log ranges, and they overlap).
    ``fixed=True`` puts the ticks at ``values`` (the swept values of a variable), thinned
    to ``max_ticks``; otherwise :class:`~matplotlib.ticker.LogLocator` picks multiples
    1-2-5 (over <= 1.5 decades of ``values``), 1-3 (<= 3 decades) or 1 per decade; over less
    than 0.6 decades (a collapse plot's ratios near 1), ~5 round values between its ends.
    x labels are slanted."""
    vals = np.unique(np.asarray([v for v in np.ravel(values) if np.isfinite(v) and v > 0], dtype=float)) \
        if values is not None else np.array([])
    if fixed and vals.size:
        vals = vals[::int(np.ceil(vals.size / max_ticks))]
        axis.set_major_locator(FixedLocator(vals))
        axis.set_major_formatter(FixedFormatter([_tick_label(v) for v in vals]))
    elif vals.size > 1 and np.log10(vals.max() / vals.min()) < 0.6:  # too narrow for 1-2-5: ~5 round values
        ticks = np.unique([float(f"{v:.2g}") for v in np.geomspace(vals.min(), vals.max(), 5)])
        axis.set_major_locator(FixedLocator(ticks))
        axis.set_major_formatter(FixedFormatter([_tick_label(v) for v in ticks]))
    else:
        decades = float(np.log10(vals.max() / vals.min())) if vals.size > 1 else 10.0
        subs = (1.0, 2.0, 5.0) if decades <= 1.5 else (1.0, 3.0) if decades <= 3 else (1.0,)
        axis.set_major_locator(LogLocator(base=10, subs=subs, numticks=max_ticks + 2))
        axis.set_major_formatter(FuncFormatter(lambda x, _pos: _tick_label(x)))
    axis.set_minor_locator(NullLocator())
    axis.set_minor_formatter(NullFormatter())
    if axis.axis_name == "x":
        axis.set_tick_params(labelrotation=30)


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
        readable_log_axis(ax.xaxis, x, fixed=True)
        readable_log_axis(ax.yaxis, [*est, *ax.get_ylim()])
    else:
        ax.text(0.5, 0.5, f"no cell varies {var} alone", ha="center", transform=ax.transAxes)
    ax.set_xlabel(var)
    ax.set_ylabel(f"threshold {resource}*")
    ax.set_title(f"{resource}* against {var} (others at base)")
    if ax.get_legend_handles_labels()[0]:  # nothing to label when no cell varies var alone
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
        readable_log_axis(ax.xaxis, x, fixed=True)
        readable_log_axis(ax.yaxis, [*est, *ax.get_ylim()])
        ax.legend(fontsize=8)
    ax.set_xlabel(var)
    ax.set_ylabel(resource)
    ax.set_title(f"phase diagram: success over ({resource}, {var})")
    fig.savefig(path, dpi=110)
    return path


def tolerance_band(result: dict[str, Any], cells: list[dict[str, Any]]) -> np.ndarray:
    """Per cell, the factor ``exp(delta * sum_x |log(x / c_x)|)`` by which a law whose
    exponents are off by at most the tolerance ``delta`` could move the cell's
    observed/predicted ratio away from 1 (``c_x``: geometric centre of the swept values,
    where the fitted constant pins the ratio; docs/theory.md §6)."""
    delta = float(result["verdict"].get("tolerance") or 0.0)
    varied = list(result["design"].get("varied") or {})
    logs = {v: np.log([float(c["params"][v]) for c in cells]) for v in varied if all(v in c["params"] for c in cells)}
    total = sum((np.abs(lx - lx.mean()) for lx in logs.values()), np.zeros(len(cells)))
    return np.exp(delta * total)


#: At most this many cells are labelled in the collapse plot (those furthest from 1).
MAX_CELL_LABELS = 10


def _cell_label(cell: dict[str, Any], varied: list[str]) -> str:
    return ",".join(f"{v}={_tick_label(float(cell['params'][v]))}" for v in varied if v in cell["params"])


def plot_collapse(result: dict[str, Any], path: Path) -> Path:
    """Observed / predicted threshold per cell, with CIs, cells labelled by their varied
    values (all when there are at most :data:`MAX_CELL_LABELS`, else those furthest from 1);
    the grey bars are the tolerance band (:func:`tolerance_band`). A law that holds
    up to a constant puts every cell on the line at 1, inside its bar."""
    cells = [c for c in result["cells"] if c["threshold"].get("estimate") is not None and c.get("predicted")]
    varied = list(result["design"].get("varied") or {})
    fig = _figure()
    ax = fig.add_subplot()
    if cells:
        pred = np.array([c["predicted"] for c in cells], dtype=float)
        est, err = _errorbars(cells)
        ratio = est / pred
        band = tolerance_band(result, cells)
        tol = result["verdict"].get("tolerance")
        ax.vlines(pred, 1.0 / band, band, colors="0.8", linewidth=7, zorder=1,
                  label=f"tolerance: exponents off by <= ±{tol:g}" if tol else "tolerance")
        ax.errorbar(pred, ratio, yerr=err / pred, fmt="o", color="k", capsize=3, zorder=3, label="cells (95% CI)")
        ax.axhline(1.0, color="tab:blue", ls="--", zorder=2, label="law with fitted constant")
        labelled = np.argsort(-np.abs(np.log(ratio)))[:MAX_CELL_LABELS]
        for j, i in enumerate(sorted(labelled)):
            ax.annotate(_cell_label(cells[i], varied), (pred[i], ratio[i]), xytext=(4, 4 if j % 2 == 0 else -9),
                        textcoords="offset points", fontsize=6, color="0.25")
        if len(cells) > MAX_CELL_LABELS:
            ax.text(0.01, 0.01, f"labelled: the {MAX_CELL_LABELS} cells furthest from 1 (of {len(cells)})",
                    transform=ax.transAxes, fontsize=6, color="0.35")
        ax.set_xscale("log")
        ax.set_yscale("log")
        readable_log_axis(ax.xaxis, [*pred, *ax.get_xlim()])
        readable_log_axis(ax.yaxis, [*ratio, *ax.get_ylim()])
        ax.legend(fontsize=7)
    ax.set_xlabel("predicted threshold (fitted constant)")
    ax.set_ylabel("observed / predicted")
    ax.set_title("collapse: observed / predicted across cells")
    fig.savefig(path, dpi=110)
    return path
