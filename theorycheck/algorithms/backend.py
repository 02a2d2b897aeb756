"""Array backend of the count path's dense products (docs/theory.md §3 item 2).

The count path costs ``O(N·L)`` for counting and ``O(V²·d)`` for the dense products of
the per-label-block tables with the embeddings (``C_k E``, ``R_k Eᵀ``, ``W_kᵀ (·)``,
the soft-attention ``D_k E``).  The products are the part an accelerator speeds up, and
they are written once against the Python array API through ``array-api-compat``:
``numpy`` (default, no conversion at all), ``torch`` (CUDA when available, else CPU),
``cupy``, or ``array_api_strict`` (the standard's reference namespace, for tests).

The counting (``bincount``, gathers, scatter-adds) stays in NumPy: the array API has no
``bincount`` or scatter-add.  Random draws stay in NumPy too, so a seed gives the same
data on every backend; the statistics then agree to float64 rounding (the products sum
in another order on another library), so successes and accuracies agree except at exact
ties.  All arithmetic is float64 on every backend.
"""

from __future__ import annotations

import importlib
import importlib.util

import numpy as np

__all__ = ["Backend", "get_backend", "check_backend", "BACKENDS"]

BACKENDS = ("numpy", "torch", "cupy", "array_api_strict")


class Backend:
    """Dense float64 products on one array library: :meth:`put` / :meth:`keep` move
    NumPy arrays in, :meth:`mm` and :meth:`T` compute, :meth:`numpy` brings results back.
    For ``numpy`` all four are the identity or NumPy's own operators."""

    def __init__(self, name: str):
        self.name = name
        if name == "numpy":
            self.xp, self.device = None, None
            return
        try:
            module = importlib.import_module(name)
            from array_api_compat import array_namespace
        except ImportError as exc:
            raise ValueError(_not_installed(name, exc)) from None
        if name == "torch":
            self.device = "cuda" if module.cuda.is_available() else "cpu"
            probe = module.zeros(1, dtype=module.float64, device=self.device)
        elif name == "cupy":
            self.device = None
            probe = module.zeros(1, dtype=module.float64)
        else:
            self.device = None
            probe = module.asarray(np.zeros(1))
        self.xp = array_namespace(probe)
        self._module = module
        self._kept: dict[int, tuple[np.ndarray, object]] = {}

    def put(self, a: np.ndarray):
        """``a`` as a float64 array of the backend (NumPy: ``a`` itself)."""
        if self.xp is None:
            return a
        a = np.ascontiguousarray(a, dtype=np.float64)
        if self.name == "torch":
            if not a.flags.writeable:  # torch shares the buffer and warns on read-only memory
                a = a.copy()
            return self._module.from_numpy(a).to(self.device)
        return self.xp.asarray(a)

    def keep(self, a: np.ndarray):
        """:meth:`put` for an operand reused by many products (the embeddings): made
        once per array object (the last 4 are kept)."""
        if self.xp is None:
            return a
        hit = self._kept.get(id(a))
        if hit is None or hit[0] is not a:
            if len(self._kept) >= 4:
                self._kept.clear()
            hit = self._kept[id(a)] = (a, self.put(a))
        return hit[1]

    def mm(self, a, b):
        """``a @ b`` of two backend arrays (a backend array)."""
        return a @ b if self.xp is None else self.xp.matmul(a, b)

    def T(self, a):
        """Transpose of a backend matrix."""
        return a.T if self.xp is None else self.xp.permute_dims(a, (1, 0))

    def numpy(self, x) -> np.ndarray:
        """A backend array as a NumPy array."""
        if self.xp is None or isinstance(x, np.ndarray):
            return x
        if self.name == "torch":
            return x.cpu().numpy()
        if self.name == "cupy":
            return x.get()
        return np.from_dlpack(x)


_CACHE: dict[str, Backend] = {}


def check_backend(name: object) -> str:
    """``name`` if it names one of :data:`BACKENDS` (nothing is imported: the rule of the
    ``backend`` option, checked before any work); ValueError otherwise."""
    if not isinstance(name, str) or name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    missing = [m for m in (name, "array_api_compat") if name != "numpy" and importlib.util.find_spec(m) is None]
    if missing:
        raise ValueError(_not_installed(name, f"no module named {missing[0]!r}"))
    return name


def _not_installed(name: str, why: object) -> str:
    return (f"backend {name!r} needs the packages {name!r} and 'array-api-compat' "
            f"installed (pip install {name.replace('_', '-')} array-api-compat), got: {why}")


def get_backend(name: str | Backend = "numpy") -> Backend:
    """The backend called ``name`` (one of :data:`BACKENDS`); ValueError otherwise."""
    if isinstance(name, Backend):
        return name
    check_backend(name)
    if name not in _CACHE:
        _CACHE[name] = Backend(name)
    return _CACHE[name]
