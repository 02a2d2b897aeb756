"""The sweep design of ``theorycheck check`` (theorycheck.check.design)."""

import math

import pytest

from theorycheck.check import BUDGETS, get_budget, plan
from theorycheck.law import Law, Regime


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
    with pytest.raises(ValueError, match="quick, standard, paper, full"):
        get_budget("fast")


def test_law_objects_are_accepted_as_targets():
    tgt, design = plan(Law.parse("N >= C*L*V*log(V)"), budget="quick", base={"d": 181})
    assert tgt.id == "user-law" and set(design.varied) <= {"L", "V"}


def test_in_regime_design_of_the_headline_law_keeps_every_cell_in_its_design_time_regime():
    # vural2026.headline's regime: V >> d, L << V (ratios >= 4, check/regime.py) are judged
    # before measuring; N << L*V only at the thresholds. Every designed cell must satisfy
    # the first two, and the quick budget must still vary L.
    from theorycheck.check.regime import MUCH

    _, design = plan("vural2026.headline", budget="quick")
    assert "L" in design.varied and len(design.varied["L"]) >= 3
    assert design.settings.get("marker_in_value") is False  # the gradient-noise branch (theorycheck/bounds/vural2026.py)
    for cell in design.cells:
        assert cell["V"] >= MUCH * cell["d"] and MUCH * cell["L"] <= cell["V"]


@pytest.mark.parametrize("law_id", ["vural2026.headline", "vural2026.three_step_hard"])
def test_paper_budget_varies_every_variable_of_the_headline_inside_its_wedge(law_id):
    # The paper budget takes lines down to 1.4x (the wedge at V = 2048 leaves d and V
    # sqrt(2) of room), spreads each over 3 values (quarter-octave steps) and keeps the
    # bound's design-only storage margin d^2 >= 8 V log V in every cell, joint points too.
    # three_step_hard shares the headline's design (theorycheck/bounds/vural2026_designs.py, _IN_REGIME): its
    # fresh-seed verdict in docs/theory.md §7.8 is claimed on these cells, L varied though
    # the law has none (an L exponent is then checked against 0).
    from theorycheck.check.regime import MUCH

    _, design = plan(law_id, budget="paper")
    assert set(design.varied) == {"L", "d", "V"}
    assert all(len(values) == 3 for values in design.varied.values())
    joint = [c for c in design.cells if sum(c[v] != design.base[v] for v in ("L", "d", "V")) == 2]
    assert joint  # the base sits at the end of the d and V ranges: the other ends are taken
    for cell in design.cells:
        assert cell["V"] >= MUCH * cell["d"] and MUCH * cell["L"] <= cell["V"]
        assert cell["d"] ** 2 >= 8 * cell["V"] * math.log(cell["V"])
    _, quick = plan("vural2026.headline", budget="quick")
    assert "d" not in quick.varied  # quick lines need 1.5x


def test_keep_hints_are_checked_against_the_task():
    from theorycheck.catalogue import Bound, validate

    bound = Bound(id="demo.kept", law=Law.parse("N >= C*V*log(V)"), kind="upper", directions={"N": "helps", "V": "hurts"},
                  regime=Regime({"V": 1}, "V -> oo"), provenance="prior", citation="demo", task="retrieval",
                  criterion="demo", keep=("q**2 >= V",))
    with pytest.raises(ValueError, match=r"demo.kept: keep names \['q'\], not variables of task"):
        validate(bound)
    with pytest.raises(ValueError, match="keep must be a tuple of constraint strings"):
        Bound(id="demo.kept", law=Law.parse("N >= C*V*log(V)"), kind="upper", directions={"N": "helps", "V": "hurts"},
              regime=Regime({"V": 1}, "V -> oo"), provenance="prior", citation="demo", task="retrieval",
              criterion="demo", keep="d >= V")


def test_lines_stop_at_the_regime_and_a_base_outside_it_is_said():
    law = Law.parse("N >= C*L*V**2*log(V)/d**2")
    from theorycheck.check.design import design_sweep
    from theorycheck.registry import get_task

    task = get_task("retrieval")
    kwargs = dict(settings={"algorithm": "limit"}, budget=get_budget("standard"), ranges={"d": (16, 4096)},
                  vary=("d",))
    free = design_sweep(law, task, base={"V": 1024, "d": 64, "L": 8}, **kwargs)
    inside = design_sweep(law, task, base={"V": 1024, "d": 64, "L": 8}, constraints=("V >> d",), **kwargs)
    assert max(free.varied["d"]) > 256  # without the regime the d line would cross V/4
    assert max(inside.varied["d"]) <= 256 and not any("outside" in n for n in inside.notes)
    outside = design_sweep(law, task, base={"V": 1024, "d": 512, "L": 8}, constraints=("V >> d",), **kwargs)
    assert any("base point is outside the law's regime (V >> d fails there)" in n for n in outside.notes)
    # a constraint naming the resource cannot be judged before measuring: it does not bound the design
    resource = design_sweep(law, task, base={"V": 1024, "d": 64, "L": 8}, constraints=("N << L*V",), **kwargs)
    assert resource.varied == free.varied


def test_an_algorithm_option_given_flat_reaches_the_algorithm():
    # `--set beta=4` on the limit algorithm: the retrieval task routes a key that is one
    # of the algorithm's options into the trial's options, and still refuses other keys.
    from theorycheck.tasks.retrieval_task import retrieval_params

    _, algorithm, options = retrieval_params({"V": 64, "d": 64, "L": 4, "N": 100, "beta": 2.0})
    assert algorithm == "limit" and options == {"beta": 2.0}
    with pytest.raises(ValueError, match=r"no parameter\(s\) \['gamma'\]"):
        retrieval_params({"V": 64, "d": 64, "L": 4, "N": 100, "gamma": 2.0})
    _, design = plan("vural2026.headline", settings={"beta": 4.0})
    assert design.settings["beta"] == 4.0


def test_an_integer_variable_at_1_grows_its_range():
    # round(1 * sqrt(2)) = 1: the upward widening of the range kept "succeeding" at 1 and the
    # design never returned (check() hung with base L = 1, or d = 1 on a user task)
    _, design = plan("vural2026.one_step", base={"V": 48, "L": 1})
    assert design.varied["L"][0] == 1 and design.varied["L"][-1] >= 4


def test_a_real_variable_reaches_range_ends_on_its_lattice():
    # sqrt(2) steps from s = 2 land on 0.9999999999999999 and 8.000000000000002, one ulp outside the
    # declared range 1..8: the line stopped at 1.41..5.66 until a value that near an end became the end
    _, design = plan("vural2026.readout_wall", budget="quick")
    s = design.varied["s"]
    assert s[0] == 1.0 and s[-1] == 8.0 and len(s) == 3
    # an end off the lattice by more than float rounding is not reached: the line stays inside it
    _, design = plan("vural2026.readout_wall", budget="quick", ranges={"V": (512, 4096), "s": (1.0001, 8)})
    assert design.varied["s"][0] == pytest.approx(math.sqrt(2)) and design.varied["s"][-1] <= 8.0
