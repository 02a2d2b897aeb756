"""A seed's Hebbian recall along increasing ``d``, in one pass (per-seed thresholds in ``d``).

The linear associative memory's data are nested in ``d`` (:func:`~theorycheck.tasks.linear_am.draw_coordinates`):
at dimension ``d`` a seed's embeddings are the first ``d`` columns of its raw coordinates
``Z_E, Z_U`` (``V×D``), scaled by ``1/√d``.  The Hebbian logits ``E Wᵀ Uᵀ`` with
``W = U_Πᵀ E`` are, up to the positive factor ``d⁻²`` that no argmax sees,

    S_d = A_d N[:d, :d] B_dᵀ,    A_d = Z_E[:, :d],  B_d = Z_U[:, :d],  N = Z_Eᵀ Z_U[Π]

(``N[j, i] = Σ_x Z_E[x, j] Z_U[Π(x), i]``).  Splitting the coordinates at ``d₁ < d₂``
into blocks 1 (``< d₁``) and 2 (``d₁..d₂``):

    S_{d₂} = S_{d₁} + (A_{d₂} N[:d₂, d₁:d₂]) B₂ᵀ + A₂ (N[d₁:d₂, :d₁] B₁ᵀ),

two updates of rank ``Δ = d₂ − d₁``: ``2 V² Δ + 2 V d₂ Δ`` flops.  A scan from ``d₀`` to
``D`` therefore costs ``V² (2D − d₀)`` plus the argmax at each point, about twice one
trial at ``D`` when ``V ≫ d`` (a trial at ``d`` is ``V² d + V d²``), instead of one trial
per point.  Coordinates are drawn block by block as the scan goes, so its memory is the
``V×V`` logits and the ``V×d`` coordinates reached, whatever the lattice's top.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from theorycheck.seeding import child_seed, seed_sequence

__all__ = ["hebbian_scan", "linear_am_scan"]


def hebbian_scan(V: int, values: Sequence[int], target: float, seed) -> Iterator[bool]:
    """Lazily, for each increasing ``d`` in ``values``: does the Hebbian memory of
    ``seed`` at dimension ``d`` recall at least a fraction ``target`` of its ``V`` facts?
    The same answer as :func:`~theorycheck.tasks.linear_am.simulate_linear_am` at that
    ``d`` (up to rounding in near-ties of the logits), computed by low-rank updates
    (module docstring)."""
    from scipy.linalg.blas import dgemm  # here: `theorycheck bounds` starts without scipy

    ss = seed_sequence(seed)
    # the same streams as draw_coordinates: coordinate k is the k-th block of V draws
    draw_e, draw_u = (np.random.default_rng(child_seed(ss, i)) for i in (0, 1))
    perm = np.random.default_rng(child_seed(ss, 2)).permutation(V)
    cap = 0  # columns 0..d-1 of A = Z_E, Bp = Z_U[Π], B = Z_U (grown by doubling)
    A = Bp = B = np.empty((V, 0))
    S = np.zeros((V, V))
    St = S.T  # Fortran-ordered view: BLAS accumulates into it in place (beta = 1)
    previous = 0
    for value in values:
        d = int(value)
        if d <= previous:
            raise ValueError(f"values must increase, got {d} after {previous}")
        if d > cap:
            cap = max(d, 2 * cap)
            A, Bp, B = (np.hstack([X[:, :previous], np.empty((V, cap - previous))]) for X in (A, Bp, B))
        A[:, previous:d] = draw_e.standard_normal((d - previous, V)).T
        B[:, previous:d] = draw_u.standard_normal((d - previous, V)).T
        Bp[:, previous:d] = B[perm, previous:d]
        A2, B2 = A[:, previous:d], B[:, previous:d]
        # S += [A_{d₂} N[:d₂, d₁:d₂], A₂] @ [B₂ᵀ; N[d₁:d₂, :d₁] B₁ᵀ], one product of inner size 2Δ
        left = np.hstack([A[:, :d] @ (A[:, :d].T @ Bp[:, previous:d]), A2])  # N[:d₂, d₁:d₂]
        right = np.vstack([B2.T, (A2.T @ Bp[:, :previous]) @ B[:, :previous].T])  # N[d₁:d₂, :d₁]
        St = dgemm(1.0, right.T, left.T, beta=1.0, c=St, overwrite_c=True)
        previous = d
        yield bool(np.mean(St.T.argmax(axis=1) == perm) >= target)


def linear_am_scan(params: Mapping[str, Any], seed, resource: str, values: Sequence[int]) -> Iterator[bool] | None:
    """The linear-am task's ``scan`` (:class:`~theorycheck.registry.Task`): the Hebbian
    memory along increasing ``d`` (:func:`hebbian_scan`); None for a trained memory
    (``method="gd"``: training does not grow by blocks) or another resource."""
    from theorycheck.tasks.linear_am import linear_am_params

    p = linear_am_params({**params, resource: int(values[0])})
    if resource != "d" or p.method != "hebbian":
        return None
    return hebbian_scan(p.V, values, p.target, seed)
