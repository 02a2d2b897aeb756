"""The verdicts docs/theory.md §7.12 publishes for the first step's size (beta 10, zeta 1/2, trigger in): probes at
(2048, 512), and one-cell probes against the limit at (4096, 1024), L = 64, 128 and 256, their L slopes and the
ratio to the limit as the lean passes one, refitted from the rows they publish (bench/data). The fits are
deterministic; the numbers are compared at the precision printed in the docs, so a change of the comparator that
moves a published number fails here first."""

import pytest

from published_fits_helpers import LEAN_MATCHED, LIMIT_L128, LIMIT_N_L128, fit, one_cell_probe, trials_by


def test_the_first_steps_size_probes_at_beta_10_with_zeta_half_and_the_trigger_in():
    # docs/theory.md §7.12 (2026-11-29): L = 64 only, single-seed runs; each probe's bracket
    # as the docs give it, from its rows (successes of trials at each N)
    def counts(rows):
        def by_n(r):
            return int(r["N"])

        successes, trials = trials_by(rows, by_n, "successes"), trials_by(rows, by_n)
        return {N: (successes[N], trials[N]) for N in trials}

    eta1e4 = counts("three_step_eta1e4_beta10_zeta05_trigger_in_L64_probe.csv")
    assert eta1e4[80000] == (0, 2) and eta1e4[90000] == (1, 2)
    assert all(s == t for N, (s, t) in eta1e4.items() if N >= 97000)  # every run from 9.7e4: below 1.04e5
    eta3e4 = counts("three_step_eta3e4_beta10_zeta05_trigger_in_L64_probe.csv")
    assert eta3e4[60000] == (0, 2) and eta3e4[71000] == (2, 2)
    assert all(s == t for N, (s, t) in eta3e4.items() if N >= 80000)  # every run from 8e4 succeeds
    eta3e5 = counts("three_step_eta3e5_beta10_zeta05_trigger_in_L64_probe.csv")
    assert all(s == 0 for N, (s, t) in eta3e5.items() if N <= 170000)  # none to 1.7e5: above the limit's
    # eta/gamma' = 30 at L = 362 (the bias turned round later there): none to 7.5e4, half from 8e4
    at362 = counts("three_step_eta3e5_beta10_zeta05_trigger_in_L362_probe.csv")
    assert all(s == 0 for N, (s, t) in at362.items() if N <= 75000) and at362[80000] == (2, 2)
    assert sum(s for N, (s, t) in at362.items() if N >= 80000) == 4 == sum(t for N, (s, t) in at362.items()
                                                                        if N >= 80000) // 2


def test_the_first_steps_size_probe_at_4096_lowers_the_threshold(capsys):
    # docs/theory.md §7.12 (2026-12-01): eta/gamma' = 30 at (4096, 1024), beta = 10, zeta = 1/2,
    # trigger in, L = 64, 29 single-seed runs in three rounds. At (2048, 512) this first step
    # raised the mean-bias threshold above 2.4x the limit's (the probe above); here, with the
    # lean lambda_U 2.6x smaller, it lowers it: N* 7.75e4 [7.56e4, 7.95e4] (the probit fit of
    # the one cell: it has a failure above a success), 0.52x the limit's at the same L and beta
    # (1.50e5 [1.47e5, 1.53e5], flat in L: 1.53e5 at 256), CI and all below 0.55x. One cell,
    # outside N << L*V (0.30): inconclusive, as fit says
    fitted = one_cell_probe(capsys, "three_step_eta3e5_beta10_zeta05_trigger_in_L64_probe_4096.csv")
    assert fitted["threshold"] == pytest.approx(77492, abs=1)
    assert fitted["ci"] == pytest.approx([75573, 79459], abs=1)
    _, limit = fit(capsys, "limit_beta10_zeta05_trigger_in_4096.csv", "--law", "vural2026.headline")
    at = {c["params"]["L"]: c for c in limit["cells"]}
    assert [at[L]["threshold"] for L in (64, 256)] == pytest.approx([149825, 153475], abs=1)
    assert fitted["threshold"] / at[64]["threshold"] == pytest.approx(0.52, abs=0.005)
    assert fitted["ci"][1] < 0.55 * at[64]["ci"][0]
    # eta/gamma' = 10 there (lambda_U ~0.5), 18 runs in two rounds: 8.33e4 [7.93e4, 8.75e4],
    # 0.56x the limit's, its CI below the limit's too
    fitted = one_cell_probe(capsys, "three_step_eta1e5_beta10_zeta05_trigger_in_L64_probe_4096.csv")
    assert fitted["threshold"] == pytest.approx(83324, abs=1)
    assert fitted["ci"] == pytest.approx([79322, 87528], abs=1)
    assert fitted["threshold"] / at[64]["threshold"] == pytest.approx(0.556, abs=0.005)
    assert fitted["ci"][1] < at[64]["ci"][0]


