"""A trial out of accelerator memory waits for memory other trials hold, or ends the run in
one line that is not "a bug" (theorycheck/algorithms/device_memory.py). No GPU needed: the
errors are PyTorch's and cuBLAS's as seen on an H100 (2026-11-28), stood in for here."""

from __future__ import annotations

import pytest

import theorycheck.algorithms.limit as limit_module
from theorycheck.algorithms import device_memory
from theorycheck.algorithms.device_memory import DeviceMemoryError, is_out_of_memory, retry_out_of_memory
from theorycheck.cli.errors import internal_error_line
from theorycheck.simulate import simulate
from theorycheck.sweep.engine import TrialError
from theorycheck.tasks.retrieval import RetrievalParams

TorchOOM = type("OutOfMemoryError", (RuntimeError,), {"__module__": "torch"})  # torch.OutOfMemoryError
GIB = 2**30


def failing(times: int, error: BaseException):
    calls = []

    def run():
        calls.append(1)
        if len(calls) <= times:
            raise error
        return "done"
    return run, calls


def test_the_errors_a_gpu_raises_are_recognised_and_a_host_memory_error_is_not():
    assert is_out_of_memory(TorchOOM("CUDA out of memory. Tried to allocate 9.01 GiB"))
    assert is_out_of_memory(RuntimeError("CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`"))
    assert not is_out_of_memory(MemoryError("Unable to allocate 9.0 GiB"))  # NumPy on the host: not waited for
    assert not is_out_of_memory(RuntimeError("shapes cannot be multiplied"))
    assert not is_out_of_memory(type("OutOfMemoryError", (RuntimeError,), {})("a user's own class"))


def test_a_trial_waits_while_other_trials_hold_the_memory_then_runs():
    run, calls = failing(3, TorchOOM("CUDA out of memory. Tried to allocate 9.01 GiB. GPU 0 has ..."))
    slept = []
    out = retry_out_of_memory(run, "here", sleep=slept.append, memory=lambda: (1 * GIB, 80 * GIB))
    assert out == "done" and len(calls) == 4 and slept == [1.0, 2.0, 4.0]  # doubling pauses


def test_other_errors_pass_through_untouched():
    run, calls = failing(1, ValueError("bad"))
    with pytest.raises(ValueError, match="bad"):
        retry_out_of_memory(run, "here", sleep=pytest.fail, memory=pytest.fail)
    assert len(calls) == 1


def test_a_trial_that_does_not_fit_an_empty_device_is_not_retried():
    run, calls = failing(5, TorchOOM("CUDA out of memory. Tried to allocate 90 GiB. GPU 0 has a total capacity "
                                     "of 79 GiB"))
    with pytest.raises(DeviceMemoryError, match=r"at \(1, 2\) with the device nearly all free "
                                                r"\(CUDA out of memory\); run fewer --workers"):
        retry_out_of_memory(run, "(1, 2)", sleep=pytest.fail, memory=lambda: (78 * GIB, 80 * GIB))
    assert len(calls) == 1


def test_the_wait_is_bounded():
    run, calls = failing(100, TorchOOM("CUDA out of memory"))
    slept = []
    with pytest.raises(DeviceMemoryError, match="after waiting 100 s for memory that other trials held"):
        retry_out_of_memory(run, "x", wait=100.0, sleep=slept.append, memory=lambda: (0, 80 * GIB))
    assert sum(slept) == 100.0 and max(slept) == 30.0  # pauses 1, 2, .., 30 s, cut to the budget


def test_the_command_line_says_what_to_do_not_a_bug():
    cause = DeviceMemoryError("out of accelerator memory for a trial at (V, d, L, N) = (8192, 1024, 512, 9448640) "
                              "after waiting 600 s ...; run fewer --workers (they share the device) or lower "
                              "--max-cost")
    try:
        try:
            raise cause
        except DeviceMemoryError as exc:
            raise TrialError("trial failed in cell 'cell04' with params {...}: DeviceMemoryError: ...") from exc
    except TrialError as exc:
        line = internal_error_line(exc)
    assert line.startswith("theorycheck: error: out of accelerator memory for a trial at (V, d, L, N) = (8192,")
    assert "fewer --workers" in line and "finished trials are kept" in line and "a bug" not in line


def test_simulate_retries_a_trial_that_ran_out_and_gets_the_same_outcome(monkeypatch):
    p = RetrievalParams(V=32, d=48, L=4, N=2000)
    plain = simulate(p, "limit", seed=3)
    real, calls = limit_module.run_limit, []

    def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise TorchOOM("CUDA out of memory. Tried to allocate 74.00 MiB")
        return real(*args, **kwargs)

    slept = []
    monkeypatch.setattr(limit_module, "run_limit", flaky)
    monkeypatch.setattr(device_memory, "_release", lambda: (0, 80 * GIB))
    monkeypatch.setattr(device_memory.time, "sleep", slept.append)
    again = simulate(p, "limit", seed=3)
    assert len(calls) == 2 and slept == [1.0]
    assert (again.accuracy, again.selection_accuracy, again.success) == (plain.accuracy, plain.selection_accuracy,
                                                                         plain.success)


def test_a_long_trial_error_keeps_its_cause_in_the_one_line_report():
    # A TrialError names the cell, its parameters and the seed before the cause; cut at its
    # end, the line of 2026-11-28 showed "spawn_key=(9130287..." and not what failed.
    params = {"algorithm": "limit", "backend": "torch", "V": 8192, "d": 1024, "L": 512, "N": 9448640,
              **{f"setting{i}": i for i in range(20)}}
    exc = TrialError(f"trial failed in cell 'cell04:L=512,V=8192,d=1024,zeta=1' with params {params!r}, seed "
                     f"SeedSequence(2026, spawn_key=(913028766, 4)): RuntimeError: CUDA error: an illegal memory access")
    line = internal_error_line(exc)
    assert "\n" not in line and len(line) < 450
    assert "trial failed in cell 'cell04" in line and "RuntimeError: CUDA error: an illegal memory access" in line
