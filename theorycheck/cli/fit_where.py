"""``theorycheck fit --where COND``: fit only the rows of DATA that satisfy ``COND``.

One run often holds several lines (a check over ``d`` at two ``L``), and a law may be meant
for one of them (a pole in ``d`` at a single ``L``). ``--where "L=512"`` keeps the rows whose
``L`` is 512; the column then takes one value and is read as a setting, as in a file holding
that line alone. ``COND`` is ``COLUMN OP VALUE`` with ``OP`` one of ``= == != < <= > >=``;
``=`` and ``!=`` compare entries as :func:`~theorycheck.cli.fit_pool.canonical` does (``512``,
``512.0`` and ``5.12e2`` are one value; ``true``/``True`` are one), the orderings compare
numbers. Several ``--where`` keep the rows that satisfy all of them. Rows are filtered after
pooling several sources, so a condition reads the pooled columns.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from theorycheck.cli.fit_pool import canonical

__all__ = ["Where", "parse_where", "apply_where"]

#: The orderings; ``=``, ``==`` and ``!=`` compare entries (:meth:`Where.holds`).
_OPS: dict[str, Callable[[float, float], bool]] = {
    "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt}
_FORM = re.compile(r"^\s*([^<>=!\s]+)\s*(<=|>=|!=|==|<|>|=)\s*(\S.*?)\s*$")


@dataclass(frozen=True)
class Where:
    """One ``--where`` condition: ``column op value`` (``value`` as given)."""

    text: str
    column: str
    op: str
    value: str

    def holds(self, entry: object) -> bool:
        """Whether a row whose ``column`` reads ``entry`` is kept."""
        if self.op in ("=", "==", "!="):
            return (canonical(entry) == canonical(self.value)) == (self.op != "!=")
        number = _float(entry)
        return number is not None and _OPS[self.op](number, float(self.value))


def _float(text: object) -> float | None:
    try:
        value = float(str(text).strip())
    except (TypeError, ValueError):
        return None
    return None if math.isnan(value) else value


def _by_value(text: str) -> tuple:
    """Entries in the order of their numbers (``4`` before ``64``), text after them."""
    number = _float(text)
    return (number is None, number or 0.0, text)


def parse_where(items: Sequence[str] | None) -> list[Where]:
    """The ``--where`` options as conditions; a malformed one: ValueError saying the form."""
    out = []
    for item in items or ():
        match = _FORM.match(item or "")
        if match is None:
            raise ValueError(f"--where expects COLUMN OP VALUE with OP one of = != < <= > >=, got {item!r}; "
                             "e.g. --where L=512 or --where 'd>=384'")
        column, op, value = match.groups()
        if op not in ("=", "==", "!=") and _float(value) is None:
            raise ValueError(f"--where {item!r}: {op} compares numbers, and {value!r} is not one; "
                             "give a number, or use = for a text setting")
        out.append(Where(item.strip(), column, op, value))
    return out


def apply_where(conditions: Sequence[Where], path: str, header: Sequence[str], raw: Sequence[dict],
                labels: Sequence[str]) -> tuple[list[dict], list[str], list[str]]:
    """``(raw, labels, notes)`` of the rows that satisfy every condition. A condition naming a
    column that ``header`` lacks, or keeping no row, is refused with a ValueError."""
    if not conditions:
        return list(raw), list(labels), []
    for cond in conditions:
        if cond.column not in header:
            raise ValueError(f"--where {cond.text!r}: {path!r} has no column {cond.column!r} "
                             f"(columns: {', '.join(header)}); name one of them")
    kept = [(rec, lab) for rec, lab in zip(raw, labels, strict=True)
            if all(cond.holds(rec.get(cond.column)) for cond in conditions)]
    if not kept:
        seen = {c.column: sorted({str(rec.get(c.column) or "").strip() for rec in raw}, key=_by_value)
                for c in conditions}
        values = "; ".join(f"{col} takes {', '.join(v[:8])}{' ...' if len(v) > 8 else ''}"
                           for col, v in seen.items())
        raise ValueError(f"--where {' and '.join(c.text for c in conditions)} keeps none of the {len(raw)} rows "
                         f"of {path!r} ({values}); loosen it")
    note = (f"--where {' and '.join(c.text for c in conditions)}: {len(kept)} of {len(raw)} rows of "
            f"{path!r} fitted")
    return [rec for rec, _ in kept], [lab for _, lab in kept], [note]