def test_the_first_steps_size_probe_at_4096_saves_less_at_longer_L(capsys):
    # docs/theory.md 7.12 (2026-12-01): eta/gamma' = 30 there at L = 256, inside the regime, 22
    # runs in two rounds; the lean is ~4x smaller than at L = 64. The cell's own GLM: 9.64e4
    # [8.40e4, 1.27e5], 0.63x the limit's at L = 256 (CI below it); with the L = 64 probe the
    # L slope is 0.15 [0.09, 0.22] (refuted against the law's 1; the L = 64 cell outside)
    at256 = _limit_at_256(capsys)
    cell = _probe_against(capsys, "eta3e5", at256, 96431, [83983, 127379], 0.628)
    assert cell["ci"][1] < at256["ci"][0]
    slope = _L_slope(capsys, "eta3e5")
    assert slope["estimate"] == pytest.approx(0.154, abs=0.001)
    assert slope["ci"] == pytest.approx([0.091, 0.218], abs=0.001)
    # eta/gamma' = 10 at L = 256 (lambda_U 0.10-0.22), 18 runs: 1.24e5 [1.07e5, 1.52e5], 0.81x,
    # its CI below the limit's estimate but overlapping the limit's CI; slope 0.29 [0.22, 0.35]
    # beside the L = 64 probe at 10
    cell = one_cell_probe(capsys, "three_step_eta1e5_beta10_zeta05_trigger_in_L256_probe_4096.csv", in_regime=True)
    assert cell["threshold"] == pytest.approx(124374, abs=1)
    assert cell["ci"] == pytest.approx([107321, 152485], abs=1)
    assert cell["threshold"] / at256["threshold"] == pytest.approx(0.810, abs=0.005)
    assert at256["ci"][0] < cell["ci"][1] < at256["threshold"]
    slope = _L_slope(capsys, "eta1e5")
    assert slope["estimate"] == pytest.approx(0.288, abs=0.001)
    assert slope["ci"] == pytest.approx([0.225, 0.351], abs=0.001)


