"""One JSON normaliser (theorycheck.jsonable) and one seeding scheme (theorycheck.seeding)."""

import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from theorycheck.jsonable import canonical_json, dumps, jsonable
from theorycheck.seeding import child_seed, seed_record, seed_sequence, seeded_trial, trial_seed


def test_one_rule_for_every_kind():
    value = {
        1: np.float64(math.nan), "inf": [math.inf, -np.inf], "ints": (np.int32(3), True, np.bool_(False)),
        "frac": Fraction(1, 4), "arr": np.arange(3).reshape(3, 1), "set": {2, 1},
        "seed": np.random.SeedSequence(5, spawn_key=(1, 2)), "path": Path("a/b"), "none": None,
    }
    assert jsonable(value) == {
        "1": None, "inf": ["inf", "-inf"], "ints": [3, True, False], "frac": 0.25,
        "arr": [[0], [1], [2]], "set": [1, 2], "seed": {"entropy": 5, "spawn_key": [1, 2]},
        "path": "a/b", "none": None,
    }
    json.loads(dumps(value))  # strict JSON: allow_nan=False would raise on NaN/inf


def test_unknown_types_are_refused_in_one_line():
    with pytest.raises(ValueError, match="value of type object is not JSON-serialisable"):
        canonical_json({"x": object()})


def test_canonical_json_is_order_free():
    assert canonical_json({"b": 1, "a": (1.0, 2)}) == canonical_json({"a": [1.0, 2], "b": 1}) == '{"a":[1.0,2],"b":1}'


def test_seeds_derive_from_root_and_identity_only():
    s = trial_seed(7, "cell", 128.0, 3)
    assert s == trial_seed(7, "cell", 128, 3)  # 128.0 and 128 name the same trial
    assert s != trial_seed(7, "cell", 128, 4) and s != trial_seed(8, "cell", 128, 3)
    parent = seed_sequence(11)
    child = child_seed(parent, 2)
    assert child.spawn_key == (2,) and child.entropy == 11
    assert seed_record(11) == 11 and seed_record(child) == {"entropy": 11, "spawn_key": [2]}
    with pytest.raises(ValueError, match="seed must be an integer >= 0"):
        seed_sequence(-1)


def test_seeded_trial_draws_from_the_trial_seed():
    seen = []

    def trial(params, seed):
        seen.append((params, seed.spawn_key))
        return {"success": True}

    f = seeded_trial(trial, {"threshold": 10}, entropy=3)
    assert f(64.0, 1) is True
    expected = trial_seed(3, canonical_json({"threshold": 10}), 64, 1)
    assert seen == [({"threshold": 10, "N": 64}, expected.spawn_key)]
