"""One contract, every store: the same tests run against MemoryStore and SqliteStore
(the pattern of emcee's backend tests, parametrised over its backends)."""

import numpy as np
import pytest

from theorycheck.seeding import trial_seed
from theorycheck.sweep import (
    ForeignStoreError,
    MemoryStore,
    SqliteStore,
    SweepIdentity,
    TrialRecord,
    TrialStore,
    UnboundStoreError,
    trial_key,
)

IDENTITY = SweepIdentity(entropy=7, code_version="contract", trial="tests:planted")


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    s = MemoryStore() if request.param == "memory" else SqliteStore(tmp_path)
    yield s
    s.close()


def make_record(cell="a", resource=64, replicate=0, result=None):
    params = {"threshold": 40, "N": resource}
    seed = trial_seed(IDENTITY.entropy, cell, resource, replicate)
    return TrialRecord(
        key=trial_key(IDENTITY, cell, params, seed), cell=cell, resource=resource,
        replicate=replicate, params=params, seed=seed,
        result={"success": True, "draw": 0.25} if result is None else result,
    )


def test_is_a_trial_store(store):
    assert isinstance(store, TrialStore)


def test_unbound_store_refuses_reads_and_writes(store):
    # the disagreement this contract fixed: an unbound MemoryStore used to accept a write
    with pytest.raises(UnboundStoreError, match="bind"):
        store.put(make_record())
    with pytest.raises(UnboundStoreError, match="bind"):
        store.get(make_record().key)
    assert len(store) == 0 and store.records() == []
    assert issubclass(UnboundStoreError, ValueError)


def test_put_then_get_returns_an_equal_record(store):
    store.bind(IDENTITY)
    record = make_record()
    assert store.get(record.key) is None
    store.put(record, elapsed=0.5)
    assert store.get(record.key) == record
    assert len(store) == 1 and store.identity == IDENTITY


def test_first_record_of_a_key_is_kept(store):
    store.bind(IDENTITY)
    first = make_record()
    second = TrialRecord(**{**first.__dict__, "result": {"success": False, "draw": 0.9}})
    store.put(first)
    store.put(second)
    assert store.get(first.key) == first and len(store) == 1


def test_records_are_sorted_by_cell_resource_replicate(store):
    store.bind(IDENTITY)
    wanted = [make_record(c, r, i) for c in ("a", "b") for r in (8, 64) for i in (0, 1)]
    for record in reversed(wanted):
        store.put(record)
    assert store.records() == wanted


def test_rebinding_same_identity_is_fine_another_is_foreign(store):
    store.bind(IDENTITY)
    store.put(make_record())
    store.bind(IDENTITY)
    assert len(store) == 1
    other = SweepIdentity(entropy=8, code_version="contract", trial="tests:planted")
    with pytest.raises(ForeignStoreError):
        store.bind(other)


def test_put_refuses_what_json_cannot_hold(store):
    store.bind(IDENTITY)
    with pytest.raises(ValueError, match="not JSON-serialisable"):
        store.put(make_record(result={"success": True, "blob": object()}))
    assert len(store) == 0


def test_numpy_values_in_a_result_read_back_as_plain_numbers(store):
    # what the engine stores is already normalised (theorycheck.jsonable); a record built
    # from plain values reads back equal from either store
    store.bind(IDENTITY)
    record = make_record(result={"success": True, "draw": float(np.float64(0.125))})
    store.put(record)
    assert store.get(record.key).result == {"success": True, "draw": 0.125}
