"""What a check checks: a catalogue bound, a law object, or a user's law string.

A :class:`~theorycheck.catalogue.Bound` carries everything a check needs in its own
fields (docs/theory.md §5): ``task``, simulator ``settings`` (``algorithm``,
``embeddings``, ...), the design hints ``base`` (base point of the sweep), ``ranges``
(``{variable: (low, high)}`` limits the design must respect), ``vary`` (the variables
to vary; default every variable of the law) and ``keep`` (design-only constraints), and ``lower`` (the id of a lower bound the
observed thresholds must respect). A bound with ``task=None`` has no simulator in this
package and is refused here with a one-line message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from theorycheck import catalogue
from theorycheck.law import Law
from theorycheck.registry import Task, get_task

__all__ = ["Target", "resolve_target"]


@dataclass(frozen=True)
class Target:
    """A law plus everything needed to simulate it (resolved from a bound or given by hand)."""

    id: str
    law: Law
    task: Task
    settings: dict[str, Any]
    base: dict[str, float]
    ranges: dict[str, tuple[float, float]]
    vary: tuple[str, ...] | None
    constants: dict[str, float]
    lower_law: Law | None = None
    keep: tuple[str, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)
    caveats: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "law": self.law.text, "latex": self.law.latex,
                "resource": self.law.resource, "task": self.task.name,
                **({"task_source": self.task.source} if self.task.source else {}),
                **({"assume": list(self.law.assumption_texts)} if self.law.assumption_texts else {}),
                "reference_constants": dict(self.constants), **self.meta}


def resolve_target(target: Any, *, task: str | Task | None = None, settings: Mapping[str, Any] | None = None,
                   base: Mapping[str, float] | None = None, vary: tuple[str, ...] | None = None,
                   ranges: Mapping[str, tuple[float, float]] | None = None,
                   assume: str | tuple[str, ...] | None = None) -> Target:
    """Turn a catalogue id, a :class:`~theorycheck.catalogue.Bound`, a :class:`Law` or a law
    string into a :class:`Target`; ``task`` (a registered name or a
    :class:`~theorycheck.registry.Task`), ``settings``, ``base``, ``vary`` and ``ranges``
    override the bound's."""
    bound = None
    if isinstance(target, catalogue.Bound):
        bound = target
    elif isinstance(target, str) and catalogue.is_id(target):
        bound = catalogue.get(target)
    if bound is not None:
        if bound.kind == "assumption":
            raise ValueError(
                f"{bound.id} is an assumption ({bound.law.text}), not a threshold to measure; "
                "check one of the upper, lower or scaling entries instead (theorycheck bounds list)"
            )
        if bound.task is None:
            raise ValueError(
                f"{bound.id} has no simulator in this package (task=None), so check cannot run it; "
                f"fit it to your own data instead: theorycheck fit DATA.csv --law {bound.id}"
            )
        catalogue.validate(bound)  # a Bound built by hand: its task, variables and lower bound exist
        law, ident = bound.law, bound.id
        sim = dict(bound.settings)
        task_name = task if task is not None else bound.task
        hint_base, hint_ranges, hint_vary = dict(bound.base), dict(bound.ranges), bound.vary
        keep = bound.keep
        lower = catalogue.get(bound.lower).law if bound.lower else None
        meta = {"kind": bound.kind, "provenance": bound.provenance, "citation": bound.citation,
                "description": bound.description, "criterion": bound.criterion, "notes": bound.notes}
        constants = dict(bound.constants)
        caveats = ()
        if bound.provenance in ("inferred", "derived"):
            caveats = (f"{bound.id} is tagged '{bound.provenance}': a conjecture being checked, "
                       "not a theorem of the paper.",)
    else:
        if isinstance(target, Law):
            law = target if assume is None else Law(target.statement, resource=target.resource,
                                                     constants=target.constants, assume=assume)
        else:
            law = None  # a law string is parsed once the task says what it measures (below)
            _law_text(target)
        sim, hint_base, hint_ranges, hint_vary, lower, keep = {}, {}, {}, None, None, ()
        ident, task_name, meta, constants, caveats = "user-law", task if task is not None else "retrieval", {
            "kind": "upper", "provenance": "user", "description": "a user-supplied law"}, {}, ()
    sim.update(settings or {})
    from theorycheck.task_sources import resolve_task  # "file.py:NAME" / "pkg.mod:NAME" load, as on the CLI

    task_obj = get_task(resolve_task(task_name))
    if bound is None and not isinstance(target, Law):  # a law string: solved for what the task measures
        law = _parse_for(_law_text(target), task_obj, assume)

    return Target(
        id=ident, law=law, task=task_obj, settings=sim,
        base={**task_obj.defaults, **hint_base, **dict(base or {})},
        ranges={k: _range(k, v) for k, v in {**hint_ranges, **dict(ranges or {})}.items()},
        vary=tuple(vary) if vary else (tuple(hint_vary) if hint_vary else None),
        constants=constants, lower_law=lower, keep=keep, meta=meta, caveats=caveats,
    )


def _range(name: str, value: Any) -> tuple[float, float]:
    """A design range ``(low, high)`` with ``0 < low < high``; ValueError otherwise."""
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"ranges[{name!r}] must be a pair (low, high) of numbers, got {value!r}") from None
    if not 0 < low < high:
        raise ValueError(f"ranges[{name!r}] must satisfy 0 < low < high, got {value!r}")
    return low, high


def _parse_for(text: str, task: Task, assume: Any) -> Law:
    """The law string solved for the resource the task measures when it contains it
    (``n*p >= C*log(n)`` becomes ``p >= C*log(n)/n``, ``C*n*log(n) <= m`` becomes
    ``m >= C*n*log(n)``); else as written (its own left-hand side names the resource)."""
    from theorycheck.law.parse import parse_law_text

    resource = task.resource
    if resource in {str(s) for s in parse_law_text(text).free_symbols}:
        return Law.parse(text, resource=resource, assume=assume)
    try:
        return Law.parse(text, assume=assume)
    except ValueError as exc:
        if "cannot tell the resource" not in str(exc):
            raise
        raise ValueError(f"the law {text!r} does not contain {resource}, the resource task {task.name!r} "
                         f"measures, and its left-hand side names several variables; write it as a condition "
                         f"on {resource}, such as '{resource} >= C*...'") from None


def _law_text(target: Any) -> str:
    if not isinstance(target, str):
        raise ValueError(
            f"a check target must be a catalogue id, a Bound, a Law or a law string, got {type(target).__name__}"
        )
    return target
