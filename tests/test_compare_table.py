"""Thresholds tables as data: planted thresholds with known exponents and CIs (compare/threshold_table.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm

from theorycheck.compare import compare
from theorycheck.compare.threshold_table import ThresholdTable
from theorycheck.law import Law

TRUE = "N >= C*V**2*log(V)/d"
GRID = [(v, d) for v in (64, 128, 256, 512, 1024, 2048) for d in (8, 16, 32, 64, 128)]


def _planted(seed: int, *, se: float = 0.05, kind: str = "ci") -> ThresholdTable:
    """Log thresholds = log(3 V^2 log V / d) + N(0, se^2), reported with a 95% CI (or se)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    z = norm.ppf(0.975)
    rows = []
    for v, d in GRID:
        log_t = math.log(3 * v**2 * math.log(v) / d) + rng.normal(0, se)
        row = {"V": v, "d": d, "threshold": math.exp(log_t)}
        if kind == "ci":
            row.update(ci_low=math.exp(log_t - z * se), ci_high=math.exp(log_t + z * se))
        else:
            row["se"] = se
        rows.append(row)
    return ThresholdTable.from_rows(rows, resource="N", variables=["V", "d"])


@pytest.mark.parametrize("kind", ["ci", "se"])
def test_planted_table_is_consistent_with_the_true_law_and_refutes_wrong_ones(kind):
    table = _planted(11, kind=kind)
    assert table.kind == kind
    v = compare(Law.parse(TRUE), table)
    assert v.status == "consistent", v.reason
    # observed slopes match the law's own design slopes (V: 2 + average 1/log V ~ 2.17); their se is
    # ~0.01 here, so 0.1 is ~10 se (never fails by chance) and still 10x smaller than a wrong exponent.
    # CI coverage itself is measured by the slow test below.
    for name, check in v.exponents.items():
        assert abs(check.estimate - check.predicted) < 0.1, (name, check)
    assert "thresholds table" in v.notes[0]
    # the product law beats the additive one; the chi-square p is uniform under the planted law (seeded: 1% of seeds fail)
    assert v.models.best_bic == "law" and v.collapse.p_value > 0.01
    assert v.status == "consistent" and 2.0 < v.constants["C"].estimate < 4.5
    assert compare(Law.parse("N >= C*V*log(V)/d"), table).status == "refuted"  # V exponent off by 1
    assert compare(Law.parse("N >= C*V**2*log(V)/d**2"), table).status == "refuted"  # d exponent off by 1


def test_per_seed_table_gives_the_geometric_mean_and_a_t_corrected_error():
    rows = [{"V": v, "seed": s, "N": v * f} for v in (10, 100) for s, f in enumerate((0.9, 1.0, 1.1))]
    table = ThresholdTable.from_rows(rows, resource="N", variables=["V"], column="N")
    cell = table.cells[0]
    logs = np.log([9.0, 10.0, 11.0])
    assert table.kind == "seeds" and cell.seeds == 3
    assert math.isclose(cell.log_threshold, logs.mean())
    from scipy.stats import t as student

    expected = logs.std(ddof=1) / math.sqrt(3) * student.ppf(0.975, 2) / norm.ppf(0.975)
    assert math.isclose(cell.log_se, expected, rel_tol=1e-9)


def test_censored_cells_are_kept_but_carry_no_information():
    rows = [{"V": 10, "threshold": None, "ci_low": None, "ci_high": None},
            {"V": 100, "threshold": 50.0, "ci_low": 45.0, "ci_high": 55.0}]
    table = ThresholdTable.from_rows(rows, resource="N", variables=["V"])
    assert [c.log_threshold is None for c in table.cells] == [True, False]
    assert "2 cells, 1 with a threshold" in table.describe()


@pytest.mark.parametrize(("low", "high"), [(0.0, math.inf), (4.0, math.inf), (0.0, 7.0), (0.0, None)])
def test_a_threshold_with_an_open_ci_is_kept_without_weight(low, high):
    # check writes a model-free bracket [0, inf] as ci_low 0, ci_high inf (before: 0.0 and an
    # empty ci_high); such a cell has an estimate but no precision: an infinite error, which
    # every weighted fit skips, and the fit of the other cells is the same as without it
    rows = [{"V": 10, "threshold": 5.0, "ci_low": low, "ci_high": high}] + [
        {"V": v, "threshold": 0.5 * v, "ci_low": 0.45 * v, "ci_high": 0.55 * v} for v in (100, 1000, 10000)]
    table = ThresholdTable.from_rows(rows, resource="N", variables=["V"])
    assert table.cells[0].log_threshold == pytest.approx(math.log(5.0)) and table.cells[0].log_se == math.inf
    assert "1 threshold with an open CI, kept without weight" in table.describe()
    assert table.thresholds()[0].ci == (0.0, math.inf)
    without = ThresholdTable.from_rows(rows[1:], resource="N", variables=["V"])
    law = Law.parse("N >= C*V")
    a, b = compare(law, table), compare(law, without)
    assert a.exponents["V"].estimate == pytest.approx(b.exponents["V"].estimate, abs=1e-9)


