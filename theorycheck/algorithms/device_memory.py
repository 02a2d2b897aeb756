"""A trial that runs out of accelerator memory waits for it, or says so in one line.

Workers of a check share one GPU (``--workers 8 --set backend=torch``). A trial's peak
grows with ``N·L`` (the device copy of the training tokens, :mod:`theorycheck.algorithms.device_counts`):
about 19 GiB at ``(V, d, L, N) = (8192, 1024, 512, 9.4·10⁶)``, measured on an H100 on
2026-11-28, where eight such trials at once asked for more than its 80 GiB and three of
eight failed with PyTorch's ``OutOfMemoryError`` (or cuBLAS's ``CUBLAS_STATUS_ALLOC_FAILED``),
which ended the whole check as "internal error: a bug".

:func:`retry_out_of_memory` runs the trial again when the memory others hold may come
free: it drops its own cached blocks, waits 1, 2, 4, ... (at most 30) seconds and retries,
up to :data:`WAIT_SECONDS` in all. The retry draws nothing new (the trial is a function of
its seed), so it gives the same statistics as a first run would. When the device is
nearly all free and the trial still does not fit, or the wait is over, it raises
:class:`DeviceMemoryError`, which the command line prints as one line saying what to do
(fewer ``--workers``, a lower ``--max-cost``), not as a bug; finished trials stay in the store.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
from typing import TypeVar

__all__ = ["DeviceMemoryError", "WAIT_SECONDS", "is_out_of_memory", "retry_out_of_memory"]

T = TypeVar("T")

#: Longest a trial waits, in all, for device memory that other trials hold.
WAIT_SECONDS = 600.0

#: Free fraction of the device above which a trial that still does not fit is alone on it:
#: waiting cannot help.
ALONE = 0.9


class DeviceMemoryError(RuntimeError):
    """A trial needs more accelerator memory than the device has free (module docstring)."""


def is_out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` is an accelerator's out-of-memory error: PyTorch's and CuPy's
    ``OutOfMemoryError``, or a CUDA library's failed allocation surfacing as RuntimeError
    (cuBLAS's handle, "CUDA error: out of memory"). A host ``MemoryError`` is not one."""
    kind = type(exc)
    if kind.__name__ == "OutOfMemoryError" and kind.__module__.split(".")[0] in ("torch", "cupy", "cupy_backends"):
        return True
    text = str(exc)
    return isinstance(exc, RuntimeError) and any(
        s in text for s in ("CUDA out of memory", "CUDA error: out of memory", "CUBLAS_STATUS_ALLOC_FAILED"))


def _release() -> tuple[int, int] | None:
    """Give this process's cached device blocks back and return ``(free, total)`` bytes of
    the device, or None when no accelerator library is in use."""
    gc.collect()  # tensors the failed attempt left behind
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.empty_cache()
        return tuple(torch.cuda.mem_get_info())
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        cupy.get_default_memory_pool().free_all_blocks()
        return tuple(cupy.cuda.runtime.memGetInfo())
    return None


def retry_out_of_memory(run: Callable[[], T], what: str, *, wait: float = WAIT_SECONDS,
                        sleep: Callable[[float], None] | None = None,
                        memory: Callable[[], tuple[int, int] | None] | None = None) -> T:
    """``run()``, retried after a pause while it fails for want of accelerator memory that
    other processes hold (module docstring); :class:`DeviceMemoryError` naming ``what``
    (the trial's sizes) when waiting cannot help or has lasted ``wait`` seconds.
    ``sleep`` and ``memory`` (``(free, total)`` bytes after releasing this process's cache,
    or None without an accelerator) default to :func:`time.sleep` and the device's own."""
    sleep = time.sleep if sleep is None else sleep
    memory = _release if memory is None else memory
    waited, pause = 0.0, 1.0
    while True:
        try:
            return run()
        except Exception as exc:  # noqa: BLE001 - only an out-of-memory error is handled
            if not is_out_of_memory(exc):
                raise
            first = str(exc).split(". ")[0].strip()
        state = memory()  # outside the except block: the traceback's tensors are gone
        alone = state is not None and state[0] >= ALONE * state[1]
        if alone or waited >= wait:
            why = ("with the device nearly all free" if alone else
                   f"after waiting {waited:.0f} s for memory that other trials held")
            raise DeviceMemoryError(
                f"out of accelerator memory for a trial at {what} {why} ({first}); run fewer --workers "
                "(they share the device) or lower --max-cost, then the same command again to resume")
        step = min(pause, 30.0, wait - waited)
        sleep(step)
        waited += step
        pause *= 2.0
