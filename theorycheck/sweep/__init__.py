"""Sweep engine: many ask/tell searches, any executor, an on-disk trial store, progress.

Public API (see each module's docstring):

* :func:`run_sweep` (:mod:`.engine`) with :class:`CellSpec`, returning :class:`SweepResult`;
* stores (:mod:`.store`): :class:`MemoryStore` (default), :class:`SqliteStore`,
  :func:`open_store`, the :class:`TrialStore` protocol, errors :class:`StoreError`,
  :class:`CorruptStoreError`, :class:`ForeignStoreError`, :class:`UnboundStoreError`
  (all ``ValueError``);
* :func:`make_executor` (:mod:`.executors`): serial / process pool / dask;
* progress (:mod:`.progress`): :class:`NullProgress`, :class:`TerminalProgress`,
  :func:`format_progress`, :class:`SweepState`;
* identity (:mod:`theorycheck.seeding`, :mod:`.record`, :mod:`.version`): :func:`trial_seed`,
  :class:`TrialRecord`, :class:`SweepIdentity`, :func:`code_version`;
* the known-answer synthetic trial is :func:`theorycheck.planted.planted_trial`.
"""

from theorycheck.sweep.cells import CellSpec, SearchLike, describe_trial
from theorycheck.sweep.engine import SweepResult, TrialError, run_sweep
from theorycheck.sweep.executors import make_executor
from theorycheck.sweep.progress import (
    NullProgress,
    ProgressReporter,
    SweepState,
    TerminalProgress,
    format_progress,
)
from theorycheck.sweep.record import SweepIdentity, TrialRecord, trial_key
from theorycheck.seeding import SeedIdentity, normalise_resource, trial_seed
from theorycheck.sweep.store import (
    CorruptStoreError,
    ForeignStoreError,
    MemoryStore,
    SqliteStore,
    StoreError,
    TrialStore,
    UnboundStoreError,
    open_store,
)
from theorycheck.sweep.version import code_version

__all__ = [
    "CellSpec",
    "CorruptStoreError",
    "ForeignStoreError",
    "MemoryStore",
    "NullProgress",
    "ProgressReporter",
    "SearchLike",
    "SeedIdentity",
    "SqliteStore",
    "StoreError",
    "SweepIdentity",
    "SweepResult",
    "SweepState",
    "TerminalProgress",
    "TrialError",
    "TrialRecord",
    "TrialStore",
    "UnboundStoreError",
    "code_version",
    "describe_trial",
    "format_progress",
    "make_executor",
    "normalise_resource",
    "open_store",
    "run_sweep",
    "trial_key",
    "trial_seed",
]