@pytest.mark.parametrize(("rows", "message"), [
    ([{"V": 10, "threshold": 5.0, "ci_low": 6.0, "ci_high": 7.0}], "between them"),
    ([{"V": 10, "threshold": 5.0, "ci_low": None, "ci_high": 7.0}], "ci_low/ci_high are empty"),
    ([{"V": 10, "threshold": 5.0, "ci_low": None, "ci_high": None}], "ci_low/ci_high are empty"),
    ([{"V": 10, "threshold": 5.0, "ci_low": 4.0, "ci_high": None}], "ci_low/ci_high are empty"),
    ([{"V": 10, "threshold": 5.0, "ci_low": -1.0, "ci_high": 7.0}], "ci_low must be a positive"),
    ([{"V": 10, "threshold": 5.0, "ci_low": 4.0, "ci_high": 6.0}] * 2, "has 2 rows"),
    ([{"V": 10, "seed": 1, "threshold": 5.0}], "at least 2 seeds"),
    ([{"V": 10, "threshold": 5.0, "se": -1.0}], "se must be a positive"),
    ([{"V": 10, "threshold": 5.0}], "without errors .* needs at least 2 cells"),
])
def test_bad_tables_are_refused(rows, message):
    with pytest.raises(ValueError, match=message):
        ThresholdTable.from_rows(rows, resource="N", variables=["V"])


@pytest.mark.slow
def test_exponent_ci_coverage_on_planted_tables():
    # 200 seeded tables; a calibrated 95% CI covers the law's design slope in ~190. The band
    # [0.91, 0.99] is 0.95 +- 2.6 binomial sd (sd = 0.0154 at n = 200). Measured: V 0.975, d 0.945.
    law, n, covered = Law.parse(TRUE), 200, {"V": 0, "d": 0}
    for s in range(n):
        v = compare(law, _planted(1000 + s), diagnostics=False)
        for name, check in v.exponents.items():
            covered[name] += check.ci[0] < check.predicted < check.ci[1]
    for name, k in covered.items():
        assert 0.91 <= k / n <= 0.99, (name, k)


def test_constant_ci_is_student_t_when_the_cells_scatter_beyond_their_errors():
    # Four cells reported with se 0.01 about N = C*V with C = 3, scattered by a factor
    # e^(+-0.2): chi2/df >> 1, so the covariance is scaled by it and the interval is
    # Student t on df = 4 - 1 = 3 (2.5x wider than a normal one at 95%), not normal.
    from scipy.stats import t as student

    from theorycheck.compare.table_fit import fit_law_table

    rows = [{"V": v, "threshold": 3.0 * v * math.exp(j), "se": 0.01}
            for v, j in zip((10, 100, 1000, 10000), (0.2, -0.2, 0.2, -0.2))]
    fit = fit_law_table(Law.parse("N >= C*V"), ThresholdTable.from_rows(rows, resource="N", variables=["V"]))
    c = fit.constants["C"]
    assert math.isclose(math.log(c.ci[1] / c.estimate), student.ppf(0.975, 3) * c.log_se, rel_tol=1e-9)
    assert any("Student t on 3 df" in n for n in fit.notes)


def test_the_tables_description_names_ignored_columns_and_implausible_log_errors():
    # se beside ci_low/ci_high: se is used and the description says the CI columns were not;
    # se = 2.3..42 (threshold units, a user's slip) would be CIs of a factor e^(2*1.96*42):
    # said beside the kind, so the report shows it
    rows = [{"n": n, "threshold": t, "ci_low": 0.9 * t, "ci_high": 1.1 * t, "se": s}
            for n, t, s in ((10, 50.0, 2.3), (100, 400.0, 42.0))]
    text = ThresholdTable.from_rows(rows, resource="m", variables=["n"]).describe()
    assert "(ci_low/ci_high ignored: se is used)" in text
    assert "se up to 42 is read as the standard error of log m*" in text
    plain = ThresholdTable.from_rows([{k: r[k] for k in ("n", "threshold", "se")} | {"se": 0.05} for r in rows],
                                     resource="m", variables=["n"]).describe()
    assert "ignored" not in plain and "se up to" not in plain


def _point_rows(seed, sd=0.1):
    rng = np.random.default_rng(seed)
    return [{"V": V, "d": d, "threshold": 3.0 * V ** 2 / d * math.exp(rng.normal(0.0, sd))}
            for V in (64, 128, 256, 512) for d in (8, 32, 128)]


