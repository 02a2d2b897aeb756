"""Where finished trials live: in memory (default) or in ``<out>/trials.sqlite``.

Why SQLite (stdlib ``sqlite3``) rather than append-only JSON lines: every trial is one
committed transaction, so a Ctrl-C or SIGKILL at any instant leaves either the whole
record or nothing (WAL journal, ``synchronous=NORMAL``: safe against a process crash,
which is what we must survive; only a power cut may lose the last few commits, never
corrupt earlier ones); lookups by key are indexed; two processes sharing a directory
are serialised by SQLite's locks. A JSONL file would need its own torn-line recovery,
locking and index.

Trust, checked before any work:

* on open: the file must be a SQLite database (else :class:`CorruptStoreError`), carry
  the ``theorycheck-sweep-store`` stamp of this schema (else :class:`ForeignStoreError`),
  and pass ``PRAGMA quick_check`` (else :class:`CorruptStoreError`);
* on :meth:`bind` (called by ``run_sweep``): the stored sweep identity (entropy, code
  version, trial function) must equal the requested one (else ``ForeignStoreError``),
  and every row must pass its SHA-256 checksum and have the key its content implies
  (else ``CorruptStoreError``).

The contract every store keeps, its errors and the in-memory store are in
:mod:`theorycheck.sweep.store_contract` (re-exported here).

Both errors are ``ValueError`` subclasses whose message says what to do: use a new output
directory, or ``force_new=True`` (CLI ``--force-new``), which deletes the old file.
A new store file is built under a temporary name and renamed into place, so a crash
during creation never leaves a half-made ``trials.sqlite``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from theorycheck.jsonable import canonical_json
from theorycheck.seeding import SeedIdentity
from theorycheck.sweep.record import SweepIdentity, TrialRecord, trial_key
from theorycheck.sweep.store_contract import (
    CorruptStoreError,
    ForeignStoreError,
    MemoryStore,
    StoreError,
    TrialStore,
    UnboundStoreError,
    _sorted,
    _unbound,
)

STORE_FILENAME = "trials.sqlite"
STORE_FORMAT = "theorycheck-sweep-store"
STORE_SCHEMA = "1"

_SCHEMA_SQL = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE trials (
    key TEXT PRIMARY KEY, cell TEXT NOT NULL, resource TEXT NOT NULL,
    replicate INTEGER NOT NULL, params TEXT NOT NULL, seed TEXT NOT NULL,
    result TEXT NOT NULL, elapsed REAL NOT NULL, checksum TEXT NOT NULL
);
"""
_COLUMNS = "key, cell, resource, replicate, params, seed, result, checksum"

#: The store's public names, the contract's re-exported (theorycheck.sweep.store_contract).
__all__ = ["StoreError", "CorruptStoreError", "ForeignStoreError", "UnboundStoreError", "TrialStore",
           "MemoryStore", "SqliteStore", "open_store", "STORE_FILENAME"]


def _advice(path: Path) -> str:
    return (
        f"use a new output directory, or pass force_new=True (CLI: --force-new) to delete "
        f"{str(path)!r} and start afresh"
    )


def _checksum(row: tuple[Any, ...]) -> str:
    return hashlib.sha256("\0".join(str(v) for v in row).encode()).hexdigest()


