"""Which of a law's constants the cells can identify (docs/methods.md §4).

One rule for both fits of a law to cells: the binomial likelihood
(:mod:`theorycheck.compare.law_fit`) and weighted least squares on a thresholds table
(:mod:`theorycheck.compare.table_fit`). Two constants that only ever appear as a product
(``C1*C2*V``), or a constant whose term no cell reaches, cannot be told apart by any data
on these cells: the first is kept, the others fixed at 1, and the fit says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: A Jacobian column whose root mean square is below this reaches no cell (the term under- or
#: overflowed, or is zero by construction): its constant is not identified whatever its size.
_NOTHING = 1e-12

#: A fitted constant beyond ``1/this`` or ``this`` (the fits start at 1) with an open CI ran off rather than
#: settled (:func:`runaway_notes`).
_RUNAWAY = 1e6

__all__ = ["Relation", "balanced_point", "confounded", "confounded_notes", "identifiable", "independent_variables",
           "runaway_notes", "covariance_columns"]


def identifiable(model: Any) -> list[str]:
    """Decide which constants are free and whether an overall factor K is needed; set
    ``model.free`` and ``model.with_scale``; return notes on the constants fixed at 1.

    ``model`` gives ``names`` (the law's constants; ``free`` is set to all of them first) and
    ``dlog_f(log_c)`` (the Jacobian ``d log f / d log C`` at every cell, exact:
    :func:`theorycheck.compare.law_model.constant_elasticities`). A constant is free when its
    column at :func:`balanced_point` adds to the rank of the columns already free, each
    column scaled to unit root mean square (singular values above 1e-4 of the largest): a
    term's size at ``C = 1`` says nothing about whether the cells can fit its constant.

    The overall factor ``K`` ("up to constants") is fitted only when no named constant is:
    the numbers a law writes out are kept as written. In ``N ≥ 0.431·V log V + 1254·V²/d² +
    C2·L·V²/d³`` the first two terms are held and only ``C2`` moves; a law with no constant,
    such as ``vural2026.lower``, is scaled by ``K``; write ``C*(...)`` to scale a whole law.
    (Until 2026-11-28 ``K`` was added when the free columns did not span a constant shift, a
    test that read the held form above with ``K`` or without it depending on how large the
    ``C2`` term is at ``C2 = 1``, and ``C2`` itself as not identified below 1e-4 of ``N``.)"""
    notes: list[str] = []
    if not model.names:
        model.free, model.with_scale = [], True
        return notes
    model.free = list(model.names)
    jac = model.dlog_f(balanced_point(model))
    if not np.all(np.isfinite(jac)):  # the law is undefined (or not positive) at some cells there
        jac = model.dlog_f(np.zeros(len(model.free)))
    if not np.all(np.isfinite(jac)):
        bad = int(np.sum(~np.all(np.isfinite(jac), axis=1)))
        raise ValueError(f"the law {model.law} is not a positive number at {bad} of {jac.shape[0]} cells with its "
                         f"constants at 1, where the fit starts (a difference of terms, or a log of a value below 1, is "
                         f"not positive there); write it so that it is positive there, e.g. with a variable divided "
                         f"by one of its values (L/128 for L)")

    def rank(m: np.ndarray) -> int:  # of the columns scaled to unit root mean square: shape, not size
        if m.shape[1] == 0:
            return 0
        size = np.sqrt(np.mean(m**2, axis=0))
        m = m / np.where(size > _NOTHING, size, np.inf)  # a column that reaches no cell: zeros
        sv = np.linalg.svd(m / np.sqrt(m.shape[0]), compute_uv=False)
        return int(np.sum(sv > 1e-4 * max(1.0, sv[0])))

    free: list[int] = []
    for i in range(jac.shape[1]):
        if rank(jac[:, free + [i]]) == len(free) + 1:
            free.append(i)
        else:
            notes.append(f"constant {model.names[i]} is not identified by these cells (fixed at 1)")
    model.free = [model.names[i] for i in free]
    model.with_scale = not free
    return notes


def balanced_point(model: Any, rounds: int = 20) -> np.ndarray:
    """``log C`` of the free constants (``model.free``) at which every constant's elasticity
    ``|d log f / d log C_k|`` has the same geometric mean over the cells (constants whose
    column is zero at ``C = 1`` stay there).

    Identifiability is a property of the law's shape, not of the constants' scale: in
    ``N ≥ C0·V log V + C2·L·V²/d³`` at ``C = 1`` the second term is ~1e-4 of the first on
    cells with ``V = 4096..16384``, so its column sits below any rank tolerance although any
    ``C2`` of the size the data need (~2000) moves every threshold (docs/theory.md §7.11).
    For a sum of terms ``f = Σ C_k t_k`` the elasticity is ``C_k t_k / f``; each round moves
    ``log C_k`` by the log ratio of the columns' mean size to its own, which balances the
    terms. A constant that only multiplies the law has elasticity 1 wherever it is and is
    not moved; two constants that only appear as a product stay collinear at every point."""
    log_c = np.zeros(len(model.free))
    size = np.abs(model.dlog_f(log_c))
    for _ in range(rounds):
        live = np.all(np.isfinite(size), axis=0) & np.any(size > 0.0, axis=0)
        if not np.any(live):
            break
        logs = np.mean(np.log(np.maximum(size[:, live], 1e-300)), axis=0)
        step = np.mean(logs) - logs
        if np.max(np.abs(step)) < 0.05:
            break
        trial = log_c.copy()
        trial[live] += np.clip(step, -30.0, 30.0)
        with np.errstate(all="ignore"):
            moved = np.abs(model.dlog_f(trial))
        if not np.all(np.isfinite(moved[:, live])):  # a term over- or underflowed: stay where it was finite
            break
        log_c, size = trial, moved
    return log_c


@dataclass(frozen=True)
class Relation:
    """How a dropped variable moves with kept ones over the cells: ``text`` such as
    ``"d ∝ V^1"``, ``partners`` the kept variables in it (printed as its text)."""

    text: str
    partners: tuple[str, ...]

    def __str__(self) -> str:
        return self.text


def confounded(logs: Mapping[str, np.ndarray]) -> tuple[list[str], dict[str, Relation]]:
    """Split variables into those whose log values (over the same cells) add to the rank
    of a constant and of those kept before them, in order, and the others: ``(kept,
    {dropped: relation})``, the relation naming the kept variables a dropped one moves
    with, e.g. ``d ∝ V^1`` when every cell has ``d = V/4``.

    A dropped variable's exponent is not identified apart from theirs: any split of the
    cells' slope between them fits equally well (a least-squares split is arbitrary; on
    cells with ``d = V/4`` it printed ``V`` 4.96 and ``d`` -4.99 for a joint slope of
    -0.02). Its effect stays in the kept variables' slopes, read along the direction the
    cells span.

    >>> kept, dropped = confounded({"V": np.log([1024., 2048, 2048]), "d": np.log([256., 512, 512]),
    ...                             "m": np.log([1024., 1024, 4096])})
    >>> kept, {v: str(r) for v, r in dropped.items()}, dropped["d"].partners
    (['V', 'm'], {'d': 'd ∝ V^1'}, ('V',))
    """
    n = len(next(iter(logs.values()))) if logs else 0
    if n == 0:
        return list(logs), {}
    columns, kept, dropped = [np.ones(n)], [], {}
    for v, col in logs.items():
        trial = np.column_stack([*columns, col])
        if np.linalg.matrix_rank(trial) == trial.shape[1]:
            columns.append(col)
            kept.append(v)
            continue
        coef = np.linalg.lstsq(np.column_stack(columns), col, rcond=None)[0][1:]
        partners = tuple(k for k, c in zip(kept, coef) if abs(c) > 1e-9)
        with_ = " · ".join(f"{k}^{c:.3g}" for k, c in zip(kept, coef) if abs(c) > 1e-9)
        dropped[v] = Relation(f"{v} ∝ {with_}" if with_ else f"{v} constant", partners)
    return kept, dropped


def confounded_notes(dropped: Mapping[str, Relation], extra: str = "") -> list[str]:
    """One note per variable :func:`confounded` dropped (``extra`` ends each sentence)."""
    return [f"{v} moves with the others across the cells with a threshold ({rel}): not identified "
            f"apart, left out; the others' exponents are read with {v} moving along{extra}"
            for v, rel in dropped.items()]


def independent_variables(data: Any, variables: Sequence[str]) -> tuple[list[str], list[str]]:
    """The ``variables`` whose log values over ``data``'s cells add to the rank of a constant
    and of those kept before them (in order), and a note naming the others. A trend in each
    kept variable is identified; a variable that moves with the kept ones across the cells
    (two cells with ``V`` and ``d`` both changed) has a trend that only trades against theirs,
    which leaves the likelihood flat along a line and the optimiser's end point on it
    dependent on the data's last bits."""
    kept, dropped = confounded({v: np.log(data.cell_values(v)) for v in variables})
    notes = [f"the transition width's trend in {', '.join(dropped)} moves with that in "
             f"{', '.join(kept)} across these cells (not identified apart): fitted without it"] if dropped else []
    return kept, notes


