"""The three-valued decision for one exponent: an equivalence test (TOST).

For the residual trend ``tau`` of a variable (observed exponent minus the law's own
local exponent, :mod:`theorycheck.compare.law_fit`), with tolerance ``delta`` fixed
before the data are seen and ``alpha = 1 - level`` (docs/methods.md §4):

* **consistent** if the ``1 - 2 alpha`` CI of ``tau`` lies inside ``[-delta, delta]``
  (two one-sided tests at level ``alpha``) *and* the variable spans at least
  ``min_span`` decades (a slope read off a narrower window says little about scaling);
* **refuted** if the ``1 - alpha`` CI lies entirely outside ``[-delta, delta]``;
* **inconclusive** otherwise, with what would decide it: CI half-widths shrink like
  ``1/sqrt(trials)`` and, for a fixed number of cells, like ``1/span``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scipy.stats import norm

#: Default equivalence tolerance on exponents. Why 0.25:
#: (1) a polylog factor log(x)^k that the law does not state tilts the local log-log
#:     slope by k/log x: <= 0.25 for |k| <= 1 once x >= e^4 ~ 55 (V, d in the
#:     hundreds: 0.14-0.24), so an honest Θ law is not refuted by one stray log;
#: (2) finite-size corrections such as V + d against V shift slopes over a one-decade
#:     sweep by ~0.1-0.2;
#: (3) exponents that theories tell apart differ by >= 1/2 (d vs d^2 in N d^2, L vs
#:     sqrt L, V vs V^2): delta = 1/4 is half that gap, so "consistent" excludes the
#:     neighbouring exponent and a law off by 1/2 can be refuted.
DEFAULT_TOLERANCE = 0.25

#: A variable must span at least this many decades for a "consistent" verdict on its
#: exponent (a factor ~3.2); docs/methods.md recommends >= 1 decade.
DEFAULT_MIN_SPAN = 0.5


@dataclass(frozen=True)
class Piece:
    """One slope under test: the overall trend of a variable or one local segment."""

    label: str
    tau: float
    se: float


@dataclass(frozen=True)
class Decision:
    status: str
    reason: str
    suggestion: str | None
    tost_ci: tuple[float, float]
    ci: tuple[float, float]
    pieces: tuple[dict[str, Any], ...] = ()
    #: the window(s) of the variable that decided the status: ``"overall"`` (the whole
    #: swept range), a local segment ``"64..256"``, ``"all"`` (every window inside the
    #: tolerance) or ``"span"`` (the range is too narrow to call it consistent)
    window: str = ""
    #: inconclusive only: about how many times the trials per cell would decide it (CI width ∝ 1/√trials)
    more_trials: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason, "suggestion": self.suggestion,
                "tost_ci": list(self.tost_ci), "ci": list(self.ci), "pieces": list(self.pieces),
                "window": self.window}


def _ceil_2(x: float) -> float:
    """``x`` rounded up to 2 significant digits (1.23 -> 1.3, 10312 -> 11000): an estimate of
    the trials still needed, printed without digits that a last-bit change of the fit moves."""
    if not x > 0:
        return x
    step = 10.0 ** (math.floor(math.log10(x)) - 1)
    return float(f"{math.ceil(round(x / step, 6)) * step:.2g}")


def _intervals(piece: Piece, level: float) -> tuple[tuple[float, float], tuple[float, float]]:
    alpha = 1.0 - level
    z_tost = float(norm.ppf(1.0 - alpha))
    z_two = float(norm.ppf(1.0 - alpha / 2.0))
    t, se = piece.tau, piece.se
    return (t - z_tost * se, t + z_tost * se), (t - z_two * se, t + z_two * se)


def decide(
    variable: str,
    pieces: Sequence[Piece],
    *,
    tolerance: float,
    level: float,
    span: float,
    min_span: float,
    lo_value: float,
    hi_value: float,
) -> Decision:
    """Decide one variable from its overall trend (``pieces[0]``) and any local ones.

    Refuted if any piece's ``level`` CI lies outside ``[-delta, delta]``; consistent if
    every piece's ``1 - 2 alpha`` CI lies inside and the span suffices; else
    inconclusive, with the factor of trials (or of range) the worst piece needs.
    """
    d = tolerance
    pct = f"{100 * (2 * level - 1):.0f}%"
    table, refuted, open_, refuted_at = [], [], [], []
    for pc in pieces:
        tost, two = _intervals(pc, level)
        finite = math.isfinite(pc.se)
        out = finite and (two[0] > d or two[1] < -d)
        inside = finite and -d <= tost[0] and tost[1] <= d
        table.append({"piece": pc.label, "trend": pc.tau, "se": pc.se, "tost_ci": list(tost),
                      "ci": list(two), "status": "refuted" if out else "inside" if inside else "open"})
        if out:
            refuted_at.append(pc.label)
            refuted.append(f"{variable} {pc.label}: observed minus predicted exponent {pc.tau:+.3f} "
                           f"[{two[0]:+.3f}, {two[1]:+.3f}] lies outside ±{d:g}")
        elif not inside:
            open_.append((pc, tost, two))
    first_tost, first_two = _intervals(pieces[0], level)
    if refuted:
        return Decision("refuted", "; ".join(refuted), None, first_tost, first_two, tuple(table),
                        ", ".join(refuted_at))
    if not open_ and span >= min_span:
        extra = f" (and {len(pieces) - 1} local slopes)" if len(pieces) > 1 else ""
        return Decision("consistent", f"{variable}: observed minus predicted exponent {pieces[0].tau:+.3f}, "
                        f"{pct} CI [{first_tost[0]:+.3f}, {first_tost[1]:+.3f}] within ±{d:g}{extra}",
                        None, first_tost, first_two, tuple(table), "all")
    if not open_:
        wider = lo_value * 10**min_span
        return Decision(
            "inconclusive",
            f"{variable} spans only {span:.2f} decades ({lo_value:g}..{hi_value:g}), "
            f"less than the {min_span:g} needed to call its exponent consistent",
            f"widen {variable} to at least {min_span:g} decades (e.g. {lo_value:g}..{wider:.3g})",
            first_tost, first_two, tuple(table), "span")
    worst, reasons, leaning = 0.0, [], False
    for pc, tost, two in open_:
        if not math.isfinite(pc.se):
            reasons.append(f"{variable} {pc.label}: slope not estimable")
            worst = math.inf
            continue
        if abs(pc.tau) < d:
            factor = (tost[1] - pc.tau) / (d - abs(pc.tau))
            reasons.append(f"{variable} {pc.label}: CI [{tost[0]:+.3f}, {tost[1]:+.3f}] of observed minus "
                           f"predicted exponent too wide for ±{d:g}")
        else:
            factor = (two[1] - pc.tau) / max(abs(pc.tau) - d, 1e-12)
            leaning = True
            reasons.append(f"{variable} {pc.label}: observed minus predicted exponent {pc.tau:+.3f} lies beyond "
                           f"±{d:g} but its CI [{two[0]:+.3f}, {two[1]:+.3f}] reaches inside")
        worst = max(worst, factor)
    if span < min_span:
        reasons.append(f"{variable} spans only {span:.2f} decades (< {min_span:g})")
    more = None
    if math.isinf(worst):
        hint = f"more cells or trials inside the transitions along {variable}"
    else:
        more = _ceil_2(min(worst**2, 1e6))
        hint = (f"{variable}: about {more:g}x the trials (seeds) per cell, or widen it from {span:.2f} to "
                f"~{max(span * worst, min_span):.2f} decades")
        if leaning:
            hint += "; as it stands the data lean towards refuting"
    return Decision("inconclusive", "; ".join(reasons), hint, first_tost, first_two, tuple(table),
                    ", ".join(pc.label for pc, _, _ in open_), more_trials=more)
