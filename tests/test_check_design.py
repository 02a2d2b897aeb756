"""The sweep design of ``theorycheck check`` (theorycheck.check.design)."""

import math

import pytest

from theorycheck.check import BUDGETS, get_budget, plan
from theorycheck.law import Law


def test_quick_design_of_the_default_law_stays_in_its_declared_ranges():
    tgt, design = plan("vural2026.one_step", budget="quick")
    assert design.resource == "N"
    assert set(design.varied) == {"d", "L"}  # quick varies the bound's first two variables
    assert min(design.varied["d"]) >= 128 and max(design.varied["d"]) <= 512
    for var, values in design.varied.items():
        assert values == sorted(values) and len(values) >= 3
        assert max(values) / min(values) <= BUDGETS["quick"].max_span * 1.01
        assert min(values) <= design.base[var] <= max(values)
    # One-at-a-time lines through the base point: each cell differs from base in <= 1 variable.
    for cell in design.cells:
        assert sum(cell[v] != design.base[v] for v in design.varied) <= 1
    assert any("V held fixed" in n for n in design.notes)
    # Every search starts at the law's prediction with the reference constants.
    law = tgt.law
    for cell, start in zip(design.cells, design.starts, strict=True):
        pred = float(law.evaluate({v: cell[v] for v in law.variables}, tgt.constants))
        assert start == pytest.approx(pred, rel=1e-3, abs=1)


def test_larger_budgets_vary_more_and_add_joint_points():
    _, quick = plan("vural2026.one_step", budget="quick")
    _, std = plan("vural2026.one_step", budget="standard")
    assert set(std.varied) == {"d", "L", "V"}
    assert len(std.cells) > len(quick.cells)
    joint = [c for c in std.cells if sum(c[v] != std.base[v] for v in std.varied) == 2]
    assert len(joint) == BUDGETS["standard"].joint_points


def test_a_variable_outside_the_law_can_be_varied_for_a_zero_exponent_prediction():
    _, design = plan("vural2026.orthogonal", settings={"algorithm": "one-step"})
    assert "L" in design.varied and "L" not in design.settings
    assert design.settings["embeddings"] == "orthogonal"
    # d = V + 2 stays valid in every cell (orthogonal needs d >= V + 2).
    assert all(c["d"] >= c["V"] + 2 for c in design.cells)


def test_user_law_string_on_the_linear_am_task():
    _, design = plan("d**2 >= C*V*log(V)", task="linear-am", budget="quick")
    assert design.resource == "d" and "V" in design.varied
    assert math.isclose(design.base["V"], 256)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": "vural2026.nope"}, "unknown bound"),
        ({"target": "vural2026.one_step", "budget": "huge"}, "unknown budget 'huge'"),
        ({"target": "vural2026.regime"}, "is an assumption"),
        ({"target": "N >= C*T*log(V)"}, "which the retrieval task cannot set"),
        ({"target": "N >= C*V*log(V)", "task": "protein-folding"}, "unknown task"),
        ({"target": "E >= C*d", "task": "retrieval"}, "cannot vary 'E'"),
        ({"target": "vural2026.one_step", "vary": ("q",)}, "cannot vary ['q']"),
        ({"target": "vural2026.one_step", "settings": {"algorithm": "magic"}}, "magic"),
    ],
)
def test_bad_input_is_refused_before_any_work(kwargs, message):
    target = kwargs.pop("target")
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        plan(target, **kwargs)


def test_get_budget_names_the_valid_budgets():
    assert get_budget("standard").name == "standard"
    with pytest.raises(ValueError, match="quick, standard, full"):
        get_budget("fast")


def test_law_objects_are_accepted_as_targets():
    tgt, design = plan(Law.parse("N >= C*L*V*log(V)"), budget="quick", base={"d": 181})
    assert tgt.id == "user-law" and set(design.varied) <= {"L", "V"}
