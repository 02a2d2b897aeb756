"""The design hints of the attention-MLP laws (theorycheck/bounds/vural2026.py, docs/mlp_phase.md):
every designed cell is inside the law's regime, and off the MLP read-out's storage wall in d
(d^2 >= ~9 V log V, measured in docs/mlp_phase.md) where the design says so."""

import math

import pytest

from theorycheck.check import plan


def _regime_ok(cell, much=4.0):
    """V >> d and L << V read as ratios of at least 4 (theorycheck.check.regime.MUCH)."""
    return cell["V"] >= much * cell["d"] and cell["V"] >= much * cell["L"]


@pytest.mark.parametrize("budget", ["quick", "standard"])
def test_gradient_noise_design_keeps_v_4d_and_l_quarter_v_in_every_cell(budget):
    _, design = plan("vural2026.mlp_gradient_noise", budget=budget)
    assert design.settings["model"] == "mlp" and design.settings["center_features"] is True
    assert {"m", "L"} <= set(design.varied)  # the quick check varies m and L
    assert not any("outside the law's regime" in n for n in design.notes)
    for cell in design.cells:
        assert _regime_ok(cell), cell
        assert cell["d"] ** 2 >= 9 * cell["V"] * math.log(cell["V"]), cell  # off the d-wall
        assert cell["m"] * cell["d"] >= 36 * cell["V"] * math.log(cell["V"]), cell  # right of the m-wall


def test_mean_bias_design_isolates_the_relu_mean_in_regime_and_only_paper_affords_a_d_line():
    # The law is about the ReLU's mean: uncentred, the trigger out of the value path (with it in,
    # the attention-only mean bias dominates, docs/mlp_phase.md §5). Every line end stays in the
    # wedge of the three-step laws (V >= 4 d, off the d-wall) and right of the MLP-noise wall
    # (m*d >= 36 V log V, measured C1 = 18..37), so the threshold is ~3e5. With the MLP limit's
    # token tables a trial there costs ~5 s (it was minutes with dense chunks): quick and
    # standard still refuse the check for its cost, and paper affords the d line only.
    from theorycheck.check.target import resolve_target

    tgt = resolve_target("vural2026.mlp_mean_bias")
    assert tgt.settings["center_features"] is False and tgt.settings["marker_in_value"] is False
    ends = [dict(tgt.base, **{k: v}) for k, rng in tgt.ranges.items() for v in rng]
    for cell in [tgt.base, *ends]:
        assert _regime_ok(cell), cell
        assert cell["d"] ** 2 >= 8 * cell["V"] * math.log(cell["V"]), cell  # off the d-wall
        assert cell["m"] * cell["d"] >= 36 * cell["V"] * math.log(cell["V"]), cell  # right of the m-wall
    for budget in ("quick", "standard"):
        with pytest.raises(ValueError, match=f"within the {budget} budget"):
            plan("vural2026.mlp_mean_bias", budget=budget)
    _, design = plan("vural2026.mlp_mean_bias", budget="paper")
    assert set(design.varied) == {"d"}
    for cell in design.cells:
        assert _regime_ok(cell), cell
        assert cell["d"] ** 2 >= 8 * cell["V"] * math.log(cell["V"]), cell


def test_storage_design_holds_n_fixed_and_stays_off_the_d_wall():
    _, design = plan("vural2026.mlp_storage", budget="quick")
    assert design.resource == "m" and design.base["N"] == 30000
    assert set(design.varied) == {"d", "V"}
    for cell in design.cells:
        assert cell["d"] ** 2 >= 9 * cell["V"] * math.log(cell["V"]), cell
        # N stays above the counts term C0 V log V (C0 = 6.2) by at least 3x in every cell
        assert cell["N"] >= 3 * 6.2 * cell["V"] * math.log(cell["V"]), cell
