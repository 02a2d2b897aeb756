"""Measured phase diagram of the attention-MLP model in m·d (prints a table, writes a PNG).

    python bench/mlp_phase.py --png docs/img/mlp_phase.png --json /tmp/mlp_phase.json
    python bench/mlp_phase.py --from-json /tmp/mlp_phase.json --png docs/img/mlp_phase.png

At one (V, d, L) inside the regime of the N-laws (V >= 4 d, L << V; docs/theory.md §7.5)
and for a grid of MLP widths m, the threshold N*(m) of the early-phase limit
(``algorithm='limit'``, ``model='mlp'``, hard attention, recall accuracy >= 0.99 with
probability q = 1/2) is searched with :func:`theorycheck.threshold.find_threshold`, with
and without ``center_features``.  The figure puts log N* against log(m·d) beside the
three derived branches (docs/theory.md §5.3, bounds/vural2026.py):

* mean bias ``N·d >= C4·V²·log V`` -- flat in m (only without centring);
* gradient noise ``N·m·d >= C3·L·V²·log V`` -- slope -1 in m·d;
* MLP noise ``m·d >= C1·V·log V`` -- a wall: no N suffices to its left;

plus the counts floor ``N >= C0·V·log V`` (C0 = 6.2, docs/theory.md §5).  The constants
C1, C3, C4 are unknown: the gradient-noise line is drawn with C3 fitted (slope held at -1)
to the centred thresholds, the storage wall as the measured bracket (largest m·d without a
threshold, smallest with one); a censored cell (no success up to ``--n-max``) is drawn as an arrow
at ``--n-max``.  The free slope of log N* on log m (statsmodels OLS, 95% CI) is printed.

Every trial is seeded: ``SeedSequence(seed, spawn_key=(centre, m, N, replicate))``.
A benchmark, not a test: it asserts nothing.  BLAS runs on one thread.
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


def plot(result: dict, path: str) -> None:
    """log N* against log(m·d), measured beside the derived branches (module docstring)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    V, d, L = result["V"], result["d"], result["L"]
    lvl = V * math.log(V)
    fig, ax = plt.subplots(figsize=(7, 4.8))
    md = np.geomspace(min(r["md"] for r in result["rows"]) / 1.5, max(r["md"] for r in result["rows"]) * 1.5, 50)
    centred = [r for r in result["rows"] if r["centre"] and r["estimate"] is not None]
    if centred:  # C3 with the slope held at -1: mean of log(N* m d / (L V^2 log V))
        c3 = math.exp(np.mean([math.log(r["estimate"] * r["md"] / (L * V * lvl)) for r in centred]))
        ax.plot(md, c3 * L * V * lvl / md, "k--", lw=1,
                label=f"gradient noise N·m·d = C3·L·V²·log V (C3 = {c3:.2g} fitted)")
    ax.axhline(C0_COUNTS * lvl, color="grey", lw=1, ls=":", label=f"counts N = {C0_COUNTS}·V·log V")
    wall = wall_bracket([r for r in result["rows"] if r["centre"]])
    if wall:
        ax.axvspan(*wall, color="r", alpha=0.12,
                   label=f"MLP-noise wall m·d = C1·V·log V, measured C1 in {wall[0] / lvl:.0f}..{wall[1] / lvl:.0f}")
    for centre, colour, name in ((True, "C0", "center_features=True"), (False, "C1", "center_features=False")):
        rows = [r for r in result["rows"] if r["centre"] == centre]
        ok = [r for r in rows if r["estimate"] is not None]
        if ok:
            x = np.array([r["md"] for r in ok])
            y = np.array([r["estimate"] for r in ok])
            err = np.array([[max(y_ - interval(r)[0], 0) for y_, r in zip(y, ok)],
                            [max(interval(r)[1] - y_, 0) if math.isfinite(interval(r)[1]) else 0
                             for y_, r in zip(y, ok)]])
            ax.errorbar(x, y, yerr=err, fmt="o-", color=colour, capsize=3, label=f"measured N*, {name}")
        cens = [r for r in rows if r["estimate"] is None]
        if cens:
            ax.plot([r["md"] for r in cens], [result["n_max"]] * len(cens), "^", color=colour, ms=9, mfc="none",
                    label=f"no threshold up to N = {result['n_max']:g}, {name}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("m·d")
    ax.set_ylabel("threshold N* (accuracy >= 0.99 w.p. 1/2)")
    ax.set_title(f"attention-MLP, limit algorithm: V={V}, d={d}, L={L}")
    ax.legend(fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def table(result: dict) -> str:
    lines = [f"V={result['V']} d={result['d']} L={result['L']} seed={result['seed']} n_max={result['n_max']}",
             f"{'centre':>6} {'m':>5} {'m*d':>7} {'N*':>8} {'95% CI (b: bracket)':>19} {'censored':>8} {'trials':>6} "
             f"{'cpu_s':>7} {'N_top':>7} {'acc@N_top':>9}"]
    for r in result["rows"]:
        est = f"{r['estimate']:.0f}" if r["estimate"] is not None else "-"
        ci = "-" if r["estimate"] is None else "{:.0f}..{:.0f}{}".format(
            *interval(r), "" if interval(r) == tuple(r["ci"]) else "b")
        lines.append(f"{str(r['centre']):>6} {r['m']:>5} {r['md']:>7} {est:>8} {ci:>19} {str(r['censored']):>8} "
                     f"{r['trials']:>6} {r['cpu_s']:>7.0f} {r['n_top']:>7} {r['acc_top']:>9.3f}")
    wall = wall_bracket([r for r in result["rows"] if r["centre"]])
    if wall:
        lvl = result["V"] * math.log(result["V"])
        lines.append(f"MLP-noise wall (center_features=True): m*d between {wall[0]} and {wall[1]}, "
                     f"C1 = m*d/(V log V) between {wall[0] / lvl:.1f} and {wall[1] / lvl:.1f}")
    for centre in (True, False):
        fit = slope_fit([r for r in result["rows"] if r["centre"] == centre])
        if fit:
            lines.append(f"slope d log N*/d log m, center_features={centre}: {fit[0]:.2f} "
                         f"(95% CI {fit[1][0]:.2f}..{fit[1][1]:.2f}); gradient-noise law: -1, mean-bias law: 0")
    return "\n".join(lines)


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
        ms = [int(x) for x in a.ms.split(",")]
        centres = [{"true": True, "false": False}[x.strip().lower()] for x in a.centre.split(",")]
        markers = [{"true": True, "false": False}[x.strip().lower()] for x in a.marker_in_value.split(",")]
        if a.V < 4 * a.d or 4 * a.L > a.V:
            raise ValueError(f"(V, d, L) = ({a.V}, {a.d}, {a.L}) is outside the regime V >= 4 d, V >= 4 L of the "
                             "N-laws; choose V >= 4*max(d, L)")
        os.environ.setdefault("THEORYCHECK_MEMORY_GB", "64")  # limit_mlp streams: the dense estimate overstates
        result = {"V": a.V, "d": a.d, "L": a.L, "seed": a.seed, "n_max": a.n_max, "rows": []}
        if a.append:  # add rows to a previous run at the same (V, d, L, seed, n_max)
            with open(a.append) as fh:
                previous = json.load(fh)
            if {k: previous[k] for k in result if k != "rows"} != {k: result[k] for k in result if k != "rows"}:
                raise ValueError(f"--append {a.append}: its (V, d, L, seed, n_max) differ from this run's; "
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
