"""theorycheck: check scaling claims of learning theory against simulation.

A bound is stated once as a SymPy law; the simulator measures empirical
thresholds; the comparator decides -- consistent, refuted or inconclusive --
whether the law holds up to constant (and polylog) factors.

Entry points, imported on first use (PEP 562) so that ``import theorycheck`` and the
command line start in a fraction of a second:

* ``check(target, ...)`` -- law or catalogue id -> sweep -> thresholds -> verdict
  (:func:`theorycheck.check.runner.check`);
* ``simulate(params, algorithm, seed, ...)`` -- one trial (:func:`theorycheck.simulate.simulate`);
* ``Law`` / ``Regime`` -- a threshold condition and where its exponents are read
  (:mod:`theorycheck.law`); verdicts on measured data: ``theorycheck.compare.compare``;
* ``Task`` / ``Variable`` / ``Algorithm`` -- declarations of the registry, to add your own
  task or algorithm (:mod:`theorycheck.registry`).

``theorycheck.check`` and ``theorycheck.simulate`` are also the names of a sub-package and
a module; both are callable and call the function of the same name, so
``from theorycheck import check; check("vural2026.one_step")`` works whatever was
imported before.

>>> import theorycheck
>>> theorycheck.Law.parse("N >= C*V*log(V)").resource
'N'
"""

from __future__ import annotations

import importlib
import types
from typing import Any

__version__ = "0.1.0"

__all__ = ["Algorithm", "Law", "Regime", "Task", "Variable", "check", "simulate", "__version__"]

#: public name -> (module, attribute or None for the module itself)
_LAZY: dict[str, tuple[str, str | None]] = {
    "Law": ("theorycheck.law.core", "Law"),
    "Regime": ("theorycheck.law.regime", "Regime"),
    "Task": ("theorycheck.registry", "Task"),
    "Variable": ("theorycheck.registry", "Variable"),
    "Algorithm": ("theorycheck.registry", "Algorithm"),
    "check": ("theorycheck.check", None),
    "simulate": ("theorycheck.simulate", None),
}


class _CallableModule(types.ModuleType):
    """A module whose call runs its function of the same name (``theorycheck.check(...)``)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(self, self.__name__.rpartition(".")[2])(*args, **kwargs)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'theorycheck' has no attribute {name!r}")
    module_name, attribute = _LAZY[name]
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    if attribute is not None:  # sub-modules bind themselves on import
        globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
