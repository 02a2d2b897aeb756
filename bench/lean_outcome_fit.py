"""Does a run's own first-step lean, or its ``L``, set whether it succeeds? (prints figures)

The trigger-in probes of the finite-step three-step at ``(V, d) = (4096, 1024)`` (docs/theory.md
§7.12: ``β = 10``, ``ζ = 1/2``, ``γ' = 10⁴``, ``η/γ'`` 10, 30 and 50 at ``L`` 64, 128 and 256) are
single-seed runs, and ``bench/mean_bias_first_step.py --lean --probe`` gave each run its own lean
``λ_U`` (how far the first value step moves the model's mean output towards the training labels'
marginal, §7.12). One probe cannot say whether the lean or ``L`` sets the threshold's ratio to
the limit's (``η/γ' = 50`` at ``L = 256`` held both readings). Pooled, the runs can: a logistic
regression of each run's outcome on its ``N`` and its own lean,

    logit P(success) = a + b·log(N / N_lim(L)) + c·log λ_U  [+ a_L for each L but the first],

with ``N_lim(L)`` the early-phase limit's threshold at the same ``L`` (:data:`LIMIT`), fitted by
maximum likelihood (statsmodels' binomial GLM). It prints the coefficients with their standard
errors, the likelihood-ratio test of the ``a_L`` (does ``L`` matter once each run's lean is
known?) with each ``a_L`` as a factor ``exp(-a_L/b)`` on ``N*``, and the lean exponent
``e = -c/b`` (``N* ∝ λ_U^e`` at a fixed success probability), both with delta-method CIs:

    python bench/lean_outcome_fit.py                 # L 128 and 256 (the in-regime probes)
    python bench/lean_outcome_fit.py --L 64,128,256  # with the L = 64 probe (outside N << L·V)

This fit was chosen after the data were in (2026-12-02): it is exploratory, not a prediction
tested; docs/theory.md §7.12 reports it as such. Its first test out of sample (twelve fresh seeds
at ``(4096, 1024, 256, 87500)``, leans computed before the runs) did not bear it out: the six
seeds that lean most and the six that lean least succeeded 2 and 2; nor did a second test of a run's
lean at another ``d``, ``(4096, 724, 128, 125000)`` (3 and 3). Nor does the fit extend past the leans it was
fitted on (0.1-1.0): the ``η/γ' = 100`` probe at ``L = 128`` (leans 2.2-3.3, where it gives
``N*`` ≈ 0.40x the limit's) measured 1.13x (38 runs), the bias turned round; that probe is not pooled here.
"""

from __future__ import annotations

import argparse
import csv
from pathlib import Path

import numpy as np
from scipy.stats import chi2, norm

from trigger_in_probes import PROBES as ALL_PROBES, limits

DATA = Path(__file__).parent / "data"

#: the probes pooled, by (L, eta): eta/gamma' 10, 30 and 50 at (4096, 1024), whose leans lie in 0.1-1.75 (the
#: probes at 50 at L = 128, 55, 100 and 160 lean past 1 and are not pooled); their files from
#: bench/trigger_in_probes.py's list
POOLED = ((64, 300000), (128, 300000), (128, 100000), (256, 300000), (256, 100000), (256, 500000))
PROBES = {(p.L, int(p.eta)): p.leans for p in ALL_PROBES if (p.V, p.d) == (4096, 1024) and (p.L, p.eta) in POOLED}

#: the limit's mean-bias thresholds there, rounded (its cells' GLM, bench/trigger_in_probes.py: 149825, 151209 and
#: 153475 at L 64, 128, 256, §7.12)
LIMIT = {L: round(n) for (V, d, L), (n, _) in limits().items() if (V, d) == (4096, 1024)}