def test_the_first_steps_size_probes_at_4096_a_third_L(capsys):
    # docs/theory.md 7.12 (2026-12-02): eta/gamma' = 30 there at L = 128 (lean 0.66-1.01), inside
    # the regime, 30 runs in three rounds: the cell's own GLM 7.90e4 [7.40e4, 8.64e4], 0.52x the
    # limit's at L = 128 (1.51e5 [1.49e5, 1.54e5], one cell of 180 trials), CI and all below 0.6x;
    # the limit is flat over L = 64..256 (slope 0.017 [-0.003, 0.038]); the probe's three-cell L
    # slope 0.158 [0.087, 0.228] (refuted against 1), flat from 64 to 128, ~0.29 from 128 to 256
    cell = one_cell_probe(capsys, "three_step_eta3e5_beta10_zeta05_trigger_in_L128_probe_4096.csv", in_regime=True)
    assert cell["threshold"] == pytest.approx(78998, abs=1)
    assert cell["ci"] == pytest.approx([73992, 86432], abs=1)
    code, limit = fit(capsys, LIMIT_L128[1024], "--law", "vural2026.headline")
    (at128,) = limit["cells"]
    assert code == 3 and at128["threshold"] == pytest.approx(LIMIT_N_L128[1024], abs=1)
    assert at128["ci"] == pytest.approx([148517, 153755], abs=1)
    assert cell["threshold"] / at128["threshold"] == pytest.approx(0.522, abs=0.005)
    assert cell["ci"][1] < 0.6 * at128["ci"][0]
    code, limit = fit(capsys, "limit_beta10_zeta05_trigger_in_4096.csv",
                       LIMIT_L128[1024], "--law", "vural2026.headline")
    assert code == 1 and limit["exponents"]["L"]["ci"] == pytest.approx([-0.003, 0.038], abs=0.001)
    slope = _L_slope(capsys, "eta3e5", (64, 128, 256))
    assert slope["estimate"] == pytest.approx(0.158, abs=0.001)
    assert slope["ci"] == pytest.approx([0.087, 0.228], abs=0.001)
    assert slope["window"] == "overall, 64..128, 128..256"
    # eta/gamma' = 10 at L = 128 (lean 0.20-0.35), 22 runs in two rounds: 1.12e5 [1.02e5, 1.31e5],
    # 0.74x the limit's there (CI below it); the three-cell slope 0.288 [0.221, 0.354], steeper from
    # 64 to 128 than from 128 to 256 (0.42 against 0.16: the other way round from eta/gamma' = 30)
    cell = one_cell_probe(capsys, "three_step_eta1e5_beta10_zeta05_trigger_in_L128_probe_4096.csv", in_regime=True)
    assert cell["threshold"] == pytest.approx(111832, abs=1)
    assert cell["ci"] == pytest.approx([102106, 130665], abs=1)
    assert cell["threshold"] / at128["threshold"] == pytest.approx(0.740, abs=0.005)
    assert cell["ci"][1] < at128["ci"][0]
    slope = _L_slope(capsys, "eta1e5", (64, 128, 256))
    assert slope["estimate"] == pytest.approx(0.288, abs=0.001)
    assert slope["ci"] == pytest.approx([0.221, 0.354], abs=0.001)


def test_a_larger_first_step_at_4096_L256_does_not_tell_the_lean_from_L(capsys):
    # docs/theory.md 7.12 (2026-12-02): eta/gamma' = 50 at L = 256 leans as 30 does at L = 128
    # (mean 0.75 against 0.82), 34 runs in three rounds: the cell's own GLM 9.13e4 [7.89e4,
    # 9.79e4], 0.595x the limit's at L = 256; its CI holds both L = 128's 0.52x (the lean's
    # reading) and eta/gamma' = 30's estimate at L = 256 (0.63x: L's reading), so this probe
    # decides neither; it lies below the limit's CI and below 10's estimate there
    at256 = _limit_at_256(capsys)
    cell = _probe_against(capsys, "eta5e5", at256, 91307, [78881, 97883], 0.595)
    thirty = one_cell_probe(capsys, "three_step_eta3e5_beta10_zeta05_trigger_in_L256_probe_4096.csv", in_regime=True)
    assert cell["ci"][0] < 0.52 * at256["threshold"] and thirty["threshold"] < cell["ci"][1] < at256["ci"][0]
    ten = one_cell_probe(capsys, "three_step_eta1e5_beta10_zeta05_trigger_in_L256_probe_4096.csv", in_regime=True)
    assert cell["ci"][1] < ten["threshold"]


