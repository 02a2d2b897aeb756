"""Array backends: the count path (docs/theory.md §3 item 2) and the dense models' passes
(``models/``, used by ``gd`` and ``three-step``).  A top-level module, so that the models
and the algorithms both build on it (``tests/test_import_edges.py``).

The count path costs ``O(N·L)`` for counting and ``O(V²·d)`` for the dense products of
the per-label-block tables with the embeddings.  On ``numpy`` (the default) both run in
the CPU path of :mod:`theorycheck.algorithms.count_passes`, threaded over label blocks.
On any other backend the *whole* path runs there
(:mod:`theorycheck.algorithms.device_counts`): the counting (gathers, the per-sequence
means, the scatter-adds) and the products, written once against the Python array API
through ``array-api-compat``: ``torch`` (CUDA when available, else CPU), ``cupy``, or
``array_api_strict`` (the standard's reference namespace, for tests).

The array API has no ``bincount`` (nor a scatter-add); :meth:`Backend.bincount` and its
form for rows, :meth:`Backend.add_rows` (the attention-MLP limit's per-label sums), are the
primitives added here: the library's own where it has one (NumPy, PyTorch, CuPy), else a
sort, a cumulative sum and a ``searchsorted``, all in the standard.

**Reproducibility.**  The random draws stay in NumPy (on the host, from the trial's
seed), so a seed gives the same training and test data on every backend; the statistics
then agree to float64 rounding (sums in another order), and successes and accuracies
agree except at exact ties.  All arithmetic is float64 on every backend.  On a CUDA
device the weighted counts are atomic float64 adds, whose order varies from run to run:
a repeat agrees with the first run to rounding (~1e-15 relative), not bit for bit.
"""

from __future__ import annotations

import importlib
import importlib.util

import numpy as np

__all__ = ["Backend", "get_backend", "check_backend", "namespace", "BACKENDS"]

BACKENDS = ("numpy", "torch", "cupy", "array_api_strict")


class Backend:
    """One array library: :meth:`put` / :meth:`put_int` / :meth:`put_as_is` / :meth:`keep`
    move NumPy arrays in, ``xp`` (the array-API namespace) and :meth:`bincount` compute, :meth:`numpy`
    brings results back.  For ``numpy`` ``xp`` is ``None`` (the CPU path is used)."""

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
        else:  # the strict namespace's second device stands in for an accelerator: an
            # array made without ``device=`` lands elsewhere and cannot be combined
            self.device = module.Device("device1")
            probe = module.asarray(np.zeros(1), device=self.device)
        self.xp = array_namespace(probe)
        self._module = module
        self._kept: dict[int, tuple[np.ndarray, object]] = {}

    def put_as_is(self, a: np.ndarray):
        """``a`` as an array of the backend in its own dtype (NumPy: ``a`` itself)."""
        if self.xp is None:
            return a
        a = np.ascontiguousarray(a)
        if self.name == "torch":
            if not a.flags.writeable:  # torch shares the buffer and warns on read-only memory
                a = a.copy()
            return self._module.from_numpy(a).to(self.device)
        return self.xp.asarray(a) if self.device is None else self.xp.asarray(a, device=self.device)

    def put(self, a: np.ndarray):
        """``a`` as a float64 array of the backend (NumPy: ``a`` itself)."""
        if self.xp is None:
            return a
        return self.put_as_is(np.asarray(a, dtype=np.float64))

    def put_int(self, a: np.ndarray):
        """Integer ``a`` as an int64 array of the backend (the index dtype every library
        takes); moved in its own, possibly narrower, dtype and widened there."""
        if self.xp is None:
            return np.asarray(a, dtype=np.int64)
        return self.xp.astype(self.put_as_is(np.asarray(a)), self.xp.int64)

    def keep(self, a: np.ndarray):
        """:meth:`put` for an operand reused by many products (the embeddings): made
        once per array object (the last 8 are kept)."""
        if self.xp is None:
            return a
        hit = self._kept.get(id(a))
        if hit is None or hit[0] is not a:
            if len(self._kept) >= 8:
                self._kept.clear()
            hit = self._kept[id(a)] = (a, self.put(a))
        return hit[1]

    def numpy(self, x) -> np.ndarray:
        """A backend array as a NumPy array."""
        if self.xp is None or isinstance(x, np.ndarray):
            return x
        if self.name == "torch":
            return x.cpu().numpy()
        if self.name == "cupy":
            return x.get()
        return np.from_dlpack(x.to_device(self._module.Device("CPU_DEVICE")))

    def bincount(self, index, weights=None, *, minlength: int):
        """``out[j] = Σ_{index[i] = j} weights[i]`` (or the count) for ``j < minlength``,
        as float64: 1-d int64 ``index`` with entries in ``[0, minlength)``."""
        if self.name in ("numpy", "cupy"):
            lib = np if self.xp is None else self._module
            return lib.bincount(index, weights=weights, minlength=minlength).astype(lib.float64)
        if self.name == "torch":
            return self._module.bincount(index, weights=weights, minlength=minlength).to(self._module.float64)
        return _bincount_by_sorting(self.xp, index, weights, minlength)

    def add_rows(self, out, index, rows):
        """``out[index[i]] += rows[i]``: the rows of ``rows`` (``(n, k)``) added into those of
        ``out`` (``(V, k)``) that ``index`` (1-d int64) names; returns ``out`` (NumPy, PyTorch
        and CuPy add in place) or the sum (the standard alone).  On a CUDA device the adds
        are atomic, in an order that varies from run to run (module docstring)."""
        if self.xp is None:
            np.add.at(out, index, rows)
            return out
        if self.name == "torch":
            return out.index_add_(0, index, rows)
        if self.name == "cupy":
            importlib.import_module("cupyx").scatter_add(out, index, rows)
            return out
        return out + _bincount_by_sorting(self.xp, index, rows, out.shape[0])


def _bincount_by_sorting(xp, index, weights, minlength: int):
    """:meth:`Backend.bincount` (1-d ``weights``) and :meth:`Backend.add_rows` (rows of
    2-d ``weights``) from the array API standard alone: sort the indices (stably, so the
    sums' order is fixed), cut the sorted run at every ``j`` with ``searchsorted`` and
    difference the cumulative counts or weights at the cuts (rounding ~``eps·|running
    sum|`` per entry)."""
    order = xp.argsort(index, stable=True)
    cuts = xp.searchsorted(xp.take(index, order), xp.arange(minlength + 1, dtype=index.dtype, device=index.device))
    if weights is None:
        return xp.astype(cuts[1:] - cuts[:-1], xp.float64)
    running = xp.cumulative_sum(xp.take(weights, order, axis=0), axis=0, include_initial=True)
    return xp.take(running, cuts[1:], axis=0) - xp.take(running, cuts[:-1], axis=0)


def namespace(*arrays):
    """The array-API namespace of ``arrays`` (``None`` entries ignored): ``numpy`` itself
    for NumPy arrays (nothing beyond NumPy on the host), else ``array_api_compat``'s."""
    arrays = [a for a in arrays if a is not None]
    if all(isinstance(a, np.ndarray) for a in arrays):
        return np
    from array_api_compat import array_namespace

    return array_namespace(*arrays)


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