def runaway_notes(constants: Mapping[str, Any]) -> list[str]:
    """Notes naming the fitted constants that ran off: beyond ``1e-6`` or ``1e6`` with an open CI (``0`` or
    ``inf`` at an end), from ``{name: Estimate}``. The constants are fitted as logs, so each is positive
    (docs/methods.md §4, "A constant that ran off").

    One that ran towards 0 is one the cells want at 0 or below, which no positive constant reaches: ``a`` in
    ``d**2 >= C*V*log(V)**a`` on walls whose ``V`` exponent lies under ½ stops near ``1e-10``, where its term no
    longer moves the law, and the fit had said only that the constants are not identified (or nothing).
    One that ran above ``1e6`` is one the cells do not bound."""
    notes = []
    for name, est in constants.items():
        if est.ci[0] > 0 and est.ci[1] < float("inf"):
            continue
        if 0 < est.estimate < 1 / _RUNAWAY:
            notes.append(f"{name} ran towards 0 ({est.estimate:.3g}): the cells want it at 0 or below, and a law's "
                         f"constants are positive (fitted as logs); drop its term, or fit signed log powers with "
                         f"fit --log-powers (without --law)")
        elif est.estimate > _RUNAWAY:
            notes.append(f"{name} ran off to {est.estimate:.3g}: the cells do not bound it")
    return notes