def test_a_first_step_that_leans_far_past_one_at_4096_L128_gives_the_gain_back(capsys):
    # docs/theory.md 7.12 (2026-12-02): eta/gamma' = 100 at L = 128 leans 2.2-3.3, past 1, where
    # the step-3 bias turns round. The exploratory lean fit gave 0.40x the limit's there and a
    # gain flat above a lean of ~0.8 gave 0.52x; 38 runs in four rounds: none of 10 below
    # 1.45e5 succeeds; the cell's own GLM 1.71e5 [1.57e5, 1.93e5], 1.13x the limit's at L = 128
    # (round 4, predicted at 16:01 UTC: N* in [1.55e5, 1.8e5], CI ends within 1.30 and below
    # 1.95e5), a CI above the limit's threshold and above eta/gamma' = 30's CI at the same L.
    # Outside N << L*V (0.32), as the limit's own cell at L = 128 (0.29)
    _, limit = fit(capsys, "limit_beta10_zeta05_trigger_in_4096.csv",
                    LIMIT_L128[1024], "--law", "vural2026.headline")
    at128 = next(c for c in limit["cells"] if c["params"]["L"] == 128)
    code, out = fit(capsys, "three_step_eta1e6_beta10_zeta05_trigger_in_L128_probe_4096.csv",
                     "--law", "vural2026.headline")
    assert code == 3 and out["verdict"] == "inconclusive"
    (cell,) = out["cells"]
    assert not cell["in_regime"] and cell["method"] == "glm" and cell["trials"] == 38
    assert cell["threshold"] == pytest.approx(171046, abs=1)
    assert cell["ci"] == pytest.approx([157460, 192560], abs=1)
    assert cell["threshold"] / at128["threshold"] == pytest.approx(1.131, abs=0.005)
    assert 155000 <= cell["threshold"] <= 180000 and cell["ci"][1] / cell["ci"][0] <= 1.30 and cell["ci"][1] < 195000
    assert at128["threshold"] < cell["ci"][0]
    thirty = one_cell_probe(capsys, "three_step_eta3e5_beta10_zeta05_trigger_in_L128_probe_4096.csv", in_regime=True)
    assert thirty["ci"][1] < cell["ci"][0]
    # eta/gamma' = 50 there (lean ~1.3, 21 runs in two rounds): the cell's own GLM gives only its
    # bracket; the shared-width probit 8.91e4 [8.55e4, 9.28e4], 0.589x the limit's: above 30's
    # estimate there (0.52x), below the 100 probe's CI
    code, out = fit(capsys, LEAN_MATCHED[1024], "--law", "vural2026.headline")
    (fifty,) = out["cells"]
    assert code == 3 and fifty["in_regime"] and fifty["method"] == "bracket" and fifty["trials"] == 21
    shared = fifty["shared_width"]
    assert shared["threshold"] == pytest.approx(89114, abs=1) and shared["ci"] == pytest.approx([85542, 92835], abs=1)
    assert shared["threshold"] / at128["threshold"] == pytest.approx(0.589, abs=0.005)
    assert thirty["threshold"] < shared["ci"][0] and shared["ci"][1] < cell["ci"][0]


