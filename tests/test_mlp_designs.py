"""The design hints of the attention-MLP laws (bounds/vural2026.py, docs/mlp_phase.md):
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


def test_mean_bias_design_is_in_regime_and_refused_by_the_quick_budget():
    # In regime (V >= 4 d) the mean-bias threshold is > 1e5 at the cheapest base: the quick
    # budget's cost cap refuses the base cell instead of running minute-long trials.
    with pytest.raises(ValueError, match="not simulable within the quick budget"):
        plan("vural2026.mlp_mean_bias", budget="quick")
    _, design = plan("vural2026.mlp_mean_bias", budget="standard")
    assert design.settings["center_features"] is False
    assert set(design.varied) == {"V", "d"}
    for cell in design.cells:
        assert _regime_ok(cell), cell


def test_storage_design_holds_n_fixed_and_stays_off_the_d_wall():
    _, design = plan("vural2026.mlp_storage", budget="quick")
    assert design.resource == "m" and design.base["N"] == 30000
    assert set(design.varied) == {"d", "V"}
    for cell in design.cells:
        assert cell["d"] ** 2 >= 9 * cell["V"] * math.log(cell["V"]), cell
        # N stays above the counts term C0 V log V (C0 = 6.2) by at least 3x in every cell
        assert cell["N"] >= 3 * 6.2 * cell["V"] * math.log(cell["V"]), cell
