"""Python-API inputs a user gets wrong or writes the CLI way (found by a user-eye review):
each is read as meant, or refused with one message that says what to do."""

import pytest

from theorycheck.compare import fit_exponents
from theorycheck.law import Law
from theorycheck.planted import planted_dataset

GRID = {"V": [10, 30, 100], "d": [10, 100]}


def test_planted_data_take_a_law_string_as_check_does():
    by_text = planted_dataset("N >= C*V*d", grid=GRID, constants={"C": 2.0}, seed=1)
    by_law = planted_dataset(Law.parse("N >= C*V*d"), grid=GRID, constants={"C": 2.0}, seed=1)
    assert by_text.to_dict() == by_law.to_dict()


def test_a_scalar_grid_entry_is_refused_by_name():
    # was a bare "TypeError: 'int' object is not iterable" from inside planted.py
    with pytest.raises(ValueError, match=r"grid\['V'\] must be a non-empty sequence of values, got 10"):
        planted_dataset("N >= C*V*d", grid={"V": 10, "d": [10, 100]})


@pytest.mark.parametrize(("assume", "message"), [
    ("k << n", "give one plain comparison per string"),
    ("k < n, k > 1", "give one plain comparison per string"),
    ("k = n", "cannot parse assumption 'k = n'"),  # was "cannot parse law 'k = n'"
])
def test_an_assumption_that_does_not_parse_is_called_an_assumption(assume, message):
    with pytest.raises(ValueError, match=message):
        Law.parse("m >= C*k*log(n/k)", assume=assume)


def test_fit_exponents_reads_a_string_of_variables_as_a_comma_list():
    data = planted_dataset("N >= C*V*d", grid=GRID, constants={"C": 2.0}, seed=1)
    # list("Vd") split it into letters; a name like "eps" would have become e, p, s
    assert set(fit_exponents(data, variables="V,d").exponents) == {"V", "d"}
    with pytest.raises(ValueError, match=r"variables \['Vd'\] are not in the data"):
        fit_exponents(data, variables="Vd")


def test_arguments_given_in_the_wrong_order_get_a_short_message():
    # assert_threshold_consistent(data, law) put the whole Dataset repr (~2k characters) in it
    from theorycheck.testing import assert_threshold_consistent

    data = planted_dataset("N >= C*V*d", grid=GRID, constants={"C": 2.0}, seed=1)
    with pytest.raises(ValueError, match="expected a Law, a catalogue Bound or id") as info:
        assert_threshold_consistent(data, "N >= C*V*d")
    assert len(str(info.value)) < 250


def test_exponent_checks_hold_plain_floats():
    # the CI was a tuple of np.float64, which prints as np.float64(...) in a user's notebook
    from theorycheck.compare import compare

    data = planted_dataset("N >= C*V*d", grid=GRID, constants={"C": 2.0}, seed=1)
    check = compare("N >= C*V*d", data).exponents["V"]
    assert all(type(x) is float for x in (check.estimate, check.predicted, *check.ci))


def test_a_law_without_a_comparison_is_told_to_state_one():
    from theorycheck.catalogue import as_law

    with pytest.raises(ValueError, match=r"'C\*k\*log\(n/k\)' has no comparison: .* 'N >= C\*k\*log\(n/k\)'"):
        as_law("C*k*log(n/k)")
    with pytest.raises(ValueError, match=r"unknown bound 'vural2026.headlin'.*did you mean"):
        as_law("vural2026.headlin")
