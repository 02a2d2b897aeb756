"""Trial store: corrupted and foreign stores are refused with a specific error, never trusted."""

from __future__ import annotations

import sqlite3

import pytest

from theorycheck.sweep import (
    CellSpec,
    CorruptStoreError,
    ForeignStoreError,
    MemoryStore,
    SqliteStore,
    StoreError,
    code_version,
    open_store,
    run_sweep,
)
from theorycheck.planted import planted_trial
from theorycheck.sweep.store import STORE_FILENAME
from theorycheck.sweep.version import source_digest


import sweep_script as support  # noqa: E402  (tests/ is on sys.path: pytest's prepend import mode)


def sweep_into(store, *, entropy=support.ENTROPY, code_version=support.CODE_VERSION, trial_id=None):
    return run_sweep(
        support.make_cells(), planted_trial, entropy=entropy, store=store,
        code_version=code_version, trial_id=trial_id,
    )


@pytest.fixture
def filled(tmp_path):
    """A directory holding a complete, cleanly closed store; returns (dir, n_records)."""
    with SqliteStore(tmp_path) as store:
        sweep = sweep_into(store)
        n = len(store)
    assert n == sweep.computed > 100  # several SQLite pages, so truncation cuts real data
    return tmp_path, n


def test_store_file_and_reopen(filled):
    directory, n = filled
    assert (directory / STORE_FILENAME).is_file()
    with SqliteStore(directory) as store:
        store.bind(sweep_identity())
        assert len(store) == n == len(store.records())


def sweep_identity():
    from theorycheck.sweep import SweepIdentity, describe_trial

    return SweepIdentity(support.ENTROPY, support.CODE_VERSION, describe_trial(planted_trial))


@pytest.mark.parametrize(
    ("change", "what"),
    [
        ({"entropy": support.ENTROPY + 1}, "entropy"),
        ({"code_version": "0.0.0+other"}, "code_version"),
        ({"trial_id": "somebody.else:trial"}, "trial"),
    ],
)
def test_store_of_another_sweep_is_foreign(filled, change, what):
    directory, _ = filled
    with SqliteStore(directory) as store, pytest.raises(ForeignStoreError) as info:
        sweep_into(store, **change)
    message = str(info.value)
    assert "different sweep" in message and what in message
    assert "new output directory" in message and "--force-new" in message


def test_force_new_discards_a_foreign_store(filled):
    directory, n = filled
    with SqliteStore(directory, force_new=True) as store:
        sweep = sweep_into(store, entropy=1)
        assert sweep.reused == 0 and len(store) == sweep.computed


def test_sqlite_file_of_someone_else_is_foreign(tmp_path):
    conn = sqlite3.connect(tmp_path / STORE_FILENAME)
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(ForeignStoreError, match="not a theorycheck sweep store"):
        SqliteStore(tmp_path)


def test_store_with_other_format_stamp_is_foreign(filled):
    directory, _ = filled
    conn = sqlite3.connect(directory / STORE_FILENAME)
    conn.execute("UPDATE meta SET value = 'schema-from-the-future' WHERE name = 'schema'")
    conn.commit()
    conn.close()
    with pytest.raises(ForeignStoreError, match="schema"):
        SqliteStore(directory)


@pytest.mark.parametrize("damage", ["text", "empty", "truncated", "garbled-page"])
def test_damaged_store_file_is_corrupt(filled, damage):
    directory, _ = filled
    path = directory / STORE_FILENAME
    data = path.read_bytes()
    if damage == "text":
        path.write_text("this is not a database\n" * 20)
    elif damage == "empty":
        path.write_bytes(b"")
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    else:  # overwrite 512 bytes in the middle of the file
        mid = len(data) // 2
        path.write_bytes(data[:mid] + b"\xa5" * 512 + data[mid + 512 :])
    with pytest.raises(CorruptStoreError) as info:
        SqliteStore(directory)
    assert str(path) in str(info.value) and "--force-new" in str(info.value)


def test_edited_row_fails_its_checksum(filled):
    directory, _ = filled
    conn = sqlite3.connect(directory / STORE_FILENAME)
    changed = conn.execute(
        "UPDATE trials SET result = replace(result, '\"success\":false', '\"success\":true') "
        "WHERE key = (SELECT key FROM trials WHERE result LIKE '%\"success\":false%' LIMIT 1)"
    ).rowcount
    conn.commit()
    conn.close()
    assert changed == 1
    with SqliteStore(directory) as store, pytest.raises(CorruptStoreError, match="checksum"):
        sweep_into(store)


def test_row_moved_to_another_key_is_detected(filled):
    directory, _ = filled
    conn = sqlite3.connect(directory / STORE_FILENAME)
    # re-label one row's parameters and recompute its checksum: only the key check sees it
    from theorycheck.sweep.store import _checksum

    row = conn.execute(
        "SELECT key, cell, resource, replicate, params, seed, result FROM trials LIMIT 1"
    ).fetchone()
    forged = (*row[:4], row[4].replace('"width":0.425', '"width":0.5'), *row[5:])
    assert forged != row
    conn.execute(
        "UPDATE trials SET params = ?, checksum = ? WHERE key = ?",
        (forged[4], _checksum(forged), row[0]),
    )
    conn.commit()
    conn.close()
    with SqliteStore(directory) as store, pytest.raises(CorruptStoreError, match="does not match"):
        sweep_into(store)


