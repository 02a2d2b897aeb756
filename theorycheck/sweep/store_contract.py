"""The store contract (:class:`TrialStore`), its errors, and the in-memory store.

The contract every store keeps (one contract test, tests/test_sweep_store_contract.py,
runs it against both stores): ``bind(identity)`` before ``get``/``put`` (else
:class:`UnboundStoreError`), binding to another sweep's identity is a
:class:`ForeignStoreError`, ``put`` refuses a record JSON cannot hold (``ValueError``) and
keeps the first record of a key, ``get`` returns a record equal to the one put,
``records()`` are sorted by (cell, resource, replicate). The on-disk store is
:class:`theorycheck.sweep.store.SqliteStore`.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from theorycheck.jsonable import canonical_json
from theorycheck.sweep.record import SweepIdentity, TrialRecord

__all__ = ["StoreError", "CorruptStoreError", "ForeignStoreError", "UnboundStoreError", "TrialStore",
           "MemoryStore"]


class StoreError(ValueError):
    """A trial store cannot be used as asked (base class)."""


class CorruptStoreError(StoreError):
    """The store file is damaged: unreadable, truncated, or a row fails its checksum."""


class ForeignStoreError(StoreError):
    """The store belongs to something else: not a theorycheck store, or another sweep."""


class UnboundStoreError(StoreError):
    """``get``/``put`` on a store that no sweep identity was bound to."""


@runtime_checkable
class TrialStore(Protocol):
    """What ``run_sweep`` needs of a store (the contract in the module docstring)."""

    identity: SweepIdentity | None

    def bind(self, identity: SweepIdentity) -> None: ...

    def get(self, key: str) -> TrialRecord | None: ...

    def put(self, record: TrialRecord, elapsed: float = 0.0) -> None: ...

    def records(self) -> list[TrialRecord]: ...

    def __len__(self) -> int: ...

    def close(self) -> None: ...


def _unbound(kind: str) -> UnboundStoreError:
    return UnboundStoreError(
        f"{kind}.bind(identity) must be called before get/put (run_sweep does it); "
        "bind the store to the sweep's SweepIdentity first"
    )


def _sorted(records: Any) -> list[TrialRecord]:
    return sorted(records, key=lambda r: (r.cell, r.resource, r.replicate))


class MemoryStore:
    """Trials kept in a dict: the library default; nothing survives the process."""

    def __init__(self) -> None:
        self._records: dict[str, TrialRecord] = {}
        self.identity: SweepIdentity | None = None

    def bind(self, identity: SweepIdentity) -> None:
        if self.identity is not None and self.identity != identity:
            raise ForeignStoreError(
                f"this in-memory store holds trials of sweep {self.identity.to_dict()}, "
                f"not {identity.to_dict()}; use a fresh MemoryStore()"
            )
        self.identity = identity

    def get(self, key: str) -> TrialRecord | None:
        if self.identity is None:
            raise _unbound("MemoryStore")
        return self._records.get(key)

    def put(self, record: TrialRecord, elapsed: float = 0.0) -> None:
        """Keep ``record`` (the first one of its key); checked as :class:`SqliteStore` does."""
        if self.identity is None:
            raise _unbound("MemoryStore")
        canonical_json(record.to_dict())  # ValueError for what JSON cannot hold
        self._records.setdefault(record.key, record)

    def records(self) -> list[TrialRecord]:
        """All records, sorted by (cell, resource, replicate)."""
        return _sorted(self._records.values())

    def __len__(self) -> int:
        return len(self._records)

    def close(self) -> None:
        """Nothing to release (kept for symmetry with :class:`SqliteStore`)."""

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
