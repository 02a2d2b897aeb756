"""The phase diagram of bench/mlp_phase.py, predicted beside measured: the derived
branches' N*(m·d) from a run's rows, the measured intervals and the two-panel figure (see
bench/mlp_phase.py for the laws, the arms and the data).  Pure functions of a run's JSON."""

from __future__ import annotations

import math

import numpy as np


#: Counts floor drawn in the figure (C0 of the one-step read-out fit, docs/theory.md §5).
C0_COUNTS = 6.2


def bracket(row: dict) -> tuple[float, float]:
    """Model-free bracket of N*: the largest N with no success and the smallest N with
    successes only (used where the GLM's CI is unbounded: few trials, a sharp transition)."""
    pts = row["points"]
    fails = [n for n, k, _ in pts if k == 0]
    wins = [n for n, k, t in pts if k == t]
    return (max(fails) if fails else 0.0, min(wins) if wins else math.inf)


def interval(row: dict) -> tuple[float, float]:
    """The GLM's 95% CI where it is bounded, else :func:`bracket`."""
    lo, hi = row["ci"]
    return (lo, hi) if (lo > 0 and math.isfinite(hi)) else bracket(row)


def wall_bracket(rows: list[dict]) -> tuple[float, float] | None:
    """``(m·d censored, m·d with a threshold)``: the largest m·d without a threshold below the
    smallest one with a threshold -- where the MLP-noise wall lies (``None`` if no such pair)."""
    found = [r["md"] for r in rows if r["estimate"] is not None]
    none = [r["md"] for r in rows if r["estimate"] is None and found and r["md"] < min(found)]
    return (max(none), min(found)) if none else None


#: The arms a run may hold: (center_features, marker_in_value) -> colour and name.
ARMS = {(True, True): ("C0", "centred"),
        (True, False): ("C2", "centred, trigger out of the value path"),
        (False, False): ("C1", "uncentred, trigger out of the value path"),
        (False, True): ("C3", "uncentred, trigger in the value path")}
#: C4 of the attention-only mean bias N*d = C4*zeta^4*V^2*log V (vural2026.mean_bias check, quick,
#: 2026-11-23: N* = 1.57e6 at V=2048, d=512, zeta=1, docs/results.md).
C4_ATTENTION = 26.0


def arm(row: dict) -> tuple[bool, bool]:
    """A row's (center_features, marker_in_value); rows of runs before the option had the trigger in."""
    return row["centre"], row.get("marker", True)


def constants(result: dict) -> dict:
    """The branches' constants as these data give them: C1 the measured wall (geometric middle of
    the centred bracket), C3 the centred thresholds with the slope held at -1, C4 the uncentred
    (trigger out) thresholds right of the wall with the slope held at 0 (module docstring)."""
    V, d, L = result["V"], result["d"], result["L"]
    lvl = V * math.log(V)
    rows = result["rows"]
    out: dict = {"C0": C0_COUNTS}
    wall = wall_bracket([r for r in rows if arm(r) == (True, True)])
    if wall:
        out["C1"] = math.sqrt(wall[0] * wall[1]) / lvl
    centred = [r for r in rows if arm(r) == (True, True) and r["estimate"] is not None]
    if centred:
        out["C3"] = math.exp(np.mean([math.log(r["estimate"] * r["md"] / (L * V * lvl)) for r in centred]))
    relu = [r for r in rows if arm(r) == (False, False) and r["estimate"] is not None]
    if relu:
        out["C4"] = math.exp(np.mean([math.log(r["estimate"] * d / (V * lvl)) for r in relu]))
    return out


def predicted(result: dict, c: dict, md: np.ndarray, centre: bool, marker: bool) -> np.ndarray:
    """N* the derived laws predict for one arm: the largest of the binding terms, none left of
    the MLP-noise wall (docs/theory.md §5.3; the attention-only mean bias with the trigger in
    the value path, §7.8). The counts floor is not among them: its C0 is the one-step
    read-out's, and the centred MLP thresholds lie below it (drawn as a reference only)."""
    V, d, L = result["V"], result["d"], result["L"]
    lvl = V * math.log(V)
    n = np.zeros_like(md, dtype=float)
    if "C3" in c:
        n = np.maximum(n, c["C3"] * L * V * lvl / md)
    if not centre and "C4" in c:
        n = np.maximum(n, np.full_like(n, c["C4"] * V * lvl / d))
    if marker and not centre:
        n = np.maximum(n, C4_ATTENTION * V * lvl / d)
    if "C1" in c:
        n = np.where(md >= c["C1"] * lvl, n, np.nan)
    return n