def test_point_thresholds_take_their_errors_from_the_scatter_about_a_power_law():
    table = ThresholdTable.from_rows(_point_rows(0), resource="N", variables=["V", "d"])
    sd, df = table.scatter
    # 12 cells, a free power law in V and d with log factors: 12 - 5 = 7 df; the planted sd 0.1
    # is recovered within the chi-square spread of 7 df (0.1 * sqrt(chi2_7 / 7) lies in
    # 0.5..1.5 x 0.1 with probability 0.945; this seeded draw is one of those)
    assert table.kind == "scatter" and df == 7 and 0.05 < sd < 0.15
    assert "scatter about a free power law with log factors (no errors given) (sd" in table.describe()
    # each cell's se is sd * t_7/z, so that the normal interval is the t interval
    z, t7 = norm.ppf(0.975), 2.3646
    assert table.cells[0].log_se == pytest.approx(sd * t7 / z, rel=1e-3)
    with pytest.raises(ValueError, match=r"needs at least 3 cells with a threshold"):  # V = 64, d = 8, 32
        ThresholdTable.from_rows(_point_rows(0)[:2], resource="N", variables=["V", "d"])
    exact = [{**r, "threshold": 3.0 * r["V"] ** 2 / r["d"]} for r in _point_rows(0)]
    with pytest.raises(ValueError, match=r"lie exactly on a power law"):
        ThresholdTable.from_rows(exact, resource="N", variables=["V", "d"])


def test_point_thresholds_give_exponent_cis_with_their_nominal_coverage():
    # 400 seeded tables of 12 point thresholds scattered about N = 3 V^2/d (log sd 0.1):
    # the 95% CI of each exponent must hold the truth in 0.92..0.98 of them (binomial sd
    # at 0.95 and n = 400 is 0.011: +-2.7 sd). Measured: V 0.932, d 0.955 over 1000 tables, and the
    # same for the residual trend of N = 3 V^2 log V/d against its own law (bench-style script, 2026-11-25).
    law = Law.parse("N >= C*V**2/d")
    hits = {"V": 0, "d": 0}
    for seed in range(400):
        v = compare(law, ThresholdTable.from_rows(_point_rows(seed), resource="N", variables=["V", "d"]),
                    diagnostics=False)
        for name, true in (("V", 2.0), ("d", -1.0)):
            lo, hi = v.exponents[name].ci
            hits[name] += lo <= true <= hi
    assert all(0.92 <= h / 400 <= 0.98 for h in hits.values()), hits


def test_a_ci_table_keeps_the_standard_error_it_was_given():
    # guards the CI -> se conversion log(hi/lo)/(2z): dividing by z alone would double every cell's error.
    # _planted writes ci = exp(log_t ± z*0.05), so log_se is 0.05 up to rounding (rel=1e-9).
    table = _planted(11, kind="ci")
    for cell in table.cells:
        assert cell.log_se == pytest.approx(0.05, rel=1e-9)
    # thresholds() gives back the CIs written into the table, exp(log_t ± z*0.05) (the numbers its verdict used)
    z = norm.ppf(0.975)
    for cell, th in zip(table.cells, table.thresholds(), strict=True):
        lo, hi = math.exp(cell.log_threshold - z * 0.05), math.exp(cell.log_threshold + z * 0.05)
        assert th.ci == pytest.approx((lo, hi), rel=1e-9)
        assert th.estimate == pytest.approx(math.exp(cell.log_threshold), rel=1e-12)


def _scattered(seed: int, stated_se: float, extra_sd: float = 0.3) -> ThresholdTable:
    """The true law's log thresholds + N(0, extra_sd^2), each stated with the same se."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    rows = [{"V": v, "d": d, "se": stated_se,
             "threshold": 3 * v**2 * math.log(v) / d * math.exp(rng.normal(0, extra_sd))} for v, d in GRID]
    return ThresholdTable.from_rows(rows, resource="N", variables=["V", "d"])


def test_cells_that_scatter_beyond_their_stated_errors_widen_the_exponent_cis():
    # guards the widening cov + tau^2 I: without it a table stating se 0.05 whose cells scatter with sd 0.3
    # keeps CIs 6x too narrow (the note saying "widened" would still print).
    law = Law.parse(TRUE)
    small, honest = compare(law, _scattered(11, 0.05)), compare(law, _scattered(11, 0.3))
    note = [n for n in small.notes if "exponent CIs widened" in n]
    assert len(note) == 1 and not any("exponent CIs widened" in n for n in honest.notes)
    # the honest copy has no excess, so its CI widths are proportional to its se, 0.3; the other copy's
    # covariance is (0.05^2 + tau^2) I, the same matrix up to a factor: both exponents' widths scale alike
    ratio = {k: np.ptp(small.exponents[k].ci) / np.ptp(honest.exponents[k].ci) for k in ("V", "d")}
    assert ratio["V"] == pytest.approx(ratio["d"], rel=1e-9)  # same factor, up to rounding
    # ... and that factor is the total sd sqrt(0.05^2 + tau^2) over 0.3, with tau as the note prints it
    # (2 significant digits: tau ± 0.005 moves the total sd by < 0.005, hence abs=0.005)
    tau = float(note[0].split("extra sd ")[1].split()[0])
    assert 0.3 * ratio["V"] == pytest.approx(math.hypot(0.05, tau), abs=0.005)
