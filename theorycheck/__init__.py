"""theorycheck: check scaling claims of learning theory against simulation.

A bound is stated once as a SymPy law; the simulator measures empirical
thresholds; the comparator decides -- consistent, refuted or inconclusive --
whether the law holds up to constant (and polylog) factors.
"""

__version__ = "0.1.0"
