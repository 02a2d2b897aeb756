"""theorycheck: check scaling claims of learning theory against simulation.

A bound is stated once as a SymPy law; the simulator measures empirical
thresholds; the comparator decides -- consistent, refuted or inconclusive --
whether the law holds up to constant (and polylog) factors.
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    """``theorycheck.Task`` and ``theorycheck.Variable``: declare your own task
    (:mod:`theorycheck.registry`), imported when first used."""
    if name in ("Task", "Variable"):
        from theorycheck import registry

        return getattr(registry, name)
    raise AttributeError(f"module 'theorycheck' has no attribute {name!r}")
