"""Phase diagram of the attention-MLP model in m·d, predicted beside measured (table + PNG).

    python bench/mlp_phase.py --png docs/img/mlp_phase.png --json /tmp/mlp_phase.json
    python bench/mlp_phase.py --ms 2048,1024 --centre false --marker-in-value false \
        --append /tmp/mlp_phase.json --json /tmp/mlp_phase.json
    python bench/mlp_phase.py --from-json bench/data/mlp_phase.json --png docs/img/mlp_phase.png

At one (V, d, L) inside the regime of the N-laws (V >= 4 d, L << V; docs/theory.md §7.5)
and for a grid of MLP widths m, the threshold N*(m) of the early-phase limit
(``algorithm='limit'``, ``model='mlp'``, hard attention, recall accuracy >= 0.99 with
probability q = 1/2) is searched with :func:`theorycheck.threshold.find_threshold` for each
*arm* (``center_features`` x ``marker_in_value``, ``--centre`` and ``--marker-in-value``).
The derived branches (docs/theory.md §5.3, bounds/vural2026.py) are

* mean bias ``N·d >= C4·V²·log V`` -- flat in m (only without centring);
* gradient noise ``N·m·d >= C3·L·V²·log V`` -- slope -1 in m·d;
* MLP noise ``m·d >= C1·V·log V`` -- a wall: no N suffices to its left;

and, with the trigger in the value path and no centring, the attention-only mean bias
``N·d >= C4'·V²·log V`` (C4' = 26 measured by the ``vural2026.mean_bias`` check).  The
figure has two panels on the same axes.  Left, *predicted*: each arm's N*(m·d) as the
largest binding term, with the regimes as bands; the unknown constants are taken from these
data (C1 the geometric middle of the measured centred wall bracket, C3 the centred thresholds
with the slope held at -1, C4 the uncentred trigger-out thresholds with the slope held at 0),
so the left panel shows the *shape* the laws claim, not an independent prediction.  Right,
*measured*: every N tried (o: at least half its trials succeeded, x: fewer), the thresholds
with their 95% CIs, and a triangle at ``--n-max`` where no threshold was found.  The
counts floor ``N >= C0·V·log V`` (C0 = 6.2, the one-step read-out's) is drawn as a reference
only.  The free slope of log N* on log m per arm (statsmodels OLS, 95% CI) is printed.

Every trial is seeded: ``SeedSequence(seed, spawn_key=(centre, m, N, replicate))``, with a
trailing 1 in the key when ``marker_in_value`` is false (so the two value-path settings
draw independent data).  A benchmark, not a test: it asserts nothing.  BLAS runs on one thread.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

#: Counts floor drawn in the figure (C0 of the one-step read-out fit, docs/theory.md §5).
C0_COUNTS = 6.2


def measure(V: int, d: int, L: int, m: int, centre: bool, *, seed: int, n_max: int, start: float,
            seeds: int, rel_width: float, max_trials: int, marker: bool = True) -> dict:
    """Threshold N*(m) of one cell by the library's adaptive search; CPU seconds and the
    best mean accuracy seen at the largest N run."""
    from theorycheck.simulate import simulate
    from theorycheck.tasks.retrieval import RetrievalParams
    from theorycheck.threshold import find_threshold

    accuracy: dict[int, list[float]] = {}

    def trial(n: float, replicate: int) -> bool:
        n = int(n)
        params = RetrievalParams(V=V, d=d, L=L, N=n, model="mlp", m=m, center_features=centre,
                                 marker_in_value=marker)
        # the trigger out of the value path appends a 1, so the earlier rows keep their seeds
        ss = np.random.SeedSequence(seed, spawn_key=(int(centre), m, n, replicate) + (() if marker else (1,)))
        out = simulate(params, "limit", seed=ss)
        accuracy.setdefault(n, []).append(out.accuracy)
        return bool(out.success)

    cpu = time.process_time()
    th = find_threshold(trial, start=start, upper=n_max, seeds_per_point=seeds, rel_width=rel_width,
                        max_trials=max_trials, q=0.5)
    top = max(accuracy)
    return {"m": m, "md": m * d, "centre": centre, "marker": marker, "estimate": th.estimate, "ci": list(th.ci),
            "censored": th.censored, "trials": sum(len(v) for v in accuracy.values()),
            "cpu_s": time.process_time() - cpu, "n_top": top, "acc_top": float(np.mean(accuracy[top])),
            "points": [list(p) for p in th.points]}


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


def slope_fit(rows: list[dict]) -> tuple[float, tuple[float, float]] | None:
    """OLS slope of log N* on log m over the cells with a threshold, with its 95% CI."""
    import statsmodels.api as sm

    pts = [(math.log(r["m"]), math.log(r["estimate"])) for r in rows if r["estimate"] is not None]
    if len(pts) < 3:
        return None
    x, y = np.array(pts).T
    fit = sm.OLS(y, sm.add_constant(x)).fit()
    lo, hi = fit.conf_int(0.05)[1]
    return float(fit.params[1]), (float(lo), float(hi))


#: The arms a run may hold: (center_features, marker_in_value) -> colour and name.
ARMS = {(True, True): ("C0", "centred"),
        (True, False): ("C2", "centred, trigger out of the value path"),
        (False, False): ("C1", "uncentred, trigger out of the value path"),
        (False, True): ("C3", "uncentred, trigger in the value path")}
#: C4 of the attention-only mean bias N*d = C4*zeta^4*V^2*log V (vural2026.mean_bias check, quick,
#: 2026-11-23: N* = 1.57e6 at V=2048, d=512, zeta=1, README "What the checks say").
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


def table(result: dict) -> str:
    lines = [f"V={result['V']} d={result['d']} L={result['L']} seed={result['seed']} n_max={result['n_max']}",
             f"{'centre':>6} {'marker':>6} {'m':>5} {'m*d':>7} {'N*':>8} {'95% CI (b: bracket)':>19} {'censored':>8} {'trials':>6} "
             f"{'cpu_s':>7} {'N_top':>7} {'acc@N_top':>9}"]
    for r in result["rows"]:
        est = f"{r['estimate']:.0f}" if r["estimate"] is not None else "-"
        ci = "-" if r["estimate"] is None else "{:.0f}..{:.0f}{}".format(
            *interval(r), "" if interval(r) == tuple(r["ci"]) else "b")
        lines.append(f"{str(r['centre']):>6} {str(arm(r)[1]):>6} {r['m']:>5} {r['md']:>7} {est:>8} {ci:>19} {str(r['censored']):>8} "
                     f"{r['trials']:>6} {r['cpu_s']:>7.0f} {r['n_top']:>7} {r['acc_top']:>9.3f}")
    wall = wall_bracket([r for r in result["rows"] if arm(r) == (True, True)])
    if wall:
        lvl = result["V"] * math.log(result["V"])
        lines.append(f"MLP-noise wall (center_features=True): m*d between {wall[0]} and {wall[1]}, "
                     f"C1 = m*d/(V log V) between {wall[0] / lvl:.1f} and {wall[1] / lvl:.1f}")
    for a in ARMS:
        fit = slope_fit([r for r in result["rows"] if arm(r) == a])
        if fit:
            lines.append(f"slope d log N*/d log m, {ARMS[a][1]}: {fit[0]:.2f} "
                         f"(95% CI {fit[1][0]:.2f}..{fit[1][1]:.2f}); gradient-noise law: -1, mean-bias law: 0")
    return "\n".join(lines)


def booleans(ap: argparse.ArgumentParser, flag: str, text: str) -> list[bool]:
    """``"true,false"`` -> ``[True, False]``; anything else is a one-line usage error (exit 2)."""
    words = [x.strip().lower() for x in text.split(",")]
    if any(w not in ("true", "false") for w in words):  # "" splits to [""], refused here too
        ap.error(f"{flag} takes comma-separated true/false, got {text!r}; e.g. {flag} true,false")
    return [w == "true" for w in words]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--V", type=int, default=1024)
    ap.add_argument("--d", type=int, default=256)
    ap.add_argument("--L", type=int, default=8)
    ap.add_argument("--ms", default="128,256,512,1024,2048", help="comma-separated MLP widths")
    ap.add_argument("--centre", default="true,false", help="center_features values to run")
    ap.add_argument("--marker-in-value", default="true",
                    help="marker_in_value values to run (false: the trigger only marks keys)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--n-max", type=int, default=200_000, help="largest N a search may try")
    ap.add_argument("--start", type=float, default=20_000, help="first N of each search")
    ap.add_argument("--seeds", type=int, default=2, help="trials per searched N")
    ap.add_argument("--rel-width", type=float, default=0.3, help="stop when the CI is this narrow")
    ap.add_argument("--max-trials", type=int, default=16, help="trials per cell at most")
    ap.add_argument("--png", required=True, help="where to write the figure")
    ap.add_argument("--json", help="write the measured rows here (re-plot with --from-json)")
    ap.add_argument("--from-json", help="plot a previous run's rows instead of measuring")
    ap.add_argument("--append", help="start from a previous run's rows (same V, d, L, seed, n_max)")
    a = ap.parse_args(argv)
    if a.from_json:
        with open(a.from_json) as fh:
            result = json.load(fh)
    else:
        try:
            ms = [int(x) for x in a.ms.split(",")]
        except ValueError:
            ap.error(f"--ms takes comma-separated integer widths, got {a.ms!r}; e.g. --ms 1024,2048")
        centres, markers = (booleans(ap, flag, text) for flag, text in
                            (("--centre", a.centre), ("--marker-in-value", a.marker_in_value)))
        if a.V < 4 * a.d or 4 * a.L > a.V:
            ap.error(f"(V, d, L) = ({a.V}, {a.d}, {a.L}) is outside the regime V >= 4 d, V >= 4 L of the "
                     "N-laws; choose V >= 4*max(d, L)")
        os.environ.setdefault("THEORYCHECK_MEMORY_GB", "64")  # limit_mlp streams: the dense estimate overstates
        result = {"V": a.V, "d": a.d, "L": a.L, "seed": a.seed, "n_max": a.n_max, "rows": []}
        if a.append:  # add rows to a previous run at the same (V, d, L, seed, n_max)
            with open(a.append) as fh:
                previous = json.load(fh)
            if {k: previous[k] for k in result if k != "rows"} != {k: result[k] for k in result if k != "rows"}:
                ap.error(f"--append {a.append}: its (V, d, L, seed, n_max) differ from this run's; "
                         "give the same values or write a new --json")
            result["rows"] = previous["rows"]
        for centre, marker in ((c, k) for c in centres for k in markers):
            start = a.start
            for m in ms:
                row = measure(a.V, a.d, a.L, m, centre, seed=a.seed, n_max=a.n_max, start=start, seeds=a.seeds,
                              rel_width=a.rel_width, max_trials=a.max_trials, marker=marker)
                result["rows"].append(row)
                print(json.dumps({k: row[k] for k in ("centre", "marker", "m", "estimate", "ci", "trials", "cpu_s",
                                                      "n_top", "acc_top")}), flush=True)
                if row["estimate"] is not None:
                    start = row["estimate"]
                if a.json:
                    with open(a.json, "w") as fh:
                        json.dump(result, fh)
    print(table(result))
    plot(result, a.png)
    print(f"figure written to {a.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