def runs(Ls) -> dict[str, np.ndarray]:
    """Every probe run at the ``Ls``: its ``L``, ``N``, own lean ``λ_U`` and outcome (0/1)."""
    rows = []
    for (L, _), name in PROBES.items():
        if L in Ls:
            with open(DATA / name, newline="") as handle:
                rows += list(csv.DictReader(handle))
    return {"L": np.array([int(r["L"]) for r in rows]), "N": np.array([float(r["N"]) for r in rows]),
            "lean": np.array([float(r["lean_embedded"]) for r in rows]),
            "success": np.array([int(r["successes"]) for r in rows])}


def fit(data: dict[str, np.ndarray], by_L: bool):
    """The binomial GLM above (statsmodels), with the ``a_L`` when ``by_L``."""
    import statsmodels.api as sm

    columns = [np.ones(len(data["N"])), np.log(data["N"] / np.array([LIMIT[L] for L in data["L"]])),
               np.log(data["lean"])]
    columns += [(data["L"] == L).astype(float) for L in sorted(set(data["L"]))[1:]] if by_L else []
    return sm.GLM(data["success"], np.column_stack(columns), family=sm.families.Binomial()).fit()


def per_log_N(result, i: int, level: float = 0.95) -> tuple[float, float, float]:
    """``-p_i/b`` (coefficient ``i`` over ``b``'s, negated) and its delta-method CI: at fixed odds
    ``log N*`` moves by this per unit of term ``i``. For ``c`` it is the lean exponent ``e``
    (``N* ∝ λ_U^e``); for an ``a_L`` the log of the factor on ``N*`` at that ``L``, same lean."""
    b, p = result.params[1], result.params[i]
    grad = np.array([p / b**2, -1 / b])  # d(-p/b)/db, d(-p/b)/dp
    cov = result.cov_params()[np.ix_([1, i], [1, i])]
    se = float(np.sqrt(grad @ cov @ grad))
    z = norm.ppf(0.5 + level / 2)
    return -p / b, -p / b - z * se, -p / b + z * se


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--L", default="128,256", help="comma-separated L values to pool (of 64, 128, 256)")
    args = parser.parse_args(argv)
    try:
        Ls = sorted({int(x) for x in args.L.split(",")})
    except ValueError:
        parser.error(f"--L: expected comma-separated whole numbers, got {args.L!r}")
    if not Ls or not set(Ls) <= set(LIMIT):
        parser.error(f"--L: the probes are at L {sorted(LIMIT)}, got {args.L!r}")
    data = runs(Ls)
    plain = fit(data, False)
    by_L = fit(data, True) if len(Ls) > 1 else plain  # one L: no a_L terms, the same model
    print(f"{len(data['N'])} runs at L {', '.join(map(str, Ls))} (V, d = 4096, 1024)")
    names = ["a", "b: log(N/N_lim)", "c: log lean"] + [f"a_L{L}" for L in Ls[1:]]
    for label, result in (("lean only", plain), ("lean and L", by_L))[:1 + (len(Ls) > 1)]:
        terms = ", ".join(f"{n} {p:+.3f} ({s:.3f})" for n, p, s in zip(names, result.params, result.bse))
        print(f"{label:>11}: {terms}; log-likelihood {result.llf:.3f}")
    if len(Ls) > 1:
        lr = 2 * (by_L.llf - plain.llf)
        print(f"does L matter once each run's lean is known? LR {lr:.2f} on {len(Ls) - 1} df, "
              f"p = {chi2.sf(lr, len(Ls) - 1):.3f}")
        for k, L in enumerate(Ls[1:]):
            est, lo, hi = np.exp(per_log_N(by_L, 3 + k))
            print(f"  N* at L = {L} over L = {Ls[0]}'s at the same lean: x{est:.3f} [{lo:.3f}, {hi:.3f}]")
    est, lo, hi = per_log_N(plain, 2)
    print(f"lean exponent (N* ~ lean^e, lean only): e = {est:.3f} [{lo:.3f}, {hi:.3f}] (95%, delta method)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
