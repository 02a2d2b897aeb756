"""Dataset: construction, canonical order, merging, bad input."""

import pytest

from theorycheck.compare import Dataset
from theorycheck.threshold import fit_threshold

ROWS = [
    {"d": 8, "V": 100, "N": 50, "successes": 1, "trials": 4},
    {"d": 8, "V": 100, "N": 100, "successes": 3, "trials": 4},
    {"d": 4, "V": 100, "N": 200, "successes": 2, "trials": 4},
    {"d": 8, "V": 100, "N": 50, "successes": 2, "trials": 4},
]


def test_rows_are_grouped_merged_and_sorted():
    data = Dataset.from_rows(ROWS)
    assert data.variables == ("V", "d") and data.resource == "N"
    assert [c.values for c in data.cells] == [{"V": 100.0, "d": 4.0}, {"V": 100.0, "d": 8.0}]
    assert data.cells[1].points == ((50.0, 3, 8), (100.0, 3, 4))
    assert data.varied == ("d",) and data.trials == 16
    assert data.span_decades("d") == pytest.approx(0.30103)
    cols = data.columns()
    assert list(cols["cell"]) == [0, 1, 1] and list(cols["successes"]) == [2, 3, 3]


def test_resources_a_few_ulps_apart_are_one_point():
    # single-seed rows of one grid value, one of them written a few ulps off (another
    # machine's arithmetic): one point, as the threshold fits pool them. Kept apart, the law
    # fit's binomial constant differed from the collapse test's, which pools: on
    # bench/data/three_step_eta1e5_L_line.csv ulp-nudged copies moved its LR from 29.2 to 54
    nudged = [dict(ROWS[0], N=50 * (1 + 4e-16)), *ROWS[1:]]
    assert Dataset.from_rows(nudged) == Dataset.from_rows(ROWS)
    apart = [dict(ROWS[0], N=50 * (1 + 1e-6)), *ROWS[1:]]  # a real design difference stays
    assert len(Dataset.from_rows(apart).cells[1].points) == 3


def test_order_of_rows_does_not_matter():
    assert Dataset.from_rows(ROWS) == Dataset.from_rows(ROWS[::-1])


def test_from_columns_and_from_thresholds():
    cols = {k: [r[k] for r in ROWS] for k in ROWS[0]}
    assert Dataset.from_columns(cols) == Dataset.from_rows(ROWS)
    th = fit_threshold([(10, 0, 4), (20, 2, 4), (40, 4, 4)], resource="d", increasing=True)
    data = Dataset.from_thresholds([({"V": 5}, th), ({"V": 50}, th)])
    assert data.resource == "d" and data.varied == ("V",) and len(data.cells) == 2
    assert data.to_dict()["cells"][0]["points"] == [[10.0, 0, 4], [20.0, 2, 4], [40.0, 4, 4]]


@pytest.mark.parametrize(
    ("rows", "kwargs", "fragment"),
    [
        ([{"d": 1, "N": 5, "successes": 5, "trials": 4}], {}, "exceed trials"),
        ([{"d": 1, "N": -5, "successes": 1, "trials": 4}], {}, "positive finite"),
        ([{"d": 0, "N": 5, "successes": 1, "trials": 4}], {}, "d must be a positive finite number"),
        ([{"d": float("nan"), "N": 5, "successes": 1, "trials": 4}], {}, "positive finite"),
        ([{"d": 1, "N": 5, "trials": 4}], {}, "lacks ['successes']"),
        ([{"d": 1, "N": 5, "successes": 0, "trials": 0}], {}, "trials = 0"),
        ([], {}, "no rows"),
        ([{"d": 1, "N": 5, "successes": 1, "trials": 4}], {"resource": "2x"}, "identifier"),
        ([{"d": 1, "N": 5, "successes": 1, "trials": 4}], {"variables": ["N"]}, "must not include"),
    ],
)
def test_bad_rows(rows, kwargs, fragment):
    with pytest.raises(ValueError) as info:
        Dataset.from_rows(rows, **kwargs)
    assert fragment in str(info.value)


def test_bad_columns_and_thresholds():
    with pytest.raises(ValueError, match="different lengths"):
        Dataset.from_columns({"d": [1, 2], "N": [1], "successes": [0], "trials": [1]})
    with pytest.raises(ValueError, match="column 'trials' is missing"):
        Dataset.from_columns({"d": [1], "N": [1], "successes": [0]})
    with pytest.raises(ValueError, match="expected a Threshold"):
        Dataset.from_thresholds([({"d": 1}, "x")])
    with pytest.raises(ValueError, match="unknown parameter|no parameter"):
        Dataset.from_rows(ROWS).cell_values("L")