class SqliteStore:
    """Trials in ``<directory>/trials.sqlite`` (see module docstring for the guarantees)::

        with SqliteStore("runs/exp1") as store:       # creates runs/exp1/ if missing
            run_sweep(cells, trial, entropy=1, store=store)

    ``records()`` lists everything stored (sorted by cell, resource, replicate), e.g.
    for a report; ``len(store)`` counts it.
    """

    def __init__(self, directory: str | os.PathLike[str], *, force_new: bool = False) -> None:
        directory = Path(directory)
        if directory.exists() and not directory.is_dir():
            raise ValueError(
                f"store directory {str(directory)!r} exists and is not a directory; "
                "pass a directory path (it is created if missing)"
            )
        self.path = directory / STORE_FILENAME
        try:
            directory.mkdir(parents=True, exist_ok=True)
            if force_new:
                for suffix in ("", "-wal", "-shm", "-journal"):
                    with contextlib.suppress(FileNotFoundError):
                        os.remove(f"{self.path}{suffix}")
            if not self.path.exists():
                self._create()
        except (OSError, sqlite3.Error) as exc:
            raise ValueError(
                f"cannot create the sweep store {str(self.path)!r} ({exc}); "
                "choose a writable output directory"
            ) from None
        self._conn = self._open_checked()
        self._keys: set[str] | None = None
        self.identity: SweepIdentity | None = None

    # -- opening ------------------------------------------------------------------
    def _create(self) -> None:
        tmp = self.path.with_name(f"{STORE_FILENAME}.creating-{os.getpid()}")
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)
        conn = sqlite3.connect(tmp)
        try:
            conn.executescript(_SCHEMA_SQL)
            conn.executemany(
                "INSERT INTO meta VALUES (?, ?)", [("format", STORE_FORMAT), ("schema", STORE_SCHEMA)]
            )
            conn.commit()
        finally:
            conn.close()
        os.replace(tmp, self.path)

    def _open_checked(self) -> sqlite3.Connection:
        path = self.path
        if path.stat().st_size == 0:
            raise CorruptStoreError(f"store {str(path)!r} is an empty file; {_advice(path)}")
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=30.0)
        try:
            try:
                meta = dict(conn.execute("SELECT name, value FROM meta").fetchall())
            except sqlite3.OperationalError as exc:
                if "no such table" not in str(exc):
                    raise
                raise ForeignStoreError(
                    f"{str(path)!r} is an SQLite file but not a theorycheck sweep store "
                    f"({exc}); {_advice(path)}"
                ) from None
            if meta.get("format") != STORE_FORMAT:
                raise ForeignStoreError(
                    f"{str(path)!r} is not a theorycheck sweep store (format "
                    f"{meta.get('format')!r}); {_advice(path)}"
                )
            if meta.get("schema") != STORE_SCHEMA:
                raise ForeignStoreError(
                    f"store {str(path)!r} has schema {meta.get('schema')!r}, this theorycheck "
                    f"reads schema {STORE_SCHEMA!r}; {_advice(path)}"
                )
            check = [row[0] for row in conn.execute("PRAGMA quick_check").fetchall()]
            if check != ["ok"]:
                raise CorruptStoreError(
                    f"store {str(path)!r} is damaged ({'; '.join(check[:3])}); {_advice(path)}"
                )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise CorruptStoreError(
                f"store {str(path)!r} is unreadable ({exc}); {_advice(path)}"
            ) from None
        except StoreError:
            conn.close()
            raise
        return conn

    # -- identity and verification ---------------------------------------------------
    def bind(self, identity: SweepIdentity) -> None:
        """Stamp an unclaimed store with ``identity`` or check that it matches; verify rows."""
        meta = dict(self._conn.execute("SELECT name, value FROM meta").fetchall())
        if "identity" not in meta:
            with self._conn:
                self._conn.execute(
                    "INSERT INTO meta VALUES ('identity', ?)", (canonical_json(identity.to_dict()),)
                )
        else:
            stored = json.loads(meta["identity"])
            if stored != identity.to_dict():
                diffs = "; ".join(
                    f"{name}: stored {stored.get(name)!r}, requested {value!r}"
                    for name, value in identity.to_dict().items()
                    if stored.get(name) != value
                )
                if stored.get("code_version") != identity.code_version:  # say what the version covers
                    diffs += (" -- the simulation code changed since: theorycheck's, or the task's own "
                              "files (a trial defined outside theorycheck: its file and the modules it imports from its folder)")
                raise ForeignStoreError(
                    f"store {str(self.path)!r} was written by a different sweep ({diffs}); "
                    f"{_advice(self.path)}"
                )
        self._keys = self._verify_rows(identity)
        self.identity = identity

    def _verify_rows(self, identity: SweepIdentity) -> set[str]:
        keys: set[str] = set()
        try:
            for row in self._conn.execute(f"SELECT {_COLUMNS} FROM trials"):
                record = self._decode(row)
                if trial_key(identity, record.cell, record.params, record.seed) != record.key:
                    raise CorruptStoreError(
                        f"store {str(self.path)!r}: row {record.key[:12]} does not match its "
                        f"content; {_advice(self.path)}"
                    )
                keys.add(record.key)
        except sqlite3.DatabaseError as exc:
            raise CorruptStoreError(
                f"store {str(self.path)!r} is unreadable ({exc}); {_advice(self.path)}"
            ) from None
        return keys

    def _decode(self, row: tuple[Any, ...]) -> TrialRecord:
        key, cell, resource, replicate, params, seed, result, checksum = row
        if _checksum(row[:-1]) != checksum:
            raise CorruptStoreError(
                f"store {str(self.path)!r}: row {str(key)[:12]} fails its checksum; "
                f"{_advice(self.path)}"
            )
        seed_dict = json.loads(seed)
        return TrialRecord(
            key=key,
            cell=cell,
            resource=json.loads(resource),
            replicate=int(replicate),
            params=json.loads(params),
            seed=SeedIdentity(seed_dict["entropy"], tuple(seed_dict["spawn_key"])),
            result=json.loads(result),
        )

    # -- access ---------------------------------------------------------------------
    def _require_bound(self) -> set[str]:
        if self._keys is None:
            raise _unbound("SqliteStore")
        return self._keys

    def get(self, key: str) -> TrialRecord | None:
        if key not in self._require_bound():
            return None
        row = self._conn.execute(f"SELECT {_COLUMNS} FROM trials WHERE key = ?", (key,)).fetchone()
        return None if row is None else self._decode(row)

    def put(self, record: TrialRecord, elapsed: float = 0.0) -> None:
        """Commit one record (its own transaction: durable as soon as this returns)."""
        keys = self._require_bound()
        row = (
            record.key,
            record.cell,
            canonical_json(record.resource),
            record.replicate,
            canonical_json(record.params),
            canonical_json(record.seed.to_dict()),
            canonical_json(record.result),
        )
        with self._conn:
            self._conn.execute(
                "INSERT OR IGNORE INTO trials VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (*row, float(elapsed), _checksum(row)),
            )
        keys.add(record.key)

    def records(self) -> list[TrialRecord]:
        """All records, sorted by (cell, resource, replicate)."""
        rows = self._conn.execute(f"SELECT {_COLUMNS} FROM trials").fetchall()
        return _sorted(self._decode(row) for row in rows)

    def __len__(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM trials").fetchone()[0])

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_store(
    directory: str | os.PathLike[str] | None, *, force_new: bool = False
) -> TrialStore:
    """``SqliteStore(directory)``, or a ``MemoryStore`` when ``directory`` is None."""
    if directory is None:
        if force_new:
            raise ValueError("force_new=True needs a store directory; an in-memory store is always new")
        return MemoryStore()
    return SqliteStore(directory, force_new=force_new)
