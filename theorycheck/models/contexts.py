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

__all__ = ["DenseContexts", "TokenContexts"]


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
    object while its chunk is current, never keep it."""

    tokens: np.ndarray
    pos: np.ndarray
    E: np.ndarray
    z_trig: np.ndarray
    marker: bool

    @property
    def n(self) -> int:
        return int(self.tokens.shape[0])

    def _rows(self) -> np.ndarray:
        return np.arange(self.n)

    def _weights(self, w: np.ndarray):
        """``S[n, x_{n,i}] = Σ w_{n,i}`` as a CSR matrix (duplicate ids are summed by the products).
        SciPy is imported here: the registry imports this module, and commands that never
        train (``bounds list``) do not load SciPy."""
        import scipy.sparse as sp

        n, L = self.tokens.shape
        return sp.csr_matrix((np.ascontiguousarray(w, dtype=np.float64).ravel(), self.tokens.ravel(),
                              np.arange(0, n * L + 1, L)), shape=(n, self.E.shape[0]))

    def scores(self, q: np.ndarray) -> np.ndarray:
        s = (self.E @ q)[self.tokens]
        s[self._rows(), self.pos] += self.z_trig @ q
        return s

    def attend(self, sigma: np.ndarray) -> np.ndarray:
        o = self._weights(sigma) @ self.E
        if self.marker:
            o += sigma[self._rows(), self.pos][:, None] * self.z_trig
        return o

    def key_sum(self, w: np.ndarray) -> np.ndarray:
        per_token = np.bincount(self.tokens.ravel(), weights=w.ravel(), minlength=self.E.shape[0])
        return per_token @ self.E + w[self._rows(), self.pos].sum() * self.z_trig

    def value_key_sum(self, sigma: np.ndarray, jac: np.ndarray) -> np.ndarray:
        """``Σ_{n,i} σ_{n,i}(v_iᵀJ_n) k_i``: the ``e_x e_xᵀ`` part by token through
        ``R = SᵀJ``, then the informative position's trigger terms
        (``v_ℓ = e_a + m z_trig``, ``k_ℓ = e_a + z_trig``, ``a = x_ℓ``, ``m = marker``)."""
        E, z = self.E, self.z_trig
        R = self._weights(sigma).T @ jac  # (V, d): Σ_{n,i: x=v} σ_{n,i} J_n
        total = np.einsum("vd,vd->v", E, R) @ E
        rows = self._rows()
        sig_pos = sigma[rows, self.pos]
        a = self.tokens[rows, self.pos]
        e_dot_j = np.einsum("nd,nd->n", E[a], jac)
        total += (sig_pos @ e_dot_j) * z  # (e_aᵀJ) z_trig
        if self.marker:
            z_dot_j = sig_pos * (jac @ z)
            total += np.bincount(a, weights=z_dot_j, minlength=E.shape[0]) @ E  # (z_trigᵀJ) e_a
            total += z_dot_j.sum() * z  # (z_trigᵀJ) z_trig
        return total
