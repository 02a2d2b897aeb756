"""Where a verdict was measured: the law's regime at the cells of a check or a fit.

The hooks between :mod:`theorycheck.check.regime` (constraints read numerically at cells)
and the verdicts of ``theorycheck check`` and ``theorycheck fit``: which constraints apply
(a catalogue bound's regime and a law's declared assumptions), their reading at each cell
with the resource at the cell's measured threshold, and the marks that reading leaves on a
verdict's JSON form -- the first line of the report when some cell is outside, and the
constraint each such cell fails (docs/fit.md, "Where the verdict was measured").
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from theorycheck.check.regime import evaluate_regime, parse_constraint

__all__ = ["cells_from_check", "law_constraints", "stated_in_words", "regime_for", "mark_verdict"]


def cells_from_check(result: Mapping[str, Any]) -> list[dict[str, float | None]]:
    """The cells of a check (``CheckResult.to_dict()`` or its ``verdict.json``): the design's
    base point, overridden by each cell's parameters, plus the resource at the cell's
    threshold estimate (``None`` where censored)."""
    resource = result["design"]["resource"]
    base = {k: v for k, v in (result["design"].get("base") or {}).items() if isinstance(v, (int, float))}
    return [{**base, **cell["params"], resource: (cell.get("threshold") or {}).get("estimate")}
            for cell in result["cells"]]


def stated_in_words(target_id: str | None) -> str | None:
    """The regime of the catalogue bound ``target_id``, in its words, when it states no
    constraint a cell could be checked against: only a limit (``"V -> oo"``) or a ray
    (``"V = t, d = t^(1/2)"``). ``None`` when the bound states constraints, or ``target_id``
    is not a catalogue id (a user law claims to hold wherever its ``--assume`` conditions do)."""
    regime = _catalogue_regime(target_id)
    return regime.description if regime is not None and not regime.constraints else None


def _catalogue_regime(target_id: str | None) -> Any:
    """The regime of the catalogue bound ``target_id``; ``None`` for an id the catalogue does
    not know (a user law, ``"user-law"``) or no id."""
    from theorycheck import catalogue

    try:
        return catalogue.get(target_id).regime if target_id is not None else None
    except ValueError:  # not a catalogue id
        return None


def law_constraints(target_id: str | None, law: Any = None) -> tuple[str, ...]:
    """The constraints a check must respect: the regime constraints of the catalogue bound
    ``target_id`` (none for an id the catalogue does not know, e.g. ``"user-law"``) plus the
    assumptions a law declares (``Law.assumption_texts``, e.g. ``--assume "k < n"``)."""
    regime = _catalogue_regime(target_id)
    texts: list[str] = list(regime.constraints) if regime is not None else []
    texts.extend(t for t in getattr(law, "assumption_texts", ()) if t not in texts)
    return tuple(texts)


def regime_for(target_id: str | None, law: Any, cells: list[dict[str, Any]], resource: str,
               base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The check's hook: evaluate :func:`law_constraints` at ``cells`` (a check's cell dicts
    with ``params`` and ``threshold``, on top of the design's ``base`` point; the resource
    read at the threshold estimate), set ``cell["in_regime"]`` on each, and return
    :meth:`RegimeReport.to_dict`. A name that neither the cells nor the base give leaves
    its constraints not judged (it never fails a finished check). A bound whose regime names
    no condition (:func:`stated_in_words`) leaves every cell not judged
    (``in_regime`` ``None``), and the report carries the words under ``stated``."""
    constraints = [parse_constraint(text) for text in law_constraints(target_id, law)]
    names = sorted({n for c in constraints for n in c.names})  # a set's order varies run to run
    values = cells_from_check({"design": {"resource": resource, "base": dict(base or {})}, "cells": cells})
    report = evaluate_regime(constraints, [{**dict.fromkeys(names), **v} for v in values]).to_dict()
    words = None if constraints else stated_in_words(target_id)
    if words:  # nothing to check the cells against: not judged, and said so (docs/fit.md)
        report.update(stated=words, in_regime=[None] * len(cells),
                      summary=f"not judged: the bound's regime ({words}) names no condition a cell can be "
                              "checked against")
        for where in report["cells"]:
            where["in_regime"] = None
    for cell, flag in zip(cells, report["in_regime"]):
        cell["in_regime"] = flag
    return report


def mark_verdict(verdict: dict[str, Any], regime: Mapping[str, Any]) -> dict[str, Any]:
    """Put where a verdict was measured into its JSON form (``Verdict.to_dict()``), in place:
    ``outside_regime`` (the report's first line) when some cell is out of the law's regime,
    ``regime_summary`` when the law states a regime (in constraints, or with none) and no
    cell is out of it, nothing when it states none; and on each of its cells that the regime
    judged (matched by parameters), ``in_regime`` and the constraints it ``violated``.
    ``regime`` is :meth:`RegimeReport.to_dict` (or :func:`regime_for`'s return)."""
    if regime.get("outside"):
        verdict["outside_regime"] = regime["summary"]
    elif regime.get("constraints") or regime.get("stated"):
        verdict["regime_summary"] = regime["summary"]
    judged = regime.get("cells") or []
    for cell in verdict.get("cells") or []:
        params = cell.get("params") or {}
        for where in judged:
            values = where["values"]
            if all(values.get(k) is not None and math.isclose(float(values[k]), float(v), rel_tol=1e-9)
                   for k, v in params.items()):
                cell["in_regime"], cell["violated"] = where["in_regime"], list(where["violated"])
                break
    return verdict
