"""Phase diagram of the attention-MLP model in m·d, predicted beside measured (table + PNG).

    python bench/mlp_phase.py --png docs/img/mlp_phase.png --json /tmp/mlp_phase.json
    python bench/mlp_phase.py --ms 2048,1024 --centre false --marker-in-value false \
        --append /tmp/mlp_phase.json --json /tmp/mlp_phase.json
    python bench/mlp_phase.py --from-json bench/data/mlp_phase.json --png docs/img/mlp_phase.png \
        --csv bench/data/mlp_phase      # + each arm's trials as binomial rows for `theorycheck fit`

At one (V, d, L) inside the regime of the N-laws (V >= 4 d, L << V; docs/theory.md §7.5)
and for a grid of MLP widths m, the threshold N*(m) of the early-phase limit
(``algorithm='limit'``, ``model='mlp'``, hard attention, recall accuracy >= 0.99 with
probability q = 1/2) is searched with :func:`theorycheck.threshold.find_threshold` for each
*arm* (``center_features`` x ``marker_in_value``, ``--centre`` and ``--marker-in-value``).
The derived branches (docs/theory.md §5.3, theorycheck/bounds/vural2026.py) are

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

from blas_threads import set_blas_threads

set_blas_threads()

import numpy as np  # noqa: E402

from mlp_phase_plot import ARMS, arm, interval, plot, wall_bracket  # noqa: E402  (bench/, beside this script)


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


def write_csv(result: dict, prefix: str) -> list[str]:
    """Each arm's trials as binomial rows (V, d, L, m, N, successes, trials), one file an arm,
    ``{prefix}_{centred|uncentred}[_trigger_out|_trigger_in].csv``, for `theorycheck fit`."""
    import csv

    paths = []
    for a in sorted({arm(r) for r in result["rows"]}):
        centre, marker = a
        path = f"{prefix}_{'centred' if centre else 'uncentred'}_trigger_{'in' if marker else 'out'}.csv"
        with open(path, "w", newline="") as fh:
            out = csv.writer(fh)
            out.writerow(["V", "d", "L", "m", "N", "successes", "trials"])
            for r in sorted((r for r in result["rows"] if arm(r) == a), key=lambda r: r["m"]):
                out.writerows([result["V"], result["d"], result["L"], r["m"], int(n), k, t] for n, k, t in r["points"])
        paths.append(path)
    return paths


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
    ap.add_argument("--csv", help="also write each arm's trials as binomial rows to CSV_<arm>.csv "
                                  "(for `theorycheck fit`)")
    a = ap.parse_args(argv)
    for flag, path in (("--png", a.png), ("--json", a.json), ("--csv", a.csv)):
        if path and not os.path.isdir(os.path.dirname(path) or "."):  # before any trial is run
            ap.error(f"{flag} {path}: the folder {os.path.dirname(path)!r} does not exist; create it or "
                     "give a path in an existing folder")
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
    for path in write_csv(result, a.csv) if a.csv else ():
        print(f"binomial rows written to {path}")
    plot(result, a.png)
    print(f"figure written to {a.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
