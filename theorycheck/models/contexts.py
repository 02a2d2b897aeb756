"""The four sums over context positions that the dense models need (docs/theory.md §2-3).

A chunk of ``n`` sequences enters :class:`theorycheck.models.attention.DenseModel` only
through these operations (keys ``k_i = e_{x_i} + 1{i=ℓ} z_trig``, values ``v_i = k_i``
with ``marker_in_value``, else ``e_{x_i}``; ``ℓ`` the informative position):

* ``scores(q)``            ``s_{n,i} = k_iᵀ q``                       ``(n, L)``;
* ``attend(σ)``            ``o_n = Σ_i σ_{n,i} v_i``                   ``(n, d)``;
* ``key_sum(w)``           ``Σ_n Σ_i w_{n,i} k_i``                      ``(d,)``;
* ``value_key_sum(σ, J)``  ``Σ_n Σ_i σ_{n,i} (v_iᵀ J_n) k_i``            ``(d,)``.

Two layouts give the same numbers (to rounding):

* :class:`DenseContexts` holds the ``(n, L, d)`` keys and values (the reference; memory
  ``n·L·d``);
* :class:`TokenContexts` holds the token ids and reads the embedding rows ``E`` through
  a sparse ``(n, V)`` matrix ``S`` with ``S[n, x_{n,i}] += σ_{n,i}``: ``attend`` is
  ``S E`` plus the trigger term, and ``value_key_sum`` regroups its sum by token,
  ``Σ_x e_x (e_xᵀ R_x)`` with ``R = Sᵀ J`` (``(V, d)``), plus the terms of the informative
  position.  Each is ``O(n·L·d)`` multiply-adds on ``E`` (which stays in cache) and
  nothing of size ``n·L·d`` is ever stored.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from theorycheck.backend import get_backend

__all__ = ["DenseContexts", "TokenContexts", "row_dots"]


@dataclass(frozen=True)
class DenseContexts:
    """Explicit ``(n, L, d)`` keys and values (``values is keys`` allowed)."""

    keys: np.ndarray
    values: np.ndarray

    @property
    def n(self) -> int:
        return int(self.keys.shape[0])

    def scores(self, q: np.ndarray) -> np.ndarray:
        return self.keys @ q

    def attend(self, sigma: np.ndarray) -> np.ndarray:
        return np.einsum("nl,nld->nd", sigma, self.values)

    def key_sum(self, w: np.ndarray) -> np.ndarray:
        return np.einsum("nl,nld->d", w, self.keys)

    def value_key_sum(self, sigma: np.ndarray, jac: np.ndarray) -> np.ndarray:
        return self.key_sum(sigma * np.einsum("nld,nd->nl", self.values, jac))


@dataclass(frozen=True)
class TokenContexts:
    """Token ids ``(n, L)`` and informative positions ``(n,)`` of a chunk, with the
    embeddings ``E`` (``(V, d)``), the trigger ``z_trig`` and whether it enters the
    values (``marker``).  ``tokens`` may be a view of a buffer that the next chunk
    overwrites (:class:`~theorycheck.tasks.training_passes.TrainingPasses`): use the
    object while its chunk is current, never keep it.

    ``bk`` (:class:`~theorycheck.backend.Backend`): ``None`` or NumPy's for arrays
    on the host, where ``S`` is a SciPy CSR matrix; for another array library every
    array lives there and ``S`` is a dense ``(n, V)`` array made by one ``bincount`` of
    ``n·V + x`` (the size of the chunk's logits, which the model makes anyway), so that
    ``S E`` and ``Sᵀ J`` are matrix products on the device.  The operations are those
    of the Python array API standard; on NumPy the numbers are those of the host path
    before backends existed, bit for bit."""

    tokens: np.ndarray
    pos: np.ndarray
    E: np.ndarray
    z_trig: np.ndarray
    marker: bool
    bk: object = None

    @property
    def n(self) -> int:
        return int(self.tokens.shape[0])

    @property
    def _xp(self):
        return np if self.bk is None or self.bk.xp is None else self.bk.xp

    def _at_pos(self, a):
        """``a[n, ℓ_n]`` for each row ``n`` (``a`` of shape ``(n, L)``)."""
        return self._xp.take_along_axis(a, self.pos[:, None], axis=1)[:, 0]

    def _bincount(self, index, weights, minlength: int):
        return (self.bk or get_backend("numpy")).bincount(index, weights, minlength=minlength)

    def _weights(self, w: np.ndarray):
        """``S[n, x_{n,i}] = Σ w_{n,i}`` (duplicate ids summed): a CSR matrix on the host
        (SciPy is imported here: the registry imports this module, and commands that never
        train, ``bounds list``, do not load SciPy), a dense array on another backend."""
        n, L = self.tokens.shape
        V = self.E.shape[0]
        if self._xp is np:
            import scipy.sparse as sp

            return sp.csr_matrix((np.ascontiguousarray(w, dtype=np.float64).ravel(), self.tokens.ravel(),
                                  np.arange(0, n * L + 1, L)), shape=(n, V))
        xp = self._xp
        rows = xp.arange(n, dtype=xp.int64, device=self.tokens.device)[:, None] * V
        return xp.reshape(self._bincount(xp.reshape(rows + self.tokens, (-1,)), xp.reshape(w, (-1,)), n * V),
                          (n, V))

    def scores(self, q: np.ndarray) -> np.ndarray:
        xp = self._xp
        n, L = self.tokens.shape
        s = xp.reshape(xp.take(self.E @ q, xp.reshape(self.tokens, (-1,))), (n, L))
        if xp is np:
            s[np.arange(n), self.pos] += self.z_trig @ q
            return s
        informative = xp.arange(L, dtype=self.pos.dtype, device=self.pos.device)[None, :] == self.pos[:, None]
        return s + xp.astype(informative, s.dtype) * (self.z_trig @ q)

    def attend(self, sigma: np.ndarray) -> np.ndarray:
        o = self._weights(sigma) @ self.E
        if self.marker:
            o = o + self._at_pos(sigma)[:, None] * self.z_trig
        return o

    def key_sum(self, w: np.ndarray) -> np.ndarray:
        xp = self._xp
        per_token = self._bincount(xp.reshape(self.tokens, (-1,)), xp.reshape(w, (-1,)), self.E.shape[0])
        return per_token @ self.E + xp.sum(self._at_pos(w)) * self.z_trig

    def value_key_sum(self, sigma: np.ndarray, jac: np.ndarray) -> np.ndarray:
        """``Σ_{n,i} σ_{n,i}(v_iᵀJ_n) k_i``: the ``e_x e_xᵀ`` part by token through
        ``R = SᵀJ``, then the informative position's trigger terms
        (``v_ℓ = e_a + m z_trig``, ``k_ℓ = e_a + z_trig``, ``a = x_ℓ``, ``m = marker``)."""
        xp, E, z = self._xp, self.E, self.z_trig
        R = self._weights(sigma).T @ jac  # (V, d): Σ_{n,i: x=v} σ_{n,i} J_n
        total = row_dots(xp, E, R) @ E
        sig_pos = self._at_pos(sigma)
        a = self._at_pos(self.tokens)
        total = total + (sig_pos @ row_dots(xp, xp.take(E, a, axis=0), jac)) * z  # (e_aᵀJ) z_trig
        if self.marker:
            z_dot_j = sig_pos * (jac @ z)
            total = total + self._bincount(a, z_dot_j, E.shape[0]) @ E  # (z_trigᵀJ) e_a
            total = total + xp.sum(z_dot_j) * z  # (z_trigᵀJ) z_trig
        return total


def row_dots(xp, a, b):
    """``Σ_j a[i, j] b[i, j]`` for each row ``i`` (NumPy: ``einsum``, the host path's
    summation order)."""
    if xp is np:
        return np.einsum("nd,nd->n", a, b)
    return xp.sum(a * b, axis=1)
