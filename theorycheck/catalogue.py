"""The catalogue machinery: :class:`Bound` entries and their discovery.

Content lives in the package ``bounds`` (one module per paper, each defining a list
``BOUNDS``); this module only validates, finds and serialises entries (THEORY §5,
DESIGN "bounds/ is content, theorycheck/ is machinery").

Each entry carries its law, kind (``upper``: success if the condition holds;
``lower``: failure if it does not; ``assumption``: a regime the theory assumes;
``scaling``: a two-sided ``≍`` statement), the direction of every variable (``helps``:
increasing it makes the condition easier to meet; ``hurts``: harder), the regime where
its exponents are read, its provenance tag (THEORY §5: ``paper``, ``inferred``,
``derived``, ``prior``), a BibTeX citation, the task and success criterion, the
simulator settings it speaks about, and reference values of its free constants.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from theorycheck.law import Law, Regime

__all__ = ["Bound", "get", "all_bounds", "KINDS", "PROVENANCES", "DIRECTIONS", "json_number"]

KINDS = ("upper", "lower", "assumption", "scaling")
PROVENANCES = ("paper", "inferred", "derived", "prior")
DIRECTIONS = ("helps", "hurts")
_ID = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\Z")


def json_number(value: Fraction) -> int | float:
    """A Fraction as a JSON number: int when whole, else float."""
    return int(value) if value.denominator == 1 else float(value)


@dataclass(frozen=True)
class Bound:
    """One encoded claim: a :class:`Law` plus what it is about (see module docstring)."""

    id: str
    law: Law
    kind: str
    directions: Mapping[str, str]
    regime: Regime
    provenance: str
    citation: str
    task: str
    criterion: str
    simulation: Mapping[str, Any] = field(default_factory=dict)
    constants: Mapping[str, float] = field(default_factory=dict)
    description: str = ""
    notes: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID.match(self.id):
            raise ValueError(f"bound id must look like 'paper2026.name' (lower case), got {self.id!r}")
        if not isinstance(self.law, Law):
            raise ValueError(f"{self.id}: law must be a theorycheck.law.Law, got {type(self.law).__name__}")
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind must be one of {KINDS}, got {self.kind!r}")
        if self.provenance not in PROVENANCES:
            raise ValueError(f"{self.id}: provenance must be one of {PROVENANCES}, got {self.provenance!r}")
        if not isinstance(self.regime, Regime):
            raise ValueError(f"{self.id}: regime must be a theorycheck.law.Regime, got {type(self.regime).__name__}")
        expected = set(self.law.variables) | {self.law.resource}
        if set(self.directions) != expected:
            raise ValueError(
                f"{self.id}: directions must name exactly {sorted(expected)}, got {sorted(self.directions)}"
            )
        bad = {k: v for k, v in self.directions.items() if v not in DIRECTIONS}
        if bad:
            raise ValueError(f"{self.id}: directions must be 'helps' or 'hurts', got {bad}")
        unknown = sorted(set(self.constants) - set(self.law.constants))
        if unknown:
            raise ValueError(f"{self.id}: reference constants {unknown} are not constants of {self.law.text!r}")
        for name, value in self.constants.items():
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
                raise ValueError(f"{self.id}: reference constant {name} must be a positive number, got {value!r}")
        self.regime.check(self.law)
        object.__setattr__(self, "directions", MappingProxyType(dict(self.directions)))
        object.__setattr__(self, "simulation", MappingProxyType(dict(self.simulation)))
        object.__setattr__(self, "constants", MappingProxyType({k: float(v) for k, v in self.constants.items()}))

    def __reduce__(self):
        """Pickle with plain dicts (the read-only views are not picklable)."""
        fields = {f: getattr(self, f) for f in self.__dataclass_fields__}
        for name in ("directions", "simulation", "constants"):
            fields[name] = dict(fields[name])
        return (_rebuild_bound, (fields,))

    def exponents(self) -> dict[str, Fraction]:
        """``law.exponents(regime)``: exact for monomials, dominant term on the regime ray otherwise."""
        return self.law.exponents(self.regime)

    def log_powers(self) -> dict[str, Fraction]:
        return self.law.log_powers(self.regime)

    def exponent_note(self) -> str:
        ray = ", ".join(f"{k} = t^{v}" if v else f"{k} fixed" for k, v in self.regime.ray.items())
        if self.law.is_monomial:
            return "exact exponents of the monomial threshold (same in every regime)"
        return (f"exponents of the dominant term of the threshold on the regime ray ({ray}); "
                "limits of the local elasticities; they change across regimes")

    def to_dict(self) -> dict[str, Any]:
        exps, logs = self.exponents(), self.log_powers()
        return {
            "id": self.id, "kind": self.kind, "provenance": self.provenance,
            "law": self.law.text, "latex": self.law.latex, "resource": self.law.resource,
            "sense": self.law.sense, "solved": self.law.threshold_text,
            "solved_latex": self.law.threshold_latex, "threshold": str(self.law.threshold),
            "variables": list(self.law.variables), "free_constants": list(self.law.constants),
            "directions": dict(self.directions), "regime": self.regime.to_dict(),
            "exponents": {k: json_number(v) for k, v in exps.items()},
            "exponents_exact": {k: str(v) for k, v in exps.items()},
            "log_powers": {k: json_number(v) for k, v in logs.items()},
            "note": self.exponent_note(), "constants": dict(self.constants),
            "task": self.task, "criterion": self.criterion, "simulation": dict(self.simulation),
            "description": self.description, "notes": self.notes, "citation": self.citation,
        }


def _rebuild_bound(fields: dict) -> Bound:
    return Bound(**fields)


@lru_cache(maxsize=1)
def _registry() -> dict[str, Bound]:
    import bounds

    found: dict[str, Bound] = {}
    for info in sorted(pkgutil.iter_modules(bounds.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"bounds.{info.name}")
        entries = getattr(module, "BOUNDS", None)
        if entries is None:
            continue
        for entry in entries:
            if not isinstance(entry, Bound):
                raise ValueError(f"bounds.{info.name}.BOUNDS holds {type(entry).__name__}, not Bound")
            if entry.id in found:
                raise ValueError(f"bound id {entry.id!r} is defined twice (second time in bounds.{info.name})")
            found[entry.id] = entry
    return found


def all_bounds() -> list[Bound]:
    """Every entry of every module of the ``bounds`` package, sorted by module then order."""
    return list(_registry().values())


def get(id: str) -> Bound:  # noqa: A002 - the agreed name
    """The entry called ``id``; ValueError with the known ids and close matches otherwise."""
    registry = _registry()
    if isinstance(id, str) and id in registry:
        return registry[id]
    close = difflib.get_close_matches(str(id), list(registry), n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise ValueError(f"unknown bound {id!r}; known ids: {', '.join(registry)}{hint}")
