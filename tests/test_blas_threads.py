"""bench/blas_threads.py: the read-out scripts run one BLAS thread unless told otherwise, set before NumPy loads
(docs/theory.md §7.12, "One BLAS thread")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
READOUTS = ("population_wall", "bias_modes", "crosstalk_parts", "leak_wall", "softmax_leak")
VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _after_import(module: str, **env: str) -> list[str]:
    """The three variables as a fresh interpreter sees them after ``import module`` (bench/ on its path), and whether
    NumPy had loaded before the module set them (it must not have: OpenBLAS reads them once, when it loads)."""
    clean = {k: v for k, v in os.environ.items() if k not in VARIABLES} | env
    code = (f"import sys; sys.path.insert(0, {str(BENCH)!r}); import builtins, os; seen = []\n"
            "real = builtins.__import__\n"
            "def spy(name, *a, **k):\n"
            "    if name == 'numpy' and not seen: seen.append(os.environ.get('OPENBLAS_NUM_THREADS', 'unset'))\n"
            "    return real(name, *a, **k)\n"
            f"builtins.__import__ = spy; import {module}\n"
            "print(*[os.environ.get(v, 'unset') for v in " + repr(VARIABLES) + "], seen[0])")
    out = subprocess.run([sys.executable, "-c", code], env=clean, capture_output=True, text=True, check=True)
    return out.stdout.split()


@pytest.mark.parametrize("module", READOUTS)
def test_a_readout_script_sets_one_blas_thread_before_numpy_loads(module):
    # Before 2026-12-06 these left OpenBLAS its default threads in each of the count path's worker threads.
    assert _after_import(module) == ["1", "1", "1", "1"]


def test_a_thread_count_already_asked_for_is_kept():
    assert _after_import("population_wall", OPENBLAS_NUM_THREADS="2") == ["2", "1", "1", "2"]
