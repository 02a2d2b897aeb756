"""Compare measured thresholds with laws: exponent fits, verdicts, model selection.

>>> from theorycheck.law import Law
>>> from theorycheck.planted import planted_dataset
>>> law = Law.parse("N >= C*V*d")
>>> data = planted_dataset(law, grid={"V": [10, 100, 1000], "d": [10, 100]},
...                        constants={"C": 2.0}, width=0.1, trials=16, seed=1)
>>> compare(law, data).status
'consistent'
"""

from theorycheck.compare.data import Cell, Dataset
from theorycheck.compare.decide import DEFAULT_MIN_SPAN, DEFAULT_TOLERANCE
from theorycheck.compare.exponents import (
    Exponent,
    LRTest,
    PowerLawFit,
    collapse_test,
    fit_power_law,
    fit_power_law_wls,
)
from theorycheck.compare.law_fit import cell_thresholds, fit_law
from theorycheck.compare.law_fit_result import Estimate, LawFit
from theorycheck.compare.lower_bound import LowerBoundCheck, check_lower_bound
from theorycheck.compare.model_selection import ModelComparison, additive_alternative, compare_models
from theorycheck.compare.polylog import freeze_polylog
from theorycheck.compare.checks import CellResult, ExponentCheck, Verdict
from theorycheck.compare.collapse import quasi_collapse_test
from theorycheck.compare.evidence import DECISIVE_DELTA_BIC, Alternative
from theorycheck.compare.verdict import compare, reported_thresholds
from theorycheck.compare.free_fit import FreeFit, fit_exponents
from theorycheck.compare.threshold_table import ThresholdTable

__all__ = [
    "Cell", "CellResult", "DEFAULT_MIN_SPAN", "DEFAULT_TOLERANCE", "Dataset", "Estimate", "Exponent",
    "ExponentCheck", "LRTest", "LawFit", "LowerBoundCheck", "ModelComparison", "PowerLawFit", "Verdict",
    "additive_alternative", "cell_thresholds", "check_lower_bound", "collapse_test", "compare",
    "compare_models", "fit_law", "fit_power_law", "fit_power_law_wls", "freeze_polylog",
    "FreeFit", "ThresholdTable", "fit_exponents", "quasi_collapse_test", "DECISIVE_DELTA_BIC", "Alternative",
    "reported_thresholds",
]