def test_pooled_runs_at_4096_say_a_runs_own_lean_not_its_L_sets_its_outcome(capsys, bench_script):
    # docs/theory.md 7.12 (2026-12-02, exploratory: chosen after the data): bench/lean_outcome_fit.py
    # regresses each (4096, 1024) probe run's outcome on log(N / the limit's N* at its L) and its
    # own log lean. Over the 126 runs at L 128 and 256 the L term adds LR 1.86 (p 0.17): at the
    # same lean N* at 256 is 1.04x [0.99, 1.09] 128's; N* ~ lean^-0.266 [-0.310, -0.222]. With
    # the L = 64 probe (outside the regime, leans 1.4-1.75 only) L matters (p 0.011): its runs
    # need ~1.13x the N the lean gives, as if the gain stopped growing there
    script = bench_script("lean_outcome_fit")
    _, limit = fit(capsys, "limit_beta10_zeta05_trigger_in_4096.csv",
                    LIMIT_L128[1024], "--law", "vural2026.headline")
    assert {c["params"]["L"]: round(c["threshold"]) for c in limit["cells"]} == script.LIMIT
    assert script.main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("126 runs at L 128, 256")
    assert "LR 1.86 on 1 df, p = 0.172" in out and "x1.038 [0.986, 1.093]" in out
    assert "e = -0.266 [-0.310, -0.222]" in out
    assert script.main(["--L", "64,128,256"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("155 runs") and "LR 9.02 on 2 df, p = 0.011" in out
    assert "N* at L = 128 over L = 64's at the same lean: x0.885 [0.822, 0.953]" in out
    with pytest.raises(SystemExit) as stop:
        script.main(["--L", "32"])
    assert stop.value.code == 2 and "the probes are at L [64, 128, 256], got '32'" in capsys.readouterr().err


def _limit_at_256(capsys):
    """The limit's mean-bias cell at ``(4096, 1024)``, ``L = 256`` (its headline-law fit, §7.12)."""
    _, limit = fit(capsys, "limit_beta10_zeta05_trigger_in_4096.csv", "--law", "vural2026.headline")
    return next(c for c in limit["cells"] if c["params"]["L"] == 256)


def _probe_against(capsys, eta, limit, threshold, ci, ratio):
    """The in-regime probe ``three_step_<eta>_..._L<L>_probe_4096.csv`` at the ``limit`` cell's
    ``L``: its threshold and CI (to 1) and its ratio to the limit's threshold (to 0.005)."""
    rows = f"three_step_{eta}_beta10_zeta05_trigger_in_L{int(limit['params']['L'])}_probe_4096.csv"
    cell = one_cell_probe(capsys, rows, in_regime=True)
    assert cell["threshold"] == pytest.approx(threshold, abs=1)
    assert cell["ci"] == pytest.approx(ci, abs=1)
    assert cell["threshold"] / limit["threshold"] == pytest.approx(ratio, abs=0.005)
    return cell


def test_at_L256_a_first_step_that_leans_far_past_one_gives_the_gain_back_too(capsys):
    # docs/theory.md 7.12 (2026-12-02): eta/gamma' = 160 at L = 256 leans 1.45-3.2, as 100 does at
    # L = 128. 28 runs in three rounds, every run below 1.9e5 fails: the cell's own GLM 1.97e5
    # [1.88e5, 2.32e5], inside the regime, 1.29x the limit's at L = 256 (predicted 1.04-1.50x: the
    # turn past a lean of 1 happens at L = 256 too). Its CI lies above the limit's threshold, above
    # eta/gamma' = 50's CI at the same L (lean ~0.75) and above L = 128's 1.12x, and holds the
    # 1.28x of a ratio 1.14x higher per doubling of L past 1 (as 128 against 64)
    _, limit = fit(capsys, "limit_beta10_zeta05_trigger_in_4096.csv", "--law", "vural2026.headline")
    at256 = next(c for c in limit["cells"] if c["params"]["L"] == 256)["threshold"]
    cell = one_cell_probe(capsys, "three_step_eta16e5_beta10_zeta05_trigger_in_L256_probe_4096.csv", in_regime=True)
    assert cell["threshold"] == pytest.approx(197383, abs=1) and cell["ci"] == pytest.approx([188241, 231822], abs=1)
    lo, hi = (x / at256 for x in cell["ci"])
    assert cell["threshold"] / at256 == pytest.approx(1.286, abs=0.005) and 1.12 < lo < 1.28 < hi
    fifty = one_cell_probe(capsys, "three_step_eta5e5_beta10_zeta05_trigger_in_L256_probe_4096.csv", in_regime=True)
    assert fifty["ci"][1] < at256 < cell["ci"][0]


def test_past_a_lean_of_one_the_ratio_to_the_limit_is_higher_at_L256_than_at_L128(capsys):
    # docs/theory.md 7.12 (2026-12-02; a test chosen after the data, not predicted): the two
    # probes past a lean of 1 (eta/gamma' = 100 at L = 128, 160 at L = 256) under one law with
    # the limit's own L slope, log2(153475/151209) = 0.02146: their own thresholds against one
    # shared ratio to the limit, LR 5.14 on 1 df, p = 0.023 (1.13x against 1.29x). Their
    # single CIs still overlap (L = 128's top 1.27x, L = 256's bottom 1.23x)
    code, out = fit(capsys, "three_step_eta1e6_beta10_zeta05_trigger_in_L128_probe_4096.csv",
                     "three_step_eta16e5_beta10_zeta05_trigger_in_L256_probe_4096.csv",
                     "--law", "N >= C*L**0.02146", "--params", "L", "--ignore", "eta")
    assert code == 3 and out["verdict"] == "inconclusive"
    collapse = out["collapse"]
    assert collapse["df"] == 1 and collapse["statistic"] == pytest.approx(5.14, abs=0.01)
    assert collapse["p_value"] == pytest.approx(0.023, abs=0.001)
    at = {c["params"]["L"]: c for c in out["cells"]}
    # the CIs overlap in N too (the limit's two thresholds are 1.5% apart), and each estimate lies
    # outside the other's CI
    assert at[256]["ci"][0] < at[128]["ci"][1] < at[256]["threshold"] and at[128]["threshold"] < at[256]["ci"][0]


def test_past_a_lean_of_one_the_ratio_to_the_limit_rises_with_L(capsys, bench_script):
    # docs/theory.md 7.12 (2026-12-02): eta/gamma' = 55 at L = 64 leans 2.24-3.15, as 100 at 128
    # and 160 at 256. 35 runs in three rounds: the cell's own GLM 1.31e5 [1.19e5, 1.39e5], 0.876x
    # the limit's at L = 64 (predicted at 16:46 UTC: N* in [1.25e5, 1.65e5] and the CI's top below
    # 1.70e5, L = 128's 1.13x). Outside N << L*V (0.50), as the limit's own cell there. Over the
    # three probes under one law with the limit's own L slope (0.01736, its fit over 64..256) the
    # threshold's L exponent is 0.29 [0.20, 0.39]: past a lean of 1 the ratio rises with L, and
    # one shared ratio is rejected (collapse LR 26.2 on 3 df)
    _, limit = fit(capsys, "limit_beta10_zeta05_trigger_in_4096.csv",
                    LIMIT_L128[1024], "--law", "vural2026.headline")
    assert limit["exponents"]["L"]["estimate"] == pytest.approx(0.01736, abs=5e-6)
    at64 = next(c for c in limit["cells"] if c["params"]["L"] == 64)["threshold"]
    code, out = fit(capsys, "three_step_eta55e4_beta10_zeta05_trigger_in_L64_probe_4096.csv", "--law",
                     "vural2026.headline")
    (cell,) = out["cells"]
    assert code == 3 and not cell["in_regime"] and cell["method"] == "glm" and cell["trials"] == 35
    assert cell["threshold"] == pytest.approx(131196, rel=1e-4)
    assert cell["threshold"] / at64 == pytest.approx(0.876, abs=0.005)
    assert 125000 <= cell["threshold"] <= 165000 and cell["ci"][1] < 170000 and cell["ci"][0] > 115000
    names = ["three_step_eta55e4_beta10_zeta05_trigger_in_L64_probe_4096.csv",
             "three_step_eta1e6_beta10_zeta05_trigger_in_L128_probe_4096.csv",
             "three_step_eta16e5_beta10_zeta05_trigger_in_L256_probe_4096.csv"]
    code, out = fit(capsys, *names, "--law", "N >= C*L**0.01736",
                     "--params", "L", "--ignore", "eta")
    L = out["exponents"]["L"]
    assert code == 3 and L["estimate"] == pytest.approx(0.2946, abs=5e-4)
    assert L["ci"] == pytest.approx([0.2012, 0.3881], abs=5e-4) and L["ci"][0] > 0.01736
    assert out["collapse"]["statistic"] == pytest.approx(26.23, abs=0.01) and out["collapse"]["df"] == 3
    # the limit's threshold rises with L too (1.50e5, 1.51e5, 1.53e5), so rising thresholds alone would not
    # say the ratio rises: compare each with the limit at its own L (bench/trigger_in_probes.limits)
    limit = {L: n for (V, d, L), (n, _) in bench_script("trigger_in_probes").limits().items()
             if (V, d) == (4096, 1024)}
    ratios = [c["threshold"] / limit[c["params"]["L"]] for c in sorted(out["cells"], key=lambda c: c["params"]["L"])]
    assert ratios == sorted(ratios) and ratios == pytest.approx([0.876, 1.131, 1.286], abs=0.001)


def _L_slope(capsys, eta, Ls=(64, 256)):
    """The headline law's fit to the probes at ``Ls`` (``eta`` as in the rows' names): refuted
    (exit 1), the ``L = 64`` cell outside the regime; the ``L`` exponent."""
    names = [f"three_step_{eta}_beta10_zeta05_trigger_in_L{L}_probe_4096.csv" for L in Ls]
    code, out = fit(capsys, *names, "--law", "vural2026.headline")
    assert code == 1 and out["verdict"] == "refuted" and out["exponents"]["L"]["status"] == "refuted"
    assert out["outside_regime"].startswith(f"outside the law's regime in 1 of {len(Ls)} cells")
    return out["exponents"]["L"]
