"""The run arguments of a check (``q``, ``tolerance``, ``vary``, ``entropy``, ``store``, ``thresholds``), checked once.

The sweep uses some of them only late (the tolerance after the whole sweep), so they are
checked before any work. One function serves both callers, each naming the arguments as
its user wrote them: :func:`theorycheck.check.check` (``q``, ``tolerance``, ...) and
``theorycheck check`` (``--q``, ``--tolerance``, ...), which checks them before its output
directory exists.

>>> check_run_arguments(vary=" d, L", q=0.5)
('d', 'L')
>>> check_run_arguments(vary=",", names=CLI_NAMES)
Traceback (most recent call last):
...
ValueError: --vary must name variables (got ','); give e.g. --vary d,L, or leave it out
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from theorycheck.validate import check_int, check_open_unit, check_positive

__all__ = ["ArgumentNames", "API_NAMES", "CLI_NAMES", "THRESHOLD_METHODS", "check_run_arguments"]

#: How a check measures each cell's threshold: ``"bernoulli"``, the adaptive search over
#: independent trials with a binomial GLM (theorycheck/threshold/search.py, the default), or
#: ``"per-seed"``, the quantile of per-seed critical values on nested data with an
#: order-statistic CI (theorycheck/threshold/per_seed_search.py; the task must declare its
#: data nested in the resource).
THRESHOLD_METHODS = ("bernoulli", "per-seed")


@dataclass(frozen=True)
class ArgumentNames:
    """How the caller's user names each run argument in a message, and an example of ``vary``."""

    q: str = "q"
    tolerance: str = "tolerance"
    vary: str = "vary"
    entropy: str = "entropy"
    thresholds: str = "thresholds"
    vary_example: str = "vary=('d', 'L') or 'd,L'"


#: the parameter names of :func:`theorycheck.check.check`
API_NAMES = ArgumentNames()
#: the options of ``theorycheck check`` (cli/options.py: ``--seed`` is the entropy)
CLI_NAMES = ArgumentNames(q="--q", tolerance="--tolerance", vary="--vary", entropy="--seed",
                          thresholds="--thresholds", vary_example="--vary d,L")

_STORE_METHODS = ("bind", "get", "put", "records", "close")


def check_run_arguments(*, vary: Any = None, entropy: Any = 0, q: Any = 0.5, tolerance: Any = None,
                        store: Any = None, thresholds: Any = "bernoulli",
                        names: ArgumentNames = API_NAMES) -> tuple[str, ...] | None:
    """Check every run argument and return ``vary`` as a tuple of names, or ``None`` (vary all).

    ``vary`` is a sequence of names or a string split at commas (``"d, L" -> ("d", "L")``;
    blank pieces are dropped, as ``--vary d,`` always allowed). ``q`` lies in (0, 1),
    ``tolerance`` (when given) is a positive finite number, ``entropy`` an integer >= 0
    (theorycheck.validate), ``store`` (when given) has a sweep store's methods,
    ``thresholds`` is one of :data:`THRESHOLD_METHODS`. A ValueError names the argument as
    ``names`` says."""
    if thresholds not in THRESHOLD_METHODS:
        raise ValueError(f"{names.thresholds} must be one of {', '.join(THRESHOLD_METHODS)}, got {thresholds!r}")
    check_int(names.entropy, entropy, 0, " (the root seed of every trial)")
    check_open_unit(names.q, q, " (the success probability that defines the threshold)")
    if tolerance is not None:
        check_positive(names.tolerance, tolerance, " (the equivalence margin on exponents, e.g. 0.25)")
    if store is not None and not all(callable(getattr(store, m, None)) for m in _STORE_METHODS):
        raise ValueError(f"store must be a theorycheck.sweep store (MemoryStore, SqliteStore or open_store(path)), "
                         f"got {type(store).__name__}: {store!r}")
    if vary is None:
        return None
    try:
        pieces = [v for v in vary.split(",") if v.strip()] if isinstance(vary, str) else list(vary)
    except TypeError:  # neither a string nor a sequence
        pieces = []
    if not pieces or not all(isinstance(v, str) and v.strip() for v in pieces):
        raise ValueError(f"{names.vary} must name variables (got {vary!r}); give e.g. {names.vary_example}, "
                         "or leave it out")
    return tuple(v.strip() for v in pieces)
