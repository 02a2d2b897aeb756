"""Support for the sweep tests: a fake ask/tell search, a small grid, and a runnable script.

Run as a script (the interruption tests start it in a subprocess and kill it)::

    python tests/sweep_script.py OUT_DIR

runs the grid of :func:`make_cells` serially with ``SqliteStore(OUT_DIR)`` and prints one
JSON line {"computed", "reused", "results"}. Two environment variables act on the trial
without entering its parameters (so keys and results do not change):
``SWEEP_TEST_LOG`` (a file: one line per trial invocation) and ``SWEEP_TEST_SLEEP``
(seconds to sleep per trial, to make the sweep slow enough to interrupt).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import Any

import numpy as np

from theorycheck.planted import planted_trial
from theorycheck.sweep import CellSpec, SqliteStore, run_sweep
from theorycheck.jsonable import canonical_json

ENTROPY = 20260801
CODE_VERSION = "sweep-test"  # fixed: other parts of the tree change while tests run
TRIAL_ID = "sweep-script:planted"
THRESHOLDS = {"a": 40, "b": 90, "c": 150}


class FakeBisection:
    """Deterministic ask/tell search over an integer resource in [lo, hi].

    Round 1 asks both ends ([(lo, k), (hi, k)]); then it bisects on the majority of k
    trials at the midpoint; when hi - lo <= 1 it re-asks lo and hi for ``confirm`` more
    trials (so the same resource is asked twice and replicate indices must continue);
    then it is done. Resources are asked as floats, as ThresholdSearch does.
    """

    def __init__(self, lo: int, hi: int, per_point: int = 4, confirm: int = 3) -> None:
        self.lo, self.hi, self.per_point, self.confirm = lo, hi, per_point, confirm
        self.points: dict[float, list[int]] = {}
        self.stage = "ends"
        self.waiting = 0
        self.done = False

    def ask(self) -> list[tuple[float, int]]:
        if self.waiting:
            raise RuntimeError("ask() called before the previous batch was told")
        if self.done:
            return []
        if self.stage == "ends":
            request = [(float(self.lo), self.per_point), (float(self.hi), self.per_point)]
        elif self.hi - self.lo > 1:
            self.stage = "bisect"
            request = [(float((self.lo + self.hi) // 2), self.per_point)]
        elif self.stage != "confirm":
            self.stage = "confirm"
            request = [(float(self.lo), self.confirm), (float(self.hi), self.confirm)]
        else:
            self.done = True
            return []
        self.waiting = len(request)
        return request

    def tell(self, resource: float, successes: int, trials: int) -> None:
        point = self.points.setdefault(float(resource), [0, 0])
        point[0] += successes
        point[1] += trials
        self.waiting -= 1
        if self.stage == "ends" and self.waiting == 0:
            self.stage = "bisect"
        elif self.stage == "bisect" and resource not in (self.lo, self.hi):
            if 2 * successes >= trials:
                self.hi = int(resource)
            else:
                self.lo = int(resource)

    def result(self) -> dict[str, Any]:
        return {
            "bracket": [self.lo, self.hi],
            "points": [[r, s, n] for r, (s, n) in sorted(self.points.items())],
        }



def stored_trials(out) -> int:
    """How many trials the store in ``out`` holds now (read-only; 0 while it does not exist
    or is busy): the interruption tests wait on it before killing a run."""
    import sqlite3
    from contextlib import closing

    path = out / "trials.sqlite"
    if not path.exists():
        return 0
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)) as con:
            return con.execute("SELECT COUNT(*) FROM trials").fetchone()[0]
    except sqlite3.Error:
        return 0


def kill_when_stored(proc, out, at_least: int, timeout: float) -> int:
    """SIGKILL ``proc`` once the store in ``out`` holds ``at_least`` trials; returns how many
    it holds after the kill (asserting the run was still going, so the kill interrupted it)."""
    deadline = time.time() + timeout
    while stored_trials(out) < at_least and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, "the sweep finished before it could be killed; make it longer"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    return stored_trials(out)

def make_cells(thresholds: dict[str, int] = THRESHOLDS, lo: int = 8, hi: int = 512) -> dict[str, CellSpec]:
    return {
        key: CellSpec(
            params={"threshold": t, "width": 0.425},
            resource="N",
            search=FakeBisection(lo, hi),
        )
        for key, t in thresholds.items()
    }


def logged_trial(params: dict[str, Any], seed: np.random.SeedSequence) -> dict[str, Any]:
    """planted_trial, plus one log line per invocation and an optional sleep (env vars)."""
    log = os.environ.get("SWEEP_TEST_LOG")
    if log:
        with open(log, "a") as fh:
            fh.write(canonical_json({"params": params, "spawn_key": list(seed.spawn_key)}) + "\n")
    time.sleep(float(os.environ.get("SWEEP_TEST_SLEEP", "0")))
    return planted_trial(params, seed)


def mark_then_sleep(path: str, seconds: float) -> None:
    """A long task for a worker pool: write this process's pid to ``path``, then sleep."""
    with open(path, "w") as fh:
        fh.write(str(os.getpid()))
    time.sleep(seconds)


def main(out_dir: str) -> int:
    # Ctrl-C must raise KeyboardInterrupt even if our parent ignores SIGINT (background jobs)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with SqliteStore(out_dir) as store:
        sweep = run_sweep(
            make_cells(), logged_trial, entropy=ENTROPY, store=store,
            code_version=CODE_VERSION, trial_id=TRIAL_ID,
        )
    print(json.dumps({"computed": sweep.computed, "reused": sweep.reused, "results": sweep.results}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
