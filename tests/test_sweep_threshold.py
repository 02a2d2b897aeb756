"""Integration: the real ThresholdSearch (theorycheck.threshold) driven by the sweep engine."""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor

import pytest

from theorycheck import threshold
from theorycheck.planted import planted_trial
from theorycheck.sweep import CellSpec, SqliteStore, run_sweep

PLANTED = (30, 100, 400)
ENTROPY = 11


def cells():
    return {
        f"T={t}": CellSpec(
            {"threshold": t, "width": 0.425}, "N",
            threshold.ThresholdSearch(start=64, max_trials=200),
        )
        for t in PLANTED
    }


def as_json(sweep):
    return json.dumps({k: v.to_dict() for k, v in sweep.results.items()}, sort_keys=True)


@pytest.fixture(scope="module")
def serial():
    return run_sweep(cells(), planted_trial, entropy=ENTROPY, code_version="t")


def test_search_sees_exactly_the_trials_the_engine_ran(serial):
    for key, result in serial.results.items():
        pooled: dict[float, list[int]] = {}
        for record in serial.trials[key]:
            slot = pooled.setdefault(float(record.resource), [0, 0])
            slot[0] += record.success
            slot[1] += 1
        assert [(float(r), k, n) for r, k, n in result.points] == [
            (r, k, n) for r, (k, n) in sorted(pooled.items())
        ]
        assert result.trials == len(serial.trials[key]) <= 200


def test_planted_thresholds_are_recovered(serial):
    # planted_trial has P(success) = 1/2 exactly at N = T. With ~200 trials per cell the
    # search's CI of log N* is ~0.15-0.2 wide (standard error ~0.05), so |log(est/T)| < 0.3
    # is a ~6-sigma tolerance that an honest engine + search passes for any entropy,
    # while mis-assigned seeds or counts told to the wrong cell (thresholds 30/100/400
    # differ by factors >= 3) would break it.
    for t in PLANTED:
        result = serial.results[f"T={t}"]
        assert abs(math.log(result.estimate / t)) < 0.3, (t, result.estimate, result.ci)


def test_parallel_run_and_resume_give_identical_thresholds(serial, tmp_path):
    # threads suffice here: process pools and dask are checked in test_sweep_engine.py
    with ThreadPoolExecutor(max_workers=2) as pool, SqliteStore(tmp_path) as store:
        parallel = run_sweep(cells(), planted_trial, entropy=ENTROPY, executor=pool,
                             store=store, code_version="t")
    assert as_json(parallel) == as_json(serial)
    with SqliteStore(tmp_path) as store:
        resumed = run_sweep(cells(), planted_trial, entropy=ENTROPY, store=store, code_version="t")
    assert resumed.computed == 0 and resumed.reused == parallel.computed
    assert as_json(resumed) == as_json(serial)
