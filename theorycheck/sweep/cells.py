"""The cells of a sweep: what each one fixes, which resource it varies, its searcher.

``CellSpec(params, resource, search)``; the cell's key is its key in the mapping passed
to :func:`theorycheck.sweep.run_sweep`. ``search`` follows the ask/tell protocol of
``theorycheck.threshold.ThresholdSearch`` (interfaces.md §D): ``ask() -> [(resource,
n_new_trials), ...]`` (``[]`` when done), ``tell(resource, successes, trials)``,
``result()``, and optionally a ``done`` attribute and ``tell_results(resource,
[result dict, ...])``, which the sweep then calls in place of ``tell`` with the trials'
own dicts (:class:`theorycheck.threshold.per_seed_search.PerSeedSearch`).
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from theorycheck.jsonable import canonical_json


@runtime_checkable
class SearchLike(Protocol):
    """The ask/tell protocol of ``theorycheck.threshold.ThresholdSearch`` (interfaces §D)."""

    def ask(self) -> list[tuple[float, int]]: ...

    def tell(self, resource: float, successes: int, trials: int) -> None: ...

    def result(self) -> Any: ...


@dataclass(frozen=True, eq=False)
class CellSpec:
    """One cell of a sweep: fixed ``params`` (JSON-able), the ``resource`` variable name
    the search varies, and the ``search`` (ask/tell object, mutated by the sweep)."""

    params: Mapping[str, Any]
    resource: str
    search: SearchLike


def describe_trial(trial: Callable[..., Any]) -> str:
    """Stable name of a trial function: ``module:qualname`` (``functools.partial``: the
    function's name plus its bound arguments as canonical JSON)."""
    if isinstance(trial, functools.partial):
        bound = canonical_json({"args": list(trial.args), "keywords": trial.keywords})
        return f"{describe_trial(trial.func)}{bound}"
    module = getattr(trial, "__module__", None)
    qualname = getattr(trial, "__qualname__", None)
    if not module or not qualname:
        raise ValueError(
            f"cannot name trial {trial!r} (no __module__/__qualname__); pass trial_id='...'"
        )
    return f"{module}:{qualname}"


def check_shippable(trial: Callable[..., Any]) -> None:
    """ValueError unless ``trial`` can be sent to worker processes (process pools and dask
    pickle it by reference: a top-level function of an importable module, or an object
    such as :class:`theorycheck.task_sources.FileTrial`)."""
    try:
        pickle.dumps(trial)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        name = getattr(trial, "__qualname__", repr(trial))
        raise ValueError(
            f"trial {name!r} cannot be sent to worker processes ({exc}); a lambda or a function "
            "defined inside another function cannot be pickled: define it with def at the top "
            "level of a module (or of a file given as path/to/file.py:NAME), or run serially"
        ) from None


def check_cells(cells: Any) -> dict[str, CellSpec]:
    if not isinstance(cells, Mapping):
        raise ValueError(
            f"cells must be a mapping {{cell key: CellSpec}}, got {type(cells).__name__}"
        )
    for key, spec in cells.items():
        if not isinstance(key, str) or not key:
            raise ValueError(f"cell keys must be non-empty strings, got {key!r}")
        if not isinstance(spec, CellSpec):
            raise ValueError(f"cell {key!r}: expected a CellSpec, got {type(spec).__name__}")
        if not isinstance(spec.resource, str) or not spec.resource:
            raise ValueError(f"cell {key!r}: resource must be a variable name, got {spec.resource!r}")
        if not isinstance(spec.params, Mapping) or spec.resource in spec.params:
            raise ValueError(
                f"cell {key!r}: params must be a mapping without the resource "
                f"{spec.resource!r} (the search sets it), got {spec.params!r}"
            )
        try:
            canonical_json(dict(spec.params))
        except ValueError as exc:
            raise ValueError(f"cell {key!r}: params {exc}") from None
        if not isinstance(spec.search, SearchLike):
            raise ValueError(
                f"cell {key!r}: search must have ask(), tell(resource, successes, trials) "
                f"and result(), got {type(spec.search).__name__}"
            )
    return dict(cells)
