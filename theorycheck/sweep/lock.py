"""One run per output directory: an advisory lock on ``<out>/.theorycheck.lock``.

Two ``theorycheck check`` runs on one ``--out`` used to run side by side (double work, one
store fed by both, the last writer's report wins; issue 12 item 6). A run now takes an
exclusive ``fcntl.flock`` on a lock file in its output directory before any work; a
second run finds it taken and stops with a one-line ``ValueError`` (exit 2 in the CLI)
naming the holder.

Why ``flock`` and not a pid file: the kernel releases a ``flock`` when the holder's last
descriptor closes -- on exit, on an exception, on SIGKILL, on a power cut of the process
-- so a dead run never leaves a stale lock behind, and no pid has to be trusted (pids
are reused). The file's content (pid, host, start time) is only there to make the
message useful; it is never used to decide. The file itself stays in place after
release: deleting it would race with a run that has just opened it (it could then hold
a lock on an unlinked file while a third run locks a new one).

The descriptor is opened close-on-exec (Python's default), so programs the run starts do
not inherit it. Where ``fcntl`` does not exist (Windows) the lock is not enforced;
:attr:`OutLock.enforced` says so. ``flock`` on network file systems is only as good as
the server's lock support (Linux NFS maps it to POSIX byte-range locks).

The same ``flock`` also serialises appends to one file (:func:`appending`): there the
second writer waits its turn, since a hold lasts one row.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["LOCK_NAME", "OutLock", "appending", "hold_out_lock", "lock_out", "release_all"]

#: Name of the lock file inside an output directory.
LOCK_NAME = ".theorycheck.lock"


class OutLock:
    """An exclusive lock on an output directory, held from :meth:`acquire` until
    :meth:`release` or the end of the process (whichever comes first).

    ``name``: the lock file's name in ``directory``; ``subject``, ``advice`` and
    ``unwritable``: what the refusals call the locked thing and what they tell the user to
    do when it is taken and when the lock file cannot be made (defaults: the output
    directory and ``--out``; the bench line scripts lock one rows file each with them).
    """

    def __init__(self, directory: str | os.PathLike[str], name: str = LOCK_NAME, *,
                 subject: str | None = None, advice: str = "choose another --out DIR",
                 unwritable: str = "choose a writable output directory with --out DIR") -> None:
        self.directory = Path(directory)
        self.path = self.directory / name
        self.subject = subject or f"output directory {str(self.directory)!r}"
        self.advice, self.unwritable = advice, unwritable
        self.enforced = fcntl is not None
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> OutLock:
        """Take the lock without waiting; ValueError (one line) when another live run holds it."""
        if self._fd is not None:
            raise ValueError(f"the lock on {str(self.directory)!r} is already held by this OutLock")
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise ValueError(
                f"cannot create the lock file {str(self.path)!r} ({exc.strerror or exc}); "
                f"{self.unwritable}"
            ) from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # BlockingIOError: held by another open file description
                holder = _read_holder(fd)
                os.close(fd)
                raise ValueError(
                    f"{self.subject} is in use by another theorycheck run "
                    f"({holder}); wait for it to finish, or {self.advice}"
                ) from None
        os.ftruncate(fd, 0)
        stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        os.write(fd, f"pid {os.getpid()} on {socket.gethostname()}, started {stamp}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        """Give the lock back (closing the descriptor releases the ``flock``); idempotent."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self) -> OutLock:
        return self.acquire() if self._fd is None else self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def __del__(self) -> None:
        self.release()


def _read_holder(fd: int) -> str:
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text.splitlines()[0] if text else "holder unknown"


#: Locks taken by :func:`lock_out`, kept referenced so that they stay held until exit.
_HELD: dict[Path, OutLock] = {}


def lock_out(directory: str | os.PathLike[str]) -> OutLock:
    """Lock ``directory`` until :func:`release_all` or the end of this process (the CLI takes
    it in ``prepare_out``; ``run_command`` releases it when the command ends); ValueError if
    another live run holds it. Locking a directory this process already holds is a no-op."""
    key = Path(directory).resolve()
    if key not in _HELD or not _HELD[key].held:
        _HELD[key] = OutLock(directory).acquire()
    return _HELD[key]


def held() -> list[Path]:
    """The output directories whose locks this process holds (taken by :func:`lock_out`)."""
    return list(_HELD)


def release_all() -> None:
    """Release every lock taken by :func:`lock_out` (the end of a CLI command)."""
    while _HELD:
        _HELD.popitem()[1].release()


@contextlib.contextmanager
def hold_out_lock(directory: str | os.PathLike[str]) -> Iterator[OutLock]:
    """``with hold_out_lock(out): ...`` -- the lock for the duration of a block."""
    with OutLock(directory) as lock:
        yield lock


@contextlib.contextmanager
def appending(path: str | os.PathLike[str]) -> Iterator[TextIO]:
    """``with appending(path) as handle: ...`` -- ``path`` opened for appending text under an
    exclusive ``flock`` that is held, waiting for it if need be, until the block ends.

    Runs that append to one file side by side (two ``simulate --rows`` on one rows file, the
    bench line scripts' workers) then take turns: inside the block ``handle.tell() == 0``
    says the file is new, so exactly one of them writes its header (without the lock two
    runs that finished together could both find it empty and both write one). A hold lasts
    one append, so waiting is the right answer here, where :class:`OutLock` refuses."""
    with open(path, "a", newline="", encoding="utf-8") as handle:
        if fcntl is not None:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        handle.seek(0, os.SEEK_END)
        yield handle  # closing the file releases the lock
