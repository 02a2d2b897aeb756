"""The run arguments of a check are checked by one function, named as each caller's user wrote them."""

import doctest

import pytest

import theorycheck.check.run_arguments as run_arguments
from theorycheck.check.run_arguments import API_NAMES, CLI_NAMES, check_run_arguments


@pytest.mark.parametrize(("kw", "api", "cli"), [
    ({"q": 1.5}, "q must lie strictly between 0 and 1, got 1.5", "--q must lie strictly between 0 and 1"),
    ({"q": float("nan")}, "q must lie strictly between 0 and 1", "--q must"),
    ({"tolerance": -1.0}, "tolerance must be a positive finite number, got -1.0", "--tolerance must be a positive"),
    ({"tolerance": float("inf")}, "tolerance must be a positive finite number", "--tolerance must"),
    ({"entropy": -1}, "entropy must be an integer >= 0, got -1", "--seed must be an integer >= 0"),
    ({"vary": ","}, "vary must name variables (got ','); give e.g. vary=('d', 'L')",
     "--vary must name variables (got ','); give e.g. --vary d,L, or leave it out"),
    ({"vary": ()}, "vary must name variables", "--vary must name variables"),
    ({"vary": ("d", " ")}, "vary must name variables", "--vary must name variables"),
    ({"vary": 3}, "vary must name variables (got 3)", "--vary must name variables (got 3)"),
])
def test_bad_argument_is_named_as_the_caller_names_it(kw, api, cli):
    for names, fragment in ((API_NAMES, api), (CLI_NAMES, cli)):
        with pytest.raises(ValueError) as info:
            check_run_arguments(names=names, **kw)
        message = str(info.value)
        assert message.startswith(fragment) and "\n" not in message


def test_vary_is_split_and_stripped_the_same_for_both_callers():
    for names in (API_NAMES, CLI_NAMES):
        assert check_run_arguments(vary=" d, L,", names=names) == ("d", "L")
        assert check_run_arguments(vary=["L"], names=names) == ("L",)
        assert check_run_arguments(vary=None, names=names) is None


def test_store_without_the_store_methods_is_refused():
    with pytest.raises(ValueError, match="store must be a theorycheck.sweep store"):
        check_run_arguments(store=object())


def test_module_examples_hold():
    result = doctest.testmod(run_arguments)
    assert result.attempted >= 2 and result.failed == 0
