"""Every example in theorycheck's docstrings runs and prints what it shows.

A docstring example that no test runs rots silently (``fit_threshold``'s said ``'glm'``
where its data had long given the model-free bracket); this runs them all.
"""

import doctest
import importlib
import pkgutil

import pytest

import theorycheck

#: optional extras a module may import at top level; without them its examples are skipped
OPTIONAL = {"torch", "cupy"}

MODULES = sorted(m.name for m in pkgutil.walk_packages(theorycheck.__path__, "theorycheck."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:  # pragma: no cover - only without an optional extra
        if exc.name in OPTIONAL:
            pytest.skip(f"{name} needs the optional {exc.name}")
        raise
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples of {name} failed"


def test_the_walk_finds_the_threshold_modules():
    # guards the walk itself: an empty MODULES would make the test above vacuous
    assert {"theorycheck.threshold.bracket", "theorycheck.threshold.glm", "theorycheck.threshold.search"} <= set(MODULES)