def test_store_errors_are_value_errors_and_bad_paths_rejected(tmp_path):
    assert issubclass(CorruptStoreError, StoreError) and issubclass(ForeignStoreError, ValueError)
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(ValueError, match="not a directory"):
        SqliteStore(a_file)
    with pytest.raises(ValueError, match="needs a store directory"):
        open_store(None, force_new=True)
    assert isinstance(open_store(None), MemoryStore)
    with open_store(tmp_path / "new" / "dir") as store:
        assert isinstance(store, SqliteStore)


def test_memory_store_refuses_a_second_sweep_identity():
    store = MemoryStore()
    sweep_into(store)
    with pytest.raises(ForeignStoreError, match="fresh MemoryStore"):
        sweep_into(store, entropy=3)


def test_creation_leaves_no_temporary_file(tmp_path):
    SqliteStore(tmp_path).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == [STORE_FILENAME]


def test_code_version_hashes_simulation_sources_only(tmp_path):
    pkg = tmp_path / "pkg"
    for rel in ("sim.py", "tasks/a.py", "cli/main.py", "sweep/engine.py", "report/x.py"):
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(f"# {rel}\n")
    base = source_digest(pkg)
    (pkg / "cli" / "main.py").write_text("# edited presentation\n")
    (pkg / "sweep" / "engine.py").write_text("# edited engine\n")
    assert source_digest(pkg) == base
    (pkg / "tasks" / "a.py").write_text("# edited simulation\n")
    assert source_digest(pkg) != base
    new = source_digest(pkg)
    (pkg / "tasks" / "b.py").write_text("")  # a new simulation module counts too
    assert source_digest(pkg) != new
    import theorycheck

    assert code_version().startswith(theorycheck.__version__ + "+")


def test_a_trial_outside_the_package_adds_the_digest_of_its_folder(tmp_path):
    # a user's task (--task file.py:NAME): editing the trial, or a helper beside it, must give
    # another code version, so that a store of the old code is refused rather than reused
    from theorycheck.sweep.version import trial_code_version
    from theorycheck.task_sources import FileTrial
    from theorycheck.threshold.per_seed_search import CriticalTrial

    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "tc_version_helpers.py").write_text("LIMIT = 3\n")
    (proj / "mine.py").write_text("import tc_version_helpers\n\n\ndef trial(params, seed):\n"
                                  "    return params['n'] > tc_version_helpers.LIMIT\n")
    assert trial_code_version(planted_trial) == code_version()  # the package's own trial
    first = trial_code_version(FileTrial(str(proj / "mine.py"), "trial"))
    assert first.startswith(code_version() + "+trial.")
    assert trial_code_version(FileTrial(str(proj / "mine.py"), "trial")) == first  # nothing changed
    assert trial_code_version(CriticalTrial(FileTrial(str(proj / "mine.py"), "trial"), "n")) == first
    (proj / "notes.py").write_text("print('a script of mine, not imported')\n")
    assert trial_code_version(FileTrial(str(proj / "mine.py"), "trial")) == first  # not the trial's code
    (proj / "tc_version_helpers.py").write_text("LIMIT = 4\n")  # a helper the trial imports
    assert trial_code_version(FileTrial(str(proj / "mine.py"), "trial")) != first
    solo = tmp_path / "solo"
    solo.mkdir()
    (solo / "alone.py").write_text("def trial(params, seed):\n    return params['n'] > 3\n")
    here = trial_code_version(FileTrial(str(solo / "alone.py"), "trial"))
    moved = solo.rename(tmp_path / "elsewhere")  # a moved project keeps its store
    assert trial_code_version(FileTrial(str(moved / "alone.py"), "trial")) == here


def test_a_module_with_a_relative_file_name_is_not_read_from_the_task_folder(tmp_path, monkeypatch):
    # torch registers torch._classes with __file__ = "_classes.py"; resolved against the
    # working folder (a user's project, where their task file is) it named a file that does
    # not exist, and `check --task file.py:NAME` failed with FileNotFoundError when torch
    # had been imported in the same process
    import sys
    import types

    from theorycheck.sweep.version import trial_code_version
    from theorycheck.task_sources import FileTrial

    (tmp_path / "mine.py").write_text("def trial(params, seed):\n    return params['n'] > 3\n")
    monkeypatch.chdir(tmp_path)
    before = trial_code_version(FileTrial(str(tmp_path / "mine.py"), "trial"))
    fake = types.ModuleType("tc_relative_file")
    fake.__file__ = "_relative_nowhere.py"
    monkeypatch.setitem(sys.modules, "tc_relative_file", fake)
    assert trial_code_version(FileTrial(str(tmp_path / "mine.py"), "trial")) == before


def test_store_is_usable_with_a_real_cell_after_reopen(filled):
    directory, n = filled
    extra = {"z": CellSpec({"threshold": 20, "width": 0.425}, "N", support.FakeBisection(8, 64))}
    with SqliteStore(directory) as store:
        sweep = run_sweep(extra, planted_trial, entropy=support.ENTROPY, store=store,
                          code_version=support.CODE_VERSION)
        assert sweep.reused == 0 and len(store) == n + sweep.computed


def test_uncreatable_directory_is_a_value_error(tmp_path):
    # (a read-only directory would be the natural case, but tests may run as root)
    (tmp_path / "plain-file").write_text("x")
    with pytest.raises(ValueError, match="writable output directory"):
        SqliteStore(tmp_path / "plain-file" / "out")
