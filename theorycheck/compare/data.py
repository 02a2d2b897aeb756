"""The data a verdict is computed from: cells of binomial points.

A **cell** is one setting of the task parameters (e.g. ``d=64, L=16, V=256``); its
points are ``(resource, successes, trials)`` at several resource values (docs/theory.md §4).
A :class:`Dataset` holds the cells of one sweep, sorted canonically so that the order
in which rows arrive never changes a result.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from theorycheck.threshold.points import check_point, merge_close
from theorycheck.threshold.result import Point, Threshold
from theorycheck.validate import check_positive
from theorycheck.wording import counted

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _check_name(name: object, what: str) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"{what} must be an identifier such as 'N' or 'd', got {name!r}")
    return name


@dataclass(frozen=True)
class Cell:
    """One parameter setting and its points (merged by resource, sorted)."""

    params: tuple[tuple[str, float], ...]
    points: tuple[Point, ...]

    @property
    def values(self) -> dict[str, float]:
        return dict(self.params)

    @property
    def trials(self) -> int:
        return int(sum(n for _, _, n in self.points))

    def label(self) -> str:
        return ", ".join(f"{k}={v:g}" for k, v in self.params)

    def to_dict(self) -> dict[str, Any]:
        return {"params": self.values, "points": [[r, k, n] for r, k, n in self.points]}


class CellViews:
    """Views on the parameters of the cells, shared by every kind of data (binomial rows in
    :class:`Dataset`, thresholds tables in :class:`~theorycheck.compare.threshold_table.ThresholdTable`):
    the class has ``variables`` and ``cells`` whose ``values`` map names to numbers."""

    def cell_values(self, name: str) -> np.ndarray:
        """Value of parameter ``name`` in each cell."""
        if name not in self.variables:
            raise ValueError(f"no parameter {name!r}; the data have {list(self.variables)}")
        return np.asarray([c.values[name] for c in self.cells], dtype=float)

    def span_decades(self, name: str) -> float:
        """``log10(max/min)`` of parameter ``name`` over the cells."""
        v = self.cell_values(name)
        return float(np.log10(v.max() / v.min()))

    @property
    def varied(self) -> tuple[str, ...]:
        """Parameters that take at least two distinct values."""
        return tuple(v for v in self.variables if len(set(self.cell_values(v))) > 1)


@dataclass(frozen=True)
class Dataset(CellViews):
    """Cells of binomial points along one resource.

    ``resource``: the resource's name (e.g. ``"N"``); ``variables``: the parameter
    names, sorted; ``increasing``: success grows with the resource (``False`` for a
    capacity in ``V``). Build with :meth:`from_rows`, :meth:`from_columns` or
    :meth:`from_thresholds`.
    """

    resource: str
    variables: tuple[str, ...]
    cells: tuple[Cell, ...]
    increasing: bool = True

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_rows(
        cls,
        rows: Iterable[Mapping[str, Any]],
        *,
        resource: str = "N",
        variables: Sequence[str] | None = None,
        increasing: bool = True,
    ) -> Dataset:
        """From rows ``{var: value, ..., resource: r, "successes": k, "trials": n}``.

        ``variables`` defaults to every key of the first row other than the resource,
        ``successes`` and ``trials``. Rows of the same cell and resource are summed, resources
        within :data:`~theorycheck.threshold.points.SAME_POINT_RTOL` counting as the same (as
        :func:`~theorycheck.threshold.points.pool_points` does): else the binomial
        likelihood's constant, and every statistic that compares it with a pooled one, would
        depend on the last bits a row was written with.
        """
        resource = _check_name(resource, "resource")
        rows = list(rows)
        if not rows:
            raise ValueError("no rows: a dataset needs at least one (cell, resource) row")
        if variables is None:
            first = rows[0]
            if not isinstance(first, Mapping):
                raise ValueError(f"each row must be a mapping, got {first!r}")
            variables = sorted(k for k in first if k not in (resource, "successes", "trials"))
        names = tuple(sorted(_check_name(v, "variable name") for v in variables))
        if resource in names or {"successes", "trials"} & set(names):
            raise ValueError(
                f"variables {list(names)} must not include the resource {resource!r}, "
                "'successes' or 'trials'"
            )
        grouped: dict[tuple[float, ...], dict[float, list[int]]] = {}
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping):
                raise ValueError(f"row {i} must be a mapping, got {row!r}")
            missing = [c for c in (*names, resource, "successes", "trials") if c not in row]
            if missing:
                raise ValueError(f"row {i} lacks {missing}; each row needs {[*names, resource, 'successes', 'trials']}")
            where = f" (row {i})"
            key = tuple(check_positive(v, row[v], where) for v in names)
            try:
                r, k, n = check_point(row[resource], row["successes"], row["trials"])
            except ValueError as exc:
                raise ValueError(f"row {i}: {exc}") from None
            slot = grouped.setdefault(key, {}).setdefault(r, [0, 0])
            slot[0] += k
            slot[1] += n
        cells = []
        for key in sorted(grouped):
            pts = tuple((r, kn[0], kn[1]) for r, kn in sorted(merge_close(grouped[key]).items()) if kn[1] > 0)
            if pts:
                cells.append(Cell(params=tuple(zip(names, key)), points=pts))
        if not cells:
            raise ValueError("every row has trials = 0: nothing to fit")
        return cls(resource=resource, variables=names, cells=tuple(cells), increasing=bool(increasing))

    @classmethod
    def from_columns(
        cls,
        columns: Mapping[str, Sequence[Any]],
        *,
        resource: str = "N",
        increasing: bool = True,
    ) -> Dataset:
        """From equal-length columns: parameters, the resource, ``successes``, ``trials``."""
        if not isinstance(columns, Mapping):
            raise ValueError(f"columns must be a mapping name -> sequence, got {type(columns).__name__}")
        lengths = {k: len(v) for k, v in columns.items()}
        if len(set(lengths.values())) > 1:
            raise ValueError(f"columns have different lengths: {lengths}")
        for need in (resource, "successes", "trials"):
            if need not in columns:
                raise ValueError(f"column {need!r} is missing; columns are {sorted(columns)}")
        names = [k for k in columns if k not in (resource, "successes", "trials")]
        n_rows = next(iter(lengths.values()), 0)
        rows = [{k: columns[k][i] for k in columns} for i in range(n_rows)]
        return cls.from_rows(rows, resource=resource, variables=names, increasing=increasing)

    @classmethod
    def from_thresholds(
        cls, items: Iterable[tuple[Mapping[str, Any], Threshold]]
    ) -> Dataset:
        """From ``(params, Threshold)`` pairs, e.g. a sweep's results: every evaluated
        point of every search becomes data."""
        rows, resource, increasing = [], None, None
        for params, th in items:
            if not isinstance(th, Threshold):
                raise ValueError(f"expected a Threshold, got {type(th).__name__}")
            if resource is None:
                resource, increasing = th.resource, th.increasing
            elif th.resource != resource or th.increasing != increasing:
                raise ValueError(
                    f"thresholds mix resources ({resource!r} and {th.resource!r}) or directions"
                )
            for r, k, n in th.points:
                rows.append({**params, th.resource: r, "successes": k, "trials": n})
        if resource is None:
            raise ValueError("no thresholds given")
        names = sorted({k for row in rows for k in row} - {resource, "successes", "trials"})
        return cls.from_rows(rows, resource=resource, variables=names, increasing=bool(increasing))

    # ----------------------------------------------------------------- views
    def columns(self) -> dict[str, np.ndarray]:
        """Flat arrays over all points: each variable, the resource, ``successes``,
        ``trials`` and ``cell`` (index into :attr:`cells`)."""
        out: dict[str, list[float]] = {v: [] for v in (*self.variables, self.resource)}
        k_list, n_list, cell_idx = [], [], []
        for c, cell in enumerate(self.cells):
            for r, k, n in cell.points:
                for name, value in cell.params:
                    out[name].append(value)
                out[self.resource].append(r)
                k_list.append(k)
                n_list.append(n)
                cell_idx.append(c)
        arrays = {name: np.asarray(v, dtype=float) for name, v in out.items()}
        arrays["successes"] = np.asarray(k_list, dtype=np.int64)
        arrays["trials"] = np.asarray(n_list, dtype=np.int64)
        arrays["cell"] = np.asarray(cell_idx, dtype=np.int64)
        return arrays

    @property
    def trials(self) -> int:
        return sum(c.trials for c in self.cells)

    def describe(self) -> str:
        """One line for reports: which kind of data this is (as ``ThresholdTable.describe``)."""
        return f"binomial rows: {counted(len(self.cells), 'cell')}, {counted(self.trials, 'trial')}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "resource": self.resource,
            "variables": list(self.variables),
            "increasing": self.increasing,
            "cells": [c.to_dict() for c in self.cells],
        }
