"""``reported_thresholds`` (compare/verdict.py): each cell's threshold and CI as ``compare``
reports them first, for any law: the cell's own where the exponents are read from the cells'
own fits, its shared-width threshold where they are read from the joint model."""

import pytest

from theorycheck.compare import Dataset, cell_thresholds, compare, reported_thresholds
from theorycheck.law import Law
from theorycheck.planted import planted_dataset

LAW = Law.parse("N >= C*V*d")


def _planted(trials, seed, multipliers):
    return planted_dataset(LAW, grid={"V": [10, 100, 1000], "d": [10, 100]}, constants={"C": 2.0},
                           width=0.1, trials=trials, seed=seed, multipliers=multipliers)


@pytest.mark.parametrize("trials, seed, method", [(2, 1, "joint"), (40, 1, "joint"), (40, 5, "per-cell")])
def test_they_are_the_verdicts_cells_for_every_law(trials, seed, method):
    # two trials a point leave every cell a bracket (the joint route); 40 give most cells a GLM of
    # their own, all of them at seed 5 (the per-cell route). The routes were found by running
    # these seeds; the assertion that matters is the equality, which holds on either route
    data = _planted(trials, seed, [0.7, 0.85, 1.0, 1.2, 1.4] if trials == 2 else [0.6, 0.8, 1.0, 1.2, 1.5, 2.0])
    got = reported_thresholds(data)
    for law in (LAW, "N >= C*V", "N >= C1*V + C2*d"):
        verdict = compare(law, data, diagnostics=False)
        assert verdict.method == method
        assert [c.reported for c in verdict.cells] == got  # the same numbers, not close ones
    own = [(th.estimate, tuple(th.ci)) for th in cell_thresholds(data)]
    if method == "per-cell":
        assert got == own
    else:  # the shared-width thresholds, each cell's its own
        assert all(g != o for g, o in zip(got, own))
        shared = compare(LAW, data, diagnostics=False).to_dict()["cells"]
        assert [(c["shared_width"]["threshold"], tuple(c["shared_width"]["ci"])) for c in shared] == got


def test_cells_without_a_crossing_report_none_and_nothing_is_fitted():
    # every trial succeeded: no cell crosses, compare answers NoCrossing; the cells say None
    data = Dataset.from_rows([{"V": v, "N": n, "successes": 4, "trials": 4} for v in (8, 16) for n in (10, 20)],
                             resource="N", variables=["V"])
    got = reported_thresholds(data)
    assert len(got) == 2 and all(est is None for est, _ in got)


def test_a_bad_level_is_refused_before_any_fit():
    with pytest.raises(ValueError, match="level"):
        reported_thresholds(_planted(2, 1, [0.7, 1.0, 1.4]), level=1.5)
