"""Every name of a law must be known: a data column / task variable, or a constant.

A law's names split into its resource, its variables and its free constants; constants
follow the naming rule of :func:`theorycheck.symbols.is_constant_name` (``C``, ``C0``..,
``C_x``, ``c1``, ``K1``, ``A``, ``B``) unless declared with ``constants=[...]``
(``--constants`` on the command line). Any other name must be something the data (or
the task) provide; a misspelt variable (``Vv`` for ``V``) would otherwise be fitted as a
free constant and the fit would fail much later with an unrelated message.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["require_known_names"]


def require_known_names(law: Any, known: Iterable[str], *, where: str = "the CSV",
                        what: str = "column", option: str = "--constants") -> None:
    """ValueError naming the first variable (or the resource) of ``law`` that is not in
    ``known``, listing ``known`` and how to declare a constant instead."""
    known = list(known)
    names = [law.resource, *law.variables]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(
            f"the law names {unknown}, which are neither data nor constants: {where} has no {what} "
            f"{unknown[0]!r} ({what}s: {', '.join(known)}); fix the spelling, add the {what}, or declare a "
            f"constant with {option} (default rule: C, C0..C9, C_x, c1, K1, A, B)")