def plot(result: dict, path: str) -> None:
    """Two panels on the same axes: left, the phase diagram the derived laws predict (each
    arm's N*(m·d), the regimes as bands); right, what was measured (every N tried, filled where
    at least half its trials succeeded, and the thresholds with their intervals)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    V, d, L = result["V"], result["d"], result["L"]
    lvl = V * math.log(V)
    rows = result["rows"]
    c = constants(result)
    arms = [a for a in ARMS if any(arm(r) == a for r in rows)]
    md = np.geomspace(min(r["md"] for r in rows) / 1.5, max(r["md"] for r in rows) * 1.5, 200)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5), sharex=True, sharey=True)
    if "C1" in c:  # the regimes along m·d: the wall, then the term that binds for each arm
        wall = c["C1"] * lvl
        bands = [(md[0], wall, "r", "MLP noise:\nno N suffices")]
        right_of = "centred: gradient noise"
        if "C3" in c and "C4" in c:  # uncentred: gradient noise while C3 L V^2 log V/(m d) > C4 V^2 log V/d
            cross = c["C3"] * L * d / c["C4"]
            if cross > wall:
                bands.append((wall, min(cross, md[-1]), "0.6", "gradient noise"))
            bands.append((max(cross, wall), md[-1], "y", right_of + "\nuncentred: mean bias"))
        else:
            bands.append((wall, md[-1], "0.6", right_of))
        for lo, hi, colour, name in bands:
            if hi > lo:
                left.axvspan(lo, hi, color=colour, alpha=0.10)
                left.text(math.sqrt(lo * hi), 0.03, name, transform=left.get_xaxis_transform(), ha="center",
                          fontsize=7)
    for a in arms:
        colour, name = ARMS[a]
        left.plot(md, predicted(result, c, md, *a), color=colour, lw=1.5, label=name)
    left.axhline(c["C0"] * lvl, color="grey", lw=0.8, ls=":",
                 label=f"reference: counts N = {c['C0']}·V·log V (one-step read-out's C0)")
    text = ", ".join(f"{k} = {v:.3g}" for k, v in c.items() if k != "C0")
    left.set_title(f"predicted (derived laws; constants from these data: {text})", fontsize=8)
    for a in arms:
        colour, name = ARMS[a]
        mine = [r for r in rows if arm(r) == a]
        for r in mine:
            for n, k, t in r["points"]:
                right.plot(r["md"], n, "o" if 2 * k >= t else "x", color=colour, ms=3.5, alpha=0.6)
        ok = sorted((r for r in mine if r["estimate"] is not None), key=lambda r: r["md"])
        if ok:
            x = np.array([r["md"] for r in ok])
            y = np.array([r["estimate"] for r in ok])
            err = np.array([[max(y_ - interval(r)[0], 0) for y_, r in zip(y, ok)],
                            [max(interval(r)[1] - y_, 0) if math.isfinite(interval(r)[1]) else 0
                             for y_, r in zip(y, ok)]])
            right.errorbar(x, y, yerr=err, fmt="s-", color=colour, capsize=3, ms=6, label=f"N*, {name}")
        cens = [r for r in mine if r["estimate"] is None]
        if cens:
            right.plot([r["md"] for r in cens], [result["n_max"]] * len(cens), "^", color=colour, ms=10, mfc="none",
                       label=f"no N* up to {result['n_max']:g}, {name}")
    right.set_title("measured (o: >= half the trials succeeded, x: fewer; squares: N* and 95% CI)", fontsize=8)
    for ax in (left, right):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("m·d")
        ax.legend(fontsize=7, loc="upper right" if ax is left else "lower left")
    left.set_ylabel("N (threshold: accuracy >= 0.99 w.p. 1/2)")
    fig.suptitle(f"attention-MLP, limit algorithm, V={V}, d={d}, L={L}: the phase diagram in m·d", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
