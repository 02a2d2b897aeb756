"""An entry of the catalogue: :class:`Bound` (one encoded claim) and :class:`Expected`
(the verdict its own check returned), each validated when built. Finding and loading
entries is :mod:`theorycheck.catalogue`, which re-exports everything here (docs/theory.md §5,
docs/architecture.md "bounds/ is content, theorycheck/ is machinery").

A :class:`Bound` keeps apart what it claims and how to check it:

* the claim -- its law; kind (``upper``: success if the condition holds; ``lower``:
  failure if it does not; ``assumption``: a regime the theory assumes; ``scaling``: a
  two-sided ``≍`` statement); the direction of every variable (``helps``: increasing it
  makes the condition easier to meet; ``hurts``: harder); the regime where its exponents
  are read; its provenance tag (docs/theory.md §5: ``paper``, ``inferred``, ``derived``,
  ``prior``); a BibTeX citation; the success criterion; reference values of its free
  constants;
* what it is about -- ``task``, stated once: the name of a registered task, or ``None``
  when this package has no simulator for it (then the bound is usable with
  ``theorycheck fit`` on your own data, and ``check`` refuses it with a one-line
  message); ``settings``, the simulator settings it speaks about (``algorithm``,
  ``embeddings``, ...);
* design hints for ``check`` -- ``base`` (base point of the sweep), ``ranges``
  (``{variable: (low, high)}`` the design must stay within), ``vary`` (the variables to
  vary, in order; default every variable of the law), ``keep`` (constraints such as
  ``"d**2 >= 9*V*log(V)"`` that every designed cell must satisfy without being part of
  the law's regime: where the simulation is known to leave what the law describes);
* ``lower`` -- the id of a ``lower`` bound the observed thresholds must respect;
* ``expected`` -- where measured, the verdict of its own check (:class:`Expected`).

A :class:`Bound` checks itself when built; the names it gives (its task, lower-bound id,
design-hint variables) are checked against the tasks and the catalogue when the
catalogue loads (:func:`theorycheck.catalogue.validate`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from theorycheck.law import Law, Regime

__all__ = ["Bound", "Expected", "KINDS", "PROVENANCES", "DIRECTIONS", "VERDICTS", "NO_SIMULATOR", "json_number"]

KINDS = ("upper", "lower", "assumption", "scaling")
PROVENANCES = ("paper", "inferred", "derived", "prior")
DIRECTIONS = ("helps", "hurts")
VERDICTS = ("consistent", "refuted", "inconclusive")
#: What ``task=None`` means, in the words ``bounds show`` and ``check`` use.
NO_SIMULATOR = ("no simulator in this package: usable with `theorycheck fit DATA.csv --law ID` "
                "on your own data; `theorycheck check` refuses it")
_ID = re.compile(r"[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\Z")
_HINTS = ("task", "base", "ranges", "vary", "keep", "lower", "expected")


def json_number(value: Fraction) -> int | float:
    """A Fraction as a JSON number: int when whole, else float."""
    return int(value) if value.denominator == 1 else float(value)


@dataclass(frozen=True)
class Expected:
    """The verdict a bound's own check returned when measured:
    ``theorycheck.check.check(bound.id, budget=budget, entropy=entropy).status == verdict``.

    Declared only where measured and stable; ``measured`` says when and what was seen.
    ``tests/test_expected_verdicts.py`` (slow) re-runs every declared one.
    """

    verdict: str
    budget: str
    entropy: int = 2026
    measured: str = ""

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"expected verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not isinstance(self.budget, str) or not self.budget:
            raise ValueError(f"expected verdict needs the budget name it was measured on, got {self.budget!r}")
        if not isinstance(self.entropy, int) or isinstance(self.entropy, bool):
            raise ValueError(f"expected verdict entropy must be an int (the check's seed), got {self.entropy!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict, "budget": self.budget, "entropy": self.entropy,
                "measured": self.measured}


def _positive(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0


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
    task: str | None
    criterion: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    base: Mapping[str, float] = field(default_factory=dict)
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    vary: tuple[str, ...] | None = None
    keep: tuple[str, ...] = ()
    lower: str | None = None
    expected: Expected | None = None
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
            if not _positive(value):
                raise ValueError(f"{self.id}: reference constant {name} must be a positive number, got {value!r}")
        self.regime.check(self.law)
        self._check_structure()
        object.__setattr__(self, "directions", MappingProxyType(dict(self.directions)))
        object.__setattr__(self, "settings", MappingProxyType(dict(self.settings)))
        object.__setattr__(self, "base", MappingProxyType(dict(self.base)))
        object.__setattr__(self, "ranges", MappingProxyType(
            {k: (float(lo), float(hi)) for k, (lo, hi) in self.ranges.items()}))
        object.__setattr__(self, "vary", tuple(self.vary) if self.vary is not None else None)
        object.__setattr__(self, "keep", tuple(self.keep))
        object.__setattr__(self, "constants", MappingProxyType({k: float(v) for k, v in self.constants.items()}))

    def _check_structure(self) -> None:
        """Task, settings, design hints, lower and expected: their shapes (names are checked at load)."""
        if self.task is not None and (not isinstance(self.task, str) or not self.task):
            raise ValueError(f"{self.id}: task must be a task name or None (no simulator), got {self.task!r}")
        if not isinstance(self.settings, Mapping):
            raise ValueError(f"{self.id}: settings must be a mapping of simulator settings, "
                             f"got {type(self.settings).__name__}")
        misplaced = [k for k in _HINTS if k in self.settings]
        if misplaced:
            raise ValueError(f"{self.id}: settings hold {misplaced}, which are fields of Bound; "
                             f"give them as Bound({misplaced[0]}=...)")
        bad_base = {k: v for k, v in dict(self.base).items() if not _positive(v)}
        if bad_base:
            raise ValueError(f"{self.id}: base must map variables to positive numbers, got {bad_base}")
        for name, span in dict(self.ranges).items():
            ok = isinstance(span, (tuple, list)) and len(span) == 2 and all(_positive(x) for x in span)
            if not ok or not span[0] < span[1]:
                raise ValueError(f"{self.id}: ranges[{name!r}] must be (low, high) with 0 < low < high, "
                                 f"got {span!r}")
        if self.vary is not None and (isinstance(self.vary, str) or not self.vary
                                      or not all(isinstance(v, str) for v in self.vary)):
            raise ValueError(f"{self.id}: vary must be a non-empty tuple of variable names, got {self.vary!r}")
        if isinstance(self.keep, str) or not all(isinstance(c, str) for c in self.keep):
            raise ValueError(f"{self.id}: keep must be a tuple of constraint strings, got {self.keep!r}")
        if self.lower is not None and (not isinstance(self.lower, str) or self.lower == self.id):
            raise ValueError(f"{self.id}: lower must be the id of another (lower) bound, got {self.lower!r}")
        if self.expected is not None:
            if not isinstance(self.expected, Expected):
                raise ValueError(f"{self.id}: expected must be a theorycheck.catalogue.Expected, "
                                 f"got {type(self.expected).__name__}")
            if self.task is None or self.kind == "assumption":
                raise ValueError(f"{self.id}: an expected verdict needs a bound that check can run "
                                 f"(task={self.task!r}, kind={self.kind!r}); drop expected=")

    def __reduce__(self):
        """Pickle with plain dicts (the read-only views are not picklable)."""
        fields = {f: getattr(self, f) for f in self.__dataclass_fields__}
        for name in ("directions", "settings", "base", "ranges", "constants"):
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
            "task": self.task, "criterion": self.criterion, "settings": dict(self.settings),
            "base": dict(self.base), "ranges": {k: list(v) for k, v in self.ranges.items()},
            "vary": list(self.vary) if self.vary is not None else None, "keep": list(self.keep),
            "lower": self.lower,
            "expected": self.expected.to_dict() if self.expected is not None else None,
            "description": self.description, "notes": self.notes, "citation": self.citation,
        }


def _rebuild_bound(fields: dict) -> Bound:
    return Bound(**fields)
