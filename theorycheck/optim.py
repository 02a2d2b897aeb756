"""The one Adam optimiser of the package (GD with Adam in ``algorithms/gd.py`` and the
linear associative memory in ``tasks/linear_am.py`` both step with it).

Adam (Kingma & Ba 2015, "Adam: A Method for Stochastic Optimization", Algorithm 1), for
each array ``θ`` with gradient ``g_t`` at step ``t = 1, 2, ...``:

    m_t = β₁ m_{t-1} + (1 − β₁) g_t           v_t = β₂ v_{t-1} + (1 − β₂) g_t²
    m̂_t = m_t / (1 − β₁^t)                     v̂_t = v_t / (1 − β₂^t)
    θ_t = θ_{t-1} − α m̂_t / (√v̂_t + ε)

with ``m_0 = v_0 = 0`` and the paper's defaults ``β₁ = 0.9``, ``β₂ = 0.999``, ``ε = 1e-8``,
element-wise. :meth:`Adam.step` returns the updates ``α m̂_t / (√v̂_t + ε)`` (to subtract),
so the caller keeps its own parameters (docs/theory.md §3, the GD algorithm).  The
moments live where the gradients do (NumPy, or any array-API library such as PyTorch on a
GPU): they are made at the first step in the gradients' namespace.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from theorycheck.backend import namespace
from theorycheck.validate import check_positive

__all__ = ["Adam", "ADAM_B1", "ADAM_B2", "ADAM_EPS"]

ADAM_B1, ADAM_B2, ADAM_EPS = 0.9, 0.999, 1e-8


class Adam:
    """Adam state (first and second moments, step count) for a list of arrays."""

    def __init__(self, shapes: Sequence[tuple[int, ...]], *, b1: float = ADAM_B1,
                 b2: float = ADAM_B2, eps: float = ADAM_EPS) -> None:
        for name, beta in (("b1", b1), ("b2", b2)):
            if not (isinstance(beta, float) and 0.0 <= beta < 1.0):
                raise ValueError(f"Adam {name} must be a float in [0, 1), got {beta!r}")
        self.b1, self.b2, self.eps = b1, b2, check_positive("eps", eps)
        self.shapes = [tuple(s) for s in shapes]
        self.m: list | None = None
        self.v: list | None = None
        self.t = 0

    def step(self, grads: Sequence[np.ndarray], lr: float) -> list[np.ndarray]:
        """Advance the moments by one step with ``grads``; the updates ``α m̂ / (√v̂ + ε)``."""
        if len(grads) != len(self.shapes):
            raise ValueError(f"Adam was built for {len(self.shapes)} arrays, got {len(grads)} gradients")
        shapes = [tuple(g.shape) for g in grads]
        if shapes != self.shapes:
            raise ValueError(f"Adam was built for arrays of shapes {self.shapes}, got gradients of shapes {shapes}")
        xp = namespace(*grads)
        if self.m is None:
            self.m = [xp.zeros_like(g) for g in grads]
            self.v = [xp.zeros_like(g) for g in grads]
        self.t += 1
        c1, c2 = 1.0 - self.b1**self.t, 1.0 - self.b2**self.t
        out = []
        for m, v, g in zip(self.m, self.v, grads, strict=True):
            m *= self.b1
            m += (1.0 - self.b1) * g
            v *= self.b2
            v += (1.0 - self.b2) * g * g
            out.append(lr * (m / c1) / (xp.sqrt(v / c2) + self.eps))
        return out