def covariance_columns(model: Any, p: np.ndarray) -> tuple[list[int], list[str]]:
    """The parameters of ``p`` (its first ``len(model.free)`` the log constants) whose covariance a fit can
    compute, and a note naming the others. Those are the constants whose term has vanished from every cell: their
    share of the law, ``∂ log f / ∂ log C`` (``model.dlog_f``), is under ``1/_RUNAWAY`` in every cell, the scale at
    which a constant is said to have run off (:func:`runaway_notes`), far below what a threshold's error of a per
    cent can see. Such a constant ran towards 0 (the cells want it at 0 or below); its Jacobian column is ~1e-13 of
    the others and makes the information matrix singular to float64, so both fits take the covariance of the law
    without its term, and its own CI stays open (docs/methods.md §4, "A term that vanished")."""
    shares = np.atleast_2d(model.dlog_f(p[:len(model.free)]))
    gone = [i for i in range(shares.shape[1]) if float(np.max(np.abs(shares[:, i]), initial=0.0)) < 1 / _RUNAWAY]
    keep = [i for i in range(len(p)) if i not in gone]
    notes = [f"the term of {', '.join(model.free[i] for i in gone)} vanished from every cell: the other constants' "
             "CIs are those of the law without it"] if gone else []
    return keep, notes
