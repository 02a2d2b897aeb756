"""What a check checks: a catalogue bound, a law object, or a user's law string.

A bound's ``simulation`` mapping holds the simulator settings it speaks about
(``task``, ``algorithm``, ``embeddings``, ...) and, optionally, design hints read here:

* ``base`` -- the base point of the sweep (task variables),
* ``ranges`` -- ``{variable: (low, high)}`` limits the design must respect,
* ``vary`` -- the variables to vary (default: every variable of the law),
* ``lower`` -- the id of a lower bound that the observed thresholds must respect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from theorycheck import catalogue
from theorycheck.law import Law
from theorycheck.registry import Task, get_task

__all__ = ["Target", "resolve_target", "DESIGN_KEYS"]

DESIGN_KEYS = ("task", "base", "ranges", "vary", "lower")


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
    meta: dict[str, Any] = field(default_factory=dict)
    caveats: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "law": self.law.text, "latex": self.law.latex,
                "resource": self.law.resource, "task": self.task.name,
                "reference_constants": dict(self.constants), **self.meta}


def _split(simulation: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    sim = dict(simulation)
    hints = {k: sim.pop(k) for k in DESIGN_KEYS if k in sim}
    return sim, hints


def resolve_target(target: Any, *, task: str | Task | None = None, settings: Mapping[str, Any] | None = None,
                   base: Mapping[str, float] | None = None, vary: tuple[str, ...] | None = None,
                   ranges: Mapping[str, tuple[float, float]] | None = None) -> Target:
    """Turn a catalogue id, a :class:`~theorycheck.catalogue.Bound`, a :class:`Law` or a law
    string into a :class:`Target`; ``task`` (a registered name or a
    :class:`~theorycheck.registry.Task`), ``settings``, ``base``, ``vary`` and ``ranges``
    override the bound's."""
    bound = None
    if isinstance(target, catalogue.Bound):
        bound = target
    elif isinstance(target, str) and not any(op in target for op in ("<", ">", "=")):
        bound = catalogue.get(target)
    if bound is not None:
        if bound.kind == "assumption":
            raise ValueError(
                f"{bound.id} is an assumption ({bound.law.text}), not a threshold to measure; "
                "check one of the upper, lower or scaling entries instead (theorycheck bounds list)"
            )
        sim, hints = _split(bound.simulation)
        law, ident = bound.law, bound.id
        task_name = task if task is not None else (hints.get("task") or bound.task)
        meta = {"kind": bound.kind, "provenance": bound.provenance, "citation": bound.citation,
                "description": bound.description, "criterion": bound.criterion, "notes": bound.notes}
        constants = dict(bound.constants)
        caveats = ()
        if bound.provenance in ("inferred", "derived"):
            caveats = (f"{bound.id} is tagged '{bound.provenance}': a conjecture being checked, "
                       "not a theorem of the paper.",)
    else:
        law = target if isinstance(target, Law) else Law.parse(_law_text(target))
        sim, hints = {}, {}
        ident, task_name, meta, constants, caveats = "user-law", task if task is not None else "retrieval", {
            "kind": "upper", "provenance": "user", "description": "a user-supplied law"}, {}, ()
    sim.update(settings or {})
    task_obj = get_task(task_name)
    lower = catalogue.get(hints["lower"]).law if hints.get("lower") else None
    return Target(
        id=ident, law=law, task=task_obj, settings=sim,
        base={**task_obj.defaults, **dict(hints.get("base", {})), **dict(base or {})},
        ranges={k: _range(k, v) for k, v in {**dict(hints.get("ranges", {})), **dict(ranges or {})}.items()},
        vary=tuple(vary) if vary else (tuple(hints["vary"]) if hints.get("vary") else None),
        constants=constants, lower_law=lower, meta=meta, caveats=caveats,
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


def _law_text(target: Any) -> str:
    if not isinstance(target, str):
        raise ValueError(
            f"a check target must be a catalogue id, a Bound, a Law or a law string, got {type(target).__name__}"
        )
    return target
