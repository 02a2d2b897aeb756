"""The catalogue machinery: discovery and lookup of :class:`Bound` entries.

Content lives in the package ``theorycheck.bounds`` (one module per paper, each defining a list
``BOUNDS``); this module only finds, validates and looks up entries; an entry itself,
what it holds and how it is checked when built, is :mod:`theorycheck.catalogue_entry`
(re-exported here: ``from theorycheck.catalogue import Bound``) (docs/theory.md §5,
docs/architecture.md "bounds/ is content, theorycheck/ is machinery").

Tasks, lower-bound ids and design-hint names are validated when the catalogue loads
(:func:`all_bounds`, :func:`get`); everything else when a :class:`Bound` is built.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from collections.abc import Mapping
from functools import lru_cache

from theorycheck.catalogue_entry import (
    DIRECTIONS,
    KINDS,
    NO_SIMULATOR,
    PROVENANCES,
    VERDICTS,
    Bound,
    Expected,
    json_number,
)
from theorycheck.law import Law

__all__ = ["Bound", "Expected", "as_law", "get", "is_id", "all_bounds", "validate", "KINDS", "PROVENANCES", "DIRECTIONS", "VERDICTS",
           "NO_SIMULATOR", "json_number"]


@lru_cache(maxsize=1)
def _registry() -> dict[str, Bound]:
    from theorycheck import bounds

    found: dict[str, Bound] = {}
    for info in sorted(pkgutil.iter_modules(bounds.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"theorycheck.bounds.{info.name}")
        entries = getattr(module, "BOUNDS", None)
        if entries is None:
            continue
        for entry in entries:
            if not isinstance(entry, Bound):
                raise ValueError(f"theorycheck.bounds.{info.name}.BOUNDS holds {type(entry).__name__}, not Bound")
            if entry.id in found:
                raise ValueError(f"bound id {entry.id!r} is defined twice (second time in theorycheck.bounds.{info.name})")
            found[entry.id] = entry
    for entry in found.values():
        _validate_names(entry, found)
    return found


def validate(bound: Bound) -> None:
    """Check what a :class:`Bound` cannot check alone against the registered tasks and this
    catalogue (done for every entry at load; ``check`` does it for a Bound built by hand)."""
    _validate_names(bound, _registry())


def _task_variables(name: str) -> set[str]:
    """The variable names of the registered task ``name``; ValueError naming the known tasks."""
    from theorycheck.registry import get_task

    return set(get_task(name).variables)


def _validate_names(bound: Bound, found: Mapping[str, Bound]) -> None:
    """What a Bound cannot check alone: its task exists and knows its variables, its lower
    bound is a ``lower`` entry of the catalogue on the same resource."""
    if bound.task is not None:
        try:
            variables = _task_variables(bound.task)
        except ValueError as exc:
            raise ValueError(f"{bound.id}: {exc} (or task=None if this package has no simulator for it)") from None
        from theorycheck.check.regime import parse_constraint

        try:
            kept = {n for c in bound.keep for n in parse_constraint(c).names}
        except ValueError as exc:
            raise ValueError(f"{bound.id}: keep: {exc}") from None
        named = {"law": {*bound.law.variables, bound.law.resource}, "base": set(bound.base),
                 "ranges": set(bound.ranges), "vary": set(bound.vary or ()), "keep": kept}
        for where, names in named.items():
            unknown = sorted(names - variables)
            if unknown:
                raise ValueError(f"{bound.id}: {where} names {unknown}, not variables of task "
                                 f"{bound.task!r} ({', '.join(sorted(variables))})")
    elif bound.base or bound.ranges or bound.vary or bound.keep:
        raise ValueError(f"{bound.id}: design hints (base, ranges, vary, keep) need a task; got task=None")
    if bound.lower is not None:
        other = found.get(bound.lower)
        if other is None or other.kind != "lower" or other.law.resource != bound.law.resource:
            raise ValueError(f"{bound.id}: lower={bound.lower!r} must be the id of a 'lower' bound of the "
                             f"catalogue with resource {bound.law.resource!r}")


def all_bounds() -> list[Bound]:
    """Every entry of every module of the ``bounds`` package, sorted by module then order."""
    return list(_registry().values())


def is_id(text: str) -> bool:
    """Whether ``text`` names a catalogue entry rather than states a law: it has no comparison
    (``<``, ``>``, ``=``), as every law does."""
    return not any(op in text for op in "<>=")


def as_law(target: object) -> tuple[Law, Bound | None]:
    """``(law, bound)`` from a Law, a Bound, a catalogue id or a law string (``bound`` is
    None unless the target names an entry); ValueError for anything else."""
    if isinstance(target, Bound):
        return target.law, target
    if isinstance(target, Law):
        return target, None
    if isinstance(target, str):
        if is_id(target):
            bound = get(target.strip())
            return bound.law, bound
        return Law.parse(target), None
    shown = repr(target) if len(repr(target)) <= 80 else repr(target)[:77] + "..."
    raise ValueError(f"expected a Law, a catalogue Bound or id, or a law string such as 'N >= C*V*log(V)', "
                     f"got {type(target).__name__}: {shown}")


def get(id: str) -> Bound:  # noqa: A002 - the agreed name
    """The entry called ``id``; ValueError with the known ids and close matches otherwise."""
    registry = _registry()
    if isinstance(id, str) and id in registry:
        return registry[id]
    if isinstance(id, str) and any(c in id for c in "*/+()^ "):  # an expression, not a name
        raise ValueError(f"{id!r} has no comparison: a law states one, as in 'N >= {id.strip()}' "
                         f"(or name a catalogue id: {', '.join(registry)})")
    close = difflib.get_close_matches(str(id), list(registry), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise ValueError(f"unknown bound {id!r}; known ids: {', '.join(registry)}{hint}")
