"""A sweep killed midway (SIGKILL or Ctrl-C) resumes: nothing stored is recomputed and the
final results equal those of an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from theorycheck.planted import planted_trial
from theorycheck.sweep import MemoryStore, SqliteStore, SweepIdentity, run_sweep
from theorycheck.jsonable import canonical_json

SCRIPT = Path(__file__).with_name("sweep_script.py")


import sweep_script as support  # noqa: E402  (tests/ is on sys.path: pytest's prepend import mode)
IDENTITY = SweepIdentity(support.ENTROPY, support.CODE_VERSION, support.TRIAL_ID)


def _env(log: Path, sleep: float) -> dict[str, str]:
    env = dict(os.environ, SWEEP_TEST_LOG=str(log), SWEEP_TEST_SLEEP=str(sleep))
    return env


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def _stored(directory: Path) -> list:
    with SqliteStore(directory) as store:
        store.bind(IDENTITY)
        return store.records()


def _invocation(record) -> str:
    return canonical_json({"params": record.params, "spawn_key": list(record.seed.spawn_key)})


@pytest.fixture(scope="module")
def reference():
    """The same sweep, uninterrupted, in this process and in memory."""
    store = MemoryStore()
    sweep = run_sweep(
        support.make_cells(), planted_trial, entropy=support.ENTROPY, store=store,
        code_version=support.CODE_VERSION, trial_id=support.TRIAL_ID,
    )
    return sweep, [r.to_dict() for r in store.records()]


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_interrupted_sweep_resumes_without_recomputing(tmp_path, reference, sig):
    out = tmp_path / "out"
    log1, log2 = tmp_path / "run1.log", tmp_path / "run2.log"
    total = sum(len(v) for v in reference[0].trials.values())
    # 20 ms per trial: the first run would take ~total * 0.02 s, we stop it after 40 trials
    proc = subprocess.Popen(
        [sys.executable, str(SCRIPT), str(out)], env=_env(log1, 0.02),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while len(_lines(log1)) < 40:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "sweep subprocess made no progress"
        time.sleep(0.01)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0
    if sig == signal.SIGINT:
        assert b"KeyboardInterrupt" in err

    stored = _stored(out)
    assert 0 < len(stored) < total
    stored_invocations = {_invocation(r) for r in stored}

    resumed = subprocess.run(
        [sys.executable, str(SCRIPT), str(out)], env=_env(log2, 0.0),
        capture_output=True, check=True, timeout=120,
    )
    summary = json.loads(resumed.stdout)
    second_invocations = _lines(log2)
    # nothing already stored is computed again, and everything else is computed once
    assert not stored_invocations & set(second_invocations)
    assert len(second_invocations) == len(set(second_invocations)) == total - len(stored)
    assert summary["computed"] == total - len(stored) and summary["reused"] == len(stored)
    # the stored trials of the interrupted run were invoked by it (none invented)
    assert stored_invocations <= set(_lines(log1))

    assert summary["results"] == json.loads(json.dumps(reference[0].results))
    assert [r.to_dict() for r in _stored(out)] == reference[1]
